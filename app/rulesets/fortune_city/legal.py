"""Who acts and what they may do: the ways to pay, each phase's legal moves as groups that build
a move only when asked for it (a random draw builds one), and whether a player can pay for
anything at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import BANK, PRICE, at
from app.rulesets.fortune_city.state import Move, Player, State
from app.rulesets.fortune_city.table import Table

BANK_LIMIT: int = D.SUPPLY["bank_limit"]
BANK_PRICE: int = D.SUPPLY["bank_price"]
VIP_PRICE: int = D.SUPPLY["vip_price"]

#: What a player may pay with: hand silver, credit-card silver, whether one gold coin may pay.
Purse = tuple[int, int, bool]
Payment = dict[str, Any]
# A group of legal moves: how many, and how to build the j-th of them (0 <= j < count): the
# move is make(args, j). A tuple, not a partial: a draw builds every group and calls one.
Group = tuple[int, Callable[[Any, int], Move], Any]


def to_act(state: State) -> list[int]:
    """The seat whose turn it is (actions), every seat not yet done (hire, truck), or none."""
    phase = state["phase"]
    if phase == "actions":
        turn = state["turn"]
        return [] if turn is None else [turn]
    if phase in ("hire", "truck"):
        return [i for i, p in enumerate(state["players"]) if not p["done"]]
    return []


def purse(state: State, p: Player) -> Purse:
    """What a player may pay with now: hand silver, credit-card silver, and whether one gold coin
    may pay an action (with the hand-silver-first variant only once the hand is empty)."""
    card = p["card"]
    silver = p["silver"]
    if card is None:
        return silver, 0, False
    return (
        silver,
        card["silver"],
        card["gold"] > 0 and not (state["options"]["gold_after_hand_silver"] and silver > 0),
    )


def purse_range(held: Purse, price: int) -> tuple[int, int, bool]:
    """Paying `price` from a purse: the least and most silver the credit card may give, and
    whether one gold coin may pay instead."""
    silver, on_card, gold = held
    return max(0, price - silver), min(on_card, price), gold


def _payments(held: Purse, price: int) -> tuple[Payment, ...]:
    low, high, gold = purse_range(held, price)
    return tuple([{"card": c} for c in range(low, high + 1)] + ([{"gold": True}] if gold else []))


PRICES = sorted({*PRICE.values(), BANK_PRICE, VIP_PRICE})
_MOST = max(PRICES)  # silver in hand or on the card beyond the dearest price changes nothing


def _pay_tables() -> dict[Purse, dict[int, tuple[Payment, ...]]]:
    """The payment lists of every price for every purse up to the dearest price."""
    return {
        (silver, on_card, gold): {price: _payments((silver, on_card, gold), price) for price in PRICES}
        for silver in range(_MOST + 1)
        for on_card in range(_MOST + 1)
        for gold in (False, True)
    }


# Read on every listing and draw: a constant table built at import (purses beyond the dearest
# price pay as it does), never changed; moves copy the payment they use into a new dict.
PAY_TABLES = _pay_tables()


def pay_table(held: Purse) -> dict[int, tuple[Payment, ...]]:
    """The ways to pay each price from a purse (shared, read only; empty: it cannot be paid)."""
    silver, on_card, gold = held
    silver = silver if silver < _MOST else _MOST  # noqa: FURB136 - no min() call on every listing
    on_card = on_card if on_card < _MOST else _MOST  # noqa: FURB136 - nor here
    return PAY_TABLES[silver, on_card, gold]


def pay_options(state: State, p: Player, price: int) -> list[Payment]:
    """Ways to pay `price`: silver with `card` of it from the credit card, or one gold coin."""
    return [dict(o) for o in pay_table(purse(state, p))[price]]


def can_act(t: Table, seat: int) -> bool:
    """Whether a player can pay for any action now (otherwise passing is the only move)."""
    s = t.state
    p = s["players"][seat]
    pays_at = pay_table(purse(s, p))  # an empty payment list: that price cannot be paid
    for m in s["market"]:
        if pays_at[PRICE[m["tile"]]]:
            return True
    if s["vips"] > 0 and pays_at[VIP_PRICE]:
        return True
    for tile in p["zone"]:
        if tile is not None and pays_at[PRICE[tile]] and t.spots(seat, tile):
            return True
    return (
        s["banks"] > 0 and p["banks"] < BANK_LIMIT and bool(pays_at[BANK_PRICE]) and bool(t.spots(seat, BANK))
    )


# ---------------------------------------------------------------- groups of moves, per phase

# Read-only parts of moves (every move is a new dict built from them).
_RETURN_ONE: tuple[int | None, ...] = (0, 1)  # both zones full: a buy returns zone 0 or 1
_RETURN_NONE: tuple[int | None, ...] = (None,)
_BANK_MOVE: Move = {"type": "bank"}
_CONSTRUCT_MOVE: tuple[Move, ...] = ({"type": "construct", "zone": 0}, {"type": "construct", "zone": 1})
_VIP_MOVE: Move = {"type": "vip"}


def _paid(args: tuple[Move, tuple[Payment, ...]], j: int) -> Move:
    base, pays = args
    return {**base, **pays[j]}


def _buy(i: int, rets: tuple[int | None, ...], pays: tuple[Payment, ...], j: int) -> Move:
    ret = rets[j // len(pays)]
    m: Move = {"type": "buy", "slot": i, **pays[j % len(pays)]}
    if ret is not None:
        m["return"] = ret
    return m


def _bought(args: tuple[tuple[int | None, ...], list[tuple[Payment, ...]]], j: int) -> Move:
    """The j-th buy of the market group: slots in order, `_buy`'s moves within a slot."""
    rets, slot_pays = args
    for i, pays in enumerate(slot_pays):
        count = len(rets) * len(pays)
        if j < count:
            return _buy(i, rets, pays, j)
        j -= count
    raise IndexError("j is beyond the market group")


