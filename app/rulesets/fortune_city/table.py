"""A move in play: the state it changes (a private copy) and what the rules worked out about each
seat's board on the way (frontiers, hiring spots, truck squares), so a question asked again
within one move, or one playout, is answered without working it out again.

The memory lives as long as its `Table` (one `apply`, one `legal_moves`, one playout) and is
kept per seat: within that time a seat's board changes only through the rules, which tell the
table what they worked out afresh. tests/rulesets/fortune_city/test_playout_caches.py checks
every remembered answer against a fresh one.
"""

from __future__ import annotations

from bisect import bisect_left, insort

from app.rulesets.fortune_city.board import (
    TYPE_OF_TILE,
    drive_targets,
    frontier,
    frontier_colours,
    hire_spots,
    neighbours,
    xy,
)
from app.rulesets.fortune_city.state import Cell, Player, State


class Frontier:
    """A city's frontier: the city size it describes, the border colours around each frontier
    cell, the cells in row-major order as (y, x, key, colours around), and placements per
    colour."""

    __slots__ = ("by_colour", "near", "order", "size")

    def __init__(self, city: dict[str, Cell]) -> None:
        self.near = dict(frontier(city))
        self.order: list[tuple[int, int, str, frozenset[str]]] = [
            (xy(n)[1], xy(n)[0], n, around) for n, around in self.near.items()
        ]
        self.size = len(city)
        self.by_colour: dict[str, list[str]] = {}

    def grow(self, city: dict[str, Cell]) -> None:
        """Follow the city's newest building (its last key): only that cell and its neighbours
        change, so the order is kept by insertion (cells found by halving: it is sorted, and no
        two cells share (y, x)) instead of sorting the whole frontier."""
        new = next(reversed(city))
        colour = TYPE_OF_TILE[city[new]["tile"]]
        near, order = self.near, self.order
        if new in near:
            del near[new]
            x, y = xy(new)
            del order[bisect_left(order, (y, x, new))]
        for n in neighbours(new):
            if n in near:
                # on the frontier already: one more built neighbour, of the new colour
                around = near[n]
                if colour not in around:
                    near[n] = around = around | {colour}
                    x, y = xy(n)
                    order[bisect_left(order, (y, x, n))] = (y, x, n, around)
                continue
            fresh = frontier_colours(city, n)
            if fresh is not None:  # newly on the frontier
                x, y = xy(n)
                insort(order, (y, x, n, fresh))
                near[n] = fresh
        self.size = len(city)
        self.by_colour = {}


class Table:
    """The state a move is played on, and per seat: its city's frontier (a city only grows, so
    its size names its layout), its hiring spots from the moment the rules last worked them out
    to its next draw, and its truck squares likewise."""

    __slots__ = ("frontiers", "hires_known", "state", "targets_known")

    def __init__(self, state: State) -> None:
        self.state = state
        self.frontiers: dict[int, Frontier] = {}
        self.hires_known: dict[int, list[tuple[str, str]]] = {}
        self.targets_known: dict[int, list[str]] = {}

    def player(self, seat: int) -> Player:
        """The seat's board."""
        return self.state["players"][seat]

    def spots(self, seat: int, tile: str) -> list[str]:
        """`placements` of `tile` in the seat's city (a shared list: read only)."""
        city = self.state["players"][seat]["city"]
        f = self.frontiers.get(seat)
        if f is None or f.size != len(city):
            if f is not None and f.size + 1 == len(city):
                f.grow(city)  # one building more, the only way a city changes
            else:
                f = self.frontiers[seat] = Frontier(city)
        colour = TYPE_OF_TILE[tile]
        by_colour = f.by_colour
        got = by_colour.get(colour)
        if got is None:
            got = by_colour[colour] = [n for _, _, n, around in f.order if colour not in around]
        return got

    def hires(self, seat: int) -> list[tuple[str, str]]:
        """`hire_spots` of the seat: the spots the rules told of last, taken (a draw is followed
        by that seat's move, which tells anew), else worked out."""
        got = self.hires_known.pop(seat, None)
        return hire_spots(self.state["players"][seat]) if got is None else got

    def hires_now(self, seat: int, spots: list[tuple[str, str]]) -> None:
        """Remember that `spots` are the seat's `hire_spots` now."""
        self.hires_known[seat] = spots

    def targets(self, seat: int) -> list[str]:
        """`drive_targets` of the seat: the squares the rules told of last, else worked out."""
        got = self.targets_known.get(seat)
        return drive_targets(self.state["players"][seat]) if got is None else got

    def targets_now(self, seat: int, targets: list[str]) -> None:
        """Remember that `targets` are the seat's `drive_targets` now."""
        self.targets_known[seat] = targets
