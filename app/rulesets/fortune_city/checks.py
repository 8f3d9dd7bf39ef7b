"""Move checks: each illegal move is refused with an IllegalMove naming the rule that forbids it,
quoting only public facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import BANK, PARK_KEYS, PRICE, key, neighbours, xy
from app.rulesets.fortune_city.legal import BANK_LIMIT, BANK_PRICE, VIP_PRICE, to_act
from app.rulesets.fortune_city.phases import PHASE_OF
from app.rulesets.fortune_city.state import Move, Player, State

# Each move type's required and optional fields (paying moves also take card or gold).
_FIELDS: dict[str, tuple[set[str], set[str]]] = {
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
_PHASE_NAME = {
    "actions": "the Player Actions phase",
    "hire": "the Hire Citizens phase",
    "truck": "the Move Delivery Truck phase",
    "over": "the end of the game",
}


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _cell(v: Any, what: str) -> str:
    if not (isinstance(v, list) and len(v) == 2 and _int(v[0]) and _int(v[1])):
        raise IllegalMove(f"{what} must be a square given as [x, y].")
    return key(v[0], v[1])


def _check_shape(move: Any) -> str:
    if not isinstance(move, dict) or move.get("type") not in _FIELDS:
        raise IllegalMove("A move must be one of: buy, bank, construct, vip, pass, hire, done, drive.")
    kind: str = move["type"]
    need, optional = _FIELDS[kind]
    if kind in _PAYING:
        optional = optional | {"card", "gold"}
    keys = set(move)
    if not need <= keys or not keys <= need | optional:
        raise IllegalMove(
            f"A {kind} move has the fields {sorted(need)}"
            + (" plus how it is paid (card or gold)." if kind in _PAYING else ".")
        )
    return kind


def _check_gold(state: State, p: Player, move: Move) -> None:
    """One gold coin pays a whole action, never mixed with silver."""
    if move["gold"] is not True or "card" in move:
        raise IllegalMove(
            "Pay either with one gold coin (gold: true) or with silver (card: "
            "the silver taken from the credit card), not both."
        )
    card = p["card"]
    if not card or card["gold"] < 1:
        raise IllegalMove("You have no gold coin: gold comes only from credit-card rewards.")
    if state["options"]["gold_after_hand_silver"] and p["silver"] > 0:
        raise IllegalMove(
            "With the hand-silver-first variant, gold may be spent only once no silver is left in your hand."
        )


def _check_pay(state: State, p: Player, move: Move, price: int) -> None:
    """Paying: silver from hand and/or credit card, or one gold coin for the whole action."""
    if "gold" in move:
        _check_gold(state, p, move)
        return
    c = move.get("card")
    if not isinstance(c, int) or isinstance(c, bool) or c < 0:
        raise IllegalMove(
            "Say how much silver comes from your credit card (card: 0 or more), or pay with gold."
        )
    on_card = p["card"]["silver"] if p["card"] else 0
    if c > on_card:
        raise IllegalMove(f"Your credit card holds only {on_card} silver.")
    if c > price:
        raise IllegalMove(f"The price is {price} silver; take no more than that from the credit card.")
    if price - c > p["silver"]:
        raise IllegalMove(
            f"The price is {price} silver and you cannot pay it: {p['silver']} in hand and {c} from the card."
        )


def check(state: State, seat: int, move: Any) -> None:
    """Raise IllegalMove with the rule that forbids `move` for `seat` now; return if legal."""
    phase = state["phase"]
    if phase == "over":
        raise IllegalMove("The game is over: no more moves.")
    kind = _check_shape(move)
    if seat not in to_act(state):
        if phase == "actions":
            raise IllegalMove("Player actions go in turn: it is not your turn.")
        raise IllegalMove(f"You have already finished {_PHASE_NAME[phase]}.")
    if kind == "done" and phase == "truck":
        raise IllegalMove(
            "The delivery truck must use all its steps; it stops early only on a "
            "square with no legal move left."
        )
    if PHASE_OF[kind] != phase:
        raise IllegalMove(
            f"A {kind} move belongs to {_PHASE_NAME[PHASE_OF[kind]]}; this is {_PHASE_NAME[phase]}."
        )
    rule = _RULES.get(kind)
    if rule is not None:
        rule(state, state["players"][seat], move)


def _check_buy(state: State, p: Player, move: Move) -> None:
    i = move["slot"]
    if not _int(i) or not 0 <= i < len(state["market"]):
        raise IllegalMove(f"Buy Goods: choose a tile in the market (slot 0 to {len(state['market']) - 1}).")
    full = None not in p["zone"]
    if full and (move.get("return") not in (0, 1) or not _int(move.get("return"))):
        raise IllegalMove(
            "Both construction zones are full: to buy, return one of their tiles to the box (return: 0 or 1)."
        )
    if not full and "return" in move:
        raise IllegalMove("A tile goes back to the box only when both construction zones are full.")
    _check_pay(state, p, move, PRICE[state["market"][i]["tile"]])


def _check_bank(state: State, p: Player, move: Move) -> None:
    if state["banks"] <= 0:
        raise IllegalMove("No bank buildings are left in the supply.")
    if p["banks"] >= BANK_LIMIT:
        raise IllegalMove(f"Cities can have up to {BANK_LIMIT} banks.")
    _check_place(p, BANK, _cell(move["at"], "at"))
    _check_pay(state, p, move, BANK_PRICE)


def _check_construct(state: State, p: Player, move: Move) -> None:
    z = move["zone"]
    tile = p["zone"][z] if _int(z) and z in (0, 1) else None
    if tile is None:
        raise IllegalMove("Construct Buildings: choose a goods tile in one of your construction zones.")
    _check_place(p, tile, _cell(move["at"], "at"))
    _check_pay(state, p, move, PRICE[tile])


def _check_vip(state: State, p: Player, move: Move) -> None:
    if state["vips"] <= 0:
        raise IllegalMove("No VIP citizens are left on the board.")
    _check_pay(state, p, move, VIP_PRICE)


def _check_place(p: Player, tile: str, k: str) -> None:
    """Construct Buildings placement rules, each with its own sentence."""
    city = p["city"]
    y = xy(k)[1]
    if k in city:
        raise IllegalMove("That square already holds a building; buildings are never moved or stacked.")
    if y < D.LOWEST_ROW:
        raise IllegalMove("No building may be built at or below the row of the park and construction zones.")
    around = neighbours(k)
    if city.keys().isdisjoint(around):
        raise IllegalMove("All buildings must be connected: build next to City Hall or another building.")
    colour = D.type_of(tile)
    for n in around:
        if n in city and D.type_of(city[n]["tile"]) == colour:
            if tile == BANK:
                raise IllegalMove("Banks cannot be placed next to City Hall or another bank.")
            raise IllegalMove("Buildings with the same border colour cannot be placed next to each other.")


def _check_hire(state: State, p: Player, move: Move) -> None:
    c = move["citizen"]
    if c not in PARK_KEYS:
        raise IllegalMove(f"A citizen is one of {', '.join(PARK_KEYS)}.")
    if p["park"][c] <= 0:
        raise IllegalMove(f"You have no {c} citizen in your park.")
    cell = p["city"].get(_cell(move["at"], "at"))
    if cell is None or cell["tile"] == D.CITY_HALL:
        raise IllegalMove("Citizens take up work in buildings of your city.")
    if cell["tile"] == BANK:
        raise IllegalMove("Banks employ no citizens: no citizen colour and no expense track match them.")
    if cell["worker"] is not None:
        raise IllegalMove("Every building can only employ 1 citizen.")
    if c != D.VIP and D.CITIZEN_OF[D.type_of(cell["tile"])] != c:
        raise IllegalMove("A citizen works only in a building of its own colour (a VIP in any).")


def _check_drive(state: State, p: Player, move: Move) -> None:
    k = _cell(move["to"], "to")
    truck = p["truck"]
    if k not in neighbours(truck["at"]):
        raise IllegalMove("The delivery truck moves one orthogonal square at a time, never diagonally.")
    if k not in p["city"]:
        raise IllegalMove("The delivery truck drives only on City Hall and your buildings.")
    if k == truck["previous"]:
        raise IllegalMove("The delivery truck may not move straight back to the square it came from.")


# The rule checks of each move type (pass and done need none beyond whose turn it is).
_RULES: dict[str, Callable[[State, Player, Move], None]] = {
    "buy": _check_buy,
    "bank": _check_bank,
    "construct": _check_construct,
    "vip": _check_vip,
    "hire": _check_hire,
    "drive": _check_drive,
}
