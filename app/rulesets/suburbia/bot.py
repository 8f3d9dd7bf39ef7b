"""A greedy one-ply bot: score every take/place/invest option by simulating its effects on a
scratch borough and valuing the player's population, reputation and income trajectory."""

from __future__ import annotations

from typing import Any

from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.geo import tile_cost
from app.rulesets.suburbia.legal import legal_moves
from app.rulesets.suburbia.market import surcharges
from app.rulesets.suburbia.scoring import goal_winner
from app.rulesets.suburbia.tables import GOALS, KINDS, RED_LINES, TRACK_MAX, TRACK_MIN

State = dict[str, Any]
Move = dict[str, Any]


def turns_left(state: State) -> float:
    """Rough number of this player's turns still to come."""
    left = sum(len(s) for s in state["stacks"].values())
    per_round: int = {"multi": state["seats"], "lone_architect": 2, "dale": 4}[state["mode"]]
    final: int | None = state["final_turns"]
    if final is not None:
        seats: int = state["seats"]
        return max(1.0, final / seats)
    return max(1.0, left / per_round * 0.8)


def value(p: dict[str, Any], t: float, lines: list[int], step: int) -> float:
    """Projected final population if income and reputation ran on unchanged for `t` turns,
    with red lines applied on the way; money left counts a little more than its $5 rate
    because it can still buy tiles."""
    money, income, rep, pop = p["money"], p["income"], p["rep"], p["pop"]
    for _ in range(int(t + 0.5)):
        money += income
        if money < 0:
            pop, money = max(0, pop + money), 0
        new = max(0, pop + rep)
        crossed = sum(1 for line in lines if pop < line <= new) - sum(
            1 for line in lines if new < line <= pop
        )
        income = max(TRACK_MIN, min(TRACK_MAX, income + step * crossed))
        rep = max(TRACK_MIN, min(TRACK_MAX, rep + step * crossed))
        pop = new
    return float(pop + money / 4.0)  # a float already: says so to mypy (p holds Any)


def _simulate(state: State, seat: int, move: Move) -> dict[str, Any]:
    w = World(state)
    kind = move["type"]
    if kind in ("buy", "lake"):
        tile = state["market"][move["slot"]]
        extra = surcharges(state)[move["slot"]]
        w.pay(seat, extra + (KINDS[tile].cost if kind == "buy" else 0))
        w.place(seat, tile, (move["at"][0], move["at"][1]), lake=kind == "lake")
    elif kind == "basic":
        w.pay(seat, KINDS[move["tile"]].cost)
        w.place(seat, move["tile"], (move["at"][0], move["at"][1]), lake=False)
    elif kind == "invest":
        tiles = state["p"][seat]["tiles"]
        index = next(i for i, t in enumerate(tiles) if t["at"] == move["at"])
        w.pay(seat, tile_cost(tiles[index]))
        w.invest(seat, index)
    return w.players[seat]


def goal_bonus(state: State, seat: int, p: dict[str, Any]) -> float:
    """Small nudge toward goals this borough would currently win."""
    players = list(state["p"])
    players[seat] = p
    goals = list(state["goals"])
    if state["secret"] and state["secret"][seat]["kept"]:
        goals.append(state["secret"][seat]["kept"])
    return sum(GOALS[g].bonus * 0.3 for g in goals if goal_winner(players, g) == seat)


def choose(state: State, seat: int, rng: Any) -> Move | None:
    """The bot's move for `seat` (None if it has none)."""
    moves = legal_moves(state, seat)
    if not moves:
        return None
    if len(moves) == 1:
        return moves[0]
    if state["phase"] == "choose_goal":
        return max(moves, key=lambda m: (GOALS[m["goal"]].bonus, m["goal"]))
    if state["phase"] in ("discard", "extra_discard"):
        extra = surcharges(state)
        return min(moves, key=lambda m: (extra[m["slot"]], -KINDS[state["market"][m["slot"]]].cost))
    best, best_score = moves[0], float("-inf")
    for score, move in move_scores(state, seat, moves):
        if score > best_score:
            best, best_score = move, score
    return best


def trajectory(state: State) -> tuple[float, list[int], int]:
    """What `value` needs besides the player: turns left, the red lines and their step."""
    step = state.get("la_step", 2) if state["mode"] == "lone_architect" else -1
    return turns_left(state), RED_LINES[state["red_lines"]], step


def move_scores(state: State, seat: int, moves: list[Move]) -> list[tuple[float, Move]]:
    """Each take/place/invest move with the bot's score for it, in the order given (passes
    are left out): the projected population after it, plus goal nudges."""
    t, lines, step = trajectory(state)
    out = []
    for move in moves:
        if move["type"] == "pass":
            continue
        p = _simulate(state, seat, move)
        score = value(p, t, lines, step) + goal_bonus(state, seat, p)
        if move["type"] in ("basic", "invest"):
            score -= 0.5  # the forced discard usually costs a little
        out.append((score, move))
    return out


def describe(move: Move) -> str:
    """A short label for a move."""
    kind = move.get("type")
    at = move.get("at")
    if kind == "keep_goal":
        return f"keep goal {GOALS[move['goal']].name}" if "goal" in move else "keep a secret goal"
    if kind == "buy":
        return f"buy market tile {move['slot'] + 1} and place it at {at}"
    if kind == "lake":
        return f"take market tile {move['slot'] + 1} as a lake at {at}"
    if kind == "basic":
        return f"take a {KINDS[move['tile']].name} and place it at {at}"
    if kind == "invest":
        return f"place an Investment Marker at {at}"
    if kind == "discard":
        return f"discard market tile {move['slot'] + 1}"
    return "pass"
