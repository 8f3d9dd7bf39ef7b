"""Bot levels' ratings (issue 29): bot-only games of a product ruleset between levels drawn at
random (2-4 seats), folded with the same OpenSkill model as players' ratings (each level one
"player"), then shifted so that the Normal level sits at a newcomer's 1500. Prints each level's
rating per ruleset and over all of them; app/ratings.py's BOT_RATINGS carries the result.
Figures only; nothing is asserted. Hard and Expert search for 0.5 s and 2 s a decision: measure
them with --budget-scale below 1 (which makes them weaker than they play) or with time.

    .venv/bin/python bench/bot_ratings.py [--ruleset ID] [--games 40] [--levels random,easy,normal]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--levels", default="random,easy,normal")
    parser.add_argument("--budget-scale", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()

    import app.rulesets  # noqa: F401  (registers the product rulesets)
    from app.engine import registry
    from app.engine.choosers import level as bot_level
    from app.engine.runner import parse_options
    from app.ratings import BASE, MODEL, MU, SCALE

    levels = args.levels.split(",")
    rng = random.Random(args.seed)
    overall: dict[str, list[float]] = {name: [] for name in levels}
    print(
        f"bot levels' ratings: {args.games} bot-only games per ruleset, levels {levels}, "
        f"budget x{args.budget_scale}; Normal anchored at {BASE:.0f}"
    )
    for ruleset_id in args.ruleset or ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]:
        ruleset = registry.get(ruleset_id)
        ratings = {name: MODEL.rating() for name in levels}
        start = time.perf_counter()
        for _ in range(args.games):
            seats = rng.randint(max(2, ruleset.min_players), min(4, ruleset.max_players))
            lineup = [rng.choice(levels) for _ in range(seats)]
            if len(set(lineup)) == 1:
                continue  # a level against itself says nothing about the levels
            state = ruleset.setup(seats, parse_options(ruleset, {}), rng.getrandbits(63))
            while ruleset.outcome(state) is None:
                for seat in ruleset.to_act(state):
                    chosen = bot_level(lineup[seat])
                    move = chosen.chooser(
                        ruleset, state, seat, rng.getrandbits(63), chosen.budget * args.budget_scale
                    )
                    state = ruleset.apply(state, seat, move)
                    break  # to_act may change after each move
            ranks = ruleset.outcome(state).ranks
            # Seats of one level in one game share its rating: rate them as separate entries of
            # the same strength, then average the level's new rating over its seats.
            teams = [[MODEL.rating(mu=ratings[name].mu, sigma=ratings[name].sigma)] for name in lineup]
            rated = MODEL.rate(teams, ranks=list(ranks))
            for name in set(lineup):
                mine = [team[0] for team, who in zip(rated, lineup) if who == name]
                ratings[name] = MODEL.rating(
                    mu=sum(r.mu for r in mine) / len(mine), sigma=sum(r.sigma for r in mine) / len(mine)
                )
        anchor = ratings["normal"].mu if "normal" in ratings else MU
        shown = {name: BASE + SCALE * (r.mu - anchor) for name, r in ratings.items()}
        for name, value in shown.items():
            overall[name].append(value)
        print(
            f"{ruleset_id:13} "
            + "  ".join(f"{name} {shown[name]:6.0f} (±{SCALE * ratings[name].sigma:.0f})" for name in levels)
            + f"   {time.perf_counter() - start:.0f} s"
        )
    print("all rulesets  " + "  ".join(f"{name} {sum(v) / len(v):6.0f}" for name, v in overall.items()))


if __name__ == "__main__":
    main()
