"""A heuristic Fortune City bot: values each action by its points, production and expense-track
steps against what its coins are still worth, hires everyone it can, and drives the truck along
the path that picks up the most."""

from __future__ import annotations

from typing import Any

from app.rulesets.fortune_city import board as B
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.legal import pay_options, to_act
from app.rulesets.fortune_city.state import Move, Player, State

TOKEN_VP = {"diamond": 1.0, "garbage": 1.0}  # a diamond scores 1; a garbage picked up stops costing 1


def rounds_left(state: State) -> float:
    """Rounds still to come after this one (0 in the final round), from the stack and market."""
    if state["final"]:
        return 0.0
    per_round = max(1.0, 1.2 * state["player_count"])
    return 1.0 + len(state["stack"]) / per_round


def money_rate(state: State, seat: int | None = None) -> float:
    """What one silver is worth in points now: coins are worthless at the end (RB), and worth
    less the more of them a player holds (hoarded coins buy nothing)."""
    left = rounds_left(state)
    if left <= 0:
        return 0.0
    rate = min(0.35, 0.12 * left)
    if seat is not None:
        p = state["players"][seat]
        cash = p["silver"] + (p["card"]["silver"] if p["card"] else 0)
        rate *= min(1.0, 14.0 / max(1, cash))
    return rate


def _prod_value(token: str | None, m: float) -> float:
    if token is None:
        return 0.0
    if token == "diamond":
        return 0.75
    if token == "garbage":
        return -0.45
    return D.PRODUCTIONS[token] * max(m, 0.15) * 0.8


def _track_step(p: Player, track: str, state: State) -> float:
    """Points a further staffed building of `track` is worth: sector score plus round bonuses."""
    k = p["tracks"][track]
    if k >= D.SUPPLY["track_max"]:
        return 0.0
    row = D.TRACKS[track]
    gain: float = row["vp"][k + 1] - row["vp"][k]
    left = min(rounds_left(state), 6.0)  # money is plentiful late on: count a few rounds only
    delta = row["bonus"][k + 1] - row["bonus"][k]
    if row["bonus_kind"] == "income":
        gain += delta * left * money_rate(state) * 0.9
    elif row["bonus_kind"] == "truck":
        gain += delta * left * 0.35
    return gain


def _open_jobs(p: Player, track: str) -> int:
    """Empty buildings (and zone tiles) of a type minus citizens of its colour waiting in the park."""
    # List comprehensions, not generator expressions: compiled, those would cost a closure on
    # every call (here and in `_best_spot`).
    empty = len(
        [
            c
            for c in p["city"].values()
            if c["worker"] is None
            and c["tile"] not in (D.CITY_HALL, D.BANK)
            and D.type_of(c["tile"]) == track
        ]
    )
    zoned = len([t for t in p["zone"] if t and D.TILES[t]["type"] == track])
    return empty + zoned - p["park"][D.CITIZEN_OF[track]]


def _spot_value(p: Player, k: str, m: float) -> float:
    """How good a square is: neighbours with an empty production spot fill up; touching more
    buildings gives the truck more ways round."""
    v = 0.0
    touching = 0
    for n in B.neighbours(k):
        cell = p["city"].get(n)
        if cell is None:
            continue
        touching += 1
        if cell["token"] is None:
            v += _prod_value(D.production_of(cell["tile"]), m)
    return v + 0.15 * min(touching, 3)


def _best_spot(p: Player, tile: str, m: float) -> tuple[float, str] | None:
    spots = B.placements(p, tile)
    if not spots:
        return None
    return max([(_spot_value(p, k, m), k) for k in spots])


def _payment(state: State, p: Player, price: int) -> dict[str, Any] | None:
    """One way to pay: gold for dear actions, card silver first in a round with a new bank (it is
    refilled), else hand silver first."""
    options = pay_options(state, p, price)
    if not options:
        return None
    gold = [o for o in options if o.get("gold")]
    silver = [o for o in options if not o.get("gold")]
    if gold and (price >= 4 or not silver or state["final"]):
        return gold[0]
    if not silver:
        return None
    if p["banks_this_round"]:
        return max(silver, key=lambda o: o["card"])
    return min(silver, key=lambda o: o["card"])


