"""The search bot's hooks for Suburbia (app/engine/search.py), from the greedy bot's knowledge:
candidates ranked by its one-ply score, leaves judged by each borough's projected population."""

from __future__ import annotations

from typing import Any

from app.engine.search import best_first, win_chances
from app.rulesets.suburbia import bot
from app.rulesets.suburbia.legal import legal_moves

State = dict[str, Any]
Move = dict[str, Any]

SCALE = 6.0  # projected population points that make a win e times likelier than a loss


def candidates(state: State, seat: int, k: int) -> list[Move]:
    """At most `k` moves, the bot's best first (by its projected population)."""
    moves = legal_moves(state, seat)
    if len(moves) <= 1 or state["phase"] in ("choose_goal", "discard", "extra_discard"):
        return best_first(bot.choose(state, seat, None), moves, k)
    scored = bot.move_scores(state, seat, moves)
    order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
    ranked = [scored[i][1] for i in order]
    passes = [m for m in moves if m["type"] == "pass"]
    return (ranked + passes)[:k]


def evaluate(state: State) -> list[float]:
    """Each seat's chance of winning from its projected final population and goal nudges."""
    t, lines, step = bot.trajectory(state)
    estimates = [
        bot.value(p, t, lines, step) + bot.goal_bonus(state, seat, p) for seat, p in enumerate(state["p"])
    ]
    return win_chances(estimates, SCALE)
