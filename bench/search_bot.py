"""Search-bot strength and speed: paired-seed matches of one bot level against another.

Every seed is played once per seat of the tested bot (2 players: once, then with seats swapped;
4 players: the tested bot in each of the four seats against three of the other level), so the
deal's luck cancels. Prints the tested bot's win rate (a shared win counts as a share) with a
95 % Wilson interval, and its CPU time per decision at p50 and p95 (CPU time: the machine may be
shared; wall time is printed too).

Levels: easy, normal, hard, expert, random (app/engine/choosers.py; hard and expert with their
thinking time counted in CPU seconds, as an idle core would give it), or a search spec
`search:it=1000[,s=0.5][,w=8][,hooks=0][,r=4][,g=1][,p=0.5]` (an iteration cap, seconds,
candidates per decision, no evaluate/candidates hooks, moves played from a leaf before
`evaluate` (r=end: random playouts to the end), those moves by the bot, the prior's weight).

Usage: python bench/search_bot.py GAME A B [--seeds N] [--players P] [--first-seed S]
  e.g. python bench/search_bot.py suburbia hard normal --seeds 200   (400 paired games)
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import rulesets as _product  # noqa: F401  (registers the product's rulesets)
from app.engine import choosers, registry
from app.engine.rng import Rng
from app.engine.runner import parse_options
from app.engine.search import Budget, search


def chooser(spec: str):
    """A chooser and its budget from a level name or a search spec."""
    if spec in ("hard", "expert"):  # the level's settings, its seconds counted in CPU time
        return _search_level(spec)
    if not spec.startswith("search:"):
        level = choosers.level(spec)
        if spec not in choosers.LEVELS:
            raise SystemExit(f"no level {spec!r}")
        return level.chooser, level.budget
    opts = dict(part.split("=") for part in spec[len("search:") :].split(",") if part)
    budget = Budget(
        seconds=float(opts["s"]) if "s" in opts else None,
        cpu=opts.get("cpu") == "1",
        iterations=int(opts["it"]) if "it" in opts else None,
        width=int(opts.get("w", 8)),
        use_hooks=opts.get("hooks", "1") != "0",
        rollout=int(opts.get("r", 0)) if opts.get("r") != "end" else None,
        prior=float(opts.get("p", 0.0)),
        greedy=opts.get("g", "0") == "1",
    )

    def choose(ruleset, state, seat, seed, _budget):
        return search(ruleset, state, seat, seed, budget)

    return choose, budget.seconds or 0.0


def _search_level(name: str):
    """A search level as the server plays it, but with its seconds in CPU time: on a shared
    machine wall-clock seconds buy a varying share of a core; a CPU second is what an idle
    core gives. (The server counts wall-clock time: its workers have cores to themselves.)"""
    level = choosers.level(name)

    def choose(ruleset, state, seat, seed, budget):
        return search(ruleset, state, seat, seed, choosers.search_budget(ruleset, budget, None, cpu=True))

    return choose, level.budget


def play(ruleset, players: int, seed: int, seats: list, times: list[float] | None, tested: int) -> float:
    """One game; `seats` holds each seat's (chooser, budget). Returns the tested seat's share
    of the win, and adds its CPU seconds per decision to `times`."""
    state = ruleset.setup(players, parse_options(ruleset, {}), seed)
    step = 0
    while to_act := ruleset.to_act(state):
        seat = to_act[0]
        choose, budget = seats[seat]
        start = time.process_time()
        move = choose(ruleset, state, seat, Rng.from_seed(seed, "bot", step, seat).state, budget)
        if seat == tested and times is not None:
            times.append(time.process_time() - start)
        state = ruleset.apply(state, seat, move)
        step += 1
    result = ruleset.outcome(state)
    winners = result.extra.get("winners", result.winners)
    return 1.0 / len(winners) if tested in winners else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def pct(values: list[float], q: float) -> float:
    """The q-quantile of `values` (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game")
    parser.add_argument("a", help="the tested level or search spec")
    parser.add_argument("b", help="the level it plays against")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--first-seed", type=int, default=1)
    args = parser.parse_args()
    ruleset = registry.get(args.game.replace("_", "-"))
    if ruleset is None:
        raise SystemExit(f"no game {args.game!r}")
    a, b = chooser(args.a), chooser(args.b)
    wins, games, times = 0.0, 0, []
    wall = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for tested in range(args.players):
            seats = [a if s == tested else b for s in range(args.players)]
            wins += play(ruleset, args.players, seed, seats, times, tested)
            games += 1
        low, high = wilson(wins, games)
        print(
            f"\r{games} games: {wins / games:.1%} [{low:.1%}, {high:.1%}]",
            end="",
            flush=True,
            file=sys.stderr,
        )
    low, high = wilson(wins, games)
    print(file=sys.stderr)
    print(
        f"{ruleset.id} {args.players}p: {args.a} vs {args.b}, {games} paired games "
        f"(seeds {args.first_seed}-{args.first_seed + args.seeds - 1}): win rate "
        f"{wins / games:.1%} (95 % CI {low:.1%}-{high:.1%}, fair share {1 / args.players:.0%}); "
        f"CPU s/decision p50 {pct(times, 0.5):.3f} p95 {pct(times, 0.95):.3f} "
        f"over {len(times)} decisions (mean {statistics.fmean(times) if times else 0:.3f}); "
        f"{time.perf_counter() - wall:.0f} s wall"
    )


if __name__ == "__main__":
    main()
