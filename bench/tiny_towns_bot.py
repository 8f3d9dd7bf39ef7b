"""Tiny Towns bot benchmark: 2-player games bot vs random legal play, and solo averages.

Usage: python bench/tiny_towns_bot.py [games]   (default 200)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.tiny_towns import RULESET as R  # noqa: E402


def play_game(players: int, seed: int, bots: set[int], options: dict | None = None):
    """One full game; seats in `bots` use the bot, the others random legal moves. The Fortune
    game unless the options say otherwise (the figures in the Tiny Towns NOTES were taken with it;
    the ruleset's default is now the base game)."""
    state = R.setup(players, R.Options(**{"fortune": True, **(options or {})}), seed)
    rng = Rng.from_seed(seed, "bench")
    while R.to_act(state):
        seat = R.to_act(state)[0]
        if seat in bots:
            move = R.bot_move(state, seat, rng)
        else:
            move = rng.choice(R.legal_moves(state, seat))
        state = R.apply(state, seat, move)
    return R.outcome(state)


def duel(games: int) -> tuple[int, int, int]:
    """(bot wins, ties, losses) over 2-player games, the bot alternating seats."""
    wins = ties = losses = 0
    for seed in range(games):
        bot = seed % 2
        out = play_game(2, seed, {bot})
        if out.ranks[bot] == 1 and out.ranks[1 - bot] == 1:
            ties += 1
        elif out.ranks[bot] == 1:
            wins += 1
        else:
            losses += 1
    return wins, ties, losses


def solo(games: int) -> tuple[float, float]:
    """Average solo score of the bot and of random play."""
    b = [play_game(1, s, {0}).scores[0] for s in range(games)]
    r = [play_game(1, s, set()).scores[0] for s in range(games)]
    return sum(b) / games, sum(r) / games


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t = time.perf_counter()
    w, tie, lost = duel(games)
    print(
        f"2-player bot vs random: {games} games, wins {w}, ties {tie}, losses {lost}, "
        f"win rate {w / games:.1%} ({time.perf_counter() - t:.1f}s)"
    )
    t = time.perf_counter()
    b, r = solo(min(games, 100))
    print(f"solo average score: bot {b:.1f}, random {r:.1f} ({time.perf_counter() - t:.1f}s)")


if __name__ == "__main__":
    main()
