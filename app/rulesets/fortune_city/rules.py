"""Fortune City rules: setup, whose turn, legal moves, move checks and the phase flow.

State is plain JSON. Cells are "x,y" keys (City Hall at "0,0"; y grows upwards, away from the park
row). `apply` copies only what a move changes, so untouched players stay the same objects (cheap
view diffs). Every IllegalMove reason names the rule and quotes only public facts.
"""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import data as D

State = dict[str, Any]
Move = dict[str, Any]

SUP = D.SUPPLY
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
PARK_KEYS = [*D.COLOURS, D.VIP]


# ---------------------------------------------------------------- cells and small helpers

def key(x: int, y: int) -> str:
    """The city-dict key of a cell."""
    return f"{x},{y}"


def xy(k: str) -> tuple[int, int]:
    """The coordinates of a city-dict key."""
    a, b = k.split(",")
    return int(a), int(b)


def neighbours(k: str) -> list[str]:
    """The four orthogonal neighbour keys of a cell."""
    x, y = xy(k)
    return [key(x + dx, y + dy) for dx, dy in STEPS]


def bonus(p: dict[str, Any], track: str) -> int:
    """The bonus of the sector a player's marker is in now (rulebook: current sector only)."""
    return D.TRACKS[track]["bonus"][p["tracks"][track]]


def truck_steps(p: dict[str, Any]) -> int:
    """Steps the truck must drive this round: 1 + the Transportation bonus."""
    return SUP["base_steps"] + bonus(p, "transportation")


def income(p: dict[str, Any]) -> int:
    """Income this round: 4 + the Meals and Merchandise bonuses."""
    return SUP["base_income"] + bonus(p, "meals") + bonus(p, "merchandise")


def clone_player(p: dict[str, Any]) -> dict[str, Any]:
    """A copy of a player deep enough that a move may change any of its parts."""
    q = dict(p)
    q["zone"] = list(p["zone"])
    q["park"] = dict(p["park"])
    q["city"] = {k: dict(v) for k, v in p["city"].items()}
    q["tracks"] = dict(p["tracks"])
    q["truck"] = dict(p["truck"])
    q["card"] = dict(p["card"]) if p["card"] is not None else None
    return q


# ---------------------------------------------------------------- setup

def new_player(opts: dict[str, Any]) -> dict[str, Any]:
    """A player board: truck on City Hall, markers in the centres, 7 silver (Setup 4-5)."""
    silver = SUP["silver_start"]
    card = None
    if opts["starting_credit_card"]:
        # Chinese edition: the card is there from the start with 3 of the 7 silver on it.
        card = {"silver": SUP["card_silver_slots"], "gold": 0}
        silver -= SUP["card_silver_slots"]
    return {
        "silver": silver, "card": card, "zone": [None, None],
        "park": {c: 0 for c in PARK_KEYS},
        "city": {"0,0": {"t": D.CITY_HALL, "token": None, "worker": None}},
        "tracks": {t: 0 for t in D.TYPES},
        "truck": {"at": "0,0", "prev": None, "left": 0},
        "done": False, "passed": False, "banks": 0, "banks_this_round": 0,
        "diamonds": 0, "garbage_cleared": 0, "coins_collected": 0,
    }


