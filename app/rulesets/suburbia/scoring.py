"""Final scoring: public goals (ties: nobody), secret goals, $5 -> 1 population, with red lines
ignored; tie-breaks by reputation, income, money; solo rank titles."""

from __future__ import annotations

from typing import Any

from app.engine.ruleset import Outcome, ranks_from_keys
from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.geo import borough
from app.rulesets.suburbia.hexes import groups
from app.rulesets.suburbia.tables import GOALS, KINDS, rank_name

State = dict[str, Any]


# Measures that count the tiles carrying one tag (a tile's tags are its category and its icon;
# a lake's is "lake"), read from the borough's derived counts, which the effects keep anyway.
TAG_MEASURES = {
    "lakes": frozenset({"lake"}),
    "airport": frozenset({"airport"}),
    **{c: frozenset({c}) for c in ("residential", "commercial", "industrial", "civic")},
}


def measure(p: dict[str, Any], what: str) -> int:
    """A borough's value for a goal measure."""
    tiles = p["tiles"]
    if what in ("money", "income"):
        return int(p[what])
    if what == "reputation":
        return int(p["rep"])
    match = TAG_MEASURES.get(what)
    if match is not None:
        return borough(tiles).count(match)
    if what == "investments":
        return len([t for t in tiles if t["inv"]])  # a list: a generator is a closure, compiled
    if what == "lake_group":
        return _largest_group({(t["at"][0], t["at"][1]) for t in tiles if t["lake"]})
    if what == "civic_group":  # a lake is no Civic tile, whatever it was
        return _largest_group(
            {(t["at"][0], t["at"][1]) for t in tiles if not t["lake"] and KINDS[t["t"]].category == "civic"}
        )
    raise ValueError(f"unknown goal measure {what!r}")


def _largest_group(cells: set[tuple[int, int]]) -> int:
    """The size of the largest edge-connected group of `cells` (0 for none)."""
    return max([len(g) for g in groups(cells)], default=0)


def goal_winner(players: list[dict[str, Any]], goal_id: str) -> int | None:
    """The single borough that best meets a goal; None on a tie (RB-S)."""
    goal = GOALS[goal_id]
    values = [measure(p, goal.measure) for p in players]
    best = max(values) if goal.want == "most" else min(values)
    winners = [i for i, v in enumerate(values) if v == best]
    return winners[0] if len(winners) == 1 else None


def finalize(s: State) -> State:
    """Award goals, convert money, and record each borough's breakdown in s['final']."""
    w = World(s)
    w.red_lines_active = False  # RB-S: red lines are ignored during final scoring
    s["p"] = w.players
    rows = [
        {"population": p["pop"], "public_goals": {}, "secret_goal": {}, "money_converted": 0}
        for p in w.players
    ]
    winners = {g: goal_winner(w.players, g) for g in s["goals"]}
    for g, i in winners.items():
        if i is not None:
            rows[i]["public_goals"][g] = GOALS[g].bonus
    order = [(s["start"] + k) % s["seats"] for k in range(s["seats"])]
    for seat in order:  # secret goals are revealed in turn order
        g = s["secret"][seat]["kept"] if s["secret"] else None
        if g is not None:
            won = goal_winner(w.players, g) == seat
            rows[seat]["secret_goal"] = {g: GOALS[g].bonus if won else 0}
    for i, row in enumerate(rows):
        bonus = sum(row["public_goals"].values()) + sum(row["secret_goal"].values())
        w.move_population(i, bonus)
        money = w.players[i]["money"]
        row["money_converted"] = money // 5
        w.move_population(i, money // 5)
        w.mut(i)["money"] = money % 5  # leftover money is the last tie-breaker
        p = w.players[i]
        row.update(total=p["pop"], reputation=p["rep"], income=p["income"], money_left=p["money"])
    s["final"] = {"boroughs": rows}
    return s


DALE_NAME = "Dale the Bot"


def outcome(s: State) -> Outcome | None:
    """Scores, ranks (population, reputation, income, money) and per-seat breakdown.

    In the Dale game Dale takes part in the ranking (RB-S: most population wins, ties by
    reputation, income, money; a full tie is shared): `ranks` is the human's rank among the two
    boroughs, so a Dale win leaves `winners` empty, and `others` lists Dale with his score,
    rank and breakdown (participants that are not seats; the seat-indexed fields stay as they
    were)."""
    if s["phase"] != "over" or s["final"] is None:
        return None
    rows = s["final"]["boroughs"]
    keys = [(r["total"], r["reputation"], r["income"], r["money_left"]) for r in rows]
    n = s["seats"]
    extra: dict[str, Any] = {}
    ranked = keys[:n]
    if s["mode"] != "multi":
        extra["rank_name"] = rank_name(rows[0]["total"])
    if s["mode"] == "dale":
        ranked = keys[: n + 1]
        ranks_all = ranks_from_keys(ranked)
        extra["dale"] = rows[n]
        extra["beat_dale"] = keys[0] > keys[n]
        extra["others"] = [
            {"name": DALE_NAME, "score": rows[n]["total"], "rank": ranks_all[n], "breakdown": dict(rows[n])}
        ]
    return Outcome(
        [r["total"] for r in rows[:n]], ranks_from_keys(ranked)[:n], [dict(r) for r in rows[:n]], extra
    )
