"""Fortune City rules: setup, whose turn, legal moves, move checks and the phase flow.

State is plain JSON. Cells are "x,y" keys (City Hall at "0,0"; y grows upwards, away from the park
row). `apply` copies only what a move changes, so untouched players stay the same objects (cheap
view diffs). Every IllegalMove reason names the rule and quotes only public facts.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import Any, Callable

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


_KEYS: dict[tuple[int, int], str] = {}


def _key(x: int, y: int) -> str:
    """`key(x, y)` remembered, for integer coordinates only (drawn or checked moves, neighbour
    arithmetic: a bool or float would share an int's entry): cheaper than formatting, and one
    string per cell lets city lookups match by identity."""
    try:
        return _KEYS[x, y]
    except KeyError:
        pass
    got = key(x, y)
    if len(_KEYS) < 65536:
        _KEYS[x, y] = got
    return got


# Cells recur all game long: their coordinates and neighbours are worked out once per key.
# (Lookups here and in the playout's caches use [] (under try when it nearly always hits) or
# `in` rather than .get: compiled, a .get call on a module-level dict costs a method lookup and
# a call, several times a subscript.)
_XY: dict[str, tuple[int, int]] = {}
_NEIGHBOURS: dict[str, tuple[str, ...]] = {}


def xy(k: str) -> tuple[int, int]:
    """The coordinates of a city-dict key."""
    try:
        return _XY[k]
    except KeyError:
        pass
    a, b = k.split(",")
    got = (int(a), int(b))
    if len(_XY) < 65536:
        _XY[k] = got
    return got


def neighbours(k: str) -> tuple[str, ...]:
    """The four orthogonal neighbour keys of a cell."""
    try:
        return _NEIGHBOURS[k]
    except KeyError:
        pass
    # No generator expressions in the functions that run during play: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    x, y = xy(k)
    got = tuple([_key(x + dx, y + dy) for dx, dy in STEPS])
    if len(_NEIGHBOURS) < 65536:
        _NEIGHBOURS[k] = got
    return got


# Constants the playout reads on every move, looked up once (a module attribute or a table row
# costs a dict lookup each time).
_BONUS: dict[str, list[int]] = {t: D.TRACKS[t]["bonus"] for t in D.TRACKS}
_BASE_STEPS = SUP["base_steps"]
_BASE_INCOME = SUP["base_income"]


def bonus(p: dict[str, Any], track: str) -> int:
    """The bonus of the sector a player's marker is in now (rulebook: current sector only)."""
    return _BONUS[track][p["tracks"][track]]


def truck_steps(p: dict[str, Any]) -> int:
    """Steps the truck must drive this round: 1 + the Transportation bonus."""
    return _BASE_STEPS + bonus(p, "transportation")


def income(p: dict[str, Any]) -> int:
    """Income this round: 4 + the Meals and Merchandise bonuses."""
    return _BASE_INCOME + bonus(p, "meals") + bonus(p, "merchandise")


def clone_player(p: dict[str, Any]) -> dict[str, Any]:
    """A copy of a player deep enough that a move may change any of its parts. City squares are
    shared: a move that changes a square replaces it with a new dict (`_set_cell`), so the squares
    a move leaves alone stay the same objects (cheap view diffs)."""
    q = dict(p)
    q["zone"] = list(p["zone"])
    q["park"] = dict(p["park"])
    q["city"] = dict(p["city"])
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


# Worked out once (setup was 5-15 % of a random game's time): the stack tiles of each type and
# price in stack order, and the citizens of each colour the starting goods bring to the market.
_STACK_GROUP: dict[tuple[str, int], list[str]] = {}
for _x in D.STACK_TILES:
    _STACK_GROUP.setdefault((D.TILES[_x]["type"], D.TILES[_x]["price"]), []).append(_x)
_STARTING_CITIZENS = {c: sum(1 for x in D.STARTING if D.CITIZEN_OF[D.TILES[x]["type"]] == c)
                      for c in D.CITIZENS_IN_BOX}


def setup_state(players: int, opts: dict[str, Any], seed: int) -> State:
    """Setup 1-6: starting market, reduced goods stack and bag, boards, random start player."""
    if players not in D.REMOVAL:
        raise ValueError("Fortune City is for 2 to 4 players")
    rng = Rng.from_seed(seed, "fortune-city")
    removal = D.REMOVAL[players]
    box = [rng.choice(_STACK_GROUP[t, price]) for t in D.TYPES for price in removal["prices"]]
    removed = set(box)
    stack = rng.shuffled([x for x in D.STACK_TILES if x not in removed])
    bag: list[str] = []
    for colour, count in D.CITIZENS_IN_BOX.items():
        bag += [colour] * (count - _STARTING_CITIZENS[colour] - removal["citizens"])
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


def _purse(state: State, p: dict[str, Any]) -> tuple[int, int, bool]:
    """What a player may pay with now: hand silver, credit-card silver, and whether one gold coin
    may pay an action (with the hand-silver-first variant only once the hand is empty)."""
    card = p["card"]
    silver = p["silver"]
    if card is None:
        return silver, 0, False
    return silver, card["silver"], card["gold"] > 0 and not (state["opts"]["gold_after_hand_silver"]
                                                             and silver > 0)


def _purse_range(purse: tuple[int, int, bool], price: int) -> tuple[int, int, bool]:
    """Paying `price` from `purse`: the least and most silver the credit card may give, and
    whether one gold coin may pay instead."""
    silver, on_card, gold = purse
    return max(0, price - silver), min(on_card, price), gold


# Payment lists per (purse, price), shared between draws: a move copies the chosen payment into
# a new dict and never changes it. Purses repeat all game long (a few silver, 0-3 on the card).
_PAYS: dict[tuple[tuple[int, int, bool], int], tuple[dict[str, Any], ...]] = {}


def _pays(purse: tuple[int, int, bool], price: int) -> tuple[dict[str, Any], ...]:
    """`pay_options` for a purse, as a shared tuple (read only)."""
    try:
        return _PAYS[purse, price]
    except KeyError:
        pass
    low, high, gold = _purse_range(purse, price)
    got = tuple([{"card": c} for c in range(low, high + 1)] + ([{"gold": True}] if gold else []))
    if len(_PAYS) < 4096:
        _PAYS[purse, price] = got
    return got


# Per purse, the payment lists of every price an action can have (tiles, bank, VIP).
_PRICES = sorted({*(r["price"] for r in D.TILES.values()), SUP["bank_price"], SUP["vip_price"]})
_PAY_TABLES: dict[tuple[int, int, bool], dict[int, tuple[dict[str, Any], ...]]] = {}


def _pay_table(purse: tuple[int, int, bool]) -> dict[int, tuple[dict[str, Any], ...]]:
    """`_pays` for every price, from one lookup per purse (shared, read only)."""
    try:
        return _PAY_TABLES[purse]
    except KeyError:
        pass
    got = {price: _pays(purse, price) for price in _PRICES}
    if len(_PAY_TABLES) < 4096:
        _PAY_TABLES[purse] = got
    return got


def pay_options(state: State, p: dict[str, Any], price: int) -> list[dict[str, Any]]:
    """Ways to pay `price`: silver with `card` of it from the credit card, or one gold coin."""
    return [dict(o) for o in _pays(_purse(state, p), price)]


def placements(p: dict[str, Any], tile: str) -> list[str]:
    """Cells where `tile` may be built: above the park row, next to the city, and no orthogonal
    neighbour of the same border colour (banks therefore never touch City Hall or a bank)."""
    colour = D.TYPE_OF_TILE[tile]
    return [n for n, near in frontier(p["city"]) if colour not in near]


def frontier(city: dict[str, dict[str, Any]]) -> list[tuple[str, frozenset[str]]]:
    """The empty cells next to the city above the park row, row by row from the bottom, each
    with the border colours of its built neighbours."""
    near: dict[str, frozenset[str]] = {}
    for k in city:
        for n in neighbours(k):
            if n not in near:
                colours = frontier_colours(city, n)
                if colours is not None:
                    near[n] = colours
    return sorted(near.items(), key=_row_major)


def frontier_colours(city: dict[str, dict[str, Any]], n: str) -> frozenset[str] | None:
    """The border colours around cell `n` if it is on the city's frontier (empty, above the park
    row, next to a building), else None."""
    if n in city or xy(n)[1] < _LOWEST_ROW:
        return None
    types = _TYPE_OF_TILE
    colours = frozenset([types[city[m]["t"]] for m in neighbours(n) if m in city])
    return colours or None


def _row_major(cell: tuple[str, Any]) -> tuple[int, int]:
    x, y = xy(cell[0])
    return y, x


def hire_spots(p: dict[str, Any]) -> list[tuple[str, str]]:
    """(citizen, cell) pairs: a park citizen into an empty building of its colour, a VIP into any."""
    out = []
    park = p["park"]
    vip = park[_VIP] > 0
    for k, cell in p["city"].items():
        if cell["worker"] is not None:
            continue
        colour = _CITIZEN_OF_TILE[cell["t"]]
        if colour is None:
            continue  # City Hall or a bank: they employ nobody
        if park[colour] > 0:
            out.append((colour, k))
        if vip:
            out.append((_VIP, k))
    return out


_VIP = D.VIP
_BANK = D.BANK
# the citizen colour a building employs; None for City Hall and banks, which employ nobody
_CITIZEN_OF_TILE: dict[str, str | None] = {**{t: D.CITIZEN_OF[r["type"]] for t, r in D.TILES.items()},
                                           D.BANK: None, D.CITY_HALL: None}
_TYPE_OF_TILE = D.TYPE_OF_TILE
_LOWEST_ROW = D.LOWEST_ROW
_PRICE = {t: r["price"] for t, r in D.TILES.items()}


def drive_targets(p: dict[str, Any]) -> list[str]:
    """Squares the truck may enter next: orthogonal city squares, never the one it just left."""
    truck = p["truck"]
    if truck["left"] <= 0:
        return []
    city, prev = p["city"], truck["prev"]
    return [n for n in neighbours(truck["at"]) if n in city and n != prev]


def _at(k: str) -> list[int]:
    x, y = xy(k)
    return [x, y]


class _Spots:
    """Lookups for reading a state: placements and hiring spots worked out afresh each time."""

    @staticmethod
    def spots(p: dict[str, Any], tile: str) -> list[str]:
        return placements(p, tile)

    @staticmethod
    def hires(p: dict[str, Any]) -> list[tuple[str, str]]:
        """`hire_spots(p)`."""
        return hire_spots(p)

    @staticmethod
    def hires_now(p: dict[str, Any], spots: list[tuple[str, str]]) -> None:
        """Told that `spots` are `hire_spots(p)` now (kept by the playout only)."""

    @staticmethod
    def targets(p: dict[str, Any]) -> list[str]:
        """`drive_targets(p)`."""
        return drive_targets(p)

    @staticmethod
    def targets_now(p: dict[str, Any], targets: list[str]) -> None:
        """Told that `targets` are `drive_targets(p)` now (kept by the playout only)."""


_FRESH = _Spots()

# A group of legal moves: how many, and how to build the j-th of them (0 <= j < count): the
# move is make(args, j). A tuple, not a partial: a draw builds every group and calls one.
Group = tuple[int, Callable[[Any, int], Move], Any]


def _paid(args: tuple[Move, tuple[dict[str, Any], ...]], j: int) -> Move:
    base, pays = args
    return {**base, **pays[j]}


def _buy(i: int, rets: tuple[int | None, ...], pays: list[dict[str, Any]], j: int) -> Move:
    ret = rets[j // len(pays)]
    m = {"type": "buy", "slot": i, **pays[j % len(pays)]}
    if ret is not None:
        m["return"] = ret
    return m


def _placed(args: tuple[Move, list[str], tuple[dict[str, Any], ...]], j: int) -> Move:
    base, cells, pays = args
    return {**base, "at": _at(cells[j // len(pays)]), **pays[j % len(pays)]}


def _hire(spots: list[tuple[str, str]], j: int) -> Move:
    if j == len(spots):
        return {"type": "done"}
    c, k = spots[j]
    return {"type": "hire", "citizen": c, "at": _at(k)}


def _drive_to(targets: list[str], j: int) -> Move:
    return {"type": "drive", "to": _at(targets[j])}


def move_groups(state: State, seat: int, w: Any = _FRESH) -> list[Group]:
    """The legal moves of `seat` in `legal_moves` order, as groups that build a move only when
    asked for it (a random draw builds one); `w.spots` looks up placements."""
    if seat not in to_act(state):
        return []
    return _groups(state, seat, w)[0]


def _groups(state: State, seat: int, w: Any) -> tuple[list[Group], int]:
    """`move_groups` of a seat that is due to act, and how many moves they hold in all."""
    p = state["p"][seat]
    phase = state["phase"]
    if phase == "hire":
        spots = w.hires(p)
        return [(len(spots) + 1, _hire, spots)], len(spots) + 1
    if phase == "truck":
        targets = w.targets(p)
        return ([(len(targets), _drive_to, targets)] if targets else []), len(targets)
    groups: list[Group] = []
    pays_at = _pay_table(_purse(state, p))
    zone = p["zone"]
    rets: tuple[int | None, ...] = _RETURN_ONE if None not in zone else _RETURN_NONE
    # the whole market as one group: slot by slot, each return choice, each payment
    slot_pays = [pays_at[_PRICE[slot["tile"]]] for slot in state["market"]]
    total = len(rets) * sum(map(len, slot_pays))
    if total:
        groups.append((total, _bought, (rets, slot_pays)))
    if state["banks"] > 0 and p["banks"] < _BANK_LIMIT:
        pays = pays_at[_BANK_PRICE]
        if pays:
            cells = w.spots(p, _BANK)
            if cells:
                count = len(cells) * len(pays)
                groups.append((count, _placed, (_BANK_MOVE, cells, pays)))
                total += count
    for z, tile in enumerate(zone):
        if tile is None:
            continue
        pays = pays_at[_PRICE[tile]]
        if pays:
            cells = w.spots(p, tile)
            if cells:
                count = len(cells) * len(pays)
                groups.append((count, _placed, (_CONSTRUCT_MOVE[z], cells, pays)))
                total += count
    if state["vips"] > 0:
        pays = pays_at[_VIP_PRICE]
        if pays:
            groups.append((len(pays), _paid, (_VIP_MOVE, pays)))
            total += len(pays)
    groups.append(_PASS_GROUP)
    return groups, total + 1


def _bought(args: tuple[tuple[int | None, ...], list[tuple[dict[str, Any], ...]]], j: int) -> Move:
    """The j-th buy of the market group: slots in order, `_buy`'s moves within a slot."""
    rets, slot_pays = args
    for i, pays in enumerate(slot_pays):
        count = len(rets) * len(pays)
        if j < count:
            return _buy(i, rets, pays, j)
        j -= count
    raise IndexError("j is beyond the market group")


# Read-only parts of moves (every move is a new dict built from them).
_RETURN_ONE: tuple[int | None, ...] = (0, 1)  # both zones full: a buy returns zone 0 or 1
_RETURN_NONE: tuple[int | None, ...] = (None,)
_BANK_MOVE: Move = {"type": "bank"}
_CONSTRUCT_MOVE: tuple[Move, ...] = ({"type": "construct", "zone": 0}, {"type": "construct", "zone": 1})
_VIP_MOVE: Move = {"type": "vip"}
_BANK_LIMIT = SUP["bank_limit"]
_BANK_PRICE = SUP["bank_price"]
_VIP_PRICE = SUP["vip_price"]


def _pass(args: None, j: int) -> Move:
    return {"type": "pass"}


_PASS_GROUP: Group = (1, _pass, None)


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    return [make(args, j) for count, make, args in move_groups(state, seat) for j in range(count)]


def draw_move(state: State, seat: int, rng: Rng, w: Any = _FRESH) -> Move:
    """The move `rng.choice(legal_moves(state, seat))` draws, building only that one move."""
    if seat not in to_act(state):
        rng.below(0)  # no legal move: refused as rng.choice([]) refuses
    return _draw(state, seat, rng.below, w)


def _draw(state: State, seat: int, below: Callable[[int], int], w: Any) -> Move:
    """`draw_move` for a seat known to be due to act (the playout's), drawing with `below`
    (the generator's `below`)."""
    groups, total = _groups(state, seat, w)
    j = below(total)
    for count, make, args in groups:
        if j < count:
            return make(args, j)
        j -= count
    raise AssertionError("unreachable: j is below the total count")


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
    if not (isinstance(v, list) and len(v) == 2 and _int(v[0]) and _int(v[1])):
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
    around = neighbours(k)
    if city.keys().isdisjoint(around):
        raise IllegalMove("All buildings must be connected: build next to City Hall or another building.")
    colour = D.type_of(tile)
    for n in around:
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


def _set_cell(city: dict[str, dict[str, Any]], k: str, field: str, value: Any) -> None:
    """Change one field of a city square by replacing the square (squares are shared between
    states, see `clone_player`)."""
    city[k] = {**city[k], field: value}


_PRODUCTION = {t: D.production_of(t) for t in D.TYPE_OF_TILE}  # every tile, banks, City Hall
_COINS = D.PRODUCTIONS  # coins a token is worth
_TRACK_MAX = SUP["track_max"]


def produce(city: dict[str, dict[str, Any]], k: str) -> list[str]:
    """Production on construction: the new building's token, and a token on every orthogonal
    neighbour whose production spot is empty (City Hall has none). Returns the cells filled."""
    filled = []
    for c in [k, *neighbours(k)]:
        if c not in city:
            continue
        cell = city[c]
        if cell["token"] is not None:
            continue
        token = _PRODUCTION[cell["t"]]
        if token is not None:
            _set_cell(city, c, "token", token)
            filled.append(c)
    return filled


class _CopyOnWrite(_Spots):
    """How `apply_move` writes: a player is copied the first time the move changes it, so the
    players a move leaves alone stay the same objects (cheap view diffs)."""

    def __init__(self, s: State) -> None:
        s["p"] = list(s["p"])
        self.players = s["p"]
        self.copied: set[int] = set()

    def player(self, i: int) -> dict[str, Any]:
        if i not in self.copied:
            self.players[i] = clone_player(self.players[i])
            self.copied.add(i)
        return self.players[i]  # type: ignore[no-any-return]


class _Frontier:
    """A city's frontier as the playout keeps it: the city size it describes, the border colours
    around each frontier cell, the cells in row-major order as (y, x, key, colours around), and
    placements per colour."""

    __slots__ = ("size", "order", "near", "by_colour")

    def __init__(self, city: dict[str, dict[str, Any]]) -> None:
        self.near = dict(frontier(city))
        self.order = [(*reversed(xy(n)), n, around) for n, around in self.near.items()]
        self.size = len(city)
        self.by_colour: dict[str, list[str]] = {}

    def grow(self, city: dict[str, dict[str, Any]]) -> None:
        """Follow the city's newest building (its last key): only that cell and its neighbours
        change, so the order is kept by insertion (cells found by halving: it is sorted, and no
        two cells share (y, x)) instead of sorting the whole frontier."""
        new = next(reversed(city))
        colour = _TYPE_OF_TILE[city[new]["t"]]
        near, order = self.near, self.order
        if new in near:
            del near[new]
            x, y = xy(new)
            del order[bisect_left(order, (y, x, new))]
        for n in neighbours(new):
            if n in near:
                # on the frontier already: one more built neighbour, of the new colour
                around = near[n]
                if colour not in around:
                    near[n] = around = around | {colour}
                    x, y = xy(n)
                    order[bisect_left(order, (y, x, n))] = (y, x, n, around)
                continue
            around = frontier_colours(city, n)
            if around is not None:  # newly on the frontier
                x, y = xy(n)
                insort(order, (y, x, n, around))
                near[n] = around
        self.size = len(city)
        self.by_colour = {}


class _InPlace:
    """How `playout` writes: its private copy of the state is changed in place; placements are
    remembered per city size (a city only grows, so its size names its layout), and a seat's
    hiring spots from the moment the rules last worked them out to its next draw."""

    __slots__ = ("players", "known", "hire_known", "truck_known")

    def __init__(self, s: State) -> None:
        self.players = s["p"]
        self.known: dict[int, _Frontier] = {}  # per city (by id): its frontier
        # per player (by id): hire_spots as the rules last worked them out (start of the hiring
        # phase, after each hire); only a hire by that player changes them within the phase
        self.hire_known: dict[int, list[tuple[str, str]]] = {}
        # per player (by id): drive_targets as the rules last worked them out (start of the
        # truck phase, after each step); only that player's steps change them within the phase
        self.truck_known: dict[int, list[str]] = {}

    def player(self, i: int) -> dict[str, Any]:
        return self.players[i]  # type: ignore[no-any-return]

    def hires(self, p: dict[str, Any]) -> list[tuple[str, str]]:
        """`hire_spots(p)`: the spots the rules were told of last, taken (a draw is followed by
        that seat's move, which tells anew), else worked out."""
        known = self.hire_known
        i = id(p)
        if i in known:
            got = known[i]
            del known[i]
            return got
        return hire_spots(p)

    def hires_now(self, p: dict[str, Any], spots: list[tuple[str, str]]) -> None:
        """Remember that `spots` are `hire_spots(p)` now."""
        self.hire_known[id(p)] = spots

    def targets(self, p: dict[str, Any]) -> list[str]:
        """`drive_targets(p)`: the squares the rules were told of last, else worked out."""
        known = self.truck_known
        i = id(p)
        return known[i] if i in known else drive_targets(p)

    def targets_now(self, p: dict[str, Any], targets: list[str]) -> None:
        """Remember that `targets` are `drive_targets(p)` now."""
        self.truck_known[id(p)] = targets

    def spots(self, p: dict[str, Any], tile: str) -> list[str]:
        city = p["city"]
        known = self.known
        i = id(city)
        f = known[i] if i in known else None
        if f is None or f.size != len(city):
            if f is not None and f.size + 1 == len(city):
                f.grow(city)  # one building more, the playout's only way for a city to change
            else:
                f = known[i] = _Frontier(city)
        colour = _TYPE_OF_TILE[tile]
        by_colour = f.by_colour
        if colour in by_colour:
            return by_colour[colour]  # type: ignore[no-any-return]
        got = by_colour[colour] = [n for _, _, n, around in f.order if colour not in around]
        return got


def apply_move(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move` (checked first; the input is never changed)."""
    check(state, seat, move)
    s = dict(state)
    _apply(s, seat, move, _CopyOnWrite(s))
    return s


def playout(state: State, rng: Rng) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    with `draw_move` as the random move: one private copy changed in place by the rules of
    `apply_move` (minus its check: every move drawn is legal)."""
    s = dict(state)
    s["p"] = [clone_player(p) for p in state["p"]]
    w = _InPlace(s)
    below = rng.below  # looked up once: two draws a move
    while True:
        phase = s["phase"]
        if phase == "actions":
            below(1)  # play_random's rng.choice(to_act) of the one seat in turn
            seat = s["turn"]
        elif phase == "over":
            return s
        else:
            seats = [i for i, p in enumerate(s["p"]) if not p["done"]]
            seat = seats[below(len(seats))]
        _apply(s, seat, _draw(s, seat, below, w), w)


def _apply(s: State, seat: int, move: Move, w: Any) -> None:
    """Play a checked move on `s` (a shallow copy the caller owns), writing players through `w`."""
    p = w.player(seat)
    kind = move["type"]
    last: dict[str, Any] = {"seat": seat, "move": move, "round": s["round"]}
    if kind == "buy":
        s["market"] = market = list(s["market"])
        slot = market.pop(move["slot"])
        last["paid"] = _pay(p, move, _PRICE[slot["tile"]])
        last["tile"], last["citizen"] = slot["tile"], slot["citizen"]
        if "return" in move:
            last["returned"] = p["zone"][move["return"]]
            s["returned"] = [*s["returned"], p["zone"][move["return"]]]
            p["zone"][move["return"]] = None
        p["zone"][p["zone"].index(None)] = slot["tile"]
        p["park"][slot["citizen"]] += 1
    elif kind == "bank":
        last["paid"] = _pay(p, move, _BANK_PRICE)
        at = move["at"]
        k = _key(at[0], at[1])
        p["city"][k] = {"t": _BANK, "token": None, "worker": None}
        last["produced"] = produce(p["city"], k)
        p["banks"] += 1
        p["banks_this_round"] += 1
        s["banks"] -= 1
        if p["card"] is None:
            p["card"] = {"silver": 0, "gold": 0}  # the first bank brings the credit card
    elif kind == "construct":
        tile = p["zone"][move["zone"]]
        last["paid"] = _pay(p, move, _PRICE[tile])
        last["tile"] = tile
        p["zone"][move["zone"]] = None
        at = move["at"]
        k = _key(at[0], at[1])
        p["city"][k] = {"t": tile, "token": None, "worker": None}
        last["produced"] = produce(p["city"], k)
    elif kind == "vip":
        last["paid"] = _pay(p, move, _VIP_PRICE)
        p["park"][_VIP] += 1
        s["vips"] -= 1
    elif kind == "pass":
        p["passed"] = True
    elif kind == "hire":
        at = move["at"]
        k = _key(at[0], at[1])
        _set_cell(p["city"], k, "worker", move["citizen"])
        cell = p["city"][k]
        p["park"][move["citizen"]] -= 1
        track = _TYPE_OF_TILE[cell["t"]]
        last["tile"], last["track"] = cell["t"], track
        last["from"] = p["tracks"][track]
        p["tracks"][track] = min(_TRACK_MAX, p["tracks"][track] + 1)
        last["to"] = p["tracks"][track]
        spots = hire_spots(p)
        w.hires_now(p, spots)
        if not spots:
            p["done"] = True
    elif kind == "done":
        p["done"] = True
    elif kind == "drive":
        to = move["to"]
        got = _drive(p, _key(to[0], to[1]), w)
        last["token"], last["tile"] = got["token"], got["tile"]
        s["last"] = last
        _forced_drives(s, [seat], w)
    s["last"] = last
    _advance(s, seat, w)


def _drive(p: dict[str, Any], k: str, w: Any) -> dict[str, Any]:
    """One truck step into `k`: collect its token (coins and diamonds to the player, garbage back
    to the supply); a truck out of steps or at a dead end is done."""
    truck = p["truck"]
    truck["prev"], truck["at"] = truck["at"], k
    truck["left"] -= 1
    cell = p["city"][k]
    token = cell["token"]
    if token is not None:
        _set_cell(p["city"], k, "token", None)
        if token == "diamond":
            p["diamonds"] += 1
        elif token == "garbage":
            p["garbage_cleared"] += 1
        else:
            p["silver"] += _COINS[token]
            p["coins_collected"] += _COINS[token]
    targets = drive_targets(p)
    w.targets_now(p, targets)
    if not targets:
        p["done"] = True  # steps used up, or a dead end ends the movement at once
    return {"token": token, "tile": cell["t"]}


def _auto(s: State, event: dict[str, Any]) -> None:
    """Record a step the rules took by themselves (one possible answer) in `last`."""
    if s["last"] is None:
        s["last"] = {"seat": event["seat"], "move": None, "round": s["round"]}
    s["last"].setdefault("auto", []).append(event)


def _forced_drives(s: State, seats: list[int], w: Any) -> None:
    """A truck step with exactly one legal square is taken at once (nothing to decide)."""
    for i in seats:
        p = w.player(i)
        while not p["done"]:
            targets = w.targets(p)
            if len(targets) != 1:
                break
            got = _drive(p, targets[0], w)
            _auto(s, {"seat": i, "kind": "drive", "to": _at(targets[0]), **got})


def can_act(s: State, p: dict[str, Any], w: Any = _FRESH) -> bool:
    """Whether a player can pay for any action now (otherwise passing is the only move)."""
    pays_at = _pay_table(_purse(s, p))  # an empty payment list: that price cannot be paid
    for m in s["market"]:
        if pays_at[_PRICE[m["tile"]]]:
            return True
    if s["vips"] > 0 and pays_at[_VIP_PRICE]:
        return True
    for t in p["zone"]:
        if t is not None and pays_at[_PRICE[t]] and w.spots(p, t):
            return True
    return (s["banks"] > 0 and p["banks"] < _BANK_LIMIT
            and bool(pays_at[_BANK_PRICE]) and bool(w.spots(p, _BANK)))


# ---------------------------------------------------------------- phase flow

def _all_done(s: State) -> bool:
    """Whether every seat is done with the phase."""
    for p in s["p"]:
        if not p["done"]:
            return False
    return True


def _advance(s: State, seat: int, w: Any) -> None:
    """Move the game on after a move: next turn, or the next phase once everyone is through."""
    if s["phase"] == "actions":
        _seek_turn(s, seat + 1, w)
    elif _all_done(s):
        if s["phase"] == "hire":
            _start_truck(s, w)
        else:
            _end_round(s, w)


def _seek_turn(s: State, first: int, w: Any) -> None:
    """The next seat clockwise from `first` that has not passed takes the turn; one that can pay
    for nothing passes at once (its only move); when all have passed, hiring starts."""
    n = s["n"]
    for step in range(n):
        nxt = (first + step) % n
        p = s["p"][nxt]
        if p["passed"]:
            continue
        if not can_act(s, p, w):
            w.player(nxt)["passed"] = True
            _auto(s, {"seat": nxt, "kind": "pass"})
            continue
        s["turn"] = nxt
        return
    _start_hire(s, w)


def _start_hire(s: State, w: Any) -> None:
    """Hire Citizens, all seats at once; a seat with nobody to place is done at once."""
    s["phase"] = "hire"
    s["turn"] = None
    for i in range(s["n"]):
        p = w.player(i)
        spots = hire_spots(p)
        w.hires_now(p, spots)
        p["done"] = not spots
    if _all_done(s):
        _start_truck(s, w)


def _start_truck(s: State, w: Any) -> None:
    """Move Delivery Truck, all seats at once: 1 + Transportation bonus steps from where it stopped."""
    s["phase"] = "truck"
    for i in range(s["n"]):
        p = w.player(i)
        p["truck"]["left"] = truck_steps(p)
        p["truck"]["prev"] = None
        targets = drive_targets(p)
        w.targets_now(p, targets)
        p["done"] = not targets
    _forced_drives(s, list(range(s["n"])), w)
    if _all_done(s):
        _end_round(s, w)


def _end_round(s: State, w: Any) -> None:
    """After the trucks: final scoring in the last round; else income, credit-card rewards,
    market refill and the start marker passing left."""
    if s["final"]:
        s["phase"] = "over"
        s["turn"] = None
        return
    summary = []
    for i in range(s["n"]):
        p = w.player(i)
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
    _seek_turn(s, s["start"], w)


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
