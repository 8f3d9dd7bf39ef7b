"""The search bot's hooks for Fortune City (app/engine/search.py), from the heuristic bot's
knowledge: its choice searched first, leaves judged by each city's score plus what its coins
are still worth."""

from __future__ import annotations

from app.engine.search import best_first, win_chances
from app.rulesets.fortune_city import bot, scoring
from app.rulesets.fortune_city.apply import legal_moves
from app.rulesets.fortune_city.state import Move, State

SCALE = 4.0  # points that make a win e times likelier than a loss


def candidates(state: State, seat: int, k: int) -> list[Move]:
    """At most `k` moves, the bot's choice first."""
    return best_first(bot.choose(state, seat), legal_moves(state, seat), k)


def evaluate(state: State) -> list[float]:
    """Each seat's chance of winning from its score so far and its coins at today's rate."""
    estimates = []
    for seat, p in enumerate(state["players"]):
        board = scoring.breakdown(p)
        estimates.append(board["total"] + board["coins"] * bot.money_rate(state, seat))
    return win_chances(estimates, SCALE)
