"""The turn sequence (RB Turn Sequence): committees, council meeting, production, monitoring,
turn end; who must act, the legal moves and `apply`. Prof. Phil and every automatic step run
inside `advance`, so `to_act` only ever lists seats owing a real decision."""

from __future__ import annotations

import json
import marshal
from itertools import combinations, permutations
from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.city_council import execution, phil, production as prod
from app.rulesets.city_council.board import option_cost, start_full
from app.rulesets.city_council.favours import card_vp, metrics
from app.rulesets.city_council.tables import (
    BUDGET_MAX,
    CARDS,
    COMMITTEES,
    PLANNING,
    SHAPE_ORDER,
    TILES,
    TOKENS,
    kind_of,
)

State = dict[str, Any]
Move = dict[str, Any]
HAND_LIMIT = 7
WINDOWS = ("window_activation", "window_resolution", "window_monitoring", "turn_end")


# --- small helpers ------------------------------------------------------------------------------


def is_phil(s: State, m: int) -> bool:
    """Member m is Prof. Phil (2-player game only)."""
    return s["phil"] and m == s["players"]


def chair(s: State, committee: str) -> int | None:
    """The member chairing a committee, or None when it is empty."""
    for m, c in enumerate(s["committee"]):
        if c == committee:
            return m
    return None


def _rng(s: State) -> Rng:
    return Rng(s["rng"])


def _save_rng(s: State, rng: Rng) -> None:
    s["rng"] = rng.state


def plans_to_execute(s: State) -> int:
    """RB Vote Counting: 2 plans with 2-3 players, 3 with 4-5."""
    return 2 if s["players"] <= 3 else 3


def money_tokens_out(s: State) -> int:
    """Money tokens held as private funds, lying on plans or on building tiles."""
    return TOKENS["money"] - prod.BUDGET_MARKER - prod.money_tokens_free(s)


# --- committees ---------------------------------------------------------------------------------


def committee_options(s: State) -> list[list[str | None]]:
    """Every committee assignment the Election chairman may make (RB Committees phase).

    Turn 1: he is on the Election Committee and places everyone else on distinct committees.
    Later: at least one change, the least number of changes, every member on spot B moves, the
    Election Committee stays filled, and Prof. Phil never chairs it."""
    members = s["members"]
    out: list[list[str | None]] = []
    if s["turn"] == 1:
        others = [c for c in COMMITTEES if c != "election"]
        rest = [m for m in range(members) if m != s["decider"]]
        for combo in permutations(others, len(rest)):
            a: list[str | None] = [None] * members
            a[s["decider"]] = "election"
            for m, c in zip(rest, combo):
                a[m] = c
            out.append(a)
        return out
    # Search by the number of members who change (fewest first), instead of trying every
    # permutation of the committees: the movers (every member on spot B among them) take
    # committees no staying member holds, each a different one from his own.
    cur = s["committee"]
    must = {m for m in range(members) if s["streak"][m] >= 2}
    phil = s["players"] if s["phil"] else None
    for k in range(max(1, len(must)), members + 1):
        found: list[list[str | None]] = []
        for movers in combinations(range(members), k):
            if not must.issubset(movers):
                continue
            held = {cur[m] for m in range(members) if m not in movers}
            free = [c for c in COMMITTEES if c not in held]
            was = [cur[m] for m in movers]
            for combo in permutations(free, k):
                a = list(cur)
                for i in range(k):
                    if combo[i] == was[i]:
                        break  # every mover changes committee
                    a[movers[i]] = combo[i]
                else:
                    if "election" in a and (phil is None or a[phil] != "election"):
                        found.append(a)
        if found:
            # the order of permutations(COMMITTEES, members), as the rules' listing always was
            found.sort(key=_committee_ranks)
            return found
    return []


_RANK = {c: i for i, c in enumerate(COMMITTEES)}


def _committee_ranks(a: list[str | None]) -> list[int]:
    """An assignment's committees by their place in COMMITTEES (a sort key)."""
    return [_RANK[c] for c in a]


def set_committees(s: State, assignment: list[str | None]) -> None:
    """Seat the members; those who moved restart their A/B count; fix the turn order."""
    for m in range(s["members"]):
        if s["committee"][m] != assignment[m]:
            s["streak"][m] = 0
    s["committee"] = list(assignment)
    # No lambdas or generator expressions capturing locals in the functions that run during
    # play: compiled, each call would allocate a closure.
    rank = [COMMITTEES.index(assignment[m]) for m in range(s["members"])]
    s["order"] = sorted(range(s["members"]), key=rank.__getitem__)
    s["phase"] = "treasury"


def can_embezzle(s: State) -> bool:
    """RB Treasury Committee: embezzle $1 from the City Budget, if possible (a Money token left)."""
    return s["budget"] >= 1 and prod.money_tokens_free(s) > 0


