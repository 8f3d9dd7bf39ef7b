"""Borough geometry: flat-top hexes in axial (q, r) coordinates; (q, r+1) is straight below."""

from __future__ import annotations

from typing import Iterable

from app.rulesets.suburbia.tables import BOARD_CELLS

Cell = tuple[int, int]
_DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def neighbours(cell: Cell) -> list[Cell]:
    """The six cells sharing an edge with `cell`."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in _DIRS]


def distance(cell: Cell, other: Cell = (0, 0)) -> int:
    """Hex steps between two cells."""
    dq, dr = cell[0] - other[0], cell[1] - other[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def cell_of(tile: dict) -> Cell:
    """The (q, r) of a borough tile entry."""
    at = tile["at"]
    return (at[0], at[1])


# Boroughs are shared between states until a move changes them (apply copies on write, tiles
# lists are never mutated in place), so the geometry of a tiles list is computed once and kept
# by the list's identity; the entry holds the list, so its id cannot be reused meanwhile.
_CACHE_MAX = 2048
_OCCUPIED: dict[int, tuple[list[dict], dict[Cell, int]]] = {}
_FRONTIER: dict[int, tuple[list[dict], list[Cell]]] = {}


def occupied(tiles: list[dict]) -> dict[Cell, int]:
    """Cell -> index of the tile there (shared result: do not modify)."""
    hit = _OCCUPIED.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    out = {cell_of(t): i for i, t in enumerate(tiles)}
    if len(_OCCUPIED) >= _CACHE_MAX:
        _OCCUPIED.clear()
    _OCCUPIED[id(tiles)] = (tiles, out)
    return out


def frontier(tiles: list[dict]) -> list[Cell]:
    """Empty cells next to at least one tile, off the borough board, in a stable order (shared
    result: do not modify)."""
    hit = _FRONTIER.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    taken = occupied(tiles)
    found: set[Cell] = set()
    for q, r in taken:
        for dq, dr in _DIRS:
            n = (q + dq, r + dr)
            if n not in taken and n not in BOARD_CELLS:
                found.add(n)
    out = sorted(found)
    if len(_FRONTIER) >= _CACHE_MAX:
        _FRONTIER.clear()
    _FRONTIER[id(tiles)] = (tiles, out)
    return out


def grown(old: list[dict], new: list[dict], cell: Cell, with_frontier: bool = True
          ) -> dict[Cell, int]:
    """`occupied(new)` for `new` = `old` plus one tile at `cell`, derived from `old`'s (and its
    frontier too, when known and wanted) instead of recomputed; returns the new occupied map."""
    taken = dict(occupied(old))
    taken[cell] = len(old)
    if len(_OCCUPIED) >= _CACHE_MAX:
        _OCCUPIED.clear()
    _OCCUPIED[id(new)] = (new, taken)
    hit = _FRONTIER.get(id(old)) if with_frontier else None
    if hit is not None and hit[0] is old:
        found = set(hit[1])
        found.discard(cell)
        q, r = cell
        for dq, dr in _DIRS:
            n = (q + dq, r + dr)
            if n not in taken and n not in BOARD_CELLS:
                found.add(n)
        if len(_FRONTIER) >= _CACHE_MAX:
            _FRONTIER.clear()
        _FRONTIER[id(new)] = (new, sorted(found))
    return taken


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
