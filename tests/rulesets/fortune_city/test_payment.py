"""Paying: silver in hand and on the credit card, gold coins, and the Chinese-edition variants."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from tests.rulesets.fortune_city.helpers import SUSHI, build, game


def test_card_silver_pays_like_hand_silver():
    """Buy Goods: players can use any coins, including silver on their credit card."""
    st = game()
    st["players"][0]["card"] = {"silver": 3, "gold": 0}
    after = R.apply(st, 0, {"type": "buy", "slot": 2, "card": 2})  # price 3: 2 from card, 1 from hand
    assert after["players"][0]["card"]["silver"] == 1 and after["players"][0]["silver"] == 6
    moves = [m for m in R.legal_moves(st, 0) if m["type"] == "buy" and m["slot"] == 2]
    assert sorted(m["card"] for m in moves) == [0, 1, 2, 3]


def test_card_pays_when_the_hand_is_short():
    """Buy Goods: the card's silver adds to the hand; without enough in all, no purchase."""
    st = game()
    st["players"][0]["silver"] = 1
    st["players"][0]["card"] = {"silver": 2, "gold": 0}
    moves = [m for m in R.legal_moves(st, 0) if m["type"] == "buy" and m["slot"] == 2]
    assert [m["card"] for m in moves] == [2]
    with pytest.raises(IllegalMove, match="cannot pay"):
        R.apply(st, 0, {"type": "buy", "slot": 2, "card": 1})
    with pytest.raises(IllegalMove, match="holds only 2 silver"):
        R.apply(st, 0, {"type": "buy", "slot": 2, "card": 3})


def test_gold_pays_one_whole_action_whatever_its_price():
    """Gold coins: one gold pays for one player action regardless of its silver price."""
    st = game()
    st["players"][0]["silver"] = 0
    st["players"][0]["card"] = {"silver": 0, "gold": 1}
    st["players"][0]["zone"] = [SUSHI, None]  # price 4
    after = R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 1], "gold": True})
    assert after["players"][0]["card"] == {"silver": 0, "gold": 0} and after["players"][0]["silver"] == 0
    after["turn"] = 0
    with pytest.raises(IllegalMove, match="no gold coin"):
        R.apply(after, 0, {"type": "vip", "gold": True})


def test_gold_with_card_silver_is_not_one_payment():
    """Gold coins: a gold coin pays the whole action, so it is never mixed with silver."""
    st = game()
    st["players"][0]["card"] = {"silver": 3, "gold": 1}
    with pytest.raises(IllegalMove, match="not both"):
        R.apply(st, 0, {"type": "vip", "gold": True, "card": 1})


def test_hand_silver_first_variant():
    """Variant (Chinese edition): gold may be spent only when no silver is left in hand."""
    st = game(gold_after_hand_silver=True)
    st["players"][0]["card"] = {"silver": 0, "gold": 1}
    with pytest.raises(IllegalMove, match="hand-silver-first"):
        R.apply(st, 0, {"type": "vip", "gold": True})
    assert not [m for m in R.legal_moves(st, 0) if m.get("gold")]
    st["players"][0]["silver"] = 0
    assert R.apply(st, 0, {"type": "vip", "gold": True})["players"][0]["park"]["vip"] == 1


def test_banks_bought_with_gold():
    """Banks: buying and building a bank is one action, so one gold coin pays for it."""
    st = game()
    st["players"][0]["card"] = {"silver": 0, "gold": 1}
    build(st, 0, {(1, 0): "books"})
    after = R.apply(st, 0, {"type": "bank", "at": [1, 1], "gold": True})
    assert after["players"][0]["silver"] == 7 and after["players"][0]["card"]["gold"] == 0
