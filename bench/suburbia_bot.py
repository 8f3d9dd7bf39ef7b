"""Bot strength: 2-player games bot vs random legal play, and solo scores bot vs random.

Usage: python bench/suburbia_bot.py [games]   (default 200)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.suburbia import RULESET  # noqa: E402


def play(players: int, options: dict, seed: int, bots: set[int]) -> list[int]:
    """One game; seats in `bots` use the bot, the others play uniformly random legal moves."""
    state = RULESET.setup(players, RULESET.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "bench-random")
    while True:
        to_act = RULESET.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        if seat in bots:
            move = RULESET.bot_move(state, seat, rng)
        else:
            move = rng.choice(RULESET.legal_moves(state, seat))
        state = RULESET.apply(state, seat, move)
    return RULESET.outcome(state).ranks, RULESET.outcome(state).scores


def duel(games: int) -> float:
    """Win rate of the bot against random play in 2-player games (bot seat alternates)."""
    wins = 0.0
    for seed in range(games):
        bot = seed % 2
        ranks, _ = play(2, {}, seed, {bot})
        if ranks[bot] == 1:
            wins += 0.5 if ranks[1 - bot] == 1 else 1.0
    return wins / games


def solo(games: int, mode: str) -> tuple[float, float]:
    """Average final population in a solo game: bot, then random."""
    bot = sum(play(1, {"solo_mode": mode}, s, {0})[1][0] for s in range(games)) / games
    rnd = sum(play(1, {"solo_mode": mode}, s, set())[1][0] for s in range(games)) / games
    return bot, rnd


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t0 = time.perf_counter()
    print(f"2 players, bot vs random, {games} games: bot win rate {duel(games):.1%}")
    for mode in ("lone_architect", "dale"):
        b, r = solo(max(1, games // 4), mode)
        print(f"solo {mode}, {max(1, games // 4)} games: bot average {b:.1f}, random {r:.1f}")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
