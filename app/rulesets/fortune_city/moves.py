"""What each (checked) move does to the table, recorded in `last`; each names the phase the game
goes on to."""

from __future__ import annotations

from app.rulesets.fortune_city.board import (
    BANK,
    COINS,
    PRICE,
    TRACK_MAX,
    TYPE_OF_TILE,
    VIP,
    drive_targets,
    hire_spots,
    key,
    produce,
)
from app.rulesets.fortune_city.legal import BANK_PRICE, VIP_PRICE
from app.rulesets.fortune_city.state import LastMove, Move, Player
from app.rulesets.fortune_city.table import Table


def _last(t: Table) -> LastMove:
    last = t.state["last"]
    assert last is not None  # the move's record is started before its handler runs
    return last


def pay(p: Player, move: Move, price: int) -> dict[str, int]:
    """Take the payment; return what was paid (for the log and `last`)."""
    card = p["card"]
    if move.get("gold"):
        assert card is not None  # checked: gold is on the card
        card["gold"] -= 1
        return {"gold": 1}
    c = move["card"]
    if c:
        assert card is not None  # checked: the card holds that silver
        card["silver"] -= c
    p["silver"] -= price - c
    return {"card": c, "hand": price - c}


def _next_turn(t: Table, seat: int) -> str:
    """After an action, the turn goes on clockwise (the phase skips passed seats)."""
    t.state["turn"] = (seat + 1) % t.state["player_count"]
    return "actions"


def buy(t: Table, seat: int, move: Move) -> str:
    """Buy Goods: pay, the tile to a construction zone (returning one when both are full), its
    citizen to the park."""
    s, p, last = t.state, t.player(seat), _last(t)
    slot = s["market"].pop(move["slot"])
    last["paid"] = pay(p, move, PRICE[slot["tile"]])
    last["tile"], last["citizen"] = slot["tile"], slot["citizen"]
    zone = p["zone"]
    if "return" in move:
        back = zone[move["return"]]
        assert back is not None  # checked: both zones are full
        last["returned"] = back
        s["returned"] = [*s["returned"], back]
        zone[move["return"]] = None
    zone[zone.index(None)] = slot["tile"]
    p["park"][slot["citizen"]] += 1
    return _next_turn(t, seat)


def _build(t: Table, seat: int, move: Move, tile: str) -> None:
    """Put `tile` on the move's square and produce (NOTES decision 18: a bank's coin too)."""
    city = t.player(seat)["city"]
    x, y = move["at"]
    k = key(x, y)
    city[k] = {"tile": tile, "token": None, "worker": None}
    _last(t)["produced"] = produce(city, k)


def bank(t: Table, seat: int, move: Move) -> str:
    """A bank: bought and built at once, $3; the first brings the credit card."""
    s, p = t.state, t.player(seat)
    _last(t)["paid"] = pay(p, move, BANK_PRICE)
    _build(t, seat, move, BANK)
    p["banks"] += 1
    p["banks_this_round"] += 1
    s["banks"] -= 1
    if p["card"] is None:
        p["card"] = {"silver": 0, "gold": 0}  # the first bank brings the credit card
    return _next_turn(t, seat)


def construct(t: Table, seat: int, move: Move) -> str:
    """Construct Buildings: pay the price again, flip the tile onto the square, produce."""
    p, last = t.player(seat), _last(t)
    tile = p["zone"][move["zone"]]
    assert tile is not None  # checked: the zone holds a tile
    last["paid"] = pay(p, move, PRICE[tile])
    last["tile"] = tile
    p["zone"][move["zone"]] = None
    _build(t, seat, move, tile)
    return _next_turn(t, seat)


def vip(t: Table, seat: int, move: Move) -> str:
    """Invite a VIP: $3, to the park."""
    _last(t)["paid"] = pay(t.player(seat), move, VIP_PRICE)
    t.player(seat)["park"][VIP] += 1
    t.state["vips"] -= 1
    return _next_turn(t, seat)


def pass_(t: Table, seat: int, move: Move) -> str:
    """Pass: final for the phase."""
    t.player(seat)["passed"] = True
    return _next_turn(t, seat)


def hire(t: Table, seat: int, move: Move) -> str:
    """A citizen from the park into a building; its track moves one sector (up to 6). A seat
    with nobody left who fits is done."""
    p, last = t.player(seat), _last(t)
    x, y = move["at"]
    k = key(x, y)
    cell = p["city"][k] = {**p["city"][k], "worker": move["citizen"]}  # squares are replaced
    p["park"][move["citizen"]] -= 1
    track = TYPE_OF_TILE[cell["tile"]]
    last["tile"], last["track"] = cell["tile"], track
    last["from"] = p["tracks"][track]
    p["tracks"][track] = min(TRACK_MAX, p["tracks"][track] + 1)
    last["to"] = p["tracks"][track]
    spots = hire_spots(p)
    t.hires_now(seat, spots)
    if not spots:
        p["done"] = True
    return "hire"


def done(t: Table, seat: int, move: Move) -> str:
    """Finish hiring (hiring is optional)."""
    t.player(seat)["done"] = True
    return "hire"


def drive_step(t: Table, seat: int, k: str) -> dict[str, str | None]:
    """One truck step into `k`: collect its token (coins and diamonds to the player, garbage back
    to the supply); a truck out of steps or at a dead end is done."""
    p = t.player(seat)
    truck = p["truck"]
    truck["previous"], truck["at"] = truck["at"], k
    truck["steps_left"] -= 1
    cell = p["city"][k]
    token = cell["token"]
    if token is not None:
        p["city"][k] = {**cell, "token": None}  # squares are replaced, never changed
        if token == "diamond":
            p["diamonds"] += 1
        elif token == "garbage":
            p["garbage_cleared"] += 1
        else:
            p["silver"] += COINS[token]
            p["coins_collected"] += COINS[token]
    targets = drive_targets(p)
    t.targets_now(seat, targets)
    if not targets:
        p["done"] = True  # steps used up, or a dead end ends the movement at once
    return {"token": token, "tile": cell["tile"]}


def drive(t: Table, seat: int, move: Move) -> str:
    """One chosen truck step."""
    x, y = move["to"]
    got = drive_step(t, seat, key(x, y))
    last = _last(t)
    last["token"], last["tile"] = got["token"], got["tile"]
    return "truck"
