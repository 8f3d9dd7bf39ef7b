"""Fortuna bot benchmark and simulation.

1. 2-player games, bot vs uniformly random legal play (the bot alternates seats): win rate.
2. Bot-only games for each player count: game length, score spread, how often each action card,
   favour card, building and privilege card is chosen, and the win share of those choices
   (the share of uses made by the game's winner; 1/n means "no edge").

3. Per-move engine cost floor: each move of random games (apply + every seat's and the
   spectator's view + diffs) timed 5 times, keeping the fastest, so that other processes on a
   shared machine do not inflate the p99 (bench/engine_bench.py gives the plain figures).

Usage: python bench/fortuna_bot.py [duel_games] [sim_games]   (defaults 200 and 500)
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.diff import diff  # noqa: E402
from app.engine.rng import Rng  # noqa: E402
from app.rulesets.fortuna import RULESET as R  # noqa: E402
from app.rulesets.fortuna import data  # noqa: E402


def play_game(players: int, seed: int, bots: set[int], record: bool = False):
    """One full game; seats in `bots` use the bot, the others random legal moves.
    Returns (outcome, final state, list of (seat, kind, name) choices)."""
    state = R.setup(players, R.Options(), seed)
    rng = Rng.from_seed(seed, "bench")
    uses: list[tuple[int, str, str]] = []
    while R.to_act(state):
        seat = R.to_act(state)[0]
        move = R.bot_move(state, seat, rng) if seat in bots else rng.choice(R.legal_moves(state, seat))
        if record:
            t = move["type"]
            if t in ("play", "military") and move["args"] is not None:
                card = state["sides"][seat][move["slot"]]["card"]
                uses.append((seat, "action", card))
                if card == "bribe":
                    uses.append(
                        (seat, "bribed", state["sides"][move["args"]["side"]][move["args"]["slot"]]["card"])
                    )
                if card == "building":
                    uses.append((seat, "building", move["args"]["b"]))
                if t == "military":
                    uses.append((seat, "action", "(military power)"))
            elif t == "play":
                uses.append((seat, "action", "(played without executing)"))
            elif t == "favour":
                uses.append((seat, "favour", f"{move['card']} {data.FAVOURS[move['card']]['name']}"))
            elif t == "pass":
                before = state["players"][seat]["money"], state["players"][seat]["position"]
            elif t == "privilege":
                uses.append((seat, "privilege", move["card"][0]))
        after = R.apply(state, seat, move)
        if record and move["type"] == "pass":
            paid = (
                after["players"][seat]["money"] < before[0] or after["players"][seat]["position"] < before[1]
            )
            uses.append((seat, "favour", "declined, tax" if paid else "declined, no tax"))
        state = after
    return R.outcome(state), state, uses


def duel(games: int) -> None:
    """Bot vs random, 2 players."""
    t = time.perf_counter()
    wins = ties = 0
    for seed in range(games):
        bot = seed % 2
        out, _, _ = play_game(2, seed, {bot})
        if out.ranks[bot] == 1 and out.ranks[1 - bot] == 1:
            ties += 1
        elif out.ranks[bot] == 1:
            wins += 1
    print(
        f"2-player bot vs random: {games} games, wins {wins}, ties {ties}, losses {games - wins - ties}, "
        f"win rate {wins / games:.1%} ({time.perf_counter() - t:.1f}s)"
    )


def simulate(players: int, games: int) -> None:
    """Bot-only games with the figures the issue asks for."""
    t = time.perf_counter()
    rounds, moves_n, win_scores, margins, spreads, outside = [], [], [], [], [], 0
    guard = 0
    uses, wins = Counter(), Counter()
    first_win = 0
    winner_parts = Counter()
    for seed in range(games):
        out, st, log = play_game(players, 10_000 + seed, set(range(players)), record=True)
        winners = set(out.winners)
        rounds.append(st["round"])
        guard += not st["arrivals"]
        scores = sorted(out.scores, reverse=True)
        w = out.winners[0]
        win_scores.append(out.scores[w])
        margins.append(out.scores[w] - max([s for i, s in enumerate(out.scores) if i != w] or [0]))
        spreads.append(scores[0] - scores[-1])
        outside += sum(not b["inside_rome"] for b in out.breakdown)
        first_win += st["arrivals"][:1] == [w]
        winner_parts["steps"] += out.breakdown[w]["steps"]
        winner_parts["privilege"] += out.breakdown[w]["privilege_points"]
        for seat, kind, name in log:
            uses[(kind, name)] += 1
            wins[(kind, name)] += seat in winners
        moves_n.append(len(log))
    print(f"\n{players} players, {games} bot games ({time.perf_counter() - t:.1f}s)")
    print(
        f"  rounds: mean {statistics.mean(rounds):.1f}, min {min(rounds)}, max {max(rounds)}; "
        f"ended by the round guard: {guard}"
    )
    print(
        f"  winner score: mean {statistics.mean(win_scores):.1f} (steps {winner_parts['steps'] / games:.1f} "
        f"+ privileges {winner_parts['privilege'] / games:.1f}), min {min(win_scores)}, max {max(win_scores)}; "
        f"winning margin mean {statistics.mean(margins):.1f}; first-to-last spread mean {statistics.mean(spreads):.1f}"
    )
    print(
        f"  players outside Rome at the end: {outside / (games * players):.1%}; "
        f"first palace arrival wins: {first_win / games:.1%}"
    )
    for kind in ("action", "bribed", "building", "favour", "privilege"):
        rows = sorted(((n, name) for (k, name), n in uses.items() if k == kind), reverse=True)
        print(
            f"  {kind}: "
            + "; ".join(
                f"{name} {n / games:.2f}/game win share {wins[(kind, name)] / n:.0%}" for n, name in rows
            )
        )


def cost_floor(players: int, games: int = 5) -> None:
    """p50/p99 of the per-move cost, each move timed 5 times and the fastest kept."""
    costs = []
    for seed in range(games):
        state = R.setup(players, R.Options(), 2000 + seed)
        rng = Rng.from_seed(seed, "floor")
        viewers = [*range(players), None]
        views = {v: R.view(state, v) for v in viewers}
        while R.to_act(state):
            seat = R.to_act(state)[0]
            move = rng.choice(R.legal_moves(state, seat))
            best = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                after = R.apply(state, seat, move)
                new = {v: R.view(after, v) for v in viewers}
                for v in viewers:
                    diff(views[v], new[v])
                best = min(best, time.perf_counter() - start)
            costs.append(best)
            state, views = after, new
    costs.sort()
    print(
        f"  {players}p per-move cost floor: p50 {costs[len(costs) // 2] * 1e6:.0f} µs, "
        f"p99 {costs[int(len(costs) * 0.99)] * 1e6:.0f} µs, max {costs[-1] * 1e6:.0f} µs "
        f"({len(costs)} moves)"
    )


def main() -> None:
    duel_games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    sim_games = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    duel(duel_games)
    for players in (2, 3, 4):
        simulate(players, sim_games)
    print("\nEngine cost floor (fastest of 5 timings per move):")
    for players in (2, 3, 4):
        cost_floor(players)


if __name__ == "__main__":
    main()
