"""The greedy bot beats random legal play by a clear margin (CIVITAS_BOT_GAMES games)."""

from __future__ import annotations

import os

from app.engine.rng import Rng
from tests.rulesets.suburbia.helpers import R

GAMES = int(os.environ.get("CIVITAS_BOT_GAMES", "12"))


def _play(players, options, seed, bots, phases=None):
    s = R.setup(players, R.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "random-player")
    while R.to_act(s):
        seat = R.to_act(s)[0]
        move = R.bot_move(s, seat, rng) if seat in bots else rng.choice(R.legal_moves(s, seat))
        assert move in R.legal_moves(s, seat)
        if phases is not None and seat in bots:
            phases.add(s["phase"])
        s = R.apply(s, seat, move)
    return R.outcome(s)


def test_bot_beats_random_play_two_players():
    """Bot vs random, 2 players, bot seat alternating: the bot wins at least 75%."""
    wins = sum(_play(2, {}, seed, {seed % 2}).ranks[seed % 2] == 1 for seed in range(GAMES))
    assert wins >= 0.75 * GAMES


def test_bot_scores_more_than_random_in_dale_solo():
    """Dale solo: the bot's average population clearly exceeds random play's."""
    n = max(2, GAMES // 3)
    bot = sum(_play(1, {"solo_mode": "dale"}, s, {0}).scores[0] for s in range(n))
    rnd = sum(_play(1, {"solo_mode": "dale"}, s, set()).scores[0] for s in range(n))
    assert bot > 1.3 * rnd


def test_bot_moves_are_legal_in_every_phase():
    """The bot answers goal choice, turns, the discard after a basic tile or investment and the
    Lone Architect's extra removal with legal moves; each of those phases is reached."""
    phases: set[str] = set()
    _play(2, {}, 1, {0, 1}, phases)
    out = _play(1, {}, 1, {0}, phases)
    assert phases == {"choose_goal", "play", "discard", "extra_discard"}
    assert out.scores[0] == out.breakdown[0]["total"] > 0
