"""City Council bot figures: the bot against random legal play over seeded 2-player games, and a
bot-only simulation per player count (game length, VP spread, defeats, building and card use).

Usage: nice -n 10 .venv/bin/python bench/city_council_bot.py [--duel N] [--sim N] [--players 2 3 4 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.city_council import RULESET as R  # noqa: E402
from app.rulesets.city_council.bot import choose  # noqa: E402
from app.rulesets.city_council.apply import apply_in_place  # noqa: E402
from app.rulesets.city_council.tables import TILES, kind_of  # noqa: E402


def play(
    players: int,
    seed: int,
    bots: set[int],
    options: dict | None = None,
    choices: list[tuple[int, str, str]] | None = None,
    fast: bool = False,
    max_turns: int = 10**9,
) -> tuple[dict, int]:
    """One game; seats in `bots` use the bot, the others random legal moves. `choices`, when
    given, collects (seat, what, name) for every plan proposed and every activation made. `fast`
    plays the moves in place without `apply`'s legality check and copy (the simulation: the bot's
    moves are legal, tests/rulesets/city_council/test_bot.py), the same rules and results. A game
    still going after `max_turns` turns is stopped there (Sandbox and Hard have no end by cards;
    a bot stall, such as the relocations at $0 fixed for issue 11, would otherwise never end)."""
    s = R.setup(players, R.Options.model_validate(options or {}), seed)
    rng = Rng.from_seed(seed, "bench-bot")
    moves = 0
    while (to := R.to_act(s)) and s["turn"] <= max_turns:
        seat = rng.choice(to)
        mv = choose(s, seat, rng) if seat in bots else rng.choice(R.legal_moves(s, seat))
        if choices is not None:
            choices.extend(_choice(s, seat, mv))
        if fast:
            apply_in_place(s, seat, mv)  # the rules `apply` runs after its check, on one copy
        else:
            s = R.apply(s, seat, mv)
        moves += 1
    return s, moves


def _choice(s: dict, seat: int, mv: dict) -> list[tuple[int, str, str]]:
    """What a move chooses, for the frequency tables: a plan (kind and tile), or an action (a
    building's boxes, a zone); an activation played for Prof. Phil counts as his (not a seat's)."""
    t = mv["type"]
    if t == "plan":
        name = TILES[mv["target"]].name if mv["kind"] == "build" else mv["kind"]
        return [(seat, "plan", name if mv["kind"] == "build" else f"{name} a building")]
    if t in ("activate", "zone"):
        by = s["order"][s["cursor"]]
        if by >= s["players"]:
            by = -1  # Prof. Phil's turn, played by the Election chairman
        if t == "zone":
            return [(by, "action", "zone activation")]
        kind = kind_of(s["buildings"][mv["building"]])
        boxes = mv.get("boxes")  # None: the Election chairman picks the Police Station's box
        label = (
            f"{kind.name} (box by the chairman)"
            if boxes is None
            else f"{kind.name} box {'+'.join(str(i + 1) for i in boxes)}"
        )
        return [(by, "action", label)]
    return []


def duel(games: int) -> None:
    """Bot vs random, 2 players, alternating the bot's seat."""
    wins = defeats = 0
    for seed in range(games):
        bot = seed % 2
        s, _ = play(2, seed, {bot})
        out = R.outcome(s)
        if s["defeat"]:
            defeats += 1
        elif bot in out.winners and len(out.winners) == 1:
            wins += 1
    print(f"duel: bot won {wins}/{games} ({100 * wins / games:.1f}%), city defeats {defeats}")