def embezzle(s: State, m: int) -> None:
    """Take a Money token as private funds and lower the City Budget by $1."""
    s["budget"] -= 1
    s["funds"][m] += 1


# --- favour deck --------------------------------------------------------------------------------


def draw_cards(s: State, rng: Rng, n: int) -> list[str]:
    """Draw up to n favour cards, reshuffling the discard pile into the deck when short (RB
    Favors & Scoring); if even that is not enough the game ends at the end of this turn."""
    out = []
    for _ in range(n):
        if not s["deck"] and s["fdiscard"]:
            pile = [c for c, _ in s["fdiscard"]]
            rng.shuffle(pile)
            s["deck"] = pile
            s["fdiscard"] = []
        if not s["deck"]:
            if s["card_end"]:
                s["end_flag"] = True
            break
        out.append(s["deck"].pop())
    return out


def discard_card(s: State, card: str, seat: int | None) -> None:
    """A card to the favour discard pile, remembering who knows it is there (None = everyone)."""
    mask = (1 << s["players"]) - 1 if seat is None else (1 << seat)
    s["fdiscard"].append([card, mask])


def deal_draw(s: State) -> None:
    """RB Union Committee's turn: everyone draws 2 and keeps one; the Union chairman keeps both.
    Prof. Phil's discard is chosen blind, i.e. at random."""
    rng = _rng(s)
    union = chair(s, "union")
    for m in s["order"]:
        cards = draw_cards(s, rng, 2)
        if is_phil(s, m):
            if len(cards) == 2 and m != union:
                k = rng.below(2)
                s["fdiscard"].append([cards[1 - k], 0])  # a blind discard: nobody knows it
                cards = [cards[k]]
            s["hands"][m] += cards
        elif len(cards) <= 1:
            s["hands"][m] += cards  # a single card left is simply kept
        else:
            s["drawn"][m] = sorted(cards)
    _save_rng(s, rng)
    s["phase"] = "draw"


def keep_options(s: State, m: int) -> list[list[str]]:
    """Which drawn cards a member may keep: one of the two, or both for the Union chairman
    (who may still keep just one)."""
    cards = s["drawn"][m]
    out = [[c] for c in cards]
    if chair(s, "union") == m:
        out.append(sorted(cards))
    return out


# --- council meeting ----------------------------------------------------------------------------


def available_tiles(s: State) -> list[str]:
    """Face-up tiles of the planning area: each stack's top and the tiles laid below (RB Setup)."""
    out = []
    for sh in SHAPE_ORDER:
        if s["stacks"].get(sh):
            out.append(s["stacks"][sh][0])
        out += s["up"].get(sh, [])
    return out


def plan_options(s: State, m: int) -> list[Move]:
    """RB City Planning: construct a planning-area building the City Budget can pay for, or put a
    Relocation or Sale token on a built building; the same tile never twice in a turn. The
    printed Starting-Zone buildings can be upgraded but not moved or sold (NOTES)."""
    taken_tiles = set()
    targeted = set()
    used = {"relocate": 0, "sell": 0}
    for p in s["plans"]:  # one pass over the plans already made this turn
        if p:
            k = p["kind"]
            if k == "build":
                taken_tiles.add(p["target"])
            elif k == "relocate" or k == "sell":
                targeted.add(p["target"])
                used[k] += 1
    out = []
    budget = s["budget"]
    for t in available_tiles(s):
        if t not in taken_tiles and TILES[t].cost <= budget:
            out.append({"type": "plan", "kind": "build", "target": t})
    movable = None  # the built buildings that may be relocated or sold, by id
    for kind, token in (("relocate", "relocate"), ("sell", "sale")):
        if used[kind] < s["tokens"][token]:
            if movable is None:
                movable = [
                    bid for bid, b in sorted(s["buildings"].items()) if not b["fixed"] and bid not in targeted
                ]
            for bid in movable:
                out.append({"type": "plan", "kind": kind, "target": bid})
    return out


def vote_targets(s: State, m: int) -> list[int]:
    """RB Voting: a delegate goes on another member's plan."""
    return [o for o in s["order"] if o != m and s["plans"][o] and s["plans"][o]["kind"] != "none"]


def fund_targets(s: State, m: int) -> list[int]:
    """RB Voting, second round: private funds on construction plans, never more than the cost."""
    if s["funds"][m] <= 0:
        return []
    out = []
    for o in s["order"]:
        p = s["plans"][o]
        if p and p["kind"] == "build" and sum(s["plan_funds"][o]) < TILES[p["target"]].cost:
            out.append(o)
    return out


def plan_votes(s: State, o: int) -> int:
    """Delegates on a plan (the Executive's second delegate included)."""
    return s["delegates"].count(o) + (1 if s["exec_vote"] == o else 0)