def setup_state(players: int, opts: dict[str, Any], seed: int) -> State:
    """Setup 1-6: starting market, reduced goods stack and bag, boards, random start player."""
    if players not in D.REMOVAL:
        raise ValueError("Fortune City is for 2 to 4 players")
    rng = Rng.from_seed(seed, "fortune-city")
    removal = D.REMOVAL[players]
    box: list[str] = []
    for t in D.TYPES:
        for price in removal["prices"]:
            group = [x for x in D.STACK_TILES if D.TILES[x]["type"] == t and D.TILES[x]["price"] == price]
            box.append(rng.choice(group))
    stack = rng.shuffled([x for x in D.STACK_TILES if x not in box])
    bag: list[str] = []
    for colour, count in D.CITIZENS_IN_BOX.items():
        used = sum(1 for x in D.STARTING if D.CITIZEN_OF[D.TILES[x]["type"]] == colour)
        bag += [colour] * (count - used - removal["citizens"])
    bag = rng.shuffled(bag)
    if len(bag) != len(stack):
        raise ValueError("citizen bag and goods stack differ in size; check data/game.toml")
    market = [{"tile": x, "citizen": D.CITIZEN_OF[D.TILES[x]["type"]]} for x in D.STARTING]
    start = rng.below(players)
    return {
        "n": players, "opts": dict(opts), "phase": "actions", "round": 1, "final": False,
        "start": start, "turn": start, "market": market, "stack": stack, "bag": bag,
        "box": sorted(box), "returned": [], "banks": SUP["bank_count"], "vips": SUP["vip_count"],
        "p": [new_player(opts) for _ in range(players)], "last": None, "round_end": None,
        "rng": rng.state,
    }


# ---------------------------------------------------------------- who acts, what is legal

def to_act(state: State) -> list[int]:
    """The seat whose turn it is (actions), every seat not yet done (hire, truck), or none."""
    if state["phase"] == "actions":
        return [state["turn"]]
    if state["phase"] in ("hire", "truck"):
        return [i for i, p in enumerate(state["p"]) if not p["done"]]
    return []


def pay_options(state: State, p: dict[str, Any], price: int) -> list[dict[str, Any]]:
    """Ways to pay `price`: silver with `card` of it from the credit card, or one gold coin."""
    out: list[dict[str, Any]] = []
    card = p["card"]
    on_card = card["silver"] if card else 0
    for c in range(max(0, price - p["silver"]), min(on_card, price) + 1):
        out.append({"card": c})
    if card and card["gold"] > 0 and not (state["opts"]["gold_after_hand_silver"] and p["silver"] > 0):
        out.append({"gold": True})
    return out


def placements(p: dict[str, Any], tile: str) -> list[str]:
    """Cells where `tile` may be built: above the park row, next to the city, and no orthogonal
    neighbour of the same border colour (banks therefore never touch City Hall or a bank)."""
    city = p["city"]
    colour = D.type_of(tile)
    out = set()
    for k in city:
        for n in neighbours(k):
            if n in city or n in out or xy(n)[1] < D.LOWEST_ROW:
                continue
            if all(m not in city or D.type_of(city[m]["t"]) != colour for m in neighbours(n)):
                out.add(n)
    return sorted(out, key=lambda k: (xy(k)[1], xy(k)[0]))


def hire_spots(p: dict[str, Any]) -> list[tuple[str, str]]:
    """(citizen, cell) pairs: a park citizen into an empty building of its colour, a VIP into any."""
    out = []
    for k, cell in p["city"].items():
        if cell["worker"] is not None or cell["t"] in (D.CITY_HALL, D.BANK):
            continue
        colour = D.CITIZEN_OF[D.type_of(cell["t"])]
        if p["park"][colour] > 0:
            out.append((colour, k))
        if p["park"][D.VIP] > 0:
            out.append((D.VIP, k))
    return out


def drive_targets(p: dict[str, Any]) -> list[str]:
    """Squares the truck may enter next: orthogonal city squares, never the one it just left."""
    truck = p["truck"]
    if truck["left"] <= 0:
        return []
    return [n for n in neighbours(truck["at"]) if n in p["city"] and n != truck["prev"]]


