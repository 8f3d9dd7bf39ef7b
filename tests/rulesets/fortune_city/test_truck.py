"""Move Delivery Truck: 1 + Transportation bonus steps, no straight-back, dead ends, pick-ups."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from tests.rulesets.fortune_city.helpers import (
    BAKERY,
    BIKE,
    BOOKS,
    BUS,
    FRUIT,
    LAMP,
    SNACK,
    build,
    cell,
    game,
    pass_all,
)


def _driving(city0, tracks0=None, tokens=True, truck_at="0,0"):
    st = game()
    build(st, 0, city0, tokens=tokens)
    st["players"][0]["tracks"].update(tracks0 or {})
    st["players"][0]["truck"]["at"] = truck_at
    build(st, 1, {(0, 1): BOOKS})
    return pass_all(st)


def test_truck_moves_one_plus_the_transportation_bonus():
    """Move Delivery Truck: exactly 1 + X steps, X the Transportation bonus; centre gives none."""
    ring = {(0, 1): BAKERY, (1, 1): BOOKS, (1, 0): BUS, (-1, 0): LAMP, (-1, 1): BIKE}
    st = _driving(ring)
    assert st["players"][0]["truck"]["steps_left"] == 1
    st = _driving(ring, {"transportation": 3})  # sector 3 bonus 2 (reconstructed table)
    assert st["players"][0]["truck"]["steps_left"] == 3
    moved = 0
    while 0 in R.to_act(st):
        st = R.apply(st, 0, R.legal_moves(st, 0)[0])
        moved += 1
    assert st["players"][0]["truck"]["steps_left"] == 0  # every step used (some of them forced)
    assert moved + len([e for e in st["last"].get("auto", []) if e["seat"] == 0]) == 3


def test_truck_picks_up_every_tile_it_enters_and_single_ways_drive_themselves():
    """Move Delivery Truck: coins go to the player, diamonds are kept for scoring, garbage goes
    back to the supply; every entered tile is emptied. A step with one possible square is taken
    at once (nothing to decide)."""
    st = _driving({(0, 1): FRUIT, (0, 2): BOOKS, (0, 3): SNACK}, {"transportation": 3})
    p = st["players"][0]
    assert p["truck"]["at"] == "0,3"
    assert p["diamonds"] == 1 and p["silver"] == 8 + 4 and p["garbage_cleared"] == 1  # + income
    assert all(cell(st, 0, 0, y)["token"] is None for y in (1, 2, 3))


def test_never_straight_back_and_never_diagonal():
    """Move Delivery Truck: never diagonally in one step, never straight back to the tile it came from."""
    st = _driving({(0, 1): BAKERY, (1, 1): BOOKS, (-1, 1): BUS}, {"transportation": 3})
    assert st["players"][0]["truck"]["at"] == "0,1"  # the only first step was taken at once
    with pytest.raises(IllegalMove, match="never diagonally"):
        R.apply(st, 0, {"type": "drive", "to": [1, 2]})
    with pytest.raises(IllegalMove, match="straight back"):
        R.apply(st, 0, {"type": "drive", "to": [0, 0]})
    assert R.legal_moves(st, 0) == [{"type": "drive", "to": [1, 1]}, {"type": "drive", "to": [-1, 1]}]


def test_four_steps_close_a_square_cycle():
    """Move Delivery Truck: a cycle back to the same tile takes 4 steps at least."""
    st = _driving({(0, 1): BAKERY, (1, 1): BOOKS, (1, 0): BUS}, {"transportation": 5})  # 1 + 3 = 4
    st = R.apply(st, 0, {"type": "drive", "to": [0, 1]})  # then one way on, three times
    assert st["players"][0]["truck"]["at"] == "0,0" and st["players"][0]["truck"]["steps_left"] == 0


def test_dead_end_stops_the_truck_early():
    """Move Delivery Truck: entering a tile with no further legal move ends the movement at once."""
    st = _driving({(0, 1): BAKERY, (0, 2): BOOKS}, {"transportation": 5})
    assert st["players"][0]["truck"]["at"] == "0,2" and st["players"][0]["truck"]["steps_left"] == 2
    assert st["round"] == 2  # both trucks had nothing to decide: the round ended


def test_next_round_starts_where_it_stopped_and_may_go_back():
    """Move Delivery Truck: afterwards the truck starts where it ended last round, and may move
    back in the direction it came from; tokens under it wait until it re-enters."""
    st = _driving({(0, 1): BAKERY, (0, 2): BOOKS}, tokens=False)
    assert st["round"] == 2 and st["players"][0]["truck"]["at"] == "0,1"
    cell(st, 0, 0, 1)["token"] = "coin"
    st = pass_all(st)
    assert sorted(tuple(m["to"]) for m in R.legal_moves(st, 0)) == [(0, 0), (0, 2)]
    st = R.apply(st, 0, {"type": "drive", "to": [0, 0]})
    assert cell(st, 0, 0, 1)["token"] == "coin"  # never entered: still there


def test_truck_without_a_neighbour_does_not_move():
    """Move Delivery Truck: at the start the truck can go to any adjacent space; with none it stays."""
    st = game()
    st = pass_all(st)
    assert st["round"] == 2 and st["players"][0]["truck"]["at"] == "0,0"
