"""Try other reconstructed Fortuna values (NOTES "Adjusted after simulation") before changing the data.

Overrides patch the loaded tables for this process only (data/*.toml is not touched):
  action:ID.KEY=VALUE      e.g. action:grain_trade.price=3, action:fortuna.amount=0
  slots:KIND=A,B,C         the province slot prices, e.g. slots:vestals=1,1,2
  building:ID.cost=VALUE   e.g. building:basilica.cost=2
  worth:KEY=VALUE          a bot worth (bot.WORTH or bot.BUILDING_WORTH) for every seat
  vworth:KEY=VALUE         a bot worth for the variant seat only (match mode)

Modes:
  sim GAMES PLAYERS... [overrides]    bot-only games: the compact figures of bench/fortuna_bot.py
  match GAMES PLAYERS [overrides]     one seat (rotating) plays with the vworth values, the others
                                      with the base worths: that seat's win share against 1/n

Usage: python bench/fortuna_tune.py sim 200 2 3 4 action:grain_trade.price=3
       python bench/fortuna_tune.py match 300 2 vworth:money=0.6
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.fortuna import RULESET as R  # noqa: E402
from app.rulesets.fortuna import bot, data  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fortuna_bot import play_game  # noqa: E402


def _num(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def apply_overrides(args: list[str]) -> dict[str, float]:
    """Patch the tables and the bot's worths; return the variant seat's worths."""
    variant: dict[str, float] = {}
    for arg in args:
        kind, _, rest = arg.partition(":")
        key, _, value = rest.partition("=")
        if kind == "action":
            card, _, field = key.partition(".")
            data.ACTIONS[card][field] = _num(value)
        elif kind == "building":
            b, _, field = key.partition(".")
            data.BUILDINGS[b][field] = _num(value)
        elif kind == "worth":
            (bot.WORTH if key in bot.WORTH else bot.BUILDING_WORTH)[key] = float(value)
        elif kind == "vworth":
            variant[key] = float(value)
        elif kind == "slots":  # slots:centurions=1,2,3 (the province slot prices)
            data.SLOT_PRICES[key] = [int(p) for p in value.split(",")]
        else:
            raise SystemExit(f"unknown override {arg!r}")
    return variant


def sim(games: int, players: int) -> None:
    """Bot-only games: length, scores and the uses the issue asks about."""
    uses, wins = Counter(), Counter()
    rounds, win_scores, outside, first_win, margins, priv = [], [], 0, 0, [], []
    for seed in range(games):
        out, st, log = play_game(players, 10_000 + seed, set(range(players)), record=True)
        w = out.winners[0]
        rounds.append(st["round"])
        win_scores.append(out.scores[w])
        priv.append(out.breakdown[w]["privilege_points"])
        margins.append(out.scores[w] - max(s for i, s in enumerate(out.scores) if i != w))
        outside += sum(not b["inside_rome"] for b in out.breakdown)
        first_win += st["arrivals"][:1] == [w]
        for seat, kind, name in log:
            uses[(kind, name)] += 1
            wins[(kind, name)] += seat in out.winners

    def f(kind: str, name: str) -> str:
        n = uses[(kind, name)]
        return f"{name} {n / games:.2f} ({wins[(kind, name)] / n:.0%})" if n else f"{name} 0"

    print(
        f"{players}p {games}g: rounds {sum(rounds) / games:.1f} ({min(rounds)}-{max(rounds)}), "
        f"winner {sum(win_scores) / games:.1f} (privileges {sum(priv) / games:.1f}, max score "
        f"{max(win_scores)}), margin {sum(margins) / games:.1f}, outside "
        f"{outside / games / players:.1%}, first arrival wins {first_win / games:.0%}"
    )
    acts = sorted(((n, name) for (k, name), n in uses.items() if k == "action"), reverse=True)
    print("   actions: " + "; ".join(f("action", name) for _, name in acts))
    print(
        "   buildings: "
        + "; ".join(f("building", b) for b in data.BUILDINGS)
        + " | favours: "
        + "; ".join(f("favour", name) for (k, name) in sorted(uses) if k == "favour")
    )


def _play(players: int, g: int, vseat: int, mine: tuple, base: tuple) -> float:
    """One seeded game; the variant seat's share of the win (ties split)."""
    s = R.setup(players, R.Options(), 5000 + g)
    rng = Rng(g)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        w, bw = mine if seat == vseat else base
        bot.WORTH.clear(), bot.WORTH.update(w)
        bot.BUILDING_WORTH.clear(), bot.BUILDING_WORTH.update(bw)
        s = R.apply(s, seat, R.bot_move(s, seat, rng))
    ranks = R.outcome(s).ranks
    winners = [i for i, r in enumerate(ranks) if r == min(ranks)]
    return (vseat in winners) / len(winners)


def match(games: int, players: int, variant: dict[str, float]) -> None:
    """The variant seat's win share (ties split) against the base bot, and the same seat's share
    in the same seeded games when it plays the base bot too (paired: the seat and seed luck cancel)."""
    base = dict(bot.WORTH), dict(bot.BUILDING_WORTH)
    mine = (
        {**base[0], **{k: v for k, v in variant.items() if k in bot.WORTH}},
        {**base[1], **{k: v for k, v in variant.items() if k in bot.BUILDING_WORTH}},
    )
    score = null = 0.0
    for g in range(games):
        score += _play(players, g, g % players, mine, base)
        null += _play(players, g, g % players, base, base)
    bot.WORTH.clear(), bot.WORTH.update(base[0])
    bot.BUILDING_WORTH.clear(), bot.BUILDING_WORTH.update(base[1])
    print(
        f"match {players}p {games}g {variant}: variant seat wins {score / games:.1%}, the same seat "
        f"with the base bot {null / games:.1%} (1/n {1 / players:.0%}); difference "
        f"{(score - null) / games:+.1%}"
    )


def main() -> None:
    mode, games = sys.argv[1], int(sys.argv[2])
    rest = sys.argv[3:]
    counts = [int(a) for a in rest if a.isdigit()]
    variant = apply_overrides([a for a in rest if not a.isdigit()])
    for players in counts:
        if mode == "sim":
            sim(games, players)
        else:
            match(games, players, variant)


if __name__ == "__main__":
    main()
