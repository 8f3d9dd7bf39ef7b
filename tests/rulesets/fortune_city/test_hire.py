"""Hire Citizens: park citizens into empty buildings of their colour, VIPs anywhere; tracks."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import (
    BAKERY,
    BOOKS,
    BUS,
    SNACK,
    build,
    cell,
    game,
    pass_all,
)


def _hiring(park0=None, park1=None, city0=None, city1=None):
    st = game()
    st["players"][0]["park"].update(park0 or {})
    st["players"][1]["park"].update(park1 or {})
    build(st, 0, city0 or {})
    build(st, 1, city1 or {})
    return pass_all(st)


def test_citizen_works_only_in_a_building_of_its_colour():
    """Hire Citizens: a citizen moves from the park to an unoccupied building of the same colour."""
    st = _hiring({"red": 1, "yellow": 1}, {}, {(0, 1): BAKERY, (1, 0): BOOKS})
    assert st["phase"] == "hire" and R.to_act(st) == [0]
    with pytest.raises(IllegalMove, match="own colour"):
        R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [1, 0]})
    after = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    assert cell(after, 0, 0, 1)["worker"] == "red" and after["players"][0]["park"]["red"] == 0
    assert after["players"][0]["tracks"]["meals"] == 1


def test_vip_works_in_any_building():
    """Hire Citizens: VIP citizens may be used in place of any of the four colours."""
    st = _hiring({"vip": 1}, {}, {(1, 0): BUS})
    after = R.apply(st, 0, {"type": "hire", "citizen": "vip", "at": [1, 0]})
    assert after["players"][0]["tracks"]["transportation"] == 1 and cell(after, 0, 1, 0)["worker"] == "vip"


def test_one_citizen_per_building_and_none_in_banks():
    """Hire Citizens: every building employs up to 1 citizen; banks match no citizen colour
    (decision 5)."""
    st = _hiring({"red": 2, "vip": 1}, {}, {(0, 1): BAKERY, (1, 0): BOOKS, (1, 1): D.BANK})
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    with pytest.raises(IllegalMove, match="only employ 1 citizen"):
        R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    with pytest.raises(IllegalMove, match="Banks employ no citizens"):
        R.apply(st, 0, {"type": "hire", "citizen": "vip", "at": [1, 1]})
    with pytest.raises(IllegalMove, match="no green citizen"):
        R.apply(st, 0, {"type": "hire", "citizen": "green", "at": [1, 0]})


def test_each_staffed_building_moves_its_track_one_sector_up_to_six():
    """Hire Citizens: each staffed building moves its expense marker one sector, at most to 6."""
    city = {(x, 1): BAKERY for x in range(-3, 5, 2)} | {(x, 3): BAKERY for x in range(-3, 5, 2)}
    city |= {(x, 2): BOOKS for x in range(-4, 5)} | {(x, 1): BOOKS for x in range(-2, 5, 2)}
    st = _hiring({"red": 8}, {}, city)
    meals = [k for k, c in st["players"][0]["city"].items() if c["tile"] == BAKERY]
    assert len(meals) == 8
    for k in meals:
        x, y = map(int, k.split(","))
        if st["phase"] == "hire":
            st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [x, y]})
    assert st["players"][0]["tracks"]["meals"] == 6  # 8 staffed buildings, marker stopped at 6


def test_hiring_is_simultaneous_and_optional():
    """Hire Citizens: all players at once; each may stop (done) while citizens wait in the park."""
    st = _hiring({"red": 1}, {"yellow": 1}, {(0, 1): BAKERY}, {(0, 1): BOOKS})
    assert R.to_act(st) == [0, 1]
    st = R.apply(st, 1, {"type": "done"})
    assert R.to_act(st) == [0]
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    # seat 0 had nobody left to place: done on its own; both trucks then had one way to go
    assert st["phase"] == "actions" and st["round"] == 2
    assert st["players"][1]["park"]["yellow"] == 1 and st["players"][1]["tracks"]["merchandise"] == 0


def test_seats_with_nothing_to_hire_skip_the_phase():
    """Hire Citizens: a seat with no citizen that fits an empty building is not asked."""
    st = _hiring({"red": 1}, {"red": 1}, {(0, 1): BAKERY}, {(0, 1): SNACK})
    assert R.to_act(st) == [0, 1]
    st = _hiring({"yellow": 1}, {}, {(0, 1): BAKERY})
    assert st["phase"] != "hire"