def _at(k: str) -> list[int]:
    x, y = xy(k)
    return [x, y]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    if seat not in to_act(state):
        return []
    p = state["p"][seat]
    phase = state["phase"]
    if phase == "hire":
        return [{"type": "hire", "citizen": c, "at": _at(k)} for c, k in hire_spots(p)] + [{"type": "done"}]
    if phase == "truck":
        return [{"type": "drive", "to": _at(k)} for k in drive_targets(p)]
    moves: list[Move] = []
    full = None not in p["zone"]
    for i, slot in enumerate(state["market"]):
        pays = pay_options(state, p, D.TILES[slot["tile"]]["price"])
        for ret in ((0, 1) if full else (None,)):
            for pay in pays:
                m = {"type": "buy", "slot": i, **pay}
                if ret is not None:
                    m["return"] = ret
                moves.append(m)
    if state["banks"] > 0 and p["banks"] < SUP["bank_limit"]:
        pays = pay_options(state, p, SUP["bank_price"])
        if pays:
            for k in placements(p, D.BANK):
                moves += [{"type": "bank", "at": _at(k), **pay} for pay in pays]
    for z, tile in enumerate(p["zone"]):
        if tile is None:
            continue
        pays = pay_options(state, p, D.TILES[tile]["price"])
        if pays:
            for k in placements(p, tile):
                moves += [{"type": "construct", "zone": z, "at": _at(k), **pay} for pay in pays]
    if state["vips"] > 0:
        moves += [{"type": "vip", **pay} for pay in pay_options(state, p, SUP["vip_price"])]
    moves.append({"type": "pass"})
    return moves


# ---------------------------------------------------------------- checks (IllegalMove reasons)

_KEYS = {
    "buy": ({"type", "slot"}, {"return"}),
    "bank": ({"type", "at"}, set()),
    "construct": ({"type", "zone", "at"}, set()),
    "vip": ({"type"}, set()),
    "pass": ({"type"}, set()),
    "hire": ({"type", "citizen", "at"}, set()),
    "done": ({"type"}, set()),
    "drive": ({"type", "to"}, set()),
}
_PAYING = {"buy", "bank", "construct", "vip"}
_PHASE_OF = {"buy": "actions", "bank": "actions", "construct": "actions", "vip": "actions",
             "pass": "actions", "hire": "hire", "done": "hire", "drive": "truck"}
_PHASE_NAME = {"actions": "the Player Actions phase", "hire": "the Hire Citizens phase",
               "truck": "the Move Delivery Truck phase", "over": "the end of the game"}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cell(v: Any, what: str) -> str:
    if not (isinstance(v, list) and len(v) == 2 and all(_int(c) for c in v)):
        raise IllegalMove(f"{what} must be a square given as [x, y].")
    return key(v[0], v[1])


def _check_shape(move: Any) -> str:
    if not isinstance(move, dict) or move.get("type") not in _KEYS:
        raise IllegalMove("A move must be one of: buy, bank, construct, vip, pass, hire, done, drive.")
    kind = move["type"]
    need, optional = _KEYS[kind]
    if kind in _PAYING:
        optional = optional | {"card", "gold"}
    keys = set(move)
    if not need <= keys or not keys <= need | optional:
        raise IllegalMove(f"A {kind} move has the fields {sorted(need)}"
                          + (" plus how it is paid (card or gold)." if kind in _PAYING else "."))
    return kind