def count_votes(s: State) -> None:
    """RB Vote Counting: the plans with most votes go to execution; private funds break ties, then
    the Election chairman chooses among plans still tied."""
    plans = [o for o in s["order"] if s["plans"][o] and s["plans"][o]["kind"] != "none"]
    k = plans_to_execute(s)
    key = {o: (plan_votes(s, o), sum(s["plan_funds"][o])) for o in plans}
    if len(plans) <= k:
        s["approved"] = plans
        enter_execute(s)
        return
    ranked = sorted(plans, key=key.__getitem__, reverse=True)
    cut = key[ranked[k - 1]]
    above = [o for o in ranked if key[o] > cut]
    tied = [o for o in ranked if key[o] == cut]
    need = k - len(above)
    s["approved"] = above
    if len(tied) == need:
        s["approved"] += tied
        enter_execute(s)
    else:
        s["tie"] = {"pool": tied, "need": need}
        s["phase"] = "approve"


def execute_options(s: State, o: int) -> list[Move]:
    """How the Election chairman may execute plan o now (empty: not now), anti-sabotage rule
    included (execution.allowed)."""
    return execution.moves(s, o)


def enter_execute(s: State) -> None:
    """Start plan execution (RB Plan Execution)."""
    s["phase"] = "execute"
    s.pop("tie", None)


def _remove_tile_from_area(s: State, tile: str) -> None:
    sh = TILES[tile].shape
    if s["stacks"].get(sh) and s["stacks"][sh][0] == tile:
        s["stacks"][sh].pop(0)
    else:
        s["up"][sh].remove(tile)


def _new_building(s: State, tile: str, cells: list[list[int]]) -> str:
    bid = f"b{s['next_bid']}"
    s["next_bid"] += 1
    s["buildings"][bid] = {
        "id": bid,
        "name": TILES[tile].name,
        "tile": tile,
        "fixed": False,
        "cells": sorted(cells),
        "token": False,
        "prison": [0, 0],
    }
    return bid


def _tokens_free(s: State) -> int:
    return prod.reserve(s, "community")


def do_execute(s: State, move: Move) -> None:
    """Carry out one approved plan: construct (fresh or upgrade), relocate or sell."""
    o = move["plan"]
    p = s["plans"][o]
    if p["kind"] == "sell":
        b = s["buildings"].pop(p["target"])
        kind = kind_of(b)
        s["bdiscard"][kind.shape].append(b["tile"])
        s["budget"] = min(BUDGET_MAX, s["budget"] + kind.cost - 1)  # RB Selling: cost - $1
        s["last_exec"] = {"plan": o, "kind": "sell", "name": kind.name, "gain": kind.cost - 1}
    elif p["kind"] == "relocate":
        b = s["buildings"][p["target"]]
        kind = kind_of(b)
        # the move is one of relocate_options' (apply checked it): its cost from its blocks
        cost = option_cost(s, kind, move["cells"], relocate=True)
        s["budget"] -= cost
        b["cells"] = sorted(move["cells"])
        s["last_exec"] = {"plan": o, "kind": "relocate", "name": kind.name, "cost": cost}
    else:
        tile = p["target"]
        kind = TILES[tile]
        # the move is one of build_options' (apply checked it): its cost from its blocks
        cost = option_cost(s, kind, move["cells"], move.get("upgrade"))
        from_funds = min(cost, sum(s["plan_funds"][o]))
        _spend_funds(s, o, from_funds)
        s["budget"] -= cost - from_funds
        _remove_tile_from_area(s, tile)
        token = False
        if "upgrade" in move:
            # RB Upgrading: the old tile is discarded; a pre-constructed (printed) building is
            # covered instead, and is gone as well: nothing brings it back later
            old = s["buildings"].pop(move["upgrade"])
            token = old["token"]
            if old["tile"]:
                s["bdiscard"][kind_of(old).shape].append(old["tile"])
        bid = _new_building(s, tile, move["cells"])
        b = s["buildings"][bid]
        if kind.permanent_community:
            b["token"] = token or _tokens_free(s) > 0  # RB: a Community token from the reserve
        s["last_exec"] = {
            "plan": o,
            "kind": "build",
            "name": kind.name,
            "cost": cost,
            "upgrade": "upgrade" in move,
        }
    s["executed"].append(o)


def _spend_funds(s: State, o: int, amount: int) -> None:
    row = s["plan_funds"][o]
    for m in s["order"]:
        take = min(row[m], amount)
        row[m] -= take
        amount -= take


