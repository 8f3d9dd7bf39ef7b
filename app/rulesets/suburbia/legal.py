"""Who acts, every legal move, and the check that names the rule a bad move breaks."""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints are plain Python (no-ops)
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

from app.engine.memo import latest
from app.engine.ruleset import IllegalMove
from app.rulesets.suburbia.geo import borough, tile_cost
from app.rulesets.suburbia.hexes import frontier
from app.rulesets.suburbia.market import discard_slots, surcharges
from app.rulesets.suburbia.tables import BASIC_IDS, KINDS, SURCHARGES

State = dict[str, Any]
Move = dict[str, Any]

MOVE_TYPES = ("keep_goal", "buy", "lake", "basic", "invest", "discard", "pass")


_FIELDS = {
    "keep_goal": (),
    "buy": ("slot", "at"),
    "lake": ("slot", "at"),
    "basic": ("tile", "at"),
    "invest": ("at",),
    "discard": ("slot",),
    "pass": (),
}


def public_fields(move: Move) -> Move:
    """The rule fields of a move anyone may see (a kept goal stays secret; stray keys sent
    along with a move are dropped)."""
    kind = move.get("type") if isinstance(move, dict) else None
    if kind not in _FIELDS:
        return {"type": kind if isinstance(kind, str) else None}
    return {"type": kind, **{k: move[k] for k in _FIELDS[kind] if k in move}}


def to_act(state: State) -> list[int]:
    """Every seat still choosing a goal, else the seat whose turn it is; none once over."""
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "choose_goal":
        return [i for i, g in enumerate(state["secret"]) if g["kept"] is None]
    return [state["turn"]]


def _placements(state: State, seat: int) -> list[list[int]]:
    return borough(state["p"][seat]["tiles"]).front


# A move family: a move type and, per rule field, the values allowed; every combination of
# them is legal. `families` is the one source of truth: `legal_moves` expands it, `check`
# accepts a move only if it belongs to it (and only then asks which rule to name).
Family = tuple[str, dict[str, list[Any]]]


# _COST, _BUY, _LAKE and _BASIC are typed module variables, compiled: read without a lookup by name.
_COST = cython.declare(dict, {k.id: k.cost for k in KINDS.values()})
# The placing choices turn_options lists, made once (it runs every turn of every playout).
_SLOTS = range(max(len(extra) for extra in SURCHARGES.values()))
_BUY = cython.declare(tuple, tuple(("buy", "slot", slot) for slot in _SLOTS))
_LAKE = cython.declare(tuple, tuple(("lake", "slot", slot) for slot in _SLOTS))
# Per basic tile: its id, printed cost and placing choice (the costs looked up once).
_BASIC = cython.declare(tuple, tuple((t, _COST[t], ("basic", "tile", t)) for t in BASIC_IDS))


@cython.locals(
    p=dict,
    placing=list,
    invest=list,
    market=list,
    extras=list,
    basic=dict,
    money=cython.Py_ssize_t,
    extra=cython.Py_ssize_t,
    printed=cython.Py_ssize_t,
    slot=cython.Py_ssize_t,
    cost=cython.Py_ssize_t,
)
def turn_options(
    state: State, seat: int
) -> tuple[list[tuple[str, str, Any]], list[list[int]], list[list[int]]]:
    """The turn's choices in parts: the placing choices as (move type, field, value), each
    legal on every cell of the frontier; the frontier ([q, r] cells, sorted); and the tiles the
    seat may invest in. `turn_families` and `turn_pick` are both read from this."""
    p = state["p"][seat]
    money = p["money"]
    b = borough(p["tiles"])
    cells = b.front
    placing: list[tuple[str, str, Any]] = []
    if cells:
        market = state["market"]
        extras = SURCHARGES["dale" if state["mode"] == "dale" else "standard"]  # surcharges()
        for slot in range(len(market)):  # an index loop: cheaper than enumerate(zip()) here
            kind = market[slot]
            if kind is None:
                continue
            extra = extras[slot]
            printed = _COST[kind]
            if money >= printed + extra:  # printed price + the space's surcharge
                placing.append(_BUY[slot])
            if money >= extra:
                placing.append(_LAKE[slot])
        basic = state["basic"]
        for t, printed, choice in _BASIC:
            if basic[t] > 0 and money >= printed:
                placing.append(choice)
    invest = []  # a loop, not a comprehension, which pure Python calls as a function
    if p["markers"] > 0:
        for cost, at in b.investable(p["tiles"]):
            if money >= cost:
                invest.append(at)
    return placing, cells, invest


def turn_families(state: State, seat: int) -> list[Family]:
    """Buy, lake, basic and invest families for the seat whose turn it is (pass if none)."""
    placing, cells, invest = turn_options(state, seat)
    out: list[Family] = [(kind, {key: [value], "at": cells}) for kind, key, value in placing]
    if invest:
        out.append(("invest", {"at": invest}))
    return out or [("pass", {})]


