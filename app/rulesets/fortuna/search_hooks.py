"""The search bot's hooks for Fortuna (app/engine/search.py), from the heuristic bot's
knowledge: its choice searched first, leaves judged by each province's value (steps first,
then what its resources are worth toward further steps)."""

from __future__ import annotations

from typing import Any, cast

from app.engine.rng import Rng
from app.engine.search import best_first, win_chances
from app.rulesets.fortuna import bot
from app.rulesets.fortuna.phases import legal_moves
from app.rulesets.fortuna.state import State

Move = dict[str, Any]

SCALE = 8.0  # province value (a step is worth 4) that makes a win e times likelier than a loss


def candidates(state: dict[str, Any], seat: int, k: int) -> list[Move]:
    """At most `k` moves, the bot's choice first."""
    s = cast(State, state)
    moves = legal_moves(s, seat)
    return best_first(bot.choose(s, seat, Rng(len(moves))), moves, k)


def evaluate(state: dict[str, Any]) -> list[float]:
    """Each seat's chance of winning from its province's value."""
    s = cast(State, state)
    return win_chances([bot.province_value(pl, s["round"]) for pl in s["players"]], SCALE)
