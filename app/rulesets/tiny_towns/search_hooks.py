"""The search bot's hooks for Tiny Towns (app/engine/search.py), from the greedy bot's
knowledge: placements ranked by the town's pattern potential, leaves judged by each town's
score plus the patterns still in reach."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.engine.search import best_first, win_chances
from app.rulesets.tiny_towns import bot
from app.rulesets.tiny_towns.legal import legal_moves

Move = dict[str, Any]

SCALE = 4.0  # points that make a win e times likelier than a loss


def candidates(state: dict[str, Any], seat: int, k: int) -> list[Move]:
    """At most `k` moves, the bot's best first; placements all ranked by its value."""
    moves = legal_moves(state, seat)
    if state["phase"] == "place" and moves and moves[0]["type"] != "choose":
        order = sorted(range(len(moves)), key=lambda i: (-bot.place_value(state, seat, moves[i]), i))
        return [moves[i] for i in order[:k]]
    # the bot samples wide build choices: a generator fixed by the position keeps this repeatable
    return best_first(bot.choose(state, seat, Rng(len(moves))), moves, k)


def evaluate(state: dict[str, Any]) -> list[float]:
    """Each seat's chance of winning from its town's score and pattern potential."""
    return win_chances([bot.town_value(state, seat) for seat in range(len(state["p"]))], SCALE)
