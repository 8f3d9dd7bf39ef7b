"""Fortune City seat order: each seat's win share in mirror-bot games, with a 95 % interval.

  python bench/fortune_city_seats.py [--games 500] [--players 2,3,4] [--seed-base 20000]

Every seat is played by the same bot (bot.py), so a fair game gives each seat 1/players of the
wins. Seats are counted by their place in round 1's turn order (1st = the start player); a tie
for first splits that game's win between the tied seats. The interval is Wilson's score interval;
the chi-square line tests the shares against equal ones (a small p says the order matters).
Rules review 2, item 14 (NOTES.md "Seat order" has the figures and the command).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fortune_city_bot import play_game  # noqa: E402  (bench/ is the script's own directory)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % score interval for a share of `successes` out of `n`."""
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_p(x: float, df: int) -> float:
    """P(chi-square with df degrees of freedom > x), closed forms for df 1-3 (2-4 players)."""
    if df == 1:
        return math.erfc(math.sqrt(x / 2))
    if df == 2:
        return math.exp(-x / 2)
    if df == 3:
        return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    raise ValueError("2-4 players only")


def seat_shares(players: int, games: int, seed_base: int) -> dict:
    """Play `games` mirror-bot games; wins, scores and rounds by round-1 turn order."""
    wins = [0.0] * players
    scores: list[list[int]] = [[] for _ in range(players)]
    rounds, ties = [], 0
    for g in range(games):
        state, out = play_game(players, seed_base + g, set(range(players)))
        first = (state["start"] - (state["round"] - 1)) % players  # the marker moves 1 a round
        top = [s for s in range(players) if out.ranks[s] == 1]
        ties += len(top) > 1
        for s in range(players):
            order = (s - first) % players
            scores[order].append(out.scores[s])
            if s in top:
                wins[order] += 1 / len(top)
        rounds.append(state["round"])
    return {"wins": wins, "scores": scores, "rounds": rounds, "ties": ties}


def report(players: int, games: int, r: dict, seconds: float) -> None:
    """Print one player count's table."""
    fair = 1 / players
    print(
        f"\n{players} players, {games} mirror-bot games ({seconds:.0f}s); fair share {fair:.1%}; "
        f"rounds mean {statistics.mean(r['rounds']):.1f}; ties for first {r['ties']}"
    )
    chi = 0.0
    for order, w in enumerate(r["wins"]):
        lo, hi = wilson(w, games)
        chi += (w - games * fair) ** 2 / (games * fair)
        print(
            f"  seat {order + 1} in round 1: wins {w / games:6.1%}  95% [{lo:5.1%}, {hi:5.1%}]  "
            f"mean score {statistics.mean(r['scores'][order]):.1f}"
        )
    worst = max(abs(w / games - fair) for w in r["wins"])
    print(
        f"  largest gap from fair {worst:.1%}; chi-square {chi:.1f} (df {players - 1}), "
        f"p = {chi_square_p(chi, players - 1):.2g}"
    )


def main() -> None:
    """Parse the arguments and print a table per player count."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--seed-base", type=int, default=20_000)
    a = ap.parse_args()
    for n in [int(x) for x in a.players.split(",")]:
        t = time.perf_counter()
        r = seat_shares(n, a.games, a.seed_base)
        report(n, a.games, r, time.perf_counter() - t)


if __name__ == "__main__":
    main()
