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


def test_the_bot_answers_only_for_the_seat_asked_to_act():
    """Bot hook: for the seat asked to act it picks one of that seat's listed moves; for a seat
    with nothing to do (no listed move) it answers None rather than a move. (`has_bot` matching
    the hook is checked for every ruleset in tests/engine/test_bot_contract.py.)"""
    for seed in range(3):
        s = R.setup(3, R.Options(), seed)
        for seat in range(3):
            move = R.bot_move(s, seat, Rng(seed))
            if seat in R.to_act(s):
                assert move in R.legal_moves(s, seat), (seed, seat, move)
            else:
                assert R.legal_moves(s, seat) == [] and move is None, (seed, seat, move)
