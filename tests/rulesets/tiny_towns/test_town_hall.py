"""Town Hall variant (rules-data §2.2, partial; reconstructed parts in NOTES.md)."""

from __future__ import annotations

from app.engine.rng import Rng
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


def test_town_hall_reshuffles_when_out():
    """Town Hall (reconstructed): after the 10 playable cards, the 15 are reshuffled and 5 discarded."""
    st = new_game(2, town_hall=True)
    for rnd in range(10):
        assert len(st["town_hall"]["deck"]) == 9 - rnd
        st = done_all(place(place(st, 0, rnd), 1, rnd))
    th = st["town_hall"]
    assert st["round"] == 11 and len(th["revealed"]) == 1 and len(th["deck"]) == 9


def test_town_hall_drops_oddity_shop():
    """RB-F Town Hall: do not use the Oddity Shop."""
    for seed in range(40):
        st = R.setup(3, R.Options(town_hall=True, max_fortune_buildings=6), seed)
        assert "oddity_shop" not in st["buildings"]
    assert any("oddity_shop" in R.setup(3, R.Options(max_fortune_buildings=6), s)["buildings"]
               for s in range(40))


def test_town_hall_deck_hidden():
    """Town Hall: the deck order and the 5 face-down cards are hidden; determinize re-deals them."""
    st = new_game(2, town_hall=True)
    view = R.view(st, 0)["town_hall"]
    assert view == {"deck_size": 9, "discarded": 5, "revealed": st["town_hall"]["revealed"]}
    det = R.determinize(st, 0, Rng(5))
    assert R.view(det, 0) == R.view(st, 0)
    assert sorted(det["town_hall"]["deck"] + det["town_hall"]["discard"]) == sorted(
        st["town_hall"]["deck"] + st["town_hall"]["discard"])
    assert sorted(data.RESOURCES * 3) == sorted(
        st["town_hall"]["deck"] + st["town_hall"]["discard"] + st["town_hall"]["revealed"])
