"""The heuristic bot: always legal, and clearly stronger than random legal play."""

from __future__ import annotations

import os

from app.engine.rng import Rng
from app.rulesets.tiny_towns import RULESET as R
from tests.support.botgames import duel_wins, play_bot_game

GAMES = int(os.environ.get("CIVITAS_BOT_GAMES", "12"))


def _game(players, seed, bots):
    return play_bot_game(R, players, seed, bots)


def test_bot_beats_random_in_two_player_games():
    """Bot: wins at least 75% of 2-player games against random legal play."""
    assert duel_wins(R, range(100, 100 + GAMES)) >= 0.75 * GAMES


def test_bot_solo_scores_above_random():
    """Bot: its solo average clearly beats random play's."""
    n = max(4, GAMES // 3)
    bot = sum(_game(1, s, {0}).scores[0] for s in range(n)) / n
    rnd = sum(_game(1, s, set()).scores[0] for s in range(n)) / n
    assert bot > rnd + 5


def test_advertised_bot_answers_every_decision():
    """Bot: the ruleset advertises a bot (has_bot), and that bot answers every kind of decision
    (monument, naming, placing, constructing, effect choices) with a listed move, never None
    (which would leave the platform to pick a random move)."""
    assert R.has_bot
    state = R.setup(3, R.Options(fortune=True), 5)
    rng = Rng.from_seed(5, "bot-flag")
    seen = set()
    while R.to_act(state):
        seat = R.to_act(state)[0]
        move = R.bot_move(state, seat, rng)
        assert move is not None and move in R.legal_moves(state, seat)
        seen.add("choose" if move["type"] == "choose" else state["phase"])
        state = R.apply(state, seat, move)
    assert {"monument", "name", "place", "build"} <= seen
