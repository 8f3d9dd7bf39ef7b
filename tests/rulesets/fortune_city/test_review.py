"""Rule clauses the independent review (REVIEW.md) found untested: each test names its rule."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import BAKERY, BOOKS, BUS, LAMP, build, game, pass_all


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
    st["p"][0]["tracks"]["transportation"] = 3  # 1 + 2 steps (reconstructed table)
    st = pass_all(st)
    assert st["phase"] == "truck" and 0 in R.to_act(st)
    assert all(m["type"] == "drive" for m in R.legal_moves(st, 0))
    before = st
    with pytest.raises(IllegalMove, match="must use all its steps"):
        R.apply(st, 0, {"type": "done"})
    assert st == before and 0 in R.to_act(st) and st["p"][0]["truck"]["left"] > 0


def test_bank_needs_no_construction_zone_even_when_both_are_full():
    """Buy Goods, banks: a bank does not go into the construction zone but straight into the
    city, so two full zones neither block it nor send a tile back to the box."""
    st = game()
    build(st, 0, {(1, 0): BOOKS})
    st["p"][0]["zone"] = [BAKERY, LAMP]
    assert any(m["type"] == "bank" and "return" not in m for m in R.legal_moves(st, 0))
    with pytest.raises(IllegalMove):
        R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0, "return": 0})
    after = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    assert after["p"][0]["zone"] == [BAKERY, LAMP] and after["returned"] == []


def test_two_banks_in_one_round_give_two_gold():
    """Credit Card Rewards (decision 6): a first and a second bank built in the same round fill
    the 3 silver locations and add 1 gold each, filling both gold locations."""
    st = game()
    st["p"][0]["silver"] = 20
    build(st, 0, {(1, 0): BOOKS, (-1, 0): BAKERY})
    st = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    st = R.apply(st, 1, {"type": "pass"})
    st = R.apply(st, 0, {"type": "bank", "at": [-1, 1], "card": 0})
    st = _end_round(st)
    assert st["p"][0]["card"] == {"silver": 3, "gold": 2}
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
    st["p"][0]["zone"] = [kept, gone]
    st = R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0, "return": 1})
    assert st["returned"] == [gone]
    for _ in range(4):
        st = _end_round(st)
        assert gone not in [m["tile"] for m in st["market"]] and gone not in st["stack"]
        assert gone not in st["p"][0]["zone"] and st["returned"] == [gone]