def end_council(s: State) -> None:
    """Unspent private funds on plans go back to their owners; production starts."""
    for o in range(s["members"]):
        for m in range(s["members"]):
            s["funds"][m] += s["plan_funds"][o][m]
            s["plan_funds"][o][m] = 0
    s["phase"] = "activate"
    s["cursor"] = 0
    s["passes"] = 0
    s["acts_left"] = 0


# --- production ---------------------------------------------------------------------------------


def activation_moves(s: State, seat: int | None = None) -> list[Move]:
    """RB Production A: activate a zone or a building (pass is always allowed, NOTES). For a
    building whose either/or boxes the Election chairman picks (the Police Station), anyone else
    activates it without choosing: {"building", "chair": true}, and the chairman then decides."""
    out: list[Move] = []
    election = chair(s, "election")
    for bid, kind, choices in sorted(prod.activatable(s), key=_first):  # by building id
        if kind.chair_chooses and seat is not None and seat != election:
            out.append({"type": "activate", "building": bid, "chair": True})
            continue
        for boxes in choices:
            out.append({"type": "activate", "building": bid, "boxes": boxes})
    out += prod.zone_options(s)
    return out


def _first(row: tuple[Any, ...]) -> Any:
    """A tuple's first item (a sort key)."""
    return row[0]


def _next_activator(s: State) -> None:
    s["cursor"] = (s["cursor"] + 1) % s["members"]
    s["acts_left"] = 0


# --- windows ------------------------------------------------------------------------------------


def _any_general(hand: list[str]) -> bool:
    """Whether a hand holds a General card (the only cards that read `metrics`)."""
    for c in hand:
        if CARDS[c].kind == "general":
            return True
    return False


def scorable(
    s: State, seat: int, m: dict[str, int] | None = None, cards: list[str] | None = None
) -> list[tuple[str, int]]:
    """Cards `seat` could score in the current window, with their VP (never in turn 1); `m` is
    `metrics(s)` when the caller has it already; `cards`: only these of the hand are looked at."""
    if s["turn"] == 1:
        return []
    turn_end = s["phase"] == "turn_end"
    hand = s["hands"][seat] if cards is None else cards
    if m is None and _any_general(hand):
        m = metrics(s)  # only General cards read the metrics (a hand of Building cards: none)
    out = []
    for c in hand:
        vp = card_vp(s, c, m, turn_end)
        if vp:
            out.append((c, vp))
    return out


def window_moves(s: State, seat: int) -> list[Move]:
    """Score a card; at turn end also discard; done (at turn end only with 7 cards or fewer)."""
    out: list[Move] = [{"type": "score", "card": c} for c, _ in scorable(s, seat)]
    if s["phase"] == "turn_end":
        out += [{"type": "discard", "card": c} for c in s["hands"][seat]]
        if len(s["hands"][seat]) <= HAND_LIMIT:
            out.append({"type": "done"})
    else:
        out.append({"type": "done"})
    return out


def _enter_window(s: State, name: str) -> None:
    """Open a scoring window: every player is asked and answers (score, or `done`: nothing more
    to score now), as at the table. Who is asked never depends on the hands (RB: favour cards are
    'kept secretly in your hand and only revealed upon scoring')."""
    s["phase"] = name
    s["done"] = [False] * s["players"]


def score_card(s: State, seat: int, card: str) -> int:
    """RB Favors & Scoring: the card is revealed and scored; a General card goes face down to the
    discard pile, a Building card is removed from play."""
    vp = dict(scorable(s, seat, cards=[card]))[card]  # the card played is in the hand (apply checked)
    s["hands"][seat].remove(card)
    s["vp"][seat] += vp
    s["scored"][seat].append({"card": card, "vp": vp, "turn": s["turn"]})
    if CARDS[card].kind == "general":
        discard_card(s, card, None)
    else:
        s["removed"].append(card)
    return vp


# --- turn end -----------------------------------------------------------------------------------


def replenish(s: State) -> None:
    """RB Turn End: unconstructed face-up tiles are discarded by size and the area refilled (stack
    tops stay); once the Starting Zone is full the advanced area is built from all stacks."""
    rng = _rng(s)
    if not s["advanced"] and start_full(s):
        s["advanced"] = True
        pools = {sh: [] for sh in SHAPE_ORDER}
        for sh in ("S", "M"):
            pools[sh] += s["stacks"].get(sh, []) + s["up"].get(sh, []) + s["bdiscard"][sh]
            s["bdiscard"][sh] = []
        for t in s["reserve_adv"]:
            pools[TILES[t].shape].append(t)
        s["reserve_adv"] = []
        for sh in SHAPE_ORDER:
            pool = sorted(pools[sh])
            rng.shuffle(pool)
            s["stacks"][sh] = pool
            s["up"][sh] = [pool.pop(0) for _ in range(min(PLANNING["advanced"][sh], len(pool)))]
        s["tokens"] = {"sale": PLANNING["advanced_tokens"], "relocate": PLANNING["advanced_tokens"]}
    else:
        area = PLANNING["advanced"] if s["advanced"] else PLANNING["start"]
        for sh in s["stacks"]:
            s["bdiscard"][sh] += s["up"][sh]
            s["up"][sh] = []
            for _ in range(area[sh]):
                if len(s["stacks"][sh]) <= 1 and s["bdiscard"][sh]:
                    # RB "Reshuffle discard piles if needed": the shuffled pile goes under the top
                    pile = sorted(s["bdiscard"][sh])
                    rng.shuffle(pile)
                    s["stacks"][sh] = s["stacks"][sh] + pile
                    s["bdiscard"][sh] = []
                if len(s["stacks"][sh]) <= 1:
                    break  # the last tile stays on as the stack's top
                s["up"][sh].append(s["stacks"][sh].pop(0))
    _save_rng(s, rng)


