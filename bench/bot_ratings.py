"""Bot levels' ratings (issue 29): bot-only games of the product rulesets between levels drawn at
random (2-4 seats), folded with the same OpenSkill model as players' ratings (each level one
"player"), then shifted so that the Normal level sits at a newcomer's 1500. Prints each level's
rating per ruleset, the mean over them, and one fold of every game together (a tighter interval
when each ruleset has few games); app/ratings.py's BOT_RATINGS carries the result.
Figures only; nothing is asserted.

Hard and Expert search for 0.5 s and 2 s a decision (at most 20,000 and 80,000 iterations):
`--cpu` counts those seconds in this process's CPU time, as an idle core gives them, so that a
loaded machine (or `nice`) measures the level the server plays, only slower. Games go round the
rulesets one at a time and each is written as a JSON line to `--out` as it ends, so a run can be
stopped at any time, and several runs (other seeds) folded together with `--fold FILE...`.

    .venv/bin/python bench/bot_ratings.py [--ruleset ID] [--games 40] [--levels random,easy,normal]
    nice -n 15 .venv/bin/python bench/bot_ratings.py --levels normal,hard,expert --players 2 \
        --cpu --games 60 --out var/bot-ratings-1.jsonl
    .venv/bin/python bench/bot_ratings.py --fold var/bot-ratings-*.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

RULESETS = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]


def _chooser(name: str, cpu: bool) -> tuple[Any, float]:
    """A level's chooser and budget; with `cpu`, a search level's seconds are CPU seconds (its
    iteration cap kept)."""
    from app.engine import choosers
    from app.engine.search import search

    chosen = choosers.level(name)
    caps = {"hard": 20_000, "expert": 80_000}
    if not cpu or name not in caps:
        return chosen.chooser, chosen.budget

    def choose(ruleset: Any, state: Any, seat: int, seed: int, budget: float) -> Any:
        return search(
            ruleset, state, seat, seed, choosers.search_budget(ruleset, budget, caps[name], cpu=True)
        )

    return choose, chosen.budget


def play(ruleset_id: str, lineup: list[str], seed: int, cpu: bool) -> dict[str, Any]:
    """One bot-only game; its record (ruleset, lineup, ranks, CPU seconds and decisions per seat)."""
    from app.engine import registry
    from app.engine.runner import parse_options

    ruleset = registry.get(ruleset_id)
    rng = random.Random(seed)
    seats = [_chooser(name, cpu) for name in lineup]
    state = ruleset.setup(len(lineup), parse_options(ruleset, {}), rng.getrandbits(63))
    spent = [0.0] * len(lineup)
    decisions = [0] * len(lineup)
    while ruleset.outcome(state) is None:
        seat = ruleset.to_act(state)[0]  # to_act may change after each move
        choose, budget = seats[seat]
        start = time.process_time()
        move = choose(ruleset, state, seat, rng.getrandbits(63), budget)
        spent[seat] += time.process_time() - start
        decisions[seat] += 1
        state = ruleset.apply(state, seat, move)
    return {
        "ruleset": ruleset_id,
        "lineup": lineup,
        "ranks": list(ruleset.outcome(state).ranks),
        "seed": seed,
        "cpu": [round(s, 2) for s in spent],
        "decisions": decisions,
    }


def fold(games: list[dict[str, Any]], levels: list[str]) -> dict[str, tuple[float, float]]:
    """Each level's (shown rating, shown sigma) from these games in order, Normal anchored at 1500."""
    from app.ratings import BASE, MODEL, MU, SCALE

    ratings = {name: MODEL.rating() for name in levels}
    for game in games:
        lineup = game["lineup"]
        # Seats of one level in one game share its rating: rate them as separate entries of
        # the same strength, then average the level's new rating over its seats.
        teams = [[MODEL.rating(mu=ratings[name].mu, sigma=ratings[name].sigma)] for name in lineup]
        rated = MODEL.rate(teams, ranks=[float(r) for r in game["ranks"]])
        for name in set(lineup):
            mine = [team[0] for team, who in zip(rated, lineup) if who == name]
            ratings[name] = MODEL.rating(
                mu=sum(r.mu for r in mine) / len(mine), sigma=sum(r.sigma for r in mine) / len(mine)
            )
    anchor = ratings["normal"].mu if "normal" in ratings else MU
    return {name: (BASE + SCALE * (r.mu - anchor), SCALE * r.sigma) for name, r in ratings.items()}


