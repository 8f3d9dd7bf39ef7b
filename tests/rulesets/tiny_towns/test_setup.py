"""Setup: building cards per colour pile, Fortune limits, the monument deal and secret choice."""

from __future__ import annotations

from app.rulesets.tiny_towns import RULESET as R
from app.rulesets.tiny_towns import data


def _setup(n=2, seed=0, **opts):
    """The Fortune game unless `fortune=False` is given."""
    return R.setup(n, R.Options(**{"fortune": True, **opts}), seed)


def test_the_default_options_are_the_base_game():
    """Issue 8: the base game is the default and Fortune one option: no options at all deal
    only base cards and monuments and play without coins."""
    assert R.Options().model_dump() == {
        "fortune": False,
        "max_fortune_buildings": 4,
        "fortune_monuments": True,
        "town_hall": False,
    }
    for seed in range(20):
        st = R.setup(2, R.Options(), seed)
        assert all(data.card(b)["set"] == "base" for b in st["buildings"])
        assert all(data.card(m)["set"] == "base" for m in st["monument_pool"])
        assert not st["coins_on"]


def test_cottage_plus_one_card_per_colour():
    """Setup: the Cottage plus one building card from each of the 6 coloured piles."""
    for seed in range(20):
        st = _setup(seed=seed)
        colours = [data.card(b)["colour"] for b in st["buildings"]]
        assert st["buildings"][0] == "cottage"
        assert colours == ["blue", "red", "green", "orange", "yellow", "grey", "black"]


def test_fortune_cards_shuffled_in_with_limit():
    """RB-F Setup: Fortune cards join their piles; by default at most 4 Fortune buildings."""
    seen_fortune = 0
    for seed in range(60):
        st = _setup(seed=seed)
        count = sum(data.card(b)["set"] == "fortune" for b in st["buildings"])
        assert count <= 4
        seen_fortune += count
    assert seen_fortune > 0
    for seed in range(60):
        st = _setup(seed=seed, max_fortune_buildings=1)
        assert sum(data.card(b)["set"] == "fortune" for b in st["buildings"]) <= 1


def test_fortune_off_and_coins_only():
    """RB-F: play without Fortune cards, or with only the coin rules (0 Fortune buildings)."""
    for seed in range(20):
        base = _setup(seed=seed, fortune=False)
        assert all(data.card(b)["set"] == "base" for b in base["buildings"])
        assert all(data.card(m)["set"] == "base" for m in base["monument_pool"])
        assert not base["coins_on"]
        coins = _setup(seed=seed, max_fortune_buildings=0, fortune_monuments=False)
        assert coins["coins_on"]
        assert all(data.card(b)["set"] == "base" for b in coins["buildings"])
        assert len(coins["monument_pool"]) == 15


def test_monuments_dealt_two_each_with_fortune_pool():
    """Setup: each player is dealt 2 monuments; Fortune monuments are in the pool when Fortune is on."""
    st = _setup(n=6)
    dealt = [m for pl in st["p"] for m in pl["dealt"]]
    assert len(dealt) == 12 and len(set(dealt)) == 12
    assert len(st["monument_pool"]) == 25
    assert st["phase"] == "monument" and R.to_act(st) == list(range(6))


def test_towns_and_chests_start_empty():
    """Setup: a 4x4 town per player and an empty chest of 4 coin slots."""
    st = _setup(n=3)
    view = R.view(st, 0)
    for t in view["towns"]:
        assert t["grid"] == [None] * 16 and t["coins"] == 0 and t["chest"] == 4


def test_monument_choice_is_simultaneous_and_secret():
    """Monuments: each player keeps 1 of 2 secretly; the choice is simultaneous."""
    st = _setup(n=3)
    first = st["p"][1]["dealt"][1]
    st2 = R.apply(st, 1, {"type": "keep_monument", "monument": first})
    assert R.to_act(st2) == [0, 2]
    assert st2["p"][1]["monument"] == first
    assert R.view(st2, 1)["towns"][1]["monument"] == first
    other = R.view(st2, 0)["towns"][1]
    assert other["monument"] is None and other["has_monument"] and other["dealt"] is None
    assert R.public_move(st, 1, {"type": "keep_monument", "monument": first}, 0) == {"type": "keep_monument"}
    assert R.public_move(st, 1, {"type": "keep_monument", "monument": first}, 1)["monument"] == first
    for seat in (0, 2):
        st2 = R.apply(st2, seat, R.legal_moves(st2, seat)[0])
    assert st2["phase"] == "name" and st2["round"] == 1


def test_solo_setup():
    """Solo: the 15-card resource deck (3 of each) with 3 revealed; solo-removed cards never dealt."""
    for seed in range(30):
        st = _setup(n=1, seed=seed, max_fortune_buildings=6)
        deck = st["solo_deck"]
        assert len(deck["shown"]) == 3 and len(deck["deck"]) == 12
        assert sorted(deck["shown"] + deck["deck"]) == sorted(data.RESOURCES * 3)
        removed = {c for c, r in data.CARDS.items() if r.get("solo") is False}
        assert not removed & set(st["buildings"])
        assert not removed & set(st["monument_pool"])
        assert st["master"] is None
