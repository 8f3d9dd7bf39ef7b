"""RB Production A, activation: the moves of the member whose activation turn it is, and how an
activation or a pass moves the turn on."""

from __future__ import annotations

from typing import Any

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.state import Move, State, chair


def activation_moves(s: State, seat: int | None = None) -> list[Move]:
    """RB Production A: activate a zone or a building (pass is always allowed, NOTES). For a
    building whose either/or boxes the Election chairman picks (the Police Station), anyone else
    activates it without choosing: {"building", "chair": true}, and the chairman then decides."""
    out: list[Move] = []
    election = chair(s, "election")
    for bid, kind, choices in sorted(prod.activatable(s), key=_first):  # by building id
        if kind.chair_chooses and seat is not None and seat != election:
            out.append({"type": "activate", "building": bid, "chair": True})
            continue
        for boxes in choices:
            out.append({"type": "activate", "building": bid, "boxes": boxes})
    out += prod.zone_options(s)
    return out


def _first(row: tuple[Any, ...]) -> Any:
    """A tuple's first item (a sort key)."""
    return row[0]


def activated(s: State) -> None:
    """One activation made: passes start over; the turn moves on when it had no more."""
    s["passes"] = 0
    s["acts_left"] -= 1
    if s["acts_left"] <= 0:
        next_activator(s)


def next_activator(s: State) -> None:
    """The next member in turn order takes his activation turn."""
    s["cursor"] = (s["cursor"] + 1) % s["members"]
    s["acts_left"] = 0
