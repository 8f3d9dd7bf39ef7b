"""Engine speed for Suburbia: random full-game playouts per second, and per-move cost
(apply + every seat's and the spectator's view + diffs between consecutive views), p50/p99.

Usage: python bench/suburbia_bench.py [games_per_count]   (default 20)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.diff import diff  # noqa: E402
from app.engine.rng import Rng  # noqa: E402
from app.rulesets.suburbia import RULESET as R  # noqa: E402

CASES = [(1, {}), (1, {"solo_mode": "dale"}), (2, {}), (3, {}), (4, {})]


def playouts(players: int, options: dict, games: int) -> tuple[float, float]:
    """Random games per second and moves per game (apply and legal_moves only)."""
    t0 = time.perf_counter()
    moves = 0
    for seed in range(games):
        s = R.setup(players, R.Options.model_validate(options), seed)
        rng = Rng(seed)
        while R.to_act(s):
            seat = R.to_act(s)[0]
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
            moves += 1
    return games / (time.perf_counter() - t0), moves / games


def per_move(players: int, options: dict, games: int) -> list[float]:
    """Seconds per move for apply + all views + diffs against the previous views."""
    costs = []
    viewers = [*range(players), None]
    for seed in range(games):
        s = R.setup(players, R.Options.model_validate(options), seed)
        views = {v: R.view(s, v) for v in viewers}
        rng = Rng(seed)
        while R.to_act(s):
            seat = R.to_act(s)[0]
            move = rng.choice(R.legal_moves(s, seat))
            t0 = time.perf_counter()
            s = R.apply(s, seat, move)
            for v in viewers:
                new = R.view(s, v)
                diff(views[v], new)
                views[v] = new
            costs.append(time.perf_counter() - t0)
    return costs


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for players, options in CASES:
        rate, length = playouts(players, options, games)
        costs = sorted(per_move(players, options, max(2, games // 4)))
        p50 = statistics.median(costs) * 1e6
        p99 = costs[int(len(costs) * 0.99) - 1] * 1e6
        label = f"{players}p {options.get('solo_mode', '')}".strip()
        print(f"{label:>8}: {rate:7.1f} random playouts/s ({length:.0f} moves/game); "
              f"per move apply+views+diffs p50 {p50:6.0f} us, p99 {p99:6.0f} us")


if __name__ == "__main__":
    main()