def finish_turn(s: State) -> None:
    """Phil's revealed card is discarded and his hand cut to 7; zone tokens go back; committee
    counters move to A or B; the game ends if someone reached the goal or the cards ran out."""
    rng = _rng(s)
    if s["phil"]:
        ph = s["players"]
        if s["phil_card"] in s["hands"][ph]:
            s["hands"][ph].remove(s["phil_card"])
            discard_card(s, s["phil_card"], None)
        while len(s["hands"][ph]) > HAND_LIMIT:
            c = s["hands"][ph].pop(rng.below(len(s["hands"][ph])))
            s["fdiscard"].append([c, 0])  # discarded face down, unseen
        s["phil_card"] = None
    _save_rng(s, rng)
    s["zones_on"] = {}
    s["activated"] = []
    s["active_names"] = {}
    s["prison_freed"] = 0
    for m in range(s["members"]):
        s["streak"][m] += 1
    if max(s["vp"]) >= s["goal"] or s["end_flag"]:
        s["phase"] = "over"
        return
    s["turn"] += 1
    s["decider"] = chair(s, "election")
    s["plans"] = [None] * s["members"]
    s["delegates"] = [None] * s["members"]
    s["exec_vote"] = None
    s["approved"], s["executed"], s["failed"] = [], [], []
    s["phase"] = "committees"


# --- the automatic driver -----------------------------------------------------------------------


def _phil_plans(s: State) -> None:
    """RB Special Rules for 2 Players: 'At the beginning of the planning phase' one of Prof.
    Phil's cards is revealed at random and he proposes by it, before anyone else (so nobody
    takes his tile first, whatever his place in the turn order)."""
    m = s["players"]
    hand = s["hands"][m]
    if hand:
        rng = _rng(s)
        s["phil_card"] = hand[rng.below(len(hand))]
        _save_rng(s, rng)
    opts = {mv["target"] for mv in plan_options(s, m) if mv["kind"] == "build"}
    tile = phil.pick_building(s, opts)
    s["plans"][m] = {"kind": "build", "target": tile} if tile else {"kind": "none"}


def _auto(s: State, seat: int, move: Move) -> None:
    """Record a decision taken at once because it had a single possible answer (shown with the
    move that led to it, `last.auto`)."""
    s["last"].setdefault("auto", []).append({"seat": seat, "move": move})


