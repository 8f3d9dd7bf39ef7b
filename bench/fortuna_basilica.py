"""Is the Basilica worth building? (Fortuna, NOTES "Simulation".)

Bot-only games in which one seat (rotating) values the Basilica at WORTH instead of the bot's
tuned worth, so it builds one in about half the games; the others play the standard bot. If
building it paid, that seat would win more than 1/n of the games. An optional COST replaces the
Basilica's reconstructed cost (data/buildings.toml) for everyone, to try another value.

Usage: python bench/fortuna_basilica.py WORTH GAMES PLAYERS [COST]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.fortuna import RULESET as R  # noqa: E402
from app.rulesets.fortuna import bot, data  # noqa: E402


def main() -> None:
    worth, games, players = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    if len(sys.argv) > 4:
        data.BUILDINGS["basilica"]["cost"] = int(sys.argv[4])
    base = dict(bot.BUILDING_WORTH)
    variant = dict(base, basilica=worth)
    wins = 0.0
    built = 0
    for g in range(games):
        s = R.setup(players, R.Options(), 1000 + g)
        rng = Rng(g)
        vseat = g % players
        while R.to_act(s):
            seat = R.to_act(s)[0]
            bot.BUILDING_WORTH.clear()
            bot.BUILDING_WORTH.update(variant if seat == vseat else base)
            s = R.apply(s, seat, R.bot_move(s, seat, rng))
        ranks = R.outcome(s).ranks
        winners = [i for i, r in enumerate(ranks) if r == min(ranks)]
        wins += (vseat in winners) / len(winners)
        built += "basilica" in s["players"][vseat]["buildings"]
    bot.BUILDING_WORTH.clear()
    bot.BUILDING_WORTH.update(base)
    print(
        f"{players}p, Basilica cost {data.BUILDINGS['basilica']['cost']}, valued {worth}: that seat "
        f"wins {wins / games:.1%} of {games} games (1/n = {1 / players:.1%}), builds a Basilica "
        f"in {built / games:.1%}"
    )


if __name__ == "__main__":
    main()
