"""Town Hall variant (UBG Town Hall rules: two card rounds, then a round where everyone picks;
RB-F Town Hall: no Oddity Shop, a coin changes the drawn resource; decisions in NOTES 41)."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R
from app.rulesets.tiny_towns import data
from tests.rulesets.tiny_towns.helpers import done_all, moves_of, new_game, place, with_player


def test_town_hall_flips_a_card_for_everyone():
    """Town Hall: shuffle the 15 resource cards, discard 5 face down, flip 1 per round for everyone;
    there is no Master Builder, so everyone may spend a coin to change it."""
    st = new_game(3, town_hall=True)
    th = st["town_hall"]
    assert st["master"] is None and st["phase"] == "place"
    assert len(th["discard"]) == 5 and len(th["deck"]) == 9 and len(th["revealed"]) == 1
    assert st["named"] == th["revealed"][0]
    assert R.to_act(st) == [0, 1, 2]
    st = with_player(st, 0, coins=1)
    assert len({m["resource"] for m in moves_of(st, 0, "place")}) == 5


def _round(st, cells, resources=None):
    """Everyone places (their own pick in a free round) and declares done."""
    for seat, cell in enumerate(cells):
        res = (resources or {}).get(seat) or st["named"] or "wood"
        st = place(st, seat, cell, res)
    return done_all(st)


def test_town_hall_every_third_round_is_a_free_choice():
    """Town Hall (UBG): cards are drawn for rounds 1 and 2, and in round 3 each player chooses 1
    of the 5 resources individually (simultaneously); the pattern repeats."""
    st = new_game(2, town_hall=True)
    assert st["round"] == 1 and st["named"] is not None and not st["town_hall"]["free"]
    st = _round(st, [0, 0])
    assert st["round"] == 2 and st["named"] is not None and len(st["town_hall"]["revealed"]) == 2
    st = _round(st, [1, 1])
    assert st["round"] == 3 and st["named"] is None and st["town_hall"]["free"]
    assert R.view(st, 1)["town_hall"]["free_choice"] is True
    assert len(st["town_hall"]["deck"]) == 8  # no card is drawn in a free round
    assert {m["resource"] for m in moves_of(st, 0, "place")} == set(data.RESOURCES)
    st = _round(st, [2, 2], {0: "glass", 1: "stone"})
    assert st["p"][0]["grid"][2] == "glass" and st["p"][1]["grid"][2] == "stone"
    assert st["p"][0]["coins"] == 0  # choosing is free: no coin is spent
    assert st["round"] == 4 and st["named"] is not None and len(st["town_hall"]["deck"]) == 7


def test_town_hall_free_round_is_own_naming():
    """Town Hall (UBG): a free-choice round is not another player naming, so Factory, Warehouse,
    Museum and Statue of the Bondmaker reactions are not offered; the Bank still bans its
    resources for its owner."""
    st = new_game(
        2, town_hall=True, buildings=["cottage", "farm", "tavern", "chapel", "theater", "well", "warehouse"]
    )
    grid = [None] * 16
    grid[15] = "warehouse"
    assert moves_of(with_player(st, 0, grid=grid), 0, "store") == [{"type": "store", "cell": 15}]
    st = _round(_round(st, [0, 0]), [1, 1])
    st = with_player(st, 0, grid=grid)
    assert moves_of(st, 0, "store") == [] and moves_of(st, 0, "swap") == []
    banked = list(grid)
    banked[14] = "bank"
    st = with_player(st, 1, grid=banked, store={"14": ["wood"]})
    assert "wood" not in {m["resource"] for m in moves_of(st, 1, "place")}
    with pytest.raises(IllegalMove, match="free-choice round"):
        R.apply(st, 1, {"type": "place", "resource": "wood", "cell": 0})


def test_town_hall_fort_ironweed_skips_free_rounds():
    """Town Hall (UBG, NOTES 41): after building Fort Ironweed a player no longer takes and places
    a resource in the free-choice rounds (card rounds are unchanged)."""
    st = new_game(2, town_hall=True, monuments=["fort_ironweed", "starloom"])
    st = with_player(st, 0, built_monument=True)
    st = _round(st, [0, 0])
    st = place(st, 1, 1)
    st = place(st, 0, 1)
    st = done_all(st)
    assert st["town_hall"]["free"] and R.to_act(st) == [1]
    st = done_all(place(st, 1, 2, "wood"))
    assert st["p"][0]["grid"][2] is None and st["round"] == 4


def test_town_hall_reshuffles_when_out():
    """Town Hall (UBG): when a card must be drawn and the deck is empty, all 15 cards are reshuffled
    and the top 5 set aside face down again (10 card rounds + 5 free rounds per deck)."""
    st = new_game(2, town_hall=True)
    for rnd in range(15):
        free = (rnd + 1) % 3 == 0
        assert st["town_hall"]["free"] is free
        st = _round(st, [rnd, rnd])
    th = st["town_hall"]
    assert st["round"] == 16 and len(th["revealed"]) == 1 and len(th["deck"]) == 9
    assert len(th["discard"]) == 5


def test_town_hall_drops_oddity_shop():
    """RB-F Town Hall: do not use the Oddity Shop."""
    for seed in range(40):
        st = R.setup(3, R.Options(fortune=True, town_hall=True, max_fortune_buildings=6), seed)
        assert "oddity_shop" not in st["buildings"]
    assert any(
        "oddity_shop" in R.setup(3, R.Options(fortune=True, max_fortune_buildings=6), s)["buildings"]
        for s in range(40)
    )


def test_town_hall_deck_hidden():
    """Town Hall: the deck order and the 5 face-down cards are hidden; determinize re-deals them."""
    st = new_game(2, town_hall=True)
    view = R.view(st, 0)["town_hall"]
    assert view == {
        "deck_size": 9,
        "discarded": 5,
        "revealed": st["town_hall"]["revealed"],
        "free_choice": False,
    }
    det = R.determinize(st, 0, Rng(5))
    assert R.view(det, 0) == R.view(st, 0)
    assert sorted(det["town_hall"]["deck"] + det["town_hall"]["discard"]) == sorted(
        st["town_hall"]["deck"] + st["town_hall"]["discard"]
    )
    assert sorted(data.RESOURCES * 3) == sorted(
        st["town_hall"]["deck"] + st["town_hall"]["discard"] + st["town_hall"]["revealed"]
    )