def advance(s: State) -> None:
    """Run every automatic step (Prof. Phil, reports, resolution) until a seat owes a decision."""
    while s["phase"] != "over":
        ph = s["phase"]
        if ph == "committees":
            opts = committee_options(s)
            if len(opts) != 1:
                return
            _auto(s, s["decider"], {"type": "committees", "seats": opts[0]})  # the only choice
            set_committees(s, opts[0])
            continue
        if ph == "treasury":
            t = chair(s, "treasury")
            if t is not None and can_embezzle(s) and not s.get("treasury_done"):
                if not is_phil(s, t):
                    return
                embezzle(s, t)  # RB 2 players: Phil always uses his committee's benefit
            s.pop("treasury_done", None)
            deal_draw(s)
            continue
        if ph == "draw":
            if any([d is not None for d in s["drawn"]]):
                return
            s["phase"] = "plan"
            s["cursor"] = 0
            if s["phil"]:
                _phil_plans(s)
            continue
        if ph == "plan":
            if s["cursor"] >= len(s["order"]):
                s["phase"], s["cursor"] = "vote", 0
                continue
            m = s["order"][s["cursor"]]
            if is_phil(s, m):  # he proposed at the beginning of the phase
                s["cursor"] += 1
                continue
            if not plan_options(s, m):
                s["plans"][m] = {"kind": "none"}
                s["cursor"] += 1
                continue
            return
        if ph == "vote":
            if s["cursor"] >= len(s["order"]):
                s["phase"], s["cursor"] = "fund", 0
                continue
            m = s["order"][s["cursor"]]
            if not vote_targets(s, m):
                s["cursor"] += 1
                continue
            if is_phil(s, m):
                s["delegates"][m] = phil.choose_vote(s, m)
                s["cursor"] += 1
                continue
            targets = vote_targets(s, m)
            if len(targets) == 1:  # a single plan to vote for: the Delegate goes there at once
                _auto(s, m, {"type": "vote", "plan": targets[0]})
                s["delegates"][m] = targets[0]
                s["cursor"] += 1
                continue
            return
        if ph == "fund":
            if s["cursor"] >= len(s["order"]):
                s["phase"] = "vote2"
                continue
            m = s["order"][s["cursor"]]
            if not fund_targets(s, m) or s.get("fund_done"):
                s.pop("fund_done", None)
                s["cursor"] += 1
                continue
            if is_phil(s, m):
                p = s["plans"][m]
                if p and p["kind"] == "build" and m in fund_targets(s, m):
                    room = TILES[p["target"]].cost - sum(s["plan_funds"][m])
                    give = min(room, s["funds"][m])
                    s["funds"][m] -= give
                    s["plan_funds"][m][m] += give
                s["cursor"] += 1
                continue
            return
        if ph == "vote2":
            e = chair(s, "executive")
            if e is None or not [o for o in s["order"] if s["plans"][o] and s["plans"][o]["kind"] != "none"]:
                count_votes(s)
                continue
            if is_phil(s, e):
                s["exec_vote"] = phil.choose_vote(s, e)
                count_votes(s)
                continue
            return
        if ph == "approve":
            return
        if ph == "execute":
            # RB: some plans cannot be executed (budget, space). A plan impossible now may become
            # possible after another (a sale pays for it, a relocation frees room: the chairman
            # picks the order, Example 6), so plans fail only when none of them can be executed.
            ways = execution.allowed(s)
            if not ways:
                s["failed"] += execution.pending(s)
                end_council(s)
                continue
            if len(ways) == 1:  # a single possible execution: taken at once (NOTES 20)
                move = execution.move(*ways[0])
                _auto(s, chair(s, "election"), move)
                do_execute(s, move)
                continue
            return
        if ph == "activate" and s.get("pending"):
            choices = prod.box_choices(s, s["pending"]["b"])
            if len(choices) != 1:
                return
            pending = s.pop("pending")
            _auto(s, chair(s, "election"), {"type": "police", "boxes": choices[0]})
            prod.activate_building(s, pending["by"], pending["b"], choices[0])
            s["passes"] = 0
            s["acts_left"] -= 1
            if s["acts_left"] <= 0:
                _next_activator(s)
            continue
        if ph == "activate":
            if s["passes"] >= s["members"] or not prod.can_activate(s):
                s["report"] = {"unemployment": None, "resolution": [], "lifestyle": None}
                if s["turn"] > 1:
                    _enter_window(s, "window_activation")
                else:
                    s["phase"] = "unemployment"
                continue
            m = s["order"][s["cursor"]]
            # Prof. Phil's activation turn is played for him by the Election chairman (NOTES 15)
            if s["acts_left"] == 0:
                s["acts_left"] = 2 if s["committee"][m] == "transport" else 1
            return
        if ph in WINDOWS:
            if not all(s["done"]):
                return
            nxt = {
                "window_activation": "unemployment",
                "window_resolution": "monitoring",
                "window_monitoring": "replenish",
                "turn_end": "finish",
            }[ph]
            s["phase"] = nxt
            continue
        if ph == "unemployment":
            s["report"]["unemployment"] = prod.unemployment(s)
            if s["phase"] == "over":
                return
            s["phase"] = "resolution"
            continue
        if ph == "resolution":
            s["report"]["resolution"] = prod.resolve(s)
            if s["phase"] == "over":
                return
            if s["turn"] > 1:
                _enter_window(s, "window_resolution")
            else:
                s["phase"] = "monitoring"
            continue
        if ph == "monitoring":
            s["report"]["lifestyle"] = prod.lifestyle(s)
            if s["phase"] == "over":
                return
            if s["turn"] > 1:
                _enter_window(s, "window_monitoring")
            else:
                s["phase"] = "replenish"
            continue
        if ph == "replenish":
            replenish(s)
            _enter_window(s, "turn_end")
            continue
        if ph == "finish":
            finish_turn(s)
            continue
        raise AssertionError(f"unknown phase {ph}")


# --- to_act / legal / apply ---------------------------------------------------------------------


