"""A heuristic City Council bot (placeholder until the greedy bot lands: random legal move)."""

from __future__ import annotations

from typing import Any

from app.rulesets.city_council.flow import legal_moves


def choose(state: dict[str, Any], seat: int, rng: Any) -> dict[str, Any] | None:
    """Pick a move for `seat`."""
    moves = legal_moves(state, seat)
    return rng.choice(moves) if moves else None
