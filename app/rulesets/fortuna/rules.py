"""Fortuna's rules: setup, the strict turn order (phases 1-5), action cards, favour cards,
privileges, the end of the round, the 2-player rule and the palace race.

The state is plain JSON. `apply_move` copies it, runs one move and then every automatic step
that follows (aqueduct water, flipping the face-down card, rolling the dice, drawing privilege
cards, the end of the round) until a player owes a decision. All chance comes from `state["rng"]`.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import data

State = dict[str, Any]
Move = dict[str, Any]

# The tables the move listing reads on every move, bound once (a module global is found faster
# than an attribute of `data`). PRIVILEGES stays `data.PRIVILEGES`: a test swaps that table.
ACTIONS = data.ACTIONS
FAVOURS = data.FAVOURS
BUILDINGS = data.BUILDINGS
LIMITS = data.LIMITS
PALACE_STEP = data.PALACE_STEP
MAX_ROUNDS = data.MAX_ROUNDS
SLOT_PRICES = data.SLOT_PRICES

SIDES = 4
PRIVILEGE_STEPS = frozenset({"play", "exchange", "military", "favour", "flip", "wrap"})
STEP_WORDS = {
    "play": "choose one of the three action cards in front of you and execute it or not (phase 2)",
    "exchange": "exchange the card you chose for a face-up action card on another side of the board (phase 2)",
    "military": "give up your top Centurion to play another face-up card of yours, or skip (phase 3, military power)",
    "favour": "use one face-up favour card up to your highest die, or decline (phase 4, the Emperor's favour)",
    "flip": "flip over one more favour card without tokens (2-player rule)",
    "keep": "choose which of the privilege cards you drew to keep (phase 5)",
    "palace": "choose your privilege card at Caesar's palace",
    "wrap": "use a privilege card or end your turn",
}


def clone_state(s: State) -> State:
    """A copy of a game state that a move may edit freely (every mutable part copied, by shape:
    several times faster than a generic deep copy). `opts`, `out` and `last` are never edited."""
    t = dict(s)
    t["sides"] = [[dict(slot) for slot in row] for row in s["sides"]]
    t["fav"] = [dict(f) for f in s["fav"]]
    t["piles"] = dict(s["piles"])
    t["order"] = list(s["order"])
    t["dice"] = None if s["dice"] is None else list(s["dice"])
    t["deck"] = list(s["deck"])
    t["discard"] = [dict(d) for d in s["discard"]]
    t["known"] = [list(k) for k in s["known"]]
    t["fresh"] = list(s["fresh"])
    t["choice"] = None if s["choice"] is None else dict(s["choice"], cards=list(s["choice"]["cards"]))
    pc = s["palace_choice"]
    t["palace_choice"] = None if pc is None else dict(pc, cards=list(pc["cards"]))
    t["palace"] = {"cards": list(s["palace"]["cards"]), "seen": list(s["palace"]["seen"]),
                   "taken": [dict(x) for x in s["palace"].get("taken", [])]}
    t["arrivals"] = list(s["arrivals"])
    t["ev"] = list(s["ev"])
    t["p"] = [dict(pl, bld=list(pl["bld"]), hand=list(pl["hand"])) for pl in s["p"]]
    return t


def clone(x: Any) -> Any:
    """A deep copy of plain JSON data (faster than copy.deepcopy)."""
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) for v in x]
    return x


# ----------------------------------------------------------------------------- setup

def new_player() -> dict[str, Any]:
    """A province at the start: 5 money, 1 grain, water, wine, die, Vestal and Centurion."""
    st = data.START
    return {"pos": 0, "money": st["money"], "grain": st["grain"], "water": st["water"],
            "wine": st["wine"], "aq": None, "aq_round": 0, "dice": st["dice"],
            "vestals": st["vestals"], "cent": st["centurions"], "bld": [], "married": False,
            "hand": []}


def setup_state(n: int, opts: dict[str, Any], seed: int) -> State:
    """Deal the action cards (3 per side, one face down in front of each player), shuffle the
    privilege deck (without the 4-pawn cards with 2-3 players), set the start-player track."""
    rng = Rng.from_seed(seed, "fortuna")
    order = rng.shuffled(list(range(n)))
    cards = rng.shuffled([row["id"] for row in data.ACTION_ROWS])
    sides = []
    for side in range(SIDES):
        row = [{"c": cards[side * 3 + j], "up": True, "pub": True} for j in range(3)]
        if side < n:
            row[2] = {"c": cards[side * 3 + 2], "up": False, "pub": False}
        sides.append(row)
    out = [r["id"] for r in data.PRIVILEGE_ROWS if r.get("four_pawns")] if n <= 3 else []
    deck = rng.shuffled([r["id"] for r in data.PRIVILEGE_ROWS if r["id"] not in out])
    copies = "copies_4p" if n == 4 else "copies_2_3p"
    s: State = {
        "n": n, "opts": dict(opts), "round": 1, "order": order, "turn": 0, "step": "play",
        "sides": sides, "chosen": None, "dice": None, "took": 0, "b_used": False,
        "fav": [{"used": False, "tokens": 0} for _ in range(6)],
        "supply": data.TOKENS_TOTAL - data.TOKENS_PALACE, "palace_tokens": data.TOKENS_PALACE,
        "piles": {b["id"]: b[copies] for b in data.BUILDING_ROWS},
        "deck": deck, "discard": [], "out": out, "known": [[] for _ in range(n)],
        "fresh": [0] * n, "fresh_palace": False,
        "choice": None, "palace": {"cards": [], "seen": [], "taken": []}, "palace_choice": None,
        "resume": None, "arrivals": [], "end": False,
        "p": [new_player() for _ in range(n)], "last": None, "rng": rng.state, "ev": [],
    }
    start_turn(s)
    s["ev"] = []
    return s


def active(s: State) -> int | None:
    """The seat whose turn it is (None once the game is over)."""
    return None if s["step"] == "over" else s["order"][s["turn"]]


# ----------------------------------------------------------------------------- the turn flow

def start_turn(s: State) -> None:
    """Phase 1 (water from an Aqueduct built in an earlier round, if empty) and the flip of the
    face-down action card that opens phase 2."""
    seat = s["order"][s["turn"]]
    pl = s["p"][seat]
    s["chosen"] = None
    s["dice"] = None
    s["took"] = 0
    s["b_used"] = False
    if pl["aq"] == 0 and pl["aq_round"] < s["round"]:
        pl["aq"] = 1
        s["ev"].append({"k": "aqueduct", "seat": seat})
    for slot in s["sides"][seat]:
        if not slot["up"]:
            slot["up"] = slot["pub"] = True
            s["ev"].append({"k": "flip_action", "seat": seat, "card": slot["c"]})
    s["step"] = "play"


def proceed(s: State, nxt: str) -> None:
    """Go on to step `nxt`, unless a palace arrival must be settled first."""
    if s["palace_choice"] is not None:
        s["resume"] = nxt
        s["step"] = "palace"
        return
    enter(s, nxt)


def enter(s: State, step: str) -> None:
    """Enter a step, running it at once when it needs no decision (and so on down the turn:
    military -> roll, flip2 -> privilege -> wrap -> the end of the turn)."""
    if step not in _CHAINED:  # a decision (exchange, play...): nothing runs by itself
        s["step"] = step
        return
    seat = s["order"][s["turn"]]  # the active seat: the game is not over while a step is entered
    pl = s["p"][seat]
    if step == "military":
        mine = s["sides"][seat]
        if pl["cent"] > 0 and (mine[0]["up"] or mine[1]["up"] or mine[2]["up"]):
            s["step"] = "military"
            return
        step = "roll"
    if step == "roll":
        rng = Rng(s["rng"])
        dice = [rng.below(6) + 1 for _ in range(pl["dice"])]  # randint(1, 6), one call less
        s["dice"] = dice
        s["rng"] = rng.state
        s["ev"].append({"k": "roll", "seat": seat, "dice": list(dice)})
        s["step"] = "favour"
        return
    if step == "flip2":
        if (s["n"] == 2 and s["opts"].get("two_player_flip", True) and seat == s["order"][0]
                and flippable(s)):
            s["step"] = "flip"
            return
        step = "privilege"
    if step == "privilege":
        took, s["took"] = s["took"], 0
        if took:
            drawn = draw(s, took, seat)
            keep = 2 if "basilica" in pl["bld"] and took >= 2 else 1
            s["ev"].append({"k": "draw", "seat": seat, "n": len(drawn), "keep": min(keep, len(drawn))})
            if len(drawn) > keep:
                s["choice"] = {"seat": seat, "cards": drawn, "keep": keep}
                s["step"] = "keep"
                return
            pl["hand"] = sorted(pl["hand"] + drawn)
            s["fresh"][seat] += len(drawn)
        step = "wrap"
    if step == "wrap":
        if usable_privileges(s, seat):
            s["step"] = "wrap"
        else:
            end_turn(s)
        return
    s["step"] = step


_CHAINED = frozenset({"military", "roll", "flip2", "privilege", "wrap"})  # the steps enter may run


def end_turn(s: State) -> None:
    """The next player on the start-player track, or the end of the round."""
    s["turn"] += 1
    s["chosen"] = None
    s["dice"] = None
    if s["turn"] < s["n"]:
        start_turn(s)
    else:
        end_round(s)


def end_round(s: State) -> None:
    """RB-F End of the Game Round: new start-player order (the Fortuna card's holder, then by
    money, ties by clockwise distance from the start player); a token on each unused favour card
    (at most 3, while the supply lasts); used favour cards turned back. After a palace arrival
    (or the round guard) the game ends instead."""
    if s["end"] or s["round"] >= MAX_ROUNDS:
        s["step"] = "over"
        s["ev"].append({"k": "game_over"})
        return
    n = s["n"]
    holder = None
    for side in range(n):
        row = s["sides"][side]
        if row[0]["c"] == "fortuna" or row[1]["c"] == "fortuna" or row[2]["c"] == "fortuna":
            holder = side
            break
    start = holder if holder is not None else s["order"][0]
    players = s["p"]
    # (money, distance, seat) tuples: the distances differ, so the seat never breaks a tie
    ranked = sorted([(-players[seat]["money"], (seat - start) % n, seat)
                     for seat in range(n) if seat != holder])
    s["order"] = ([holder] if holder is not None else []) + [r[2] for r in ranked]
    most = LIMITS["tokens_per_favour"]
    for fav in s["fav"]:
        if not fav["used"] and fav["tokens"] < most and s["supply"] > 0:
            fav["tokens"] += 1
            s["supply"] -= 1
        fav["used"] = False
    s["round"] += 1
    s["turn"] = 0
    s["ev"].append({"k": "round", "round": s["round"], "order": list(s["order"])})
    start_turn(s)


# ----------------------------------------------------------------------------- privileges

def draw(s: State, k: int, seat: int) -> list[str]:
    """Up to k cards from the top of the privilege deck for `seat`, reshuffling the discards when
    it runs out; when both are empty no more cards come (RB-F). Only the drawer sees them, so
    only its knowledge of the deck changes (the others saw a card leave, not which)."""
    out: list[str] = []
    for _ in range(k):
        if not s["deck"]:
            reshuffle(s)
            if not s["deck"]:
                break
        card = s["deck"].pop()
        out.append(card)
    if out:
        known = s["known"][seat]
        known[:] = [c for c in known if c not in out]
    return out


def reshuffle(s: State) -> None:
    """The discard pile becomes the new face-down deck (the deck is empty: cards being drawn stay
    in the drawer's hand, NOTES D15). Each seat now knows which of its own and of the face-up
    discards are in it, though not where; what it knew of the old deck no longer says anything.
    No card in a hand or on the palace table came from the new deck yet (`fresh`)."""
    if not s["discard"]:
        return
    # No generator expressions in the functions that run during play: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    for seat in range(s["n"]):
        s["known"][seat] = sorted([d["c"] for d in s["discard"] if d["up"] or d["by"] == seat])
    s["fresh"] = [0] * s["n"]
    s["fresh_palace"] = False
    rng = Rng(s["rng"])
    s["deck"] = rng.shuffled([d["c"] for d in s["discard"]])
    s["rng"] = rng.state
    s["discard"] = []
    s["ev"].append({"k": "reshuffle", "n": len(s["deck"])})


def usable_privileges(s: State, seat: int) -> list[str]:
    """Privilege cards A (any time in your turn) and B (once per turn, not at the palace)."""
    pl = s["p"][seat]
    out: list[str] = []
    hand = pl["hand"]
    if not hand:
        return out
    kinds = _PLAYABLE if _PLAYABLE[0] is data.PRIVILEGES else _playable_kinds()
    if kinds[3].isdisjoint(hand):  # random games hoard C cards: one pass in C, no loop here
        return out
    a_cards, b_cards = kinds[1], kinds[2]
    b_ok = not s["b_used"] and pl["pos"] < PALACE_STEP
    for card in hand:
        if card in a_cards or (b_ok and card in b_cards):
            out.append(card)
    return out


def _playable_kinds() -> list[Any]:
    """The ids of the privilege cards A, B and both of `data.PRIVILEGES`, worked out again
    whenever that table is another object (a test swaps it); any other card is a C card."""
    table = data.PRIVILEGES
    a_cards = frozenset(c for c, row in table.items() if row["cls"] == "A")
    b_cards = frozenset(c for c, row in table.items() if row["cls"] == "B")
    _PLAYABLE[:] = [table, a_cards, b_cards, a_cards | b_cards]
    return _PLAYABLE


_PLAYABLE: list[Any] = [None, frozenset(), frozenset(), frozenset()]  # [table, A, B, A or B]


def use_privilege(s: State, seat: int, card: str) -> None:
    """Play a privilege card A (resources) or B (one step); it is discarded face up."""
    pl = s["p"][seat]
    row = data.PRIVILEGES[card]
    pl["hand"].remove(card)
    s["discard"].append({"c": card, "up": True, "by": seat})
    for known in s["known"]:  # everyone sees it: it is not in the deck
        if card in known:
            known.remove(card)
    if s["fresh"][seat] > len(pl["hand"]):  # which card left is secret: count the least possible
        s["fresh"][seat] = len(pl["hand"])
    if row["cls"] == "A":
        for res, amount in row["gain"].items():
            gain(pl, res, amount)
    else:
        s["b_used"] = True
        move_pawn(s, seat, 1)


def gain(pl: dict[str, Any], res: str, amount: int) -> None:
    """Add resources; Centurions and Vestals stop at 3 (the surplus is lost)."""
    key = {"centurions": "cent"}.get(res, res)
    cap = {"cent": LIMITS["centurions"], "vestals": LIMITS["vestals"]}.get(key)
    pl[key] = min(cap, pl[key] + amount) if cap else pl[key] + amount


def add_money(pl: dict[str, Any], amount: int) -> None:
    """Money stops at 20 (RB-F); anything beyond is lost."""
    pl["money"] = min(LIMITS["money"], pl["money"] + amount)


def move_pawn(s: State, seat: int, steps: int) -> None:
    """Move toward Rome (never past Caesar's palace at 15); arriving there starts the palace race."""
    pl = s["p"][seat]
    before = pl["pos"]
    pl["pos"] = min(PALACE_STEP, pl["pos"] + steps)
    if pl["pos"] != before:
        s["ev"].append({"k": "step", "seat": seat, "n": pl["pos"] - before, "pos": pl["pos"]})
    if pl["pos"] == PALACE_STEP and seat not in s["arrivals"]:
        arrive(s, seat)


def arrive(s: State, seat: int) -> None:
    """RB-F The End of the Game: the first to reach the palace takes its 3 tokens and the top 3
    privilege cards, keeps one and leaves two face down; later arrivals choose from what is left.
    The round is then finished and the game ends (the Basilica has no effect here)."""
    s["arrivals"].append(seat)
    s["end"] = True
    s["ev"].append({"k": "palace", "seat": seat, "place": len(s["arrivals"])})
    if len(s["arrivals"]) == 1:
        s["supply"] += s["palace_tokens"]
        s["palace_tokens"] = 0
        offered = draw(s, data.TOKENS_PALACE, seat)
        s["fresh_palace"] = True  # drawn from the deck now in play
    else:
        offered = s["palace"]["cards"]
        s["palace"]["cards"] = []
        known = s["known"][seat]  # the later arrival sees the cards left on the table
        known[:] = [c for c in known if c not in offered]
    if len(offered) > 1:
        s["palace_choice"] = {"seat": seat, "cards": offered}
    else:
        s["p"][seat]["hand"] = sorted(s["p"][seat]["hand"] + offered)
        s["fresh"][seat] += len(offered) if s["fresh_palace"] else 0
        if offered and len(s["arrivals"]) > 1:
            note_taken(s, seat, offered[0])


def note_taken(s: State, seat: int, card: str) -> None:
    """Remember which table card a later arrival took: the earlier arrivals saw those cards, so
    they know it is in that hand (determinize keeps it there)."""
    s["palace"].setdefault("taken", []).append(
        {"seat": seat, "card": card, "seen": list(s["palace"]["seen"])})


# ----------------------------------------------------------------------------- action cards

def water_total(pl: dict[str, Any]) -> int:
    """Water in the reservoir and on the Aqueduct."""
    return pl["water"] + (pl["aq"] or 0)


def spend_water(pl: dict[str, Any], k: int) -> None:
    """Spend water, the Aqueduct's first (it refills only when empty)."""
    if k and pl["aq"]:
        pl["aq"] -= 1
        k -= 1
    pl["water"] -= k


def slot_cost(what: str, have: int, k: int) -> int:
    """The price of the next k slots (province board: 1, 2, 3)."""
    return sum(SLOT_PRICES[what][have:have + k])  # a slice, not a generator: called per listing


def card_args(s: State, seat: int, card: str, bribe: bool = True) -> list[dict[str, Any]]:
    """Every way to execute action card `card` now (an empty list: it cannot be executed)."""
    row = ACTIONS[card]
    pl = s["p"][seat]
    eff = row["effect"]
    if eff == "harvest":
        most = pl["water"] + (pl["aq"] or 0)  # water_total, inline: this runs on every listing
        if row["max_water"] < most:
            most = row["max_water"]
        # a slice: no range() on every listing (and, like range, nothing below zero)
        return [{"water": w} for w in _UNITS[:most + 1]] if most >= 0 else []
    if eff == "water":
        return [{}]
    if eff == "trade":
        return [{"n": k} for k in range(1, pl[row["resource"]] + 1)]
    if eff == "recruit":
        key = "cent" if row["what"] == "centurions" else "vestals"
        room = min(row["max_per_action"], LIMITS[row["what"]] - pl[key])
        return [{"n": k} for k in _UNITS[1:room + 1]
                if slot_cost(row["what"], pl[key], k) <= pl["money"]] if room > 0 else []
    if eff == "clerus":
        return [{}] if pl["vestals"] > 0 and pl["dice"] < LIMITS["dice"] else []
    if eff == "build":
        return [{"b": b} for b in buildable(s, seat)]
    if eff == "marry":
        return [{}] if not pl["married"] and pl["money"] >= row["cost"] else []
    if eff == "bribe":
        if not bribe or pl["money"] < row["cost"]:
            return []
        out = []
        for side in range(s["n"]):
            if side == seat:
                continue
            for j, slot in enumerate(s["sides"][side]):
                if slot["up"] and ACTIONS[slot["c"]]["effect"] != "bribe":
                    # the fee is paid first, so the bribed card is judged with the fee taken
                    # (a temporary change, undone below: legal_moves never alters its input)
                    pl["money"] -= row["cost"]
                    try:
                        inner = card_args(s, seat, slot["c"], bribe=False)
                    finally:
                        pl["money"] += row["cost"]
                    out += [{"side": side, "slot": j, "args": a} for a in inner]
        return out
    if eff == "step":
        if row["not_start_player"] and s["order"][0] == seat:
            return []  # the card makes you start player or moves you, not both (NOTES)
        return [{}] if pl["pos"] < PALACE_STEP else []
    raise AssertionError(eff)


# 0, 1, 2... up to the most water a harvest spends and the most units a recruit takes
_UNITS = tuple(range(1 + max(max(row.get("max_water", 0), row.get("max_per_action", 0))
                             for row in ACTIONS.values())))


def buildable(s: State, seat: int) -> list[str]:
    """Buildings the player may buy: from the piles, at most 3, one of each type, paid in full,
    the Palace only once married."""
    pl = s["p"][seat]
    if len(pl["bld"]) >= LIMITS["buildings"]:
        return []
    return [b for b, row in BUILDINGS.items()
            if s["piles"][b] > 0 and b not in pl["bld"] and row["cost"] <= pl["money"]
            and (pl["married"] or not row["requires_married"])]


def execute(s: State, seat: int, card: str, args: dict[str, Any]) -> None:
    """Carry out action card `card` with the chosen arguments (already checked legal)."""
    row = ACTIONS[card]
    pl = s["p"][seat]
    eff = row["effect"]
    if eff == "harvest":
        spend_water(pl, args["water"])
        pl[row["resource"]] += row["base"] + row["per_water"] * args["water"]
    elif eff == "water":
        pl["water"] += row["amount"]
    elif eff == "trade":
        pl[row["resource"]] -= args["n"]
        add_money(pl, args["n"] * (row["price"] + ("market" in pl["bld"])))
    elif eff == "recruit":
        key = "cent" if row["what"] == "centurions" else "vestals"
        pl["money"] -= slot_cost(row["what"], pl[key], args["n"])
        pl[key] += args["n"]
    elif eff == "clerus":
        pl["vestals"] -= 1
        pl["dice"] += 1
    elif eff == "build":
        b = args["b"]
        pl["money"] -= BUILDINGS[b]["cost"]
        s["piles"][b] -= 1
        pl["bld"].append(b)
        if b == "aqueduct":
            pl["aq"] = 0
            pl["aq_round"] = s["round"]
    elif eff == "marry":
        pl["money"] -= row["cost"]
        pl["married"] = True
    elif eff == "bribe":
        pl["money"] -= row["cost"]
        add_money(s["p"][args["side"]], row["cost"])
        target = s["sides"][args["side"]][args["slot"]]["c"]
        s["ev"].append({"k": "bribe", "seat": seat, "owner": args["side"], "card": target})
        execute(s, seat, target, args["args"])
    elif eff == "step":
        move_pawn(s, seat, row["amount"])


# ----------------------------------------------------------------------------- favour cards

def favour_options(s: State, seat: int) -> list[tuple[Any, ...]]:
    """Every favour move (as `move_specs` tuples): a face-up card numbered up to the highest
    die, with what it takes."""
    pl = s["p"][seat]
    out: list[tuple[Any, ...]] = []
    room = PALACE_STEP - pl["pos"]  # units are delivered one per step: none beyond the palace
    if room <= 0:
        return out
    fav = s["fav"]
    dice = s["dice"]
    for k, kind, key, steps in _FAVOUR_TAKES[:dice[0] if len(dice) == 1 else max(dice)]:
        if fav[k - 1]["used"]:
            continue
        if kind == 0:  # units given up, one per step
            most = water_total(pl) if key is None else pl[key]
            if room < most:
                most = room
            if most > 0:
                for n in steps[:most]:  # steps = 1..max_steps, so at most max_steps of them
                    out.append(("favour", k, n))
        elif kind == 1:  # marriage
            if pl["married"]:
                out.append(("favour", k, 1 + ("palace" in pl["bld"])))
        elif pl["vestals"]:  # kind 2: one step per Vestal
            out.append(("favour", k, pl["vestals"]))
    return out


# Favour cards 1-6 as (number, kind, province key, the step counts 1..max_steps), in order: the
# rows favour_options reads on every favour step. Kind 0: units given up (key None: water, counted
# with the Aqueduct), 1: marriage, 2: Vestals (small ints: compared faster than the names).
_FAVOUR_TAKES = tuple(
    (k, {"married": 1, "vestals": 2}.get(row["gives"], 0),
     None if row["gives"] == "water" else {"centurions": "cent"}.get(row["gives"], row["gives"]),
     tuple(range(1, row["max_steps"] + 1))) for k, row in sorted(FAVOURS.items()))


def taxed(s: State, die: int) -> bool:
    """Declining with this die costs tax unless no face-up favour card is available for it (or
    the pawn already stands at the palace and cannot move closer)."""
    if s["p"][s["order"][s["turn"]]]["pos"] >= PALACE_STEP:
        return False
    for fav in s["fav"][:die]:
        if not fav["used"]:
            return True
    return False


def flippable(s: State) -> list[int]:
    """Favour cards the 2-player start player may flip: face up and without tokens."""
    return [k for k, f in enumerate(s["fav"], 1) if not f["used"] and f["tokens"] == 0]


# ----------------------------------------------------------------------------- moves

def legal_moves(s: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now (only the active player ever has moves)."""
    return [make_move(spec) for spec in move_specs(s, seat)]


def move_specs(s: State, seat: int) -> list[tuple[Any, ...]]:
    """The legal moves of `seat` in `legal_moves` order, each as a tuple (type, value, value)
    that `make_move` turns into the move: a random game builds only the move it draws."""
    step = s["step"]
    if step == "over" or s["order"][s["turn"]] != seat:
        return []
    mine = s["sides"][seat]
    specs: list[tuple[Any, ...]] = []
    if step == "play":
        for i in range(3):
            slot = mine[i]
            if slot["up"]:
                specs.append(("play", i, None))
                for a in card_args(s, seat, slot["c"]):
                    specs.append(("play", i, a))
    elif step == "exchange":
        for side, row in enumerate(s["sides"]):
            if side != seat:
                for j in range(3):
                    if row[j]["up"]:
                        specs.append(("exchange", side, j))
    elif step == "favour":
        specs = favour_options(s, seat)
        dice = s["dice"]
        for d in dice if len(dice) == 1 else sorted(set(dice)):  # one die: nothing to sort
            specs.append(("pass", d))
    elif step == "military":
        specs.append(("skip",))
        # the Centurion is given up first (it pays for the extra card), so the card is judged
        # without it, e.g. a Centurions card may refill the freed slot at its price (a temporary
        # change, undone below: legal_moves never alters its input)
        pl = s["p"][seat]
        pl["cent"] -= 1
        try:
            for i in range(3):
                slot = mine[i]
                if slot["up"]:
                    for a in card_args(s, seat, slot["c"]):
                        specs.append(("military", i, a))
        finally:
            pl["cent"] += 1
    elif step == "flip":
        specs = [("flip", k) for k in flippable(s)]
    elif step == "keep":
        ch = s["choice"]
        specs = [("keep", sorted(c)) for c in combinations(ch["cards"], ch["keep"])]
    elif step == "palace":
        specs = [("palace", c) for c in s["palace_choice"]["cards"]]
    elif step == "wrap":
        specs.append(("end",))
    if step in PRIVILEGE_STEPS and s["p"][seat]["hand"]:
        for c in usable_privileges(s, seat):
            specs.append(("privilege", c))
    return specs


# The fields of each move type after "type", in the order its dict lists them.
_FIELDS: dict[str, tuple[str, ...]] = {
    "play": ("slot", "args"), "exchange": ("side", "slot"), "military": ("slot", "args"),
    "favour": ("card", "n"), "pass": ("die",), "flip": ("card",), "keep": ("cards",),
    "palace": ("card",), "privilege": ("card",), "skip": (), "end": (),
}


def make_move(spec: tuple[Any, ...]) -> Move:
    """The move dict of a `move_specs` tuple."""
    t = spec[0]
    k = len(spec)
    if k == 3:
        a, b = _FIELDS[t]
        return {"type": t, a: spec[1], b: spec[2]}
    if k == 2:
        return {"type": t, _FIELDS[t][0]: spec[1]}
    return {"type": t}


def _key(move: Any) -> str:
    return json.dumps(move, sort_keys=True)


def _listed(move: Move, key: str, moves: list[Move]) -> bool:
    for m in moves:
        if m == move and _key(m) == key:
            return True
    return False


def apply_move(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move`; IllegalMove (naming the rule) if it is not legal."""
    # == finds candidates fast; the JSON text then tells true from 1 (strict JSON types)
    key = _key(move) if isinstance(move, dict) else None
    if key is None or not _listed(move, key, legal_moves(state, seat)):
        raise IllegalMove(reason(state, seat, move))
    s = clone_state(state)
    play_in_place(s, seat, move)
    return s


def playout(state: State, rng: Rng) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    (uniform draws from `legal_moves`): one private copy changed in place by `play_in_place`,
    the rules `apply_move` runs after its legality check (every move drawn here is legal)."""
    s = clone_state(state)
    below = rng.below
    specs: list[tuple[Any, ...]] | None = None
    while s["step"] != "over":
        seat = s["order"][s["turn"]]
        if specs is None:
            specs = move_specs(s, seat)
        below(1)  # the reference loop draws the seat from to_act: one seat, one draw
        specs = play_in_place(s, seat, make_move(specs[below(len(specs))]))
    return s


def play_in_place(s: State, seat: int, move: Move) -> list[tuple[Any, ...]] | None:
    """Play a legal move on `s` (changed in place), then every step with a single automatic
    answer, and record the move and its events as `last`. Returns the legal moves of the seat
    due next as `move_specs` (worked out on the way), or None once the game is over."""
    if s["ev"]:  # it is empty between moves: a new list only when a caller left events in it
        s["ev"] = []
    run(s, seat, move)
    # Decisions with a single possible answer are taken at once (docs/UX.md: no busywork):
    # skipping military power with no card to play, declining when nothing else is possible,
    # the 2-player flip when only one card qualifies.
    only = None
    while s["step"] != "over":
        nxt = s["order"][s["turn"]]
        only = move_specs(s, nxt)
        if len(only) != 1 or only[0][0] not in AUTOMATIC:
            break
        auto = make_move(only[0])
        s["ev"].append({"k": "auto", "seat": nxt, "move": auto})
        run(s, nxt, auto)
        only = None
    s["last"] = {"seat": seat, "move": public_form(move), "events": s["ev"]}
    s["ev"] = []
    return only


AUTOMATIC = frozenset({"skip", "pass", "flip"})


def run(s: State, seat: int, move: Move) -> None:
    """Carry out one legal move on the copy `s`, then every automatic step after it."""
    t = move["type"]
    pl = s["p"][seat]
    if t == "play":
        s["chosen"] = move["slot"]
        card = s["sides"][seat][move["slot"]]["c"]
        if move["args"] is not None:
            execute(s, seat, card, move["args"])
        proceed(s, "exchange")
    elif t == "exchange":
        mine = s["sides"][seat][s["chosen"]]
        theirs = s["sides"][move["side"]][move["slot"]]
        mine["c"], theirs["c"] = theirs["c"], mine["c"]
        mine["up"], mine["pub"] = False, True  # face down, but everyone saw which card it is
        enter(s, "military")
    elif t == "favour":
        k, n = move["card"], move["n"]
        gives = FAVOURS[k]["gives"]
        if gives == "water":
            spend_water(pl, n)
        elif gives in ("wine", "grain"):
            pl[gives] -= n
        elif gives == "centurions":
            pl["cent"] -= n
        fav = s["fav"][k - 1]
        fav["used"] = True
        s["took"] = fav["tokens"]
        s["supply"] += fav["tokens"]
        fav["tokens"] = 0
        s["ev"].append({"k": "favour", "seat": seat, "card": k, "n": n, "tokens": s["took"]})
        move_pawn(s, seat, n)
        proceed(s, "flip2")
    elif t == "pass":
        if taxed(s, move["die"]):
            if pl["money"] > 0:
                pl["money"] -= 1
                s["ev"].append({"k": "tax", "seat": seat, "money": 1})
            else:
                pl["pos"] = max(0, pl["pos"] - 1)
                s["ev"].append({"k": "tax", "seat": seat, "step_back": 1, "pos": pl["pos"]})
        else:
            s["ev"].append({"k": "no_tax", "seat": seat})
        enter(s, "flip2")
    elif t == "flip":
        s["fav"][move["card"] - 1]["used"] = True
        s["ev"].append({"k": "flip_favour", "seat": seat, "card": move["card"]})
        enter(s, "privilege")
    elif t == "military":
        pl["cent"] -= 1
        execute(s, seat, s["sides"][seat][move["slot"]]["c"], move["args"])
        proceed(s, "roll")
    elif t == "skip":
        enter(s, "roll")
    elif t == "keep":
        ch = s["choice"]
        s["choice"] = None
        pl["hand"] = sorted(pl["hand"] + move["cards"])
        s["fresh"][seat] += len(move["cards"])
        for card in ch["cards"]:
            if card not in move["cards"]:
                s["discard"].append({"c": card, "up": False, "by": seat})
        enter(s, "wrap")
    elif t == "palace":
        ch = s["palace_choice"]
        s["palace_choice"] = None
        pl["hand"] = sorted(pl["hand"] + [move["card"]])
        s["fresh"][seat] += 1 if s["fresh_palace"] else 0
        rest = [c for c in ch["cards"] if c != move["card"]]
        if len(s["arrivals"]) > 1:
            note_taken(s, seat, move["card"])
        s["palace"]["seen"] = sorted(set(s["palace"]["seen"]) | {seat})
        s["palace"]["cards"] = rest  # face down on the table for the next arrival
        nxt, s["resume"] = s["resume"], None
        enter(s, nxt)
    elif t == "privilege":
        step = s["step"]
        use_privilege(s, seat, move["card"])
        proceed(s, "wrap" if step == "wrap" else step)
    elif t == "end":
        end_turn(s)


def public_form(move: Move) -> Move:
    """The move as everyone may see it: which privilege cards were kept stays secret."""
    t = move["type"]
    if t not in _SECRET:
        return move
    if t == "keep":
        return {"type": "keep", "count": len(move["cards"])}
    return {"type": "palace"}


_SECRET = frozenset({"keep", "palace"})  # the moves whose public form hides the cards


# ----------------------------------------------------------------------------- bad moves

def reason(s: State, seat: int, move: Any) -> str:
    """A sentence naming the rule that forbids `move` (nothing hidden is quoted)."""
    if s["step"] == "over":
        return "The game is over: a pawn reached Caesar's palace and the round was finished."
    if seat != active(s):
        return "It is not your turn: players take their turns in the order of the start-player track."
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return "A move is an object with a 'type'."
    step, t = s["step"], move["type"]
    pl = s["p"][seat]
    need = f"Turn phases come in strict order: now you must {STEP_WORDS[step]}."
    if t == "privilege":
        if step not in PRIVILEGE_STEPS:
            return "Privilege cards cannot be used while you are choosing privilege cards."
        card = move.get("card")
        if card not in pl["hand"]:
            return "You can only use a privilege card you hold."
        cls = data.PRIVILEGES[card]["cls"]
        if cls == "C":
            return "Privilege cards C are not played: they score at the end of the game."
        if s["b_used"]:
            return "A privilege card B may be used only once per turn."
        return "Your pawn is already at Caesar's palace: a privilege card B cannot move it further."
    expected = {"play": {"play"}, "exchange": {"exchange"}, "military": {"military", "skip"},
                "favour": {"favour", "pass"}, "flip": {"flip"}, "keep": {"keep"},
                "palace": {"palace"}, "wrap": {"end"}}[step]
    if t not in expected:
        return need
    if t in ("play", "military"):
        slot = move.get("slot")
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < 3:
            return "You may only play one of the three action cards in front of you."
        if t == "military":
            if pl["cent"] < 1:
                return "Military power needs a Centurion to give up."
            if not s["sides"][seat][slot]["up"]:
                return ("Military power plays an extra face-up card in front of you; "
                        "the card you just took lies face down.")
        card = s["sides"][seat][slot]["c"]
        return args_reason(s, seat, card, move.get("args"))
    if t == "exchange":
        side, slot = move.get("side"), move.get("slot")
        if side == seat:
            return "The chosen card must be exchanged with a card on one of the other three sides."
        if side not in range(SIDES) or slot not in range(3):
            return "Name a side (0-3) and a place (0-2) of the board."
        return "A face-down action card is protected: it cannot be exchanged this round."
    if t == "favour":
        k = move.get("card")
        if k not in range(1, 7):
            return "There are six favour cards, numbered 1 to 6."
        if s["fav"][k - 1]["used"]:
            return "That favour card has been flipped over: it cannot be used again this round."
        if k > max(s["dice"]):
            return "You may only use a favour card numbered up to your highest die."
        return favour_reason(s, seat, k)
    if t == "pass":
        return "Choose one of the dice you rolled: its number decides whether you pay the tax."
    if t == "flip":
        k = move.get("card")
        if k in range(1, 7) and s["fav"][k - 1]["tokens"]:
            return "A player may not flip over a favour card with tokens on it (2-player rule)."
        return "Flip one face-up favour card (2-player rule)."
    if t == "keep":
        ch = s["choice"]
        return (f"Keep exactly {ch['keep']} of the privilege cards you drew "
                "(two only with a Basilica and at least 2 tokens).")
    if t == "palace":
        return "Choose one of the privilege cards offered at Caesar's palace."
    return need


def args_reason(s: State, seat: int, card: str, args: Any) -> str:
    """Why these arguments cannot execute `card`."""
    row = ACTIONS[card]
    eff = row["effect"]
    name = row["name"]
    words = {
        "harvest": f"{name} spends at most {row.get('max_water')} water, and only water you have.",
        "water": f"{name} takes no choices.",
        "trade": f"{name}: you can only sell {row.get('resource')} you have (at least 1).",
        "recruit": (f"{name}: at most {row.get('max_per_action')} per action and 3 in all, paying each "
                    "slot's price in full (no debts)."),
        "clerus": "Clerus needs a Vestal Virgin to give up and fewer than 3 dice.",
        "build": ("Building: at most 3 buildings, one of each type, while the pile lasts, paid in full; "
                  "the Palace only after marriage."),
        "marry": f"Marriage: once per game, paying {row.get('cost')} money.",
        "bribe": (f"Bribe: pay {row.get('cost')} money to play a face-up action card (not a Bribe) in "
                  "front of another player, with a choice that card allows."),
        "step": (f"{name} moves only a player who is not the start player this round, and not "
                 "beyond Caesar's palace." if row.get("not_start_player")
                 else "Your pawn is already at Caesar's palace."),
    }
    return words[eff]


def favour_reason(s: State, seat: int, k: int) -> str:
    """Why favour card k cannot be used this way."""
    row = FAVOURS[k]
    gives = row["gives"]
    if gives == "married":
        return "Favour card 5 moves you only if you are married: 1 step, 2 with a Palace."
    if gives == "vestals":
        return "Favour card 6 moves you 1 step per Vestal Virgin you have (you need at least one)."
    return (f"Favour card {k} ({row['name']}) takes 1 to {row['max_steps']} {gives}, "
            "1 step each, and only what you have.")
