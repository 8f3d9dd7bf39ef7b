"""Rule clauses the independent review (REVIEW.md) found untested: each test names its rule."""

from __future__ import annotations

import copy

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import board
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import (
    BAKERY,
    BOOKS,
    BUS,
    COFFEE,
    FRUIT,
    LAMP,
    SNACK,
    build,
    game,
    pass_all,
)


def _end_round(st):
    st = pass_all(st)
    while st["phase"] in ("hire", "truck"):
        seat = R.to_act(st)[0]
        st = R.apply(st, seat, {"type": "done"} if st["phase"] == "hire" else R.legal_moves(st, seat)[0])
    return st


def test_truck_cannot_end_before_its_steps_are_used():
    """Move Delivery Truck: the truck must use all its movement points (1 + X); it may not choose
    to stop on a square that still has a legal move."""
    st = game()
    build(st, 0, {(0, 1): BAKERY, (1, 1): BOOKS, (-1, 1): BUS, (1, 0): LAMP})
    build(st, 1, {(0, 1): BOOKS})
    st["players"][0]["tracks"]["transportation"] = 3  # 1 + 2 steps (reconstructed table)
    st = pass_all(st)
    assert st["phase"] == "truck" and 0 in R.to_act(st)
    assert all(m["type"] == "drive" for m in R.legal_moves(st, 0))
    before = st
    with pytest.raises(IllegalMove, match="must use all its steps"):
        R.apply(st, 0, {"type": "done"})
    assert st == before and 0 in R.to_act(st) and st["players"][0]["truck"]["steps_left"] > 0


def test_bank_needs_no_construction_zone_even_when_both_are_full():
    """Buy Goods, banks: a bank does not go into the construction zone but straight into the
    city, so two full zones neither block it nor send a tile back to the box."""
    st = game()
    build(st, 0, {(1, 0): BOOKS})
    st["players"][0]["zone"] = [BAKERY, LAMP]
    assert any(m["type"] == "bank" and "return" not in m for m in R.legal_moves(st, 0))
    with pytest.raises(IllegalMove):
        R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0, "return": 0})
    after = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    assert after["players"][0]["zone"] == [BAKERY, LAMP] and after["returned"] == []


def test_two_banks_in_one_round_give_two_gold():
    """Credit Card Rewards (decision 6): a first and a second bank built in the same round fill
    the 3 silver locations and add 1 gold each, filling both gold locations."""
    st = game()
    st["players"][0]["silver"] = 20
    build(st, 0, {(1, 0): BOOKS, (-1, 0): BAKERY})
    st = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    st = R.apply(st, 1, {"type": "pass"})
    st = R.apply(st, 0, {"type": "bank", "at": [-1, 1], "card": 0})
    st = _end_round(st)
    assert st["players"][0]["card"] == {"silver": 3, "gold": 2}
    assert st["round_end"]["players"][0]["gold"] == 2


def test_empty_stack_with_a_full_market_makes_the_next_round_last():
    """Game End (decision 9): with the goods stack empty at refill time the next round is the
    last even when nothing was bought, so the game always ends."""
    st = game()
    st["market"] = [{"tile": t, "citizen": "red"} for t in st["stack"][:5]]
    st["stack"], st["bag"] = [], []
    st = _end_round(st)
    assert st["final"] and st["phase"] == "actions" and len(st["market"]) == 5
    st = _end_round(st)
    assert st["phase"] == "over"


def test_returned_tile_never_comes_back():
    """Buy Goods: a tile returned from a full construction zone is out of the game: it never
    reaches the market again, even when the stack is refilled from."""
    st = game()
    kept, gone = st["stack"].pop(), st["stack"].pop()  # two goods as if bought earlier
    del st["bag"][-2:]
    st["players"][0]["zone"] = [kept, gone]
    st = R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0, "return": 1})
    assert st["returned"] == [gone]
    for _ in range(4):
        st = _end_round(st)
        assert gone not in [m["tile"] for m in st["market"]] and gone not in st["stack"]
        assert gone not in st["players"][0]["zone"] and st["returned"] == [gone]


