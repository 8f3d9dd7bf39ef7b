"""Invariants along whole games (bot and random seats, every variant): chests never overflow,
squares hold only resources or cards, stores sit on buildings that hold resources, completed
towns are full and keep their completion round."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.rulesets.tiny_towns import RULESET as R
from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import chest_size

STORE_KINDS = {"factory", "warehouse", "museum", "oddity_shop"}


def _check(st):
    for seat, pl in enumerate(st["p"]):
        assert 0 <= pl["coins"] <= chest_size(pl)
        for v in pl["grid"]:
            assert v is None or v in data.RESOURCES or v in data.CARDS
        for key, cubes in pl["store"].items():
            owner = pl["grid"][int(key)]
            assert (
                owner == "cottage" or data.react_kind(owner) in STORE_KINDS or data.has_passive(owner, "bank")
            )
            assert all(c in data.RESOURCES for c in cubes)
        if pl["complete"]:
            assert st["finish"][seat] is not None
            assert None not in pl["grid"]
        if pl["built_monument"]:
            assert pl["monument"] in pl["grid"]


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (1, {"fortune": True}),
        (2, {}),
        (3, {"fortune": True, "max_fortune_buildings": 6}),
        (4, {"fortune": True, "town_hall": True}),
        (5, {}),
        (6, {"fortune": True}),
    ],
)
def test_invariants_hold_through_games(players, options):
    """Rules invariants hold after every move of bot-vs-random games."""
    for seed in range(2):
        st = R.setup(players, R.Options(**options), seed)
        rng = Rng.from_seed(seed, "invariants")
        steps = 0
        while R.to_act(st):
            seat = rng.choice(R.to_act(st))
            move = R.bot_move(st, seat, rng) if seat % 2 == 0 else rng.choice(R.legal_moves(st, seat))
            st = R.apply(st, seat, move)
            _check(st)
            steps += 1
        assert st["phase"] == "over" and all(pl["complete"] for pl in st["p"])
        assert R.outcome(st) is not None and steps > players


def test_fast_pattern_matcher_lists_the_same_constructions():
    """Constructing (patterns in every rotation and mirror, Trading Post wild, Shed/Obelisk
    anywhere, at least one real cube): the bit-mask matcher lists exactly the moves, in the same
    order, of the square-by-square matcher, on random towns with buildings and Trading Posts."""
    from app.rulesets.tiny_towns.patterns import _build_moves_slow, build_moves
    from tests.rulesets.tiny_towns.helpers import new_game, with_player

    rng = Rng(21)
    cards = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "trading_post"]
    st = new_game(2, buildings=cards, monuments=["obelisk_crescent", "barrett_castle"])
    found = 0
    for k in range(300):
        grid = [rng.choice([None, None, *data.RESOURCES, "trading_post", "cottage"]) for _ in range(16)]
        s = with_player(st, 0, grid, built_monument=k % 3 == 0)
        fast = build_moves(s, 0)
        assert fast == _build_moves_slow(s, 0, s["p"][0], grid, None)
        found += len(fast)
    assert found > 1000


def test_town_word_matcher_lists_the_same_constructions_for_any_cards():
    """The byte-per-square town word matcher (towns without Trading Posts) and the Trading Post
    path list exactly the square-by-square matcher's moves, in the same order, for random card
    sets (every building and monument), coins and towns, dense in resources."""
    from app.rulesets.tiny_towns.patterns import _build_moves_slow, build_moves
    from tests.rulesets.tiny_towns.helpers import new_game, with_player

    rng = Rng(22)
    buildings = [b["id"] for b in data.BUILDINGS]
    monuments = [m["id"] for m in data.MONUMENTS]
    found = 0
    for k in range(600):
        cards = [buildings[rng.below(len(buildings))] for _ in range(7)]
        cards = list(dict.fromkeys(cards))
        mons = [monuments[rng.below(len(monuments))] for _ in range(2)]
        st = new_game(2, buildings=cards, monuments=mons)
        extra = ["trading_post"] if k % 4 == 0 else []
        squares = [None, *data.RESOURCES, *data.RESOURCES, *data.RESOURCES, cards[0], *extra]
        grid = [squares[rng.below(len(squares))] for _ in range(16)]
        s = with_player(st, 0, grid, built_monument=k % 3 == 0, coins=rng.below(4))
        fast = build_moves(s, 0)
        assert fast == _build_moves_slow(s, 0, s["p"][0], grid, None)
        found += len(fast)
    assert found > 1000


def test_cards_in_play_changed_in_place_are_not_mistaken_for_the_old_ones():
    """build_options remembers the index of the last list of building cards in play (every
    state of a game shares it); the same list changed in place gets the new cards' index."""
    from app.rulesets.tiny_towns.patterns import _build_moves_slow, build_moves
    from tests.rulesets.tiny_towns.helpers import new_game, with_player

    grid = [
        "wood",
        "stone",
        None,
        None,
        "wheat",
        "wheat",
        None,
        None,
        "wood",
        "wood",
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    st = with_player(new_game(2, buildings=["cottage", "well", "tavern"]), 0, grid)
    assert [m["card"] for m in build_moves(st, 0)] == ["well"] * 2
    st["buildings"][1:3] = ["farm", "tavern"]  # the same list object, other cards
    fast = build_moves(st, 0)
    assert fast == _build_moves_slow(st, 0, st["p"][0], grid, None)
    assert {m["card"] for m in fast} == {"farm"}