def simulate(players: int, games: int, options: dict | None = None, max_turns: int = 10**9) -> None:
    """Bot-only games: length, VP, defeats, buildings built and scored cards (games stopped at
    `max_turns` are counted as such and left out of the other figures)."""
    turns, lengths, spread, tops = [], [], [], []
    ends: Counter[str] = Counter()
    built: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    win_cards: Counter[str] = Counter()
    t0 = time.perf_counter()
    chosen: Counter[tuple[str, str]] = Counter()
    chosen_win: Counter[tuple[str, str]] = Counter()
    for seed in range(games):
        picks: list[tuple[int, str, str]] = []
        s, n = play(
            players, 10_000 + seed, set(range(players)), options, picks, fast=True, max_turns=max_turns
        )
        if s["phase"] != "over":
            ends[f"stopped after {max_turns} turns"] += 1
            continue
        turns.append(s["turn"])
        lengths.append(n)
        ends[s["defeat"] or ("goal" if max(s["vp"]) >= s["goal"] else "cards")] += 1
        spread.append(max(s["vp"]) - min(s["vp"]))
        tops.append(max(s["vp"]))
        for b in s["buildings"].values():
            if b["tile"]:
                built[TILES[b["tile"]].name] += 1
        out = R.outcome(s)
        for seat, what, name in picks:
            chosen[(what, name)] += 1
            if seat in out.winners and not s["defeat"]:
                chosen_win[(what, name)] += 1
        for seat in range(players):
            for x in s["scored"][seat]:
                cards[x["card"]] += 1
                if seat in out.winners and not s["defeat"]:
                    win_cards[x["card"]] += 1
    dt = time.perf_counter() - t0
    played, games = games, len(turns)  # per-game figures over the games that ended
    print(
        f"\n{players}p {options or ''}: {played} games in {dt:.0f}s; turns mean "
        f"{statistics.mean(turns):.1f} (min {min(turns)}, max {max(turns)}); moves "
        f"{statistics.mean(lengths):.0f}; ends {dict(ends)}"
    )
    print(
        f"  winner VP mean {statistics.mean(tops):.1f}; spread (max-min) mean {statistics.mean(spread):.1f}"
    )
    print("  built per game:", ", ".join(f"{k} {v / games:.2f}" for k, v in built.most_common()))
    print("  scored (wins):", ", ".join(f"{k} {v}({win_cards[k]})" for k, v in cards.most_common(18)))
    print(
        f"  card win share (scorings by the winner / scorings, >= 20 scorings; base {100 / players:.0f}%):",
        _shares(cards, win_cards),
    )
    for what in ("plan", "action"):
        tot = Counter({k[1]: v for k, v in chosen.items() if k[0] == what})
        win = Counter({k[1]: v for k, v in chosen_win.items() if k[0] == what})
        print(
            f"  {what} chosen per game (by the winner):",
            ", ".join(f"{k} {v / games:.2f}({win[k] / games:.2f})" for k, v in tot.most_common()),
        )
        print(f"  {what} win share (>= 20 choices):", _shares(tot, win))


def _shares(total: Counter, won: Counter) -> str:
    """Highest and lowest win shares (chosen by the eventual winner / chosen) among frequent items."""
    rows = sorted(((won[k] / v, k, v) for k, v in total.items() if v >= 20), reverse=True)
    fmt = lambda r: f"{r[1]} {100 * r[0]:.0f}% of {r[2]}"  # noqa: E731
    return (
        "highest " + ", ".join(fmt(r) for r in rows[:5]) + "; lowest " + ", ".join(fmt(r) for r in rows[-5:])
    )


def move_cost(players: int, games: int) -> None:
    """Per-move engine cost (apply + every viewer's view + diffs) in CPU time of this thread, so
    a busy shared machine's preemptions do not count; engine_bench.py gives wall-clock figures."""
    from app.engine.diff import diff

    costs = []
    for seed in range(games):
        s = R.setup(players, R.Options(), seed)
        rng = Rng.from_seed(seed, "bench-cost")
        viewers = [*range(players), None]
        views = {v: R.view(s, v) for v in viewers}
        while to := R.to_act(s):
            seat = rng.choice(to)
            mv = rng.choice(R.legal_moves(s, seat))
            t0 = time.thread_time()
            s = R.apply(s, seat, mv)
            for v in viewers:
                new = R.view(s, v)
                diff(views[v], new)
                views[v] = new
            costs.append(time.thread_time() - t0)
    costs.sort()
    p = lambda q: costs[min(len(costs) - 1, int(q * len(costs)))] * 1e6  # noqa: E731
    print(
        f"{players}p CPU per move: p50 {p(0.5):.0f} µs, p99 {p(0.99):.0f} µs, max {costs[-1] * 1e6:.0f} µs "
        f"({len(costs)} moves)"
    )


def main() -> None:
    """Print the duel and simulation figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--duel", type=int, default=200)
    ap.add_argument("--sim", type=int, default=0)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--mode", default="standard")
    ap.add_argument("--max-turns", type=int, default=10**9, help="stop a simulated game after this turn")
    ap.add_argument("--cost", type=int, default=0, help="games per player count for CPU cost per move")
    args = ap.parse_args()
    if args.duel:
        duel(args.duel)
    for n in args.players if args.cost else []:
        move_cost(n, args.cost)
    for n in args.players if args.sim else []:
        simulate(n, args.sim, {"mode": args.mode}, args.max_turns)


if __name__ == "__main__":
    main()