def _building_value(p: Player, tile: str, state: State, m: float) -> float:
    t = D.TILES[tile]
    v: float = t["vp"] + _prod_value(t["production"], m)
    if p["park"][D.CITIZEN_OF[t["type"]]] > 0 or p["park"][D.VIP] > 0:
        v += _track_step(p, t["type"], state)
    elif rounds_left(state) > 0:
        v += 0.4 * _track_step(p, t["type"], state)
    return v


#: An action worth considering: its value in points, the move (unpaid) and its price.
Offer = tuple[float, Move, int]


def _construct_offers(state: State, p: Player, m: float, left: float) -> list[Offer]:
    """Each zone's tile on its best square."""
    offers: list[Offer] = []
    for z, tile in enumerate(p["zone"]):
        if tile is None:
            continue
        spot = _best_spot(p, tile, m)
        if spot is not None:
            opening = (
                3.0
                if (
                    p["card"] is None
                    and state["banks"] > 0
                    and left > 0
                    and p["silver"] - D.TILES[tile]["price"] >= D.SUPPLY["bank_price"]
                )
                else 0.0
            )
            offers.append(
                (
                    _building_value(p, tile, state, m) + spot[0] + opening,
                    {"type": "construct", "zone": z, "at": list(B.xy(spot[1]))},
                    D.TILES[tile]["price"],
                )
            )
    return offers


def _buy_offers(state: State, p: Player, m: float, left: float) -> list[Offer]:
    """Each market slot: the tile's worth later and its citizen's track step now."""
    offers: list[Offer] = []
    if left <= 0 and None not in p["zone"]:
        return offers
    full = None not in p["zone"]
    for i, slot in enumerate(state["market"]):
        t = D.TILES[slot["tile"]]
        later = 0.0 if left <= 0 else (t["vp"] + _prod_value(t["production"], m) - t["price"] * m) * 0.8
        colour_type = D.TYPE_OF_CITIZEN[slot["citizen"]]
        citizen = _track_step(p, colour_type, state) * (
            1.0 if _open_jobs(p, colour_type) > 0 or colour_type == t["type"] else 0.3
        )
        move: Move = {"type": "buy", "slot": i}
        value = later + citizen
        # Before the first bank, money goes to one building and then the bank (which needs
        # a building beside it): no second purchase, nothing too dear to follow.
        if (
            p["card"] is None
            and state["banks"] > 0
            and left > 0
            and (any(p["zone"]) or p["silver"] - t["price"] < t["price"] + 3)
        ):
            value -= 3.0
        if full:
            zoned = [tile for tile in p["zone"] if tile is not None]  # both zones: full
            worst = min((0, 1), key=lambda z: _building_value(p, zoned[z], state, m))
            value -= (
                max(0.0, _building_value(p, zoned[worst], state, m) - D.TILES[zoned[worst]]["price"] * m)
                * 0.8
            )
            move["return"] = worst
        offers.append((value, move, t["price"]))
    return offers


