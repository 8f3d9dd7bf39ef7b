"""The heuristic bot: always legal, in every phase and player count, and far stronger than
random legal play (bench/fortune_city_bot.py prints the 200-game figure)."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.fortune_city import RULESET as R
from tests.support.botgames import duel_wins, play_bot_game


def _game(players, seed, bots):
    return play_bot_game(R, players, seed, bots)


def test_bot_beats_random_in_two_player_games():
    """Bot: wins at least 9 of 10 seeded 2-player games against random legal play."""
    assert duel_wins(R, range(300, 310)) >= 9


def test_bot_plays_legal_moves_at_every_player_count():
    """Bot: every move it picks is legal, with all seats played by the bot."""
    for n in (3, 4):
        out = _game(n, 7, set(range(n)))
        assert min(out.scores) > 0


def test_has_bot_flag():
    """Bot: the ruleset advertises its bot."""
    assert R.has_bot and R.bot_move(R.setup(2, R.Options(), 0), 5, Rng(1)) is None
