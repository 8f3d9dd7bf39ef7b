"""Tiny Towns engine benchmark: random full-game playouts per second, and per-move engine cost
(apply + every seat's view + diffs between consecutive views) p50/p99, per player count.

Usage: python bench/tiny_towns_bench.py [games_per_count]   (default 20)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.diff import diff  # noqa: E402
from app.engine.rng import Rng  # noqa: E402
from app.rulesets.tiny_towns import RULESET as R  # noqa: E402


def playout(players: int, seed: int) -> int:
    """A random legal game to the end; returns the number of moves."""
    state = R.setup(players, R.Options(), seed)
    rng = Rng.from_seed(seed, "bench")
    moves = 0
    while R.to_act(state):
        seat = rng.choice(R.to_act(state))
        state = R.apply(state, seat, rng.choice(R.legal_moves(state, seat)))
        moves += 1
    return moves


def move_costs(players: int, seed: int) -> list[float]:
    """Per move: apply + a view per seat and spectator + the diff against the previous views."""
    state = R.setup(players, R.Options(), seed)
    rng = Rng.from_seed(seed, "bench-cost")
    viewers = [*range(players), None]
    views = {v: R.view(state, v) for v in viewers}
    costs = []
    while R.to_act(state):
        seat = rng.choice(R.to_act(state))
        move = rng.choice(R.legal_moves(state, seat))
        t = time.perf_counter()
        state = R.apply(state, seat, move)
        for v in viewers:
            new = R.view(state, v)
            diff(views[v], new)
            views[v] = new
        costs.append(time.perf_counter() - t)
    return costs


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    for players in range(1, 7):
        t = time.perf_counter()
        moves = sum(playout(players, s) for s in range(games))
        elapsed = time.perf_counter() - t
        costs = [c for s in range(max(3, games // 4)) for c in move_costs(players, 1000 + s)]
        print(f"{players}p: {games / elapsed:6.1f} playouts/s ({moves / games:.0f} moves/game); "
              f"per move apply+views+diffs p50 {_pct(costs, 0.5) * 1e6:.0f} us, "
              f"p99 {_pct(costs, 0.99) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
