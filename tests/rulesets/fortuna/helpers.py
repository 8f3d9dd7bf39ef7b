"""Position builders for the Fortuna tests: a game at a chosen step with chosen cards and provinces."""

from __future__ import annotations

from typing import Any

from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import data
from app.rulesets.fortuna.phases import advance

ALL_ACTIONS = [row["id"] for row in data.ACTION_ROWS]


def clone(x: Any) -> Any:
    """A deep copy of plain JSON data."""
    if isinstance(x, dict):
        return {k: clone(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) for v in x]
    return x


def enter(s: dict[str, Any], phase: str) -> None:
    """Go on to `phase` in place, through every step that needs no decision."""
    advance(s, phase)


def start_turn(s: dict[str, Any]) -> None:
    """Open the turn of the seat at `turn` in place (phase 1)."""
    advance(s, "turn_start")


def end_round(s: dict[str, Any]) -> None:
    """End the round in place (new order, tokens) and open the next turn, or end the game."""
    advance(s, "round_end")


def game(n: int = 2, seed: int = 0, **opts: Any) -> dict[str, Any]:
    """A fresh game in phase 2 of the first player's first turn."""
    return R.setup(n, R.Options(**opts), seed)


def arrange(
    s: dict[str, Any], sides: dict[int, list[str]], down: dict[int, int] | None = None
) -> dict[str, Any]:
    """A copy with the given sides' cards (3 ids each); the other cards fill the remaining sides.
    `down` = {side: slot} lays that card face down (publicly known, as after an exchange)."""
    s = clone(s)
    rest = [c for c in ALL_ACTIONS if c not in {c for row in sides.values() for c in row}]
    for side in range(4):
        row = sides.get(side) or [rest.pop(0) for _ in range(3)]
        old = s["sides"][side]
        s["sides"][side] = [
            {"card": c, "face_up": old[j]["face_up"], "public": old[j]["public"]} for j, c in enumerate(row)
        ]
    for side, slot in (down or {}).items():
        s["sides"][side][slot].update(face_up=False, public=True)
    return s


def province(s: dict[str, Any], seat: int, **fields: Any) -> dict[str, Any]:
    """A copy with fields of one player's province replaced (cent = Centurions, aq = Aqueduct water)."""
    s = clone(s)
    s["players"][seat].update(fields)
    return s


def at(s: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A copy with top-level fields replaced (step, dice, turn, ...)."""
    s = clone(s)
    s.update(fields)
    return s


def favours(
    s: dict[str, Any], used: tuple[int, ...] = (), tokens: dict[int, int] | None = None
) -> dict[str, Any]:
    """A copy with the favour cards in `used` flipped over and the given tokens on cards."""
    s = clone(s)
    for k in range(1, 7):
        s["favours"][k - 1] = {"used": k in used, "tokens": (tokens or {}).get(k, 0)}
    return s


def play(s: dict[str, Any], *moves: dict[str, Any]) -> dict[str, Any]:
    """Apply moves in turn, each by the player to act."""
    for move in moves:
        s = R.apply(s, R.to_act(s)[0], move)
    return s


def seat_to_act(s: dict[str, Any]) -> int:
    """The active seat."""
    return R.to_act(s)[0]
