"""City Council balance: how often bot-only games end in the city's defeat, per mode and player
count (rules review 2, item 8: the reconstructed Unemployment and Lifestyle monitors).

Every seat plays the heuristic bot (bot.py), or with `--random` random legal moves, through the
bench's `play` (the rules run in place, the same results as `apply`). Seeds are 10,000 + game number, as in city_council_bot.py. Prints
one row per mode and player count: games, city defeats (by Crime, by Pollution), games won at the
goal or ended by the cards, mean turns, and how long the row took.

Usage:
  nice -n 10 .venv/bin/python bench/city_council_balance.py [--games 500] [--modes standard sandbox hard]
      [--players 2 3 4 5] [--monitors FILE.toml] [--max-turns 200] [--random]

`--monitors` plays with other Unemployment / Lifestyle tables (a TOML file holding
[[unemployment]] and [[lifestyle]] rows as data/board.toml does) without editing the data, to
try values before a change is made there.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rulesets.city_council import tables
from bench.city_council_bot import play


def use_monitors(path: str) -> None:
    """Replace the loaded Unemployment and Lifestyle tables (in place: the rules hold them)."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    if "unemployment" in data:
        for side in ("W", "B"):
            tables.UNEMPLOYMENT[side].clear()
        for row in data["unemployment"]:
            for n in row["counts"]:
                tables.UNEMPLOYMENT[row["side"]][n] = dict(row["effects"])
    if "lifestyle" in data:
        tables.LIFESTYLE[:] = [(row["min"], row["max"], dict(row["effects"])) for row in data["lifestyle"]]


def row(mode: str, players: int, games: int, max_turns: int, bots: bool = True) -> dict:
    """Play `games` games (bot-only, or random-only without `bots`); the figures of one mode and
    player count."""
    ends: Counter[str] = Counter()
    turns = []
    t0 = time.perf_counter()
    for game in range(games):
        s, _moves = play(
            players,
            10_000 + game,
            set(range(players)) if bots else set(),
            {"mode": mode},
            fast=True,
            max_turns=max_turns,
        )
        if s["phase"] != "over":
            ends["stopped"] += 1
            continue
        ends[s["defeat"] or ("goal" if max(s["vp"]) >= s["goal"] else "cards")] += 1
        turns.append(s["turn"])
    defeats = ends["crime"] + ends["pollution"]
    return {
        "mode": mode,
        "players": players,
        "games": games,
        "defeats": defeats,
        "crime": ends["crime"],
        "pollution": ends["pollution"],
        "goal": ends["goal"],
        "cards": ends["cards"],
        "stopped": ends["stopped"],
        "turns": statistics.mean(turns) if turns else 0.0,
        "seconds": time.perf_counter() - t0,
    }


def main() -> None:
    """Print the defeat rates."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--modes", nargs="*", default=["standard", "sandbox", "hard"])
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    ap.add_argument("--monitors", help="a TOML file with other Unemployment / Lifestyle rows")
    ap.add_argument("--max-turns", type=int, default=200, help="stop a game after this turn")
    ap.add_argument("--random", action="store_true", help="every seat plays random legal moves")
    args = ap.parse_args()
    if args.monitors:
        use_monitors(args.monitors)
    print(
        f"{'mode':8} {'players':>7} {'games':>5} {'defeats':>13} {'crime':>5} {'pollution':>9} "
        f"{'goal':>5} {'cards':>5} {'stopped':>7} {'turns':>5} {'seconds':>7}",
        flush=True,
    )
    for mode in args.modes:
        for players in args.players:
            r = row(mode, players, args.games, args.max_turns, bots=not args.random)
            share = 100 * r["defeats"] / r["games"]
            print(
                f"{mode:8} {players:>7} {r['games']:>5} {r['defeats']:>5} ({share:5.1f} %) "
                f"{r['crime']:>5} {r['pollution']:>9} {r['goal']:>5} {r['cards']:>5} "
                f"{r['stopped']:>7} {r['turns']:>5.1f} {r['seconds']:>7.0f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
