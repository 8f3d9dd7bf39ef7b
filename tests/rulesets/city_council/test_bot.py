"""The heuristic bot: it only plays legal moves and beats random legal play."""

from __future__ import annotations

from app.engine.rng import Rng
from bench.city_council_bot import play
from tests.rulesets.city_council.helpers import R, random_states


def test_bot_moves_are_legal():
    """Bot: every move it picks is in legal_moves, in every phase it meets."""
    for n in (2, 5):
        for _, _, s in random_states(n, 21, 250)[::5]:
            for seat in R.to_act(s):
                mv = R.bot_move(s, seat, Rng(1))
                assert mv in R.legal_moves(s, seat)


def test_bot_beats_random_play():
    """Bot: over 20 seeded 2-player games against random legal play it wins at least 17 (the
    200-game figure, 187/200 = 93.5% on 30 Nov, rules v2, is printed by
    bench/city_council_bot.py --duel 200)."""
    wins = 0
    for seed in range(20):
        bot = seed % 2
        s, _ = play(2, seed, {bot})
        out = R.outcome(s)
        wins += int(not s["defeat"] and out.winners == [bot])
    assert wins >= 17