def _check_pay(state: State, p: dict[str, Any], move: Move, price: int) -> None:
    """Paying: silver from hand and/or credit card, or one gold coin for the whole action."""
    if "gold" in move:
        if move["gold"] is not True or "card" in move:
            raise IllegalMove("Pay either with one gold coin (gold: true) or with silver (card: "
                              "the silver taken from the credit card), not both.")
        card = p["card"]
        if not card or card["gold"] < 1:
            raise IllegalMove("You have no gold coin: gold comes only from credit-card rewards.")
        if state["opts"]["gold_after_hand_silver"] and p["silver"] > 0:
            raise IllegalMove("With the hand-silver-first variant, gold may be spent only once "
                              "no silver is left in your hand.")
        return
    c = move.get("card")
    if not _int(c) or c < 0:
        raise IllegalMove("Say how much silver comes from your credit card (card: 0 or more), or pay with gold.")
    on_card = p["card"]["silver"] if p["card"] else 0
    if c > on_card:
        raise IllegalMove(f"Your credit card holds only {on_card} silver.")
    if c > price:
        raise IllegalMove(f"The price is {price} silver; take no more than that from the credit card.")
    if price - c > p["silver"]:
        raise IllegalMove(f"The price is {price} silver and you cannot pay it: {p['silver']} in "
                          f"hand and {c} from the card.")


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove with the rule that forbids `move` for `seat` now; return if legal."""
    if state["phase"] == "over":
        raise IllegalMove("The game is over: no more moves.")
    kind = _check_shape(move)
    if seat not in to_act(state):
        if state["phase"] == "actions":
            raise IllegalMove("Player actions go in turn: it is not your turn.")
        raise IllegalMove(f"You have already finished {_PHASE_NAME[state['phase']]}.")
    if kind == "done" and state["phase"] == "truck":
        raise IllegalMove("The delivery truck must use all its steps; it stops early only on a "
                          "square with no legal move left.")
    if _PHASE_OF[kind] != state["phase"]:
        raise IllegalMove(f"A {kind} move belongs to {_PHASE_NAME[_PHASE_OF[kind]]}; "
                          f"this is {_PHASE_NAME[state['phase']]}.")
    p = state["p"][seat]
    if kind == "buy":
        i = move["slot"]
        if not _int(i) or not 0 <= i < len(state["market"]):
            raise IllegalMove(f"Buy Goods: choose a tile in the market (slot 0 to {len(state['market']) - 1}).")
        full = None not in p["zone"]
        if full and move.get("return") not in (0, 1) or full and not _int(move.get("return")):
            raise IllegalMove("Both construction zones are full: to buy, return one of their tiles "
                              "to the box (return: 0 or 1).")
        if not full and "return" in move:
            raise IllegalMove("A tile goes back to the box only when both construction zones are full.")
        _check_pay(state, p, move, D.TILES[state["market"][i]["tile"]]["price"])
    elif kind == "bank":
        if state["banks"] <= 0:
            raise IllegalMove("No bank buildings are left in the supply.")
        if p["banks"] >= SUP["bank_limit"]:
            raise IllegalMove(f"Cities can have up to {SUP['bank_limit']} banks.")
        _check_place(p, D.BANK, _cell(move["at"], "at"))
        _check_pay(state, p, move, SUP["bank_price"])
    elif kind == "construct":
        z = move["zone"]
        if not _int(z) or z not in (0, 1) or p["zone"][z] is None:
            raise IllegalMove("Construct Buildings: choose a goods tile in one of your construction zones.")
        _check_place(p, p["zone"][z], _cell(move["at"], "at"))
        _check_pay(state, p, move, D.TILES[p["zone"][z]]["price"])
    elif kind == "vip":
        if state["vips"] <= 0:
            raise IllegalMove("No VIP citizens are left on the board.")
        _check_pay(state, p, move, SUP["vip_price"])
    elif kind == "hire":
        _check_hire(p, move)
    elif kind == "drive":
        _check_drive(p, _cell(move["to"], "to"))


def _check_place(p: dict[str, Any], tile: str, k: str) -> None:
    """Construct Buildings placement rules, each with its own sentence."""
    city = p["city"]
    x, y = xy(k)
    if k in city:
        raise IllegalMove("That square already holds a building; buildings are never moved or stacked.")
    if y < D.LOWEST_ROW:
        raise IllegalMove("No building may be built at or below the row of the park and construction zones.")
    if not any(n in city for n in neighbours(k)):
        raise IllegalMove("All buildings must be connected: build next to City Hall or another building.")
    colour = D.type_of(tile)
    for n in neighbours(k):
        if n in city and D.type_of(city[n]["t"]) == colour:
            if tile == D.BANK:
                raise IllegalMove("Banks cannot be placed next to City Hall or another bank.")
            raise IllegalMove("Buildings with the same border colour cannot be placed next to each other.")


def _check_hire(p: dict[str, Any], move: Move) -> None:
    c = move["citizen"]
    if c not in PARK_KEYS:
        raise IllegalMove(f"A citizen is one of {', '.join(PARK_KEYS)}.")
    if p["park"][c] <= 0:
        raise IllegalMove(f"You have no {c} citizen in your park.")
    k = _cell(move["at"], "at")
    cell = p["city"].get(k)
    if cell is None or cell["t"] == D.CITY_HALL:
        raise IllegalMove("Citizens take up work in buildings of your city.")
    if cell["t"] == D.BANK:
        raise IllegalMove("Banks employ no citizens: no citizen colour and no expense track match them.")
    if cell["worker"] is not None:
        raise IllegalMove("Every building can only employ 1 citizen.")
    if c != D.VIP and D.CITIZEN_OF[D.type_of(cell["t"])] != c:
        raise IllegalMove("A citizen works only in a building of its own colour (a VIP in any).")


def _check_drive(p: dict[str, Any], k: str) -> None:
    truck = p["truck"]
    if k not in neighbours(truck["at"]):
        raise IllegalMove("The delivery truck moves one orthogonal square at a time, never diagonally.")
    if k not in p["city"]:
        raise IllegalMove("The delivery truck drives only on City Hall and your buildings.")
    if k == truck["prev"]:
        raise IllegalMove("The delivery truck may not move straight back to the square it came from.")


# ---------------------------------------------------------------- applying moves

def _pay(p: dict[str, Any], move: Move, price: int) -> dict[str, int]:
    """Take the payment; return what was paid (for the log and `last`)."""
    if move.get("gold"):
        p["card"]["gold"] -= 1
        return {"gold": 1}
    c = move["card"]
    if c:
        p["card"]["silver"] -= c
    p["silver"] -= price - c
    return {"card": c, "hand": price - c}


def produce(city: dict[str, dict[str, Any]], k: str) -> list[str]:
    """Production on construction: the new building's token, and a token on every orthogonal
    neighbour whose production spot is empty (City Hall has none). Returns the cells filled."""
    filled = []
    for c in [k, *neighbours(k)]:
        cell = city.get(c)
        if cell is None or cell["token"] is not None:
            continue
        token = D.production_of(cell["t"])
        if token is not None:
            cell["token"] = token
            filled.append(c)
    return filled


def apply_move(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move` (checked first; the input is never changed)."""
    check(state, seat, move)
    s = dict(state)
    s["p"] = list(state["p"])
    p = s["p"][seat] = clone_player(state["p"][seat])
    kind = move["type"]
    last: dict[str, Any] = {"seat": seat, "move": move, "round": state["round"]}
    if kind == "buy":
        s["market"] = list(state["market"])
        slot = s["market"].pop(move["slot"])
        last["paid"] = _pay(p, move, D.TILES[slot["tile"]]["price"])
        last["tile"], last["citizen"] = slot["tile"], slot["citizen"]
        if "return" in move:
            last["returned"] = p["zone"][move["return"]]
            s["returned"] = [*state["returned"], p["zone"][move["return"]]]
            p["zone"][move["return"]] = None
        p["zone"][p["zone"].index(None)] = slot["tile"]
        p["park"][slot["citizen"]] += 1
    elif kind == "bank":
        last["paid"] = _pay(p, move, SUP["bank_price"])
        k = key(*move["at"])
        p["city"][k] = {"t": D.BANK, "token": None, "worker": None}
        last["produced"] = produce(p["city"], k)
        p["banks"] += 1
        p["banks_this_round"] += 1
        s["banks"] = state["banks"] - 1
        if p["card"] is None:
            p["card"] = {"silver": 0, "gold": 0}  # the first bank brings the credit card
    elif kind == "construct":
        tile = p["zone"][move["zone"]]
        last["paid"] = _pay(p, move, D.TILES[tile]["price"])
        last["tile"] = tile
        p["zone"][move["zone"]] = None
        k = key(*move["at"])
        p["city"][k] = {"t": tile, "token": None, "worker": None}
        last["produced"] = produce(p["city"], k)
    elif kind == "vip":
        last["paid"] = _pay(p, move, SUP["vip_price"])
        p["park"][D.VIP] += 1
        s["vips"] = state["vips"] - 1
    elif kind == "pass":
        p["passed"] = True
    elif kind == "hire":
        cell = p["city"][key(*move["at"])]
        cell["worker"] = move["citizen"]
        p["park"][move["citizen"]] -= 1
        track = D.type_of(cell["t"])
        last["tile"], last["track"] = cell["t"], track
        last["from"] = p["tracks"][track]
        p["tracks"][track] = min(SUP["track_max"], p["tracks"][track] + 1)
        last["to"] = p["tracks"][track]
        if not hire_spots(p):
            p["done"] = True
    elif kind == "done":
        p["done"] = True
    elif kind == "drive":
        got = _drive(p, key(*move["to"]))
        last["token"], last["tile"] = got["token"], got["tile"]
        s["last"] = last
        _forced_drives(s, [seat])
    s["last"] = last
    return _advance(s, seat)


