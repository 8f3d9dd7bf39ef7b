"""The in-place playout (turn.playout) ends exactly where the reference loop of `random_move`
and `apply` ends, over many seeds, every player count and solo game, from several points."""

from __future__ import annotations

import pytest

from app.engine.conformance import check_playout
from app.rulesets.suburbia import RULESET

CASES = [
    (1, {}),
    (1, {"solo_mode": "dale"}),
    (1, {"lone_architect_red_line": "minus2"}),
    (1, {"red_lines": "bestagon"}),
    (2, {}),
    (3, {}),
    (4, {"red_lines": "bestagon"}),
]


@pytest.mark.parametrize(("players", "options"), CASES)
def test_playout_equals_the_reference_over_many_seeds(players, options):
    """Same final state (tiles, tracks, market, stacks, last move, final scoring), same generator
    position, input untouched: from the setup, early, mid-game and late."""
    for seed in range(2, 8):
        check_playout(RULESET, players, options, seed, starts=(0, 3, 17, 41))
