"""Engine speed for any registered ruleset: random full-game playouts per second (moves drawn with
the ruleset's `playout` hook, which defaults to a loop of `random_move` and `apply`), and the per-move
engine cost (apply + every seat's and the spectator's view + diffs between consecutive views, the
views drawing on one memo per game as the live game's do) at p50/p99, for each player count and
option set.

Usage: .venv/bin/python bench/engine_bench.py [--ruleset ID ...] [--games N] [--clock wall|cpu]
       [--repeat R]

`--clock cpu` times with this process's CPU time instead of the wall clock: on a machine shared
with other busy processes the wall-clock p99 mostly measures the scheduler, CPU time measures
the engine. `--repeat R` plays everything R times and keeps the best playout rate and, move by
move, the lowest cost (the same seeds give the same games): the floor, which busy neighbours
barely move.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import rulesets as _product_rulesets  # noqa: E402,F401  (registers the rulesets)
from app.engine import registry  # noqa: E402
from app.engine.diff import diff  # noqa: E402
from app.engine.rng import Rng  # noqa: E402
from app.engine.ruleset import Ruleset  # noqa: E402

try:
    from app.engine.memo import Memo
except ImportError:  # an older tree, when measuring "before"
    Memo = None  # type: ignore[assignment,misc]  # absent in the tree measured


def drawer(ruleset: Ruleset) -> Any:
    """The ruleset's `random_move(state, seat, rng)` hook, or a uniform draw from `legal_moves`
    for a ruleset (or an older tree, when measuring "before") without it."""
    hook = getattr(ruleset, "random_move", None)
    if hook is not None:
        return hook
    return lambda state, seat, rng: rng.choice(ruleset.legal_moves(state, seat))


def game_length(ruleset: Ruleset, players: int, options: dict[str, Any], seed: int) -> int:
    """The number of moves of the reference random game for `seed` (untimed: for the report)."""
    state = ruleset.setup(players, ruleset.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "bench")
    draw = drawer(ruleset)
    moves = 0
    while to_act := ruleset.to_act(state):
        seat = rng.choice(to_act)
        state = ruleset.apply(state, seat, draw(state, seat, rng))
        moves += 1
    return moves


def playout(ruleset: Ruleset, players: int, options: dict[str, Any], seed: int) -> None:
    """A random legal game to the end: through the ruleset's `playout` hook when it has one (its
    fast path, checked equal to the reference loop by the conformance tests), else the same
    loop of `random_move` and `apply` (an older tree, when measuring "before")."""
    state = ruleset.setup(players, ruleset.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "bench")
    hook = getattr(ruleset, "playout", None)
    if hook is not None:
        hook(state, rng)
        return
    draw = drawer(ruleset)
    while to_act := ruleset.to_act(state):
        seat = rng.choice(to_act)
        state = ruleset.apply(state, seat, draw(state, seat, rng))


def move_costs(
    ruleset: Ruleset, players: int, options: dict[str, Any], seed: int, clock: Any = time.perf_counter
) -> list[float]:
    """Seconds per move: apply, then every viewer's view and its diff against the previous one."""
    state = ruleset.setup(players, ruleset.Options.model_validate(options), seed)
    rng = Rng.from_seed(seed, "bench-cost")
    viewers = [*range(players), None]
    memo = Memo() if Memo is not None else contextlib.nullcontext()
    with memo:  # the game's memo of view parts, as the live game has (app/services/live.py)
        views = {v: ruleset.view(state, v) for v in viewers}
        costs = []
        draw = drawer(ruleset)
        while to_act := ruleset.to_act(state):
            seat = rng.choice(to_act)
            move = draw(state, seat, rng)
            start = clock()
            state = ruleset.apply(state, seat, move)
            for v in viewers:
                new = ruleset.view(state, v)
                diff(views[v], new)
                views[v] = new
            costs.append(clock() - start)
    return costs


def pct(values: list[float], q: float) -> float:
    """The q-quantile of a list."""
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def cases(ruleset: Ruleset) -> list[tuple[int, dict[str, Any]]]:
    """Every player count with the default options, plus each variant at its smallest count."""
    out = [(n, {}) for n in range(ruleset.min_players, ruleset.max_players + 1)]
    for options in getattr(ruleset, "conformance_options", []):
        out.append((ruleset.min_players, options))
    return out


def main() -> None:
    """Print the figures for the chosen rulesets (default: all product rulesets)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", action="append", default=None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    chosen = [registry.get(r) for r in args.ruleset] if args.ruleset else registry.all_rulesets()
    for ruleset in chosen:
        if ruleset is None:
            raise SystemExit("unknown ruleset")
        print(f"{ruleset.name} (version {ruleset.version}):")
        for players, options in cases(ruleset):
            rate = 0.0
            for _ in range(args.repeat):
                start = clock()
                for s in range(args.games):
                    playout(ruleset, players, options, s)
                rate = max(rate, args.games / (clock() - start))
            runs = [
                [
                    c
                    for s in range(max(2, args.games // 4))
                    for c in move_costs(ruleset, players, options, 1000 + s, clock)
                ]
                for _ in range(args.repeat)
            ]
            costs = [min(each) for each in zip(*runs)]
            sample = min(args.games, 3)
            moves = (
                sum(game_length(ruleset, players, options, s) for s in range(sample)) * args.games / sample
            )
            label = f"{players}p {options or ''}"
            print(
                f"  {label:40s} {rate:7.1f} playouts/s ({moves / args.games:4.0f} moves/game); "
                f"per move p50 {pct(costs, 0.5) * 1e6:5.0f} µs, p99 {pct(costs, 0.99) * 1e6:6.0f} µs"
            )


if __name__ == "__main__":
    main()