def _drive(p: dict[str, Any], k: str) -> dict[str, Any]:
    """One truck step into `k`: collect its token (coins and diamonds to the player, garbage back
    to the supply); a truck out of steps or at a dead end is done."""
    truck = p["truck"]
    truck["prev"], truck["at"] = truck["at"], k
    truck["left"] -= 1
    cell = p["city"][k]
    token = cell["token"]
    if token is not None:
        cell["token"] = None
        if token == "diamond":
            p["diamonds"] += 1
        elif token == "garbage":
            p["garbage_cleared"] += 1
        else:
            p["silver"] += D.PRODUCTIONS[token]
            p["coins_collected"] += D.PRODUCTIONS[token]
    if not drive_targets(p):
        p["done"] = True  # steps used up, or a dead end ends the movement at once
    return {"token": token, "tile": cell["t"]}


def _auto(s: State, event: dict[str, Any]) -> None:
    """Record a step the rules took by themselves (one possible answer) in `last`."""
    if s["last"] is None:
        s["last"] = {"seat": event["seat"], "move": None, "round": s["round"]}
    s["last"].setdefault("auto", []).append(event)


def _forced_drives(s: State, seats: list[int]) -> None:
    """A truck step with exactly one legal square is taken at once (nothing to decide)."""
    for i in seats:
        p = s["p"][i]
        while not p["done"]:
            targets = drive_targets(p)
            if len(targets) != 1:
                break
            got = _drive(p, targets[0])
            _auto(s, {"seat": i, "kind": "drive", "to": _at(targets[0]), **got})


