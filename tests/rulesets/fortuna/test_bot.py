"""The heuristic bot: always legal, and clearly stronger than random legal play."""

from __future__ import annotations

from app.rulesets.fortuna import RULESET as R
from tests.support.botgames import duel_wins, play_bot_game


def _game(players, seed, bots):
    return play_bot_game(R, players, seed, bots)


def test_bot_beats_random_in_two_player_games():
    """Bot: wins at least 9 of 10 2-player games against random legal play (the bench plays 200)."""
    assert duel_wins(R, range(500, 510)) >= 9


def test_bots_finish_four_player_games_inside_rome():
    """Bot: four bots reach the palace, with someone inside Rome to win."""
    for seed in range(3):
        out = _game(4, seed, {0, 1, 2, 3})
        assert any(b["inside_rome"] for b in out.breakdown)
        assert max(b["steps"] for b in out.breakdown) == 15
