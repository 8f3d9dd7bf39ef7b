"""The in-place playout (apply.playout) ends exactly where the reference loop of `random_move`
and `apply` ends, over many seeds, every player count and variant, from several points."""

from __future__ import annotations

import pytest

from app.engine.conformance import check_playout
from app.rulesets.tiny_towns import RULESET

CASES = [
    (1, {}),
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (1, {"fortune": False}),
    (2, {"max_fortune_buildings": 6}),
    (3, {"max_fortune_buildings": 0, "fortune_monuments": False}),
    (4, {"town_hall": True}),
    (1, {"town_hall": True}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_playout_equals_the_reference_over_many_seeds(players, options):
    """Same final state (towns, coins, pending decisions, decks, last move), same generator
    position, input untouched: from the setup, early, mid-game and late."""
    for seed in range(2, 6):
        check_playout(RULESET, players, options, seed, starts=(0, 5, 31, 90))