def can_act(s: State, p: dict[str, Any]) -> bool:
    """Whether a player can pay for any action now (otherwise passing is the only move)."""
    if any(pay_options(s, p, D.TILES[m["tile"]]["price"]) for m in s["market"]):
        return True
    if s["vips"] > 0 and pay_options(s, p, SUP["vip_price"]):
        return True
    for t in p["zone"]:
        if t is not None and pay_options(s, p, D.TILES[t]["price"]) and placements(p, t):
            return True
    return (s["banks"] > 0 and p["banks"] < SUP["bank_limit"]
            and bool(pay_options(s, p, SUP["bank_price"])) and bool(placements(p, D.BANK)))


# ---------------------------------------------------------------- phase flow

def _advance(s: State, seat: int) -> State:
    """Move the game on after a move: next turn, or the next phase once everyone is through."""
    if s["phase"] == "actions":
        return _seek_turn(s, seat + 1)
    if any(not p["done"] for p in s["p"]):
        return s
    if s["phase"] == "hire":
        return _start_truck(s)
    return _end_round(s)


def _seek_turn(s: State, first: int) -> State:
    """The next seat clockwise from `first` that has not passed takes the turn; one that can pay
    for nothing passes at once (its only move); when all have passed, hiring starts."""
    n = s["n"]
    for step in range(n):
        nxt = (first + step) % n
        p = s["p"][nxt]
        if p["passed"]:
            continue
        if not can_act(s, p):
            s["p"] = list(s["p"])
            s["p"][nxt] = {**p, "passed": True}
            _auto(s, {"seat": nxt, "kind": "pass"})
            continue
        s["turn"] = nxt
        return s
    return _start_hire(s)


