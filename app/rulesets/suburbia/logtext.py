"""The log in words: one sentence per move, with tile names, prices and neighbours a person can
find on the board; a kept secret goal is named only to its owner."""

from __future__ import annotations

from typing import Any

from app.rulesets.suburbia.geo import tile_cost
from app.rulesets.suburbia.hexes import neighbours
from app.rulesets.suburbia.market import surcharges
from app.rulesets.suburbia.tables import GOALS, KINDS

State = dict[str, Any]


def _name(tile: dict[str, Any]) -> str:
    return "Lake" if tile["lake"] else KINDS[tile["t"]].name


def _next_to(state: State, seat: int, at: Any) -> str:
    """'next to Suburbs and Community Park' from the tiles around `at` in the seat's borough."""
    if not (isinstance(at, list) and len(at) == 2):
        return ""
    around = set(neighbours((at[0], at[1])))
    names = sorted({_name(t) for t in state["p"][seat]["tiles"] if (t["at"][0], t["at"][1]) in around})
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f" next to {listed}"


def _slot_tile(state: State, slot: Any) -> tuple[str, int]:
    """The tile name and surcharge at a market slot (words, not ids)."""
    kind = state["market"][slot]
    return (KINDS[kind].name if kind else "an empty space"), surcharges(state)[slot]


def log_text(state: State, seat: int, move: dict[str, Any], viewer: int | None) -> str:
    """One sentence about `seat` playing `move`, from the state before it, as `viewer` may know it."""
    who = f"{{seat{seat}}}"
    kind = move.get("type")
    try:
        if kind == "keep_goal":
            if viewer == seat and move.get("goal") in GOALS:
                return f"{who} kept the secret goal {GOALS[move['goal']].name}."
            return f"{who} kept a secret goal."
        if kind == "buy":
            name, extra = _slot_tile(state, move["slot"])
            price = KINDS[state["market"][move["slot"]]].cost + extra
            return (
                f"{who} bought {name} from market space {move['slot'] + 1} for ${price} and "
                f"built it{_next_to(state, seat, move.get('at'))}."
            )
        if kind == "lake":
            name, extra = _slot_tile(state, move["slot"])
            return (
                f"{who} took {name} from market space {move['slot'] + 1} for ${extra} and "
                f"built it as a Lake{_next_to(state, seat, move.get('at'))}."
            )
        if kind == "basic":
            k = KINDS[move["tile"]]
            return f"{who} built a {k.name} for ${k.cost}{_next_to(state, seat, move.get('at'))}."
        if kind == "invest":
            tile = next(t for t in state["p"][seat]["tiles"] if t["at"] == move["at"])
            return f"{who} placed an Investment Marker on their {_name(tile)} for ${tile_cost(tile)}."
        if kind == "discard":
            name, extra = _slot_tile(state, move["slot"])
            paid = f" and paid ${extra}" if extra else ""
            return f"{who} discarded {name} from market space {move['slot'] + 1}{paid}."
        if kind == "pass":
            return f"{who} passed."
    except (KeyError, IndexError, TypeError, StopIteration):
        pass  # a move the log cannot word (never a legal one): fall back to the plain label
    return f"{who} played a move."
