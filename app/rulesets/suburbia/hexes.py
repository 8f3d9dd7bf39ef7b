"""Borough geometry: flat-top hexes in axial (q, r) coordinates; (q, r+1) is straight below."""

from __future__ import annotations

from typing import Any

from app.rulesets.suburbia.geo import (  # re-exported: the borough geometry's public names
    frontier as frontier,
    neighbours as neighbours,
    occupied as occupied,
)

Cell = tuple[int, int]


def distance(cell: Cell, other: Cell = (0, 0)) -> int:
    """Hex steps between two cells."""
    dq, dr = cell[0] - other[0], cell[1] - other[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cell_of(tile: dict[str, Any]) -> Cell:
    """The (q, r) of a borough tile entry."""
    at = tile["at"]
    return (at[0], at[1])


def groups(cells: set[Cell]) -> list[set[Cell]]:
    """Edge-connected groups of the given cells."""
    left, out = set(cells), []
    while left:
        todo, seen = [left.pop()], set()
        while todo:
            c = todo.pop()
            seen.add(c)
            for n in neighbours(c):
                if n in left:
                    left.discard(n)
                    todo.append(n)
        out.append(seen)
    return out