def against(games: list[dict[str, Any]], level: str, anchor: str = "normal") -> str | None:
    """`level`'s rating from its two-seat games against `anchor` alone, order aside: its share of
    wins p (a tie half), and the rating at which the model (Plackett-Luce, both at the bots'
    fixed sigma) expects that share, 1500 + 40 c logit(p); with the 95 % Wilson interval of p.
    The sequential fold of few games leans on the last ones; this does not."""
    from app.ratings import BASE, BOT_RATINGS, MODEL, SCALE

    mine = [g for g in games if len(g["lineup"]) == 2 and set(g["lineup"]) == {level, anchor}]
    if not mine:
        return None
    n = len(mine)
    won = 0.0
    for g in mine:
        me, other = (g["ranks"][i] for i in (g["lineup"].index(level), g["lineup"].index(anchor)))
        won += 1.0 if me < other else 0.5 if me == other else 0.0
    sigma = BOT_RATINGS[anchor][1]
    c = math.sqrt(2 * (sigma**2 + MODEL.beta**2))

    def shown(p: float) -> str:
        if p <= 0.0 or p >= 1.0:
            return "-inf" if p <= 0.0 else "+inf"
        return f"{BASE + SCALE * c * math.log(p / (1 - p)):.0f}"

    z = 1.96
    centre = (won / n + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(won / n * (1 - won / n) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # The point: half a game added to each side, so that 0 or n of n still gives a number.
    return (
        f"{level} against {anchor}: {won:g} of {n} won, rating {shown((won + 0.5) / (n + 1))} "
        f"(95 %: {shown(centre - half)} to {shown(centre + half)})"
    )


def report(games: list[dict[str, Any]], levels: list[str]) -> None:
    """Print the ratings per ruleset, their mean, and one fold of all games."""
    per: dict[str, list[float]] = {name: [] for name in levels}
    for ruleset_id in RULESETS:
        mine = [g for g in games if g["ruleset"] == ruleset_id]
        if not mine:
            continue
        shown = fold(mine, levels)
        for name, (value, _) in shown.items():
            per[name].append(value)
        print(
            f"{ruleset_id:13} {len(mine):3} games  "
            + "  ".join(f"{name} {v:6.0f} (±{s:.0f})" for name, (v, s) in shown.items())
        )
    if any(per.values()):
        print(
            f"{'mean':13} {len(games):3} games  "
            + "  ".join(f"{n} {sum(v) / len(v):6.0f}" for n, v in per.items() if v)
        )
    pooled = fold(games, levels)
    print(
        f"{'one fold':13} {len(games):3} games  "
        + "  ".join(f"{name} {v:6.0f} (±{s:.0f})" for name, (v, s) in pooled.items())
    )
    for name in levels:
        line = against(games, name) if name != "normal" and "normal" in levels else None
        if line:
            print("  " + line)
    for name in levels:
        cpu = sum(c for g in games for c, who in zip(g["cpu"], g["lineup"]) if who == name)
        n = sum(d for g in games for d, who in zip(g["decisions"], g["lineup"]) if who == name)
        if n:
            print(f"  {name}: {n} decisions, {cpu / n:.3f} CPU s each")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--games", type=int, default=40, help="games per ruleset")
    parser.add_argument("--levels", default="random,easy,normal")
    parser.add_argument("--players", type=int, help="seats per game (default: 2-4 at random)")
    parser.add_argument("--cpu", action="store_true", help="search levels' seconds in CPU time")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--out", help="append each game as a JSON line here")
    parser.add_argument("--fold", nargs="+", help="only fold the games of these JSON-lines files")
    args = parser.parse_args()

    import app.rulesets  # noqa: F401  (registers the product rulesets)
    from app.engine import registry
    from app.ratings import BASE

    levels = args.levels.split(",")
    if args.fold:
        games = [
            json.loads(line) for name in args.fold for line in Path(name).read_text().splitlines() if line
        ]
        report(games, levels)
        return
    rng = random.Random(args.seed)
    rulesets = args.ruleset or RULESETS
    print(
        f"bot levels' ratings: up to {args.games} bot-only games per ruleset, levels {levels}, "
        f"{'CPU' if args.cpu else 'wall-clock'} seconds; Normal anchored at {BASE:.0f}",
        flush=True,
    )
    games: list[dict[str, Any]] = []
    for _ in range(args.games):
        for ruleset_id in rulesets:  # round the rulesets, so that a stopped run has some of each
            ruleset = registry.get(ruleset_id)
            seats = args.players or rng.randint(max(2, ruleset.min_players), min(4, ruleset.max_players))
            lineup = [rng.choice(levels) for _ in range(seats)]
            seed = rng.getrandbits(63)
            if len(set(lineup)) == 1:
                continue  # a level against itself says nothing about the levels
            start = time.perf_counter()
            game = play(ruleset_id, lineup, seed, args.cpu)
            games.append(game)
            if args.out:
                with open(args.out, "a") as out:
                    out.write(json.dumps(game) + "\n")
            print(
                f"{len(games):4} {ruleset_id:13} {'-'.join(lineup):20} ranks {game['ranks']} "
                f"{time.perf_counter() - start:.0f} s",
                flush=True,
            )
    report(games, levels)


if __name__ == "__main__":
    main()