def to_act(s: State) -> list[int]:
    """Seats owing a decision now (several while drawing favours and in scoring windows)."""
    ph = s["phase"]
    if ph == "over":
        return []
    if ph == "committees":
        return [s["decider"]]
    if ph == "treasury":
        return [chair(s, "treasury")]
    if ph == "draw":
        return [m for m in range(s["players"]) if s["drawn"][m] is not None]
    if ph in ("plan", "vote", "fund"):
        return [s["order"][s["cursor"]]]
    if ph == "vote2":
        return [chair(s, "executive")]
    if ph in ("approve", "execute"):
        return [chair(s, "election")]
    if ph == "activate":
        m = s["order"][s["cursor"]]
        if s.get("pending") or is_phil(s, m):
            return [chair(s, "election")]
        return [m]
    if ph in WINDOWS:
        return [i for i in range(s["players"]) if not s["done"][i]]
    return []


def legal_moves(s: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    if seat not in to_act(s):
        return []
    return _legal(s, seat)


def _legal(s: State, seat: int) -> list[Move]:
    """`legal_moves` of a seat known to be in `to_act` (apply and playout have just asked)."""
    ph = s["phase"]
    if ph == "committees":
        return [{"type": "committees", "seats": a} for a in committee_options(s)]
    if ph == "treasury":
        return [{"type": "embezzle"}, {"type": "decline"}]
    if ph == "draw":
        return [{"type": "keep", "cards": k} for k in keep_options(s, seat)]
    if ph == "plan":
        return plan_options(s, seat)
    if ph == "vote":
        return [{"type": "vote", "plan": o} for o in vote_targets(s, seat)]
    if ph == "fund":
        return [{"type": "fund", "plan": o} for o in fund_targets(s, seat)] + [{"type": "fund_done"}]
    if ph == "vote2":
        plans = [o for o in s["order"] if s["plans"][o] and s["plans"][o]["kind"] != "none"]
        return [{"type": "vote2", "plan": o} for o in plans] + [{"type": "vote2_pass"}]
    if ph == "approve":
        return [{"type": "approve", "plan": o} for o in s["tie"]["pool"] if o not in s["approved"]]
    if ph == "execute":
        return execution.moves(s)
    if ph == "activate":
        if s.get("pending"):
            return [{"type": "police", "boxes": b} for b in prod.box_choices(s, s["pending"]["b"])]
        moves = activation_moves(s, seat)
        m = s["order"][s["cursor"]]
        if moves and is_phil(s, m) and s["committee"][m] == "transport":
            return moves  # RB: Phil "must always use the benefits of his committee" (two activations)
        moves.append({"type": "pass"})  # a fresh list: no copy needed
        return moves
    if ph in WINDOWS:
        return window_moves(s, seat)
    return []


def _canon(move: Any) -> str:
    if isinstance(move, dict) and move.get("type") == "execute" and "cells" in move:
        move = dict(move)
        try:
            move["cells"] = sorted([[int(r), int(c)] for r, c in move["cells"]])
        except (TypeError, ValueError):
            pass
    return json.dumps(move, sort_keys=True)


_RULE = {
    "committees": "Committees phase: the Election chairman must make at least one change and the "
    "fewest changes possible, move everyone on spot B, keep the Election Committee "
    "filled and never seat Prof. Phil on it",
    "treasury": "Treasury Committee: its chairman may embezzle $1 from the City Budget, or decline",
    "draw": "Favour draw: keep one of the two cards you drew (the Union chairman may keep both)",
    "plan": "City Planning: a plan constructs a building of the planning area that the City Budget "
    "can pay for, or relocates or sells a built building while a token is left; the same "
    "tile cannot be chosen twice",
    "vote": "Voting: your Delegate goes on another player's plan, never your own",
    "fund": "Voting, second round: private funds go on a construction plan, never more than its cost",
    "vote2": "Voting: the Executive chairman places his second Delegate on a plan, or passes",
    "approve": "Vote Counting: the Election chairman picks among the plans still tied",
    "execute": "Plan Execution: the Election chairman executes an approved plan on free blocks "
    "the City Budget (with the plan's private funds) can pay for, an upgrade covering "
    "the old tile, and never in a way that stops another approved plan from being "
    "executed while some way keeps them all possible",
    "activate": "Production: activate a zone (a Power and a Community token) or a building on the "
    "Starting Zone or an activated zone, supplying every requirement of its boxes, or pass; "
    "the Election chairman decides which Police Station box is used",
    "window": "Favour scoring: you may score a card whose condition is met now (building cards "
    "only at turn end, never in turn 1), discard at turn end, and end with at most 7 cards",
}


def _reason(s: State, seat: int, move: Any) -> str:
    ph = s["phase"]
    key = "window" if ph in WINDOWS else ph
    if not isinstance(move, dict) or "type" not in move:
        return "A move must be an object with a type."
    return f"{_RULE.get(key, 'That move is not allowed now')}."


def _candidates(s: State, seat: int, move: Any) -> list[Move]:
    """The legal moves `move` can be among: `legal_moves`, or for an execution only the options
    of the plan it names (each execution option names its plan, so no other one can match)."""
    if s["phase"] == "execute" and isinstance(move, dict) and move.get("type") == "execute":
        o = move.get("plan")
        if type(o) is int and o in s["approved"] and o not in s["executed"] and o not in s["failed"]:
            return execute_options(s, o)
        return []
    return _legal(s, seat)  # apply has checked that seat is to act


def _copy(state: State) -> State:
    """A deep copy of a state (JSON values only: dicts, lists, strings, numbers, booleans, None);
    marshal copies them faster than pickle and keeps the same types and sharing."""
    return marshal.loads(marshal.dumps(state))


def _listed(norm: Any, key: str, moves: list[Move]) -> bool:
    for m in moves:
        if m == norm and _canon(m) == key:
            return True
    return False


def apply(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move`; raises IllegalMove naming the rule otherwise."""
    if state["phase"] == "over":
        raise IllegalMove("The game is over: no more moves can be made.")
    if seat not in to_act(state):
        raise IllegalMove("It is not your turn: another council member must decide first.")
    key = _canon(move)
    norm = json.loads(key) if isinstance(move, dict) else None
    # == finds candidates fast; the JSON text then tells true from 1 (strict JSON types)
    if not _listed(norm, key, _candidates(state, seat, norm)):
        raise IllegalMove(_reason(state, seat, move))
    s = _copy(state)
    apply_in_place(s, seat, move)
    return s


def playout(state: State, rng: Any) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    (uniform draws from `legal_moves`): one private copy changed in place by `apply_in_place`,
    the rules `apply` runs after its legality check (every move drawn here is legal)."""
    s = _copy(state)
    while seats := to_act(s):
        seat = rng.choice(seats)
        apply_in_place(s, seat, rng.choice(_legal(s, seat)))  # = legal_moves: seat is to act
    return s


def apply_in_place(s: State, seat: int, move: Move) -> None:
    """Play a legal move on `s`, changing it in place."""
    t = move["type"]
    s["last"] = {"seat": seat, "type": t}
    if t == "committees":
        set_committees(s, move["seats"])
    elif t in ("embezzle", "decline"):
        if t == "embezzle":
            embezzle(s, seat)
        s["treasury_done"] = True
    elif t == "keep":
        drawn = s["drawn"][seat]
        for c in drawn:
            if c in move["cards"]:
                s["hands"][seat].append(c)
            else:
                discard_card(s, c, seat)
        s["drawn"][seat] = None
    elif t == "plan":
        s["plans"][seat] = {"kind": move["kind"], "target": move["target"]}
        s["cursor"] += 1
    elif t == "vote":
        s["delegates"][seat] = move["plan"]
        s["cursor"] += 1
    elif t == "fund":
        s["funds"][seat] -= 1
        s["plan_funds"][move["plan"]][seat] += 1
    elif t == "fund_done":
        s["fund_done"] = True
    elif t == "vote2":
        s["exec_vote"] = move["plan"]
        count_votes(s)
    elif t == "vote2_pass":
        count_votes(s)
    elif t == "approve":
        s["approved"].append(move["plan"])
        s["tie"]["need"] -= 1
        if s["tie"]["need"] == 0:
            enter_execute(s)
    elif t == "execute":
        move = dict(move)
        move["cells"] = sorted([[int(r), int(c)] for r, c in move.get("cells", [])])
        do_execute(s, move)
    elif t == "activate" and move.get("chair"):
        s["pending"] = {"b": move["building"], "by": seat}  # the Election chairman picks the box
    elif t in ("activate", "police"):
        by = s["order"][s["cursor"]]  # the member whose activation turn it is (maybe Phil)
        if t == "police":
            pending = s.pop("pending")
            by = pending["by"]
            move = {"type": "activate", "building": pending["b"], "boxes": move["boxes"]}
        prod.activate_building(s, by, move["building"], move["boxes"])
        s["passes"] = 0
        s["acts_left"] -= 1
        if s["acts_left"] <= 0:
            _next_activator(s)
    elif t == "zone":
        prod.activate_zone(s, move["zone"], move["token"])
        s["passes"] = 0
        s["acts_left"] -= 1
        if s["acts_left"] <= 0:
            _next_activator(s)
    elif t == "pass":
        s["passes"] += 1
        _next_activator(s)
    elif t == "score":
        s["last"]["vp"] = score_card(s, seat, move["card"])
        s["last"]["card"] = move["card"]
    elif t == "discard":
        s["hands"][seat].remove(move["card"])
        discard_card(s, move["card"], seat)
    elif t == "done":
        s["done"][seat] = True
    advance(s)