# Rules review 2 (issue 25, item 15): decisions that lived only in code and data, now in NOTES.


def test_a_building_or_bank_with_no_legal_square_is_refused_not_forced():
    """Construct Buildings, Special Rules for Building Banks (NOTES decision 22, audit D22): a
    building goes only "in a legal location"; with none, the construction or the bank purchase is
    not offered and is refused with the placement rule, the tile stays in its zone and nothing is
    paid. Only City Hall: a bank may not touch it, so no bank yet. Three Meals buildings around
    City Hall: every square next to the city touches one, so a fourth Meals tile has nowhere to go
    (a bank still has)."""
    st = game()
    assert not [m for m in R.legal_moves(st, 0) if m["type"] == "bank"]
    with pytest.raises(IllegalMove, match="next to City Hall or another bank"):
        R.apply(st, 0, {"type": "bank", "at": [1, 0], "card": 0})
    build(st, 0, {(-1, 0): BAKERY, (1, 0): SNACK, (0, 1): FRUIT})
    st["players"][0]["zone"] = [COFFEE, None]
    before = copy.deepcopy(st)
    moves = R.legal_moves(st, 0)
    assert not [m for m in moves if m["type"] == "construct"]
    assert [m for m in moves if m["type"] == "bank"]
    for at in ([-2, 0], [2, 0], [-1, 1], [1, 1], [0, 2]):
        with pytest.raises(IllegalMove, match="same border colour"):
            R.apply(st, 0, {"type": "construct", "zone": 0, "at": at, "card": 0})
    assert st == before and st["players"][0]["zone"] == [COFFEE, None] and st["players"][0]["silver"] == 7


def test_city_hall_has_no_production_spot_and_employs_no_citizen():
    """City Hall (NOTES decision 23, audit D10): it is printed on the player board, not a building
    tile, so it has no production location (Construct Buildings puts tokens only on tiles "with an
    open production location"), no victory points, and no job: Hire Citizens places a citizen only
    "to any unoccupied building of the same color", and City Hall has the banks' colour, which no
    citizen has; a VIP may not work there either."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    st["players"][0]["park"].update(red=1, vip=1)
    st = R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 1], "card": 0})
    hall = st["players"][0]["city"]["0,0"]
    assert hall["tile"] == D.CITY_HALL and hall["token"] is None
    assert D.production_of(D.CITY_HALL) is None and D.vp_of(D.CITY_HALL) == 0
    st = pass_all(st)
    assert st["phase"] == "hire"
    assert not [m for m in R.legal_moves(st, 0) if m.get("at") == [0, 0]]
    for citizen in ("vip", "red"):
        with pytest.raises(IllegalMove, match="Citizens take up work in buildings"):
            R.apply(st, 0, {"type": "hire", "citizen": citizen, "at": [0, 0]})


def test_the_home_track_has_no_in_round_bonus():
    """Expense tracks (NOTES decision 24, audit D15): Obtain Income counts only the Meals and
    Merchandise bonuses and Move Delivery Truck only the Transportation bonus; the rulebook names
    no bonus for Home, so its sectors give nothing during the game, only their end score (the
    steepest of the four, which pays for that)."""
    home = D.TRACKS["home"]
    assert home["bonus_kind"] == "none" and set(home["bonus"]) == {0}
    st = game()
    st["players"][0]["tracks"]["home"] = 6
    assert board.income(st["players"][0]) == D.SUPPLY["base_income"]
    assert board.truck_steps(st["players"][0]) == D.SUPPLY["base_steps"]
    assert _end_round(st)["players"][0]["silver"] == 7 + D.SUPPLY["base_income"]
    assert home["vp"][6] > max(D.TRACKS[t]["vp"][6] for t in D.TYPES if t != "home")