def _placed(args: tuple[Move, list[str], tuple[Payment, ...]], j: int) -> Move:
    base, cells, pays = args
    return {**base, "at": at(cells[j // len(pays)]), **pays[j % len(pays)]}


def _pass(args: None, j: int) -> Move:
    return {"type": "pass"}


_PASS_GROUP: Group = (1, _pass, None)


def action_groups(t: Table, seat: int) -> list[Group]:
    """Player Actions: buy (each slot, each return choice, each payment), bank, construct (each
    zone, each square, each payment), VIP, pass."""
    s = t.state
    p = s["players"][seat]
    groups: list[Group] = []
    pays_at = pay_table(purse(s, p))
    zone = p["zone"]
    rets = _RETURN_ONE if None not in zone else _RETURN_NONE
    # the whole market as one group: slot by slot, each return choice, each payment
    slot_pays = [pays_at[PRICE[slot["tile"]]] for slot in s["market"]]
    total = len(rets) * sum(map(len, slot_pays))
    if total:
        groups.append((total, _bought, (rets, slot_pays)))
    if s["banks"] > 0 and p["banks"] < BANK_LIMIT:
        pays = pays_at[BANK_PRICE]
        if pays:
            cells = t.spots(seat, BANK)
            if cells:
                groups.append((len(cells) * len(pays), _placed, (_BANK_MOVE, cells, pays)))
    for z, tile in enumerate(zone):
        if tile is None:
            continue
        pays = pays_at[PRICE[tile]]
        if pays:
            cells = t.spots(seat, tile)
            if cells:
                groups.append((len(cells) * len(pays), _placed, (_CONSTRUCT_MOVE[z], cells, pays)))
    if s["vips"] > 0:
        pays = pays_at[VIP_PRICE]
        if pays:
            groups.append((len(pays), _paid, (_VIP_MOVE, pays)))
    groups.append(_PASS_GROUP)
    return groups


def _hire(spots: list[tuple[str, str]], j: int) -> Move:
    if j == len(spots):
        return {"type": "done"}
    c, k = spots[j]
    return {"type": "hire", "citizen": c, "at": at(k)}


def hire_groups(t: Table, seat: int) -> list[Group]:
    """Hire Citizens: each citizen into each building that fits it, or done."""
    spots = t.hires(seat)
    return [(len(spots) + 1, _hire, spots)]


def _drive_to(targets: list[str], j: int) -> Move:
    return {"type": "drive", "to": at(targets[j])}


def truck_groups(t: Table, seat: int) -> list[Group]:
    """Move Delivery Truck: each square the truck may enter next."""
    targets = t.targets(seat)
    return [(len(targets), _drive_to, targets)] if targets else []