def _start_hire(s: State) -> State:
    """Hire Citizens, all seats at once; a seat with nobody to place is done at once."""
    s["phase"] = "hire"
    s["turn"] = None
    s["p"] = [clone_player(p) for p in s["p"]]
    for p in s["p"]:
        p["done"] = not hire_spots(p)
    if all(p["done"] for p in s["p"]):
        return _start_truck(s)
    return s


def _start_truck(s: State) -> State:
    """Move Delivery Truck, all seats at once: 1 + Transportation bonus steps from where it stopped."""
    s["phase"] = "truck"
    s["p"] = [clone_player(p) for p in s["p"]]
    for p in s["p"]:
        p["truck"]["left"] = truck_steps(p)
        p["truck"]["prev"] = None
        p["done"] = not drive_targets(p)
    _forced_drives(s, list(range(s["n"])))
    if all(p["done"] for p in s["p"]):
        return _end_round(s)
    return s


def _end_round(s: State) -> State:
    """After the trucks: final scoring in the last round; else income, credit-card rewards,
    market refill and the start marker passing left."""
    if s["final"]:
        s["phase"] = "over"
        s["turn"] = None
        return s
    s["p"] = [clone_player(p) for p in s["p"]]
    summary = []
    for p in s["p"]:
        got = income(p)
        p["silver"] += got
        row = {"income": got, "card_silver": 0, "gold": 0}
        if p["banks_this_round"] and p["card"] is not None:
            # Credit-card rewards: vacant silver locations refilled; 1 gold per bank built this
            # round, up to the 2 gold locations (NOTES decision 6).
            row["card_silver"] = SUP["card_silver_slots"] - p["card"]["silver"]
            p["card"]["silver"] = SUP["card_silver_slots"]
            gold = min(SUP["card_gold_slots"], p["card"]["gold"] + SUP["card_refill_gold"] * p["banks_this_round"])
            row["gold"] = gold - p["card"]["gold"]
            p["card"]["gold"] = gold
        p["banks_this_round"] = 0
        p["passed"] = False
        p["done"] = False
        summary.append(row)
    _refill(s)
    s["round_end"] = {"round": s["round"], "players": summary}
    s["round"] += 1
    s["start"] = (s["start"] + 1) % s["n"]
    s["turn"] = s["start"]
    s["phase"] = "actions"
    return _seek_turn(s, s["start"])


def _refill(s: State) -> None:
    """Refill the market to players + 3, each new tile with a citizen drawn from the bag. If the
    stack cannot fill it (or is empty), the rest goes out and the next round is the last; round
    `max_rounds` is always the last (a safeguard against a table where nobody buys)."""
    need = s["n"] + SUP["market_extra"] - len(s["market"])
    stack, bag = list(s["stack"]), list(s["bag"])
    if len(stack) < need or not stack or s["round"] + 1 >= SUP["max_rounds"]:
        s["final"] = True
    market = list(s["market"])
    rng = Rng(s["rng"])
    for _ in range(min(need, len(stack))):
        tile = stack.pop()
        citizen = bag.pop(rng.below(len(bag)))  # drawn at random from the bag
        market.append({"tile": tile, "citizen": citizen})
    s["rng"] = rng.state
    s["market"], s["stack"], s["bag"] = market, stack, bag
