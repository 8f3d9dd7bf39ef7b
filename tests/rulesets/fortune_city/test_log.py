"""The log in words: each move as one sentence a person can follow on the board."""

from __future__ import annotations

from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import BAKERY, BOOKS, build, cell, game, pass_all


def test_action_sentences_name_goods_prices_payments_and_places():
    """Log: buying names the goods, its type, price, citizen and payment; constructing names the
    building and where it stands; banks and VIPs say how they were paid."""
    st = game()
    st["players"][0]["card"] = {"silver": 3, "gold": 1}
    slot = [m["tile"] for m in st["market"]].index("stationery")
    text = R.log_text(st, 0, {"type": "buy", "slot": slot, "card": 1}, 1)
    assert text == (
        "{seat0} bought Stationery (Merchandise, price 3) and its yellow citizen, "
        "paying 2 silver from hand and 1 silver from the credit card."
    )
    st["players"][0]["zone"] = [BAKERY, None]
    text = R.log_text(st, 0, {"type": "construct", "zone": 0, "at": [0, 1], "card": 0}, None)
    assert (
        text
        == "{seat0} constructed the Bakery (Meals, 1 VP) next to the City Hall (row 1 above City Hall), paying 2 silver from hand."
    )
    build(st, 0, {(1, 0): BOOKS})
    assert "bought and built a bank next to the Bookstore" in R.log_text(
        st, 0, {"type": "bank", "at": [1, 1], "gold": True}, 0
    )
    assert (
        R.log_text(st, 0, {"type": "vip", "gold": True}, 0)
        == "{seat0} invited a VIP citizen, paying 1 gold coin."
    )
    assert "passed" in R.log_text(st, 0, {"type": "pass"}, 0)


def test_phase_sentences_name_tracks_and_pick_ups():
    """Log: hiring names the building and the new sector; driving names the tile and what the
    truck picked up."""
    st = game()
    build(st, 0, {(0, 1): BAKERY, (1, 0): BOOKS})
    cell(st, 0, 0, 1)["token"] = "coin"
    st["players"][0]["park"]["red"] = 1
    st = pass_all(st)
    assert R.log_text(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]}, 1) == (
        "{seat0} hired a red citizen into the Bakery; the Meals marker is now in sector 1."
    )
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    assert R.log_text(st, 0, {"type": "drive", "to": [0, 1]}, None) == (
        "{seat0}'s delivery truck drove to the Bakery: picked up 1 silver."
    )
    assert D.name_of(D.BANK) == "Bank"


def test_steps_the_rules_take_by_themselves_are_told():
    """Log: a forced truck step and a pass by a player who can pay for nothing are added to the
    sentence of the move that caused them."""
    st = game()
    build(st, 0, {(0, 1): BAKERY})
    cell(st, 0, 0, 1)["token"] = "coin"
    st["players"][1]["silver"] = 0
    text = R.log_text(st, 0, {"type": "pass"}, None)
    assert text == (
        "{seat0} passed for the rest of the Player Actions phase. Then {seat1} could pay "
        "for nothing and passed; {seat0}'s truck had one way to go, to the Bakery "
        "(picked up 1 silver)."
    )