def _bank_and_vip_offers(state: State, p: Player, m: float, left: float) -> list[Offer]:
    """A bank on its best square (its card rewards); a VIP for the best track it can staff."""
    offers: list[Offer] = []
    if state["banks"] > 0 and p["banks"] < D.SUPPLY["bank_limit"]:
        spot = _best_spot(p, D.BANK, m)
        if spot is not None:
            card = p["card"]
            refill = D.SUPPLY["card_silver_slots"] - (card["silver"] if card else 0)
            reward = (refill + 3) * m if left > 0 else 0.0  # silver plus a gold worth ~3 silver
            if card is None and left > 0:
                reward += 1.5  # the first bank early is the game's engine: it pays for itself
            offers.append(
                (
                    reward + _prod_value("coin", m) + spot[0],
                    {"type": "bank", "at": list(B.xy(spot[1]))},
                    D.SUPPLY["bank_price"],
                )
            )
    if state["vips"] > 0:
        gains = [
            _track_step(p, t, state)
            for t in D.TYPES
            if any(
                c["worker"] is None and c["tile"] not in (D.CITY_HALL, D.BANK) and D.type_of(c["tile"]) == t
                for c in p["city"].values()
            )
            and p["park"][D.CITIZEN_OF[t]] == 0
        ]
        if gains:
            offers.append((max(gains), {"type": "vip"}, D.SUPPLY["vip_price"]))
    return offers


def choose_action(state: State, seat: int) -> Move:
    """The best-valued action net of its price, or pass when nothing is worth its price."""
    p = state["players"][seat]
    m = money_rate(state, seat)
    left = rounds_left(state)
    best: tuple[float, Move] = (0.0, {"type": "pass"})
    offers = (
        _construct_offers(state, p, m, left)
        + _buy_offers(state, p, m, left)
        + _bank_and_vip_offers(state, p, m, left)
    )
    for value, move, price in offers:
        pay = _payment(state, p, price)
        if pay is None:
            continue
        cost = 3 * m if pay.get("gold") else price * m
        if value - cost > best[0]:
            best = (value - cost, {**move, **pay})
    return best[1]


def choose_hire(state: State, seat: int) -> Move:
    """Place a coloured citizen first; a VIP where its track step is worth most."""
    p = state["players"][seat]
    spots = B.hire_spots(p)
    plain = [(c, k) for c, k in spots if c != D.VIP]
    if plain:
        c, k = plain[0]
        return {"type": "hire", "citizen": c, "at": list(B.xy(k))}
    if spots:
        c, k = max(spots, key=lambda ck: _track_step(p, D.type_of(p["city"][ck[1]]["tile"]), state))
        if _track_step(p, D.type_of(p["city"][k]["tile"]), state) > 0:
            return {"type": "hire", "citizen": c, "at": list(B.xy(k))}
    return {"type": "done"}


def _path_value(p: Player, at: str, prev: str | None, left: int, taken: frozenset[str], m: float) -> float:
    """Best total pick-up value over the truck's remaining steps from `at`."""
    if left <= 0:
        return 0.0
    best = None
    for n in B.neighbours(at):
        if n not in p["city"] or n == prev:
            continue
        token = None if n in taken else p["city"][n]["token"]
        gain = (
            TOKEN_VP.get(token, 0.0)
            if token in TOKEN_VP
            else (D.PRODUCTIONS[token] * max(m, 0.3) if token else 0.0)
        )
        v = gain + _path_value(p, n, at, left - 1, taken | {n}, m)
        if best is None or v > best:
            best = v
    return best or 0.0


def choose_drive(state: State, seat: int) -> Move:
    """The first step of the path that picks up the most."""
    p = state["players"][seat]
    truck = p["truck"]
    m = money_rate(state)
    options = []
    for k in B.drive_targets(p):
        token = p["city"][k]["token"]
        gain = (
            TOKEN_VP.get(token, 0.0)
            if token in TOKEN_VP
            else (D.PRODUCTIONS[token] * max(m, 0.3) if token else 0.0)
        )
        options.append((gain + _path_value(p, k, truck["at"], truck["steps_left"] - 1, frozenset({k}), m), k))
    _, k = max(options)
    return {"type": "drive", "to": list(B.xy(k))}


def choose(state: State, seat: int, rng: Any = None) -> Move | None:
    """The bot's move for `seat`, or None when it owes none."""
    if seat not in to_act(state):
        return None
    if state["phase"] == "hire":
        return choose_hire(state, seat)
    if state["phase"] == "truck":
        return choose_drive(state, seat)
    return choose_action(state, seat)
