"""Why a move is refused: the rule of the phase the move does not follow, as a sentence."""

from __future__ import annotations

from typing import Any

from app.rulesets.city_council.state import State
from app.rulesets.city_council.windows import WINDOWS

RULES = {
    "committees": "Committees phase: the Election chairman must make at least one change and the "
    "fewest changes possible, move everyone on spot B, keep the Election Committee "
    "filled and never seat Prof. Phil on it",
    "treasury": "Treasury Committee: its chairman may embezzle $1 from the City Budget, or decline",
    "draw": "Favour draw: keep one of the two cards you drew (the Union chairman may keep both)",
    "plan": "City Planning: a plan constructs a building of the planning area that the City Budget "
    "can pay for, or relocates or sells a built building while a token is left; the same "
    "tile cannot be chosen twice",
    "vote": "Voting: your Delegate goes on another player's plan, never your own",
    "fund": "Voting, second round: private funds go on a construction plan, never more than its cost",
    "vote2": "Voting: the Executive chairman places his second Delegate on a plan, or passes",
    "approve": "Vote Counting: the Election chairman picks among the plans still tied",
    "execute": "Plan Execution: the Election chairman executes an approved plan on free blocks "
    "the City Budget (with the plan's private funds) can pay for, an upgrade covering "
    "the old tile, and never in a way that stops another approved plan from being "
    "executed while some way keeps them all possible",
    "activate": "Production: activate a zone (a Power and a Community token) or a building on the "
    "Starting Zone or an activated zone, supplying every requirement of its boxes, or pass; "
    "the Election chairman decides which Police Station box is used",
    "window": "Favour scoring: you may score a card whose condition is met now (building cards "
    "only at turn end, never in turn 1), discard at turn end, and end with at most 7 cards",
}


def reason(s: State, seat: int, move: Any) -> str:
    """The sentence refusing `move` in the current phase."""
    ph = s["phase"]
    key = "window" if ph in WINDOWS else ph
    if not isinstance(move, dict) or "type" not in move:
        return "A move must be an object with a type."
    return f"{RULES.get(key, 'That move is not allowed now')}."
