"""Fortune City bot benchmark and simulation.

python bench/fortune_city_bot.py duel [games]     2-player bot vs random legal play (default 200)
python bench/fortune_city_bot.py sim [games]      bot-only games per player count (default 500):
                                                  rounds, scores, spread, what is bought/built and
                                                  how it relates to winning
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.fortune_city import RULESET as R  # noqa: E402
from app.rulesets.fortune_city import data as D  # noqa: E402


def play_game(players: int, seed: int, bots: set[int], stats: dict | None = None):
    """One full game; seats in `bots` use the bot, the others random legal moves."""
    state = R.setup(players, R.Options(), seed)
    rng = Rng.from_seed(seed, "bench")
    while R.to_act(state):
        seat = R.to_act(state)[0]
        move = R.bot_move(state, seat, rng) if seat in bots else rng.choice(R.legal_moves(state, seat))
        if stats is not None:
            _record(stats, state, seat, move)
        state = R.apply(state, seat, move)
    return state, R.outcome(state)


def _record(stats, state, seat, move):
    kind = move["type"]
    stats["actions"][seat][kind] += 1
    if kind == "buy":
        stats["bought"][seat][state["market"][move["slot"]]["tile"]] += 1
    elif kind == "construct":
        stats["built"][seat][state["players"][seat]["zone"][move["zone"]]] += 1
    if move.get("gold"):
        stats["actions"][seat]["paid_gold"] += 1


def duel(games: int) -> None:
    """Bot win rate against random legal play over 2-player games, the bot alternating seats."""
    wins = ties = losses = 0
    margin = []
    t = time.perf_counter()
    for seed in range(games):
        bot = seed % 2
        _, out = play_game(2, seed, {bot})
        margin.append(out.scores[bot] - out.scores[1 - bot])
        if out.ranks[bot] == 1 and out.ranks[1 - bot] == 1:
            ties += 1
        elif out.ranks[bot] == 1:
            wins += 1
        else:
            losses += 1
    print(
        f"2-player bot vs random: {games} games, wins {wins}, ties {ties}, losses {losses}, "
        f"win rate {wins / games:.1%}, mean margin {statistics.mean(margin):+.1f} "
        f"({time.perf_counter() - t:.1f}s)"
    )


def sim(players: int, games: int) -> None:
    """Bot-only games: length, scores, score parts, choices and their link with winning."""
    t = time.perf_counter()
    rounds, scores, spreads, parts = [], [], [], defaultdict(list)
    chosen, won_with = Counter(), Counter()
    built_total, built_win = Counter(), Counter()
    actions, actions_win = Counter(), Counter()
    winners = 0
    by_order = Counter()
    sectors = defaultdict(list)
    for seed in range(games):
        stats = {
            "actions": defaultdict(Counter),
            "bought": defaultdict(Counter),
            "built": defaultdict(Counter),
        }
        state, out = play_game(players, 10_000 + seed, set(range(players)), stats)
        rounds.append(state["round"])
        first = (state["start"] - (state["round"] - 1)) % players  # the start marker moves 1 a round
        for seat in range(players):
            if out.ranks[seat] == 1:
                by_order[(seat - first) % players] += 1
            for track in D.TYPES:
                sectors[track].append(state["players"][seat]["tracks"][track])
        scores += out.scores
        spreads.append(max(out.scores) - min(out.scores))
        for b in out.breakdown:
            for k in ("buildings", "diamonds", "tracks", "garbage"):
                parts[k].append(b[k])
        for seat in range(players):
            win = out.ranks[seat] == 1
            winners += win
            for tile, c in stats["bought"][seat].items():
                chosen[tile] += c
                if win:
                    won_with[tile] += c
            for tile, c in stats["built"][seat].items():
                built_total[tile] += c
                if win:
                    built_win[tile] += c
            for kind, c in stats["actions"][seat].items():
                actions[kind] += c
                if win:
                    actions_win[kind] += c
    share = winners / (games * players)
    print(f"\n{players} players, {games} bot games ({time.perf_counter() - t:.0f}s)")
    print(f"  rounds: mean {statistics.mean(rounds):.1f}, min {min(rounds)}, max {max(rounds)}")
    print(
        f"  score: mean {statistics.mean(scores):.1f}, sd {statistics.pstdev(scores):.1f}, "
        f"min {min(scores)}, max {max(scores)}; winner-loser spread mean {statistics.mean(spreads):.1f}"
    )
    print(
        "  wins by seat order in round 1 (1st player first): "
        + ", ".join(f"{by_order[i] / games:.0%}" for i in range(players))
    )
    print(
        "  final track sector (mean): "
        + ", ".join(f"{k} {statistics.mean(v):.1f}" for k, v in sectors.items())
    )
    print(
        "  score parts (mean per player): "
        + ", ".join(f"{k} {statistics.mean(v):.1f}" for k, v in parts.items())
    )
    print(f"  actions per player-game (share of them by winners; a fair share is {share:.0%}):")
    for kind, c in sorted(actions.items(), key=lambda kv: -kv[1]):
        print(f"    {kind:10s} {c / (games * players):5.2f}   winners {actions_win[kind] / c:4.0%}")
    print("  tiles: bought per game, built per game, share of builds by winners (by type and price)")
    rows = defaultdict(lambda: [0, 0, 0])
    for tile in D.TILES:
        r = D.TILES[tile]
        g = (r["type"], r["price"], r["production"]) if not r["starting"] else ("starting", r["price"], tile)
        rows[g][0] += chosen[tile]
        rows[g][1] += built_total[tile]
        rows[g][2] += built_win[tile]
    for g, (b, c, w) in sorted(rows.items(), key=lambda kv: tuple(map(str, kv[0]))):
        print(
            f"    {g[0]:14s} ${g[1]} {g[2]:10s} bought {b / games:5.2f}  built {c / games:5.2f}  "
            f"winners {w / c if c else 0:4.0%}"
        )


def main() -> None:
    """Run the chosen mode."""
    mode = sys.argv[1] if len(sys.argv) > 1 else "duel"
    if mode == "duel":
        duel(int(sys.argv[2]) if len(sys.argv) > 2 else 200)
    else:
        games = int(sys.argv[2]) if len(sys.argv) > 2 else 500
        for n in [int(sys.argv[3])] if len(sys.argv) > 3 else (2, 3, 4):
            sim(n, games)


if __name__ == "__main__":
    main()
