"""Fortuna's economy in bot games (issue 25 item 13): money at the end, trade, the Market, idle
turns and win shares by seat position, for N seeded bot-only games per player count.

Every seat plays the heuristic bot. Figures per player count:
  money at the end       mean, and the share of players ending with 0 money (and with 0-2)
  trades                 Grain/Wine Trade executions a game (also through military power or a
                         bribe), units sold a game, money earned by trade a game
  Market                 Markets built a game, the share of trades made with a Market, money the
                         Market added a game
  idle turns             turns whose action card was played without being executed (and no
                         military power), as a share of all turns; of those, the share where
                         the player had at most 1 money, and where it declined a card it could
                         have executed
  win shares             by place in round 1's start-player order (ties split; fair: 1/n), and
                         for players who traded / built a Market against those who did not (a
                         dominant line would win far above 1/n)
  length and scores      rounds, the winner's score, players outside Rome

Overrides change the loaded tables for this process only (data/*.toml is not touched), in the
syntax of bench/fortuna_tune.py (action:ID.KEY=VALUE, building:ID.cost=VALUE, worth:KEY=VALUE,
slots:KIND=A,B,C).

Usage: python bench/fortuna_economy.py GAMES [PLAYERS...] [overrides]
       python bench/fortuna_economy.py 500 2 3 4
       python bench/fortuna_economy.py 200 4 action:grain_trade.price=4
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from app.engine.rng import Rng  # noqa: E402
from app.rulesets.fortuna import RULESET as R  # noqa: E402
from app.rulesets.fortuna import data  # noqa: E402
from app.rulesets.fortuna.cards import card_args  # noqa: E402
from fortuna_tune import apply_overrides  # noqa: E402


def _executed_card(state: dict, seat: int, move: dict) -> tuple[str | None, dict | None]:
    """The action card a play/military move executes (through a bribe: the bribed card)."""
    if move["type"] not in ("play", "military") or move["args"] is None:
        return None, None
    card = state["sides"][seat][move["slot"]]["card"]
    args = move["args"]
    if data.ACTIONS[card]["effect"] == "bribe":
        card, args = state["sides"][args["side"]][args["slot"]]["card"], args["args"]
    return card, args


def play(players: int, seed: int) -> dict:
    """One seeded bot-only game and its economy figures."""
    s = R.setup(players, R.Options(), seed)
    rng = Rng.from_seed(seed, "economy")
    first_order = list(s["order"])
    turns: dict[tuple[int, int], bool] = {}  # (round, turn) -> an action card was executed
    traded, marketed = Counter(), Counter()
    units = earned = market_money = trades = market_trades = 0
    why: dict[tuple[int, int], tuple[bool, bool]] = {}  # a turn played without executing
    while R.to_act(s):
        seat = R.to_act(s)[0]
        move = R.bot_move(s, seat, rng)
        key = (s["round"], s["turn"])
        if move["type"] == "play":
            turns[key] = move["args"] is not None
            if move["args"] is None:  # why: broke, or a card it could have run and did not
                why[key] = (
                    s["players"][seat]["money"] <= 1,
                    any(
                        [
                            slot["face_up"] and bool(card_args(s, seat, slot["card"]))
                            for slot in s["sides"][seat]
                        ]
                    ),
                )
        elif move["type"] == "military":
            turns[key] = True
        card, args = _executed_card(s, seat, move)
        if card is not None and data.ACTIONS[card]["effect"] == "trade":
            has_market = "market" in s["players"][seat]["buildings"]
            trades += 1
            units += args["n"]
            earned += args["n"] * (data.ACTIONS[card]["price"] + has_market)
            market_money += args["n"] * has_market
            market_trades += has_market
            traded[seat] += 1
        if card is not None and data.ACTIONS[card]["effect"] == "build" and args["b"] == "market":
            marketed[seat] += 1
        s = R.apply(s, seat, move)
    out = R.outcome(s).to_json()
    idle = [why[key] for key, done in turns.items() if not done]
    return {
        "s": s,
        "out": out,
        "first_order": first_order,
        "turns": turns,
        "traded": traded,
        "marketed": marketed,
        "units": units,
        "earned": earned,
        "market_money": market_money,
        "trades": trades,
        "market_trades": market_trades,
        "idle_broke": sum([b for b, _ in idle]),
        "idle_declined": sum([d for _, d in idle]),
    }


def _share(wins: float, n: int) -> str:
    return f"{wins / n:.1%}" if n else "-"


def report(players: int, games: int) -> None:
    """Play the games and print the figures for one player count."""
    t = time.perf_counter()
    money, rounds, win_scores = [], [], []
    outside = turns_all = idle = idle_broke = idle_declined = 0
    trades = units = earned = market_money = market_trades = markets = 0
    by_place = [0.0] * players
    line = {"traded": [0.0, 0], "not traded": [0.0, 0], "Market": [0.0, 0], "no Market": [0.0, 0]}
    for g in range(games):
        r = play(players, 10_000 + g)
        s, out = r["s"], r["out"]
        winners = out["winners"]
        rounds.append(s["round"])
        for seat, pl in enumerate(s["players"]):
            money.append(pl["money"])
            outside += pl["position"] < data.GATE_STEP
            share = (seat in winners) / len(winners) if winners else 0.0
            for name, yes in (("traded", r["traded"][seat] > 0), ("Market", "market" in pl["buildings"])):
                group = line[name if yes else ("not traded" if name == "traded" else "no Market")]
                group[0] += share
                group[1] += 1
        if winners:
            win_scores.append(max(out["scores"]))
        for place, seat in enumerate(r["first_order"]):
            if seat in winners:
                by_place[place] += 1 / len(winners)
        turns_all += len(r["turns"])
        idle += sum(1 for done in r["turns"].values() if not done)
        idle_broke += r["idle_broke"]
        idle_declined += r["idle_declined"]
        trades += r["trades"]
        units += r["units"]
        earned += r["earned"]
        market_money += r["market_money"]
        market_trades += r["market_trades"]
        markets += sum(r["marketed"].values())
    n = games * players
    print(f"\n{players} players, {games} bot games ({time.perf_counter() - t:.0f} s)")
    print(
        f"  rounds {statistics.mean(rounds):.1f} ({min(rounds)}-{max(rounds)}); winner's score "
        f"{statistics.mean(win_scores):.1f}; players outside Rome {outside / n:.1%}; "
        f"games without a winner {games - len(win_scores)}"
    )
    print(
        f"  money at the end: mean {statistics.mean(money):.2f}; players with 0: "
        f"{sum(1 for m in money if m == 0) / n:.1%}; with 0-2: {sum(1 for m in money if m <= 2) / n:.1%}"
    )
    print(
        f"  trades a game {trades / games:.2f} ({units / games:.2f} units, {earned / games:.2f} money); "
        f"players who traded {line['traded'][1] / n:.1%}"
    )
    print(
        f"  Markets built a game {markets / games:.2f}; trades with a Market {_share(market_trades, trades)}; "
        f"money from the Market a game {market_money / games:.2f}"
    )
    print(
        f"  idle turns (card played without executing, no military power): {idle / turns_all:.1%} "
        f"({idle / games:.2f} a game of {turns_all / games:.1f} turns); of those, with at most 1 money "
        f"{_share(idle_broke, idle)}, with a card it could have executed {_share(idle_declined, idle)}"
    )
    print(
        "  win share by place in round 1's order: "
        + ", ".join(f"{i + 1}. {w / games:.1%}" for i, w in enumerate(by_place))
        + f" (fair {1 / players:.1%})"
    )
    print(
        "  win share per player: "
        + "; ".join(f"{name} {_share(w, k)} ({k / n:.0%} of players)" for name, (w, k) in line.items())
    )


def main() -> None:
    games = int(sys.argv[1])
    rest = sys.argv[2:]
    counts = [int(a) for a in rest if a.isdigit()] or [2, 3, 4]
    overrides = [a for a in rest if not a.isdigit()]
    apply_overrides(overrides)
    print(f"Fortuna economy, version {R.version}, overrides: {' '.join(overrides) or 'none'}")
    for players in counts:
        report(players, games)


if __name__ == "__main__":
    main()