@cython.locals(placing=list, cells=list, invest=list, i=cython.Py_ssize_t, placements=cython.Py_ssize_t)
def turn_pick(state: State, seat: int, rng: Any) -> Move:
    """The move `pick(turn_families(state, seat), rng)` draws, without building the families:
    placing choices outer and cells inner, then the investments (their expansion order)."""
    placing, cells, invest = turn_options(state, seat)
    placements = len(placing) * len(cells)
    i = rng.below(placements + len(invest) or 1)
    if i < placements:
        kind, key, value = placing[i // len(cells)]
        return {"type": kind, key: value, "at": cells[i % len(cells)]}
    if invest:
        return {"type": "invest", "at": invest[i - placements]}
    return {"type": "pass"}


@cython.locals(slots=list)
def discard_pick(state: State, seat: int, rng: Any) -> Move:
    """The move `pick(families(state, seat), rng)` draws in a discard phase (one family: the
    discardable slots), without building the family: a solo playout discards every turn."""
    slots = discard_slots(state, seat)
    return {"type": "discard", "slot": slots[rng.below(len(slots))]}


def families(state: State, seat: int) -> list[Family]:
    """Every legal move of `seat` now, as families (none when it is not the seat's turn).
    Listing the legal moves and then applying one of them (the usual sequence) computes them
    once while a memo is active (states are never changed in place)."""
    return latest(state, ("families", seat), _families, state, seat)


def _families(state: State, seat: int) -> list[Family]:
    """`families` without the memo (a playout changes its private state in place)."""
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "choose_goal":
        return [("keep_goal", {"goal": list(state["secret"][seat]["dealt"])})]
    if phase in ("discard", "extra_discard"):
        slots = discard_slots(state, seat)
        return [("discard", {"slot": slots})] if slots else []
    return turn_families(state, seat)


def _expand(family: Family) -> list[Move]:
    kind, fields = family
    if not fields:
        return [{"type": kind}]
    if len(fields) == 1:
        ((key, values),) = fields.items()
        return [{"type": kind, key: v} for v in values]
    (k1, v1), (k2, v2) = fields.items()
    return [{"type": kind, k1: a, k2: b} for a in v1 for b in v2]


def turn_moves(state: State, seat: int) -> list[Move]:
    """Buy, lake, basic and invest moves for the seat whose turn it is (pass if none)."""
    return [m for f in turn_families(state, seat) for m in _expand(f)]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    out: list[Move] = []
    for f in families(state, seat):
        out += _expand(f)
    return out


def random_move(state: State, seat: int, rng: Any) -> Move:
    """The move `rng.choice(legal_moves(state, seat))` would draw (same generator use, same
    move), found by indexing the families instead of building every move."""
    return pick(families(state, seat), rng)


def pick(fams: list[Family], rng: Any) -> Move:
    """The move `rng.choice` over the expansion of `fams` would draw, by index."""
    total = 0  # a loop, not a generator: a playout draws every discard here
    for _, fields in fams:
        total += _size(fields)
    i = rng.below(total)
    for kind, fields in fams:  # noqa: B007 - the kind the draw lands on is read after the loop
        size = _size(fields)
        if i < size:
            break
        i -= size
    move: Move = {"type": kind}
    if len(fields) == 2:  # _expand's order: the first field outer, the second inner
        (k1, v1), (k2, v2) = fields.items()
        move[k1], move[k2] = v1[i // len(v2)], v2[i % len(v2)]
    elif fields:
        ((key, values),) = fields.items()
        move[key] = values[i]
    return move


def _size(fields: dict[str, list[Any]]) -> int:
    if len(fields) == 2:
        v1, v2 = fields.values()
        return len(v1) * len(v2)
    return len(next(iter(fields.values()))) if fields else 1


def _allowed(value: Any, values: list[Any]) -> bool:
    """Whether a move field's value is one of the listed values, with strict JSON types (true
    is not 1, 1.0 is not 1). Field values are ints, strings or [q, r] integer pairs."""
    t = type(value)
    if t is int or t is str:
        return value in values
    if t is list:
        return len(value) == 2 and type(value[0]) is int and type(value[1]) is int and value in values
    return False


def is_legal(state: State, seat: int, move: Move) -> bool:
    """Whether `move` is one of `legal_moves(state, seat)`, without listing them all."""
    kind = move.get("type")
    for fam_kind, fields in families(state, seat):
        if fam_kind != kind or len(move) != len(fields) + 1:
            continue
        for key, values in fields.items():
            if key not in move or not _allowed(move[key], values):
                break
        else:
            return True
    return False


def _cell(move: Move) -> tuple[int, int]:
    at = move.get("at")
    if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
        raise IllegalMove("A tile's position must be given as [q, r] hex coordinates.")
    return (at[0], at[1])


def _check_placement(state: State, seat: int, move: Move) -> None:
    if _cell(move) not in set(frontier(state["p"][seat]["tiles"])):
        raise IllegalMove(
            "A tile must go on an empty space adjacent to one of your tiles, and never on the Borough Board."
        )


def _market_slot(state: State, move: Move) -> str:
    slot = move.get("slot")
    if type(slot) is not int or not 0 <= slot < len(state["market"]):
        raise IllegalMove("Choose one of the Real Estate Market spaces.")
    kind: str | None = state["market"][slot]
    if kind is None:
        raise IllegalMove("That Real Estate Market space holds no tile.")
    return kind


def check(state: State, seat: int, move: Move) -> None:
    """Raise IllegalMove naming the rule unless `move` is one of the legal moves listed for
    `seat` now (`families`); the sentence comes from the rule the move breaks."""
    kind = move.get("type") if isinstance(move, dict) else None
    if kind not in MOVE_TYPES:
        raise IllegalMove(
            "Unknown move: a turn is buy, lake, basic or invest (then discard); the start is keep_goal."
        )
    if is_legal(state, seat, move):
        return
    if state["phase"] == "over":
        raise IllegalMove("The game is over: final scoring has taken place.")
    if seat not in to_act(state):
        if state["phase"] == "choose_goal" and 0 <= seat < len(state["secret"]):
            raise IllegalMove(
                "You have already kept 1 of your 2 secret goals; play starts "
                "once every player has kept theirs."
            )
        raise IllegalMove("It is not your turn: players take turns in order from the Start Player.")
    _CHECKS[state["phase"]](state, seat, move)
    extra = sorted(set(move) - {"type", *_FIELDS[kind]})
    if extra:
        raise IllegalMove(
            f"A {kind} move has only the fields {', '.join(_FIELDS[kind]) or 'type'}; remove the others."
        )
    raise IllegalMove("That move is not one of your legal moves now: ask for the legal moves to see them.")


def _check_goal(state: State, seat: int, move: Move) -> None:
    if move["type"] != "keep_goal":
        raise IllegalMove("Before the first turn each player keeps 1 of the 2 secret goals dealt.")
    if move.get("goal") not in state["secret"][seat]["dealt"]:
        raise IllegalMove("You may keep only one of the two secret goals you were dealt.")


def _check_discard(state: State, seat: int, move: Move) -> None:
    if move["type"] != "discard":
        raise IllegalMove(
            "You must now discard a tile from the Real Estate Market (after a "
            "basic tile or an Investment Marker, or the Lone Architect's extra "
            "removal)."
        )
    _market_slot(state, move)
    if move["slot"] not in discard_slots(state, seat):
        raise IllegalMove(
            "Discarding costs the surcharge above the tile's market space, which you cannot afford."
        )


def _check_turn(state: State, seat: int, move: Move) -> None:
    _TURN_CHECKS.get(move["type"], _check_wrong_phase)(state, seat, move)


def _check_wrong_phase(state: State, seat: int, move: Move) -> None:
    raise IllegalMove(
        "On your turn take and place 1 tile or place 1 Investment Marker; "
        "discarding comes only after a basic tile or an investment."
    )


def _check_buy(state: State, seat: int, move: Move) -> None:
    kind = _market_slot(state, move)
    price = KINDS[kind].cost + surcharges(state)[move["slot"]]
    if state["p"][seat]["money"] < price:
        raise IllegalMove(
            "You cannot afford that tile: it costs its printed price plus the "
            "surcharge above its market space."
        )
    _check_placement(state, seat, move)


def _check_lake(state: State, seat: int, move: Move) -> None:
    _market_slot(state, move)
    if state["p"][seat]["money"] < surcharges(state)[move["slot"]]:
        raise IllegalMove("A lake costs the surcharge above its market space, which you cannot afford.")
    _check_placement(state, seat, move)


def _check_basic(state: State, seat: int, move: Move) -> None:
    b = move.get("tile")
    if b not in BASIC_IDS:
        raise IllegalMove("Basic tiles are Suburbs, Community Park and Heavy Factory.")
    if state["basic"][b] <= 0:
        raise IllegalMove("That basic tile has run out: basic tiles are limited.")
    if state["p"][seat]["money"] < KINDS[b].cost:
        raise IllegalMove("You cannot afford that basic tile's printed cost.")
    _check_placement(state, seat, move)


def _check_invest(state: State, seat: int, move: Move) -> None:
    p = state["p"][seat]
    cell = list(_cell(move))
    tile = next((t for t in p["tiles"] if t["at"] == cell), None)
    if p["markers"] <= 0:
        raise IllegalMove("You have no Investment Markers left.")
    if tile is None or tile["inv"]:
        raise IllegalMove("An Investment Marker goes on one of your tiles that does not already have one.")
    if p["money"] < tile_cost(tile):
        raise IllegalMove("Investing costs the tile's printed cost again, which you cannot afford.")


def _check_pass(state: State, seat: int, move: Move) -> None:
    if turn_moves(state, seat) != [{"type": "pass"}]:
        raise IllegalMove("You may pass only when you can neither take a tile nor invest.")


_TURN_CHECKS = {
    "buy": _check_buy,
    "lake": _check_lake,
    "basic": _check_basic,
    "invest": _check_invest,
    "pass": _check_pass,
}
_CHECKS = {
    "choose_goal": _check_goal,
    "play": _check_turn,
    "discard": _check_discard,
    "extra_discard": _check_discard,
}
