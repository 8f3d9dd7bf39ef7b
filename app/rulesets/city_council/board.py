"""Building placement on the 9x9 city grid: free blocks, rotations, zone surcharges, upgrades."""

from __future__ import annotations

from typing import Any, Iterable

from app.rulesets.city_council.tables import (
    BUILD_CELLS, CELL_BIT, ORIENTATIONS, SIZE, ZONE_CELLS, ZONE_GRID, ZONES, Kind, kind_of,
)

State = dict[str, Any]
Cells = tuple[tuple[int, int], ...]


def occupied(s: State) -> dict[tuple[int, int], str]:
    """Block -> building id."""
    out: dict[tuple[int, int], str] = {}
    for bid, b in s["buildings"].items():
        for r, c in b["cells"]:
            out[(r, c)] = bid
    return out


def surcharge(kind: Kind, cells: Iterable[tuple[int, int]]) -> int:
    """RB Constructing a Building: +$1 per block off the designated zone; the Starting Zone and
    Safety buildings never pay it."""
    if kind.type == "safety":
        return 0
    extra = 0
    for r, c in cells:
        ztype = _ZONE_TYPE[r][c]
        if ztype != "start" and ztype != kind.type:
            extra += 1
    return extra


_ZONE_TYPE = [[ZONES[z]["type"] for z in row] for row in ZONE_GRID]
_SURCHARGE: dict[tuple[str, Cells], int] = {}


def _position_surcharge(kind: Kind, cells: Cells) -> int:
    """`surcharge` of a whole position (fixed data: remembered per building type and position)."""
    k = (kind.type, cells)
    got = _SURCHARGE.get(k)
    if got is None:
        got = _SURCHARGE[k] = surcharge(kind, cells)
    return got


def start_full(s: State) -> bool:
    """The Starting Zone has no free block (RB: 'Once the Starting Zone is full')."""
    return _occupied_mask(s) & _START_MASK == _START_MASK


_START_MASK = sum(CELL_BIT[r][c] for r, c in ZONE_CELLS["start"])  # the Starting Zone's blocks


def zone_full(s: State, zone: str, occ: dict | None = None) -> bool:
    """A zone with no free block (RB Pollution Prevention: 'the zone has no free blocks')."""
    # No generator expressions in the functions that run during play: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    occ = occupied(s) if occ is None else occ
    for cell in ZONE_CELLS[zone]:
        if cell not in occ:
            return False
    return True


def _all_positions() -> dict[str, list[tuple[Cells, bool]]]:
    """Every position of every shape on buildable blocks, with whether it touches the Starting
    Zone (computed once)."""
    out: dict[str, list[tuple[Cells, bool]]] = {}
    for shape, orients in ORIENTATIONS.items():
        rows = []
        for orient in orients:
            for r0 in range(SIZE):
                for c0 in range(SIZE):
                    cells = tuple(sorted((r0 + dr, c0 + dc) for dr, dc in orient))
                    if all(r < SIZE and c < SIZE and ZONE_GRID[r][c] != "lake" for r, c in cells):
                        rows.append((cells, any(ZONE_GRID[r][c] == "start" for r, c in cells)))
        out[shape] = rows
    return out


POSITIONS = _all_positions()
# The same positions with their blocks as a bit mask (bit r * SIZE + c), for fast overlap tests.
_POSITION_MASKS = {shape: [(cells, touches, sum(1 << (r * SIZE + c) for r, c in cells))
                           for cells, touches in rows] for shape, rows in POSITIONS.items()}


def _positions_at() -> dict[str, list[list[list[tuple[Cells, bool, int]]]]]:
    """Each shape's positions (`_POSITION_MASKS` rows, in their order) holding block (r, c)."""
    out: dict[str, list[list[list[tuple[Cells, bool, int]]]]] = {}
    for shape, rows in _POSITION_MASKS.items():
        grid: list[list[list[tuple[Cells, bool, int]]]] = [[[] for _ in range(SIZE)] for _ in range(SIZE)]
        for row in rows:
            for r, c in row[0]:
                grid[r][c].append(row)
        out[shape] = grid
    return out


_POSITIONS_AT = _positions_at()


def _occupied_mask(s: State, own: Iterable[tuple[int, int]] = ()) -> int:
    """Blocks taken by buildings, as a bit mask (blocks in `own` free)."""
    occ = 0
    for b in s["buildings"].values():
        for r, c in b["cells"]:
            occ |= CELL_BIT[r][c]
    for r, c in own:
        occ &= ~CELL_BIT[r][c]
    return occ


def placements(s: State, shape: str, own: frozenset = frozenset()) -> list[Cells]:
    """Every position of a shape on free buildable blocks (blocks in `own` count as free). Before
    the advanced phase the tile must lie at least partly in the Starting Zone (RB Building
    Placement: 'at the beginning of the game you must construct buildings in the Starting Zone';
    Example 3 allows overlapping another zone)."""
    occ = _occupied_mask(s, own)
    advanced = s["advanced"]
    return [cells for cells, touches, mask in _POSITION_MASKS[shape]
            if (advanced or touches) and not occ & mask]


# Each shape's positions for each building type, by surcharge (stable: within one surcharge, the
# order of POSITIONS), so the least-cost free positions are found without pricing every one; before
# the advanced phase only those touching the Starting Zone (key: shape, type, advanced).
_BY_SURCHARGE: dict[tuple[str, str, bool], list[tuple[int, Cells, bool, int]]] = {}


def _cheapest_placements(s: State, kind: Kind, occ: int, not_at: int = -1) -> tuple[int, list[Cells]]:
    """The least surcharge of the shape's free positions (`placements`, `occ` being its
    `_occupied_mask`), other than the position whose blocks are the mask `not_at`, and those
    positions in `placements`' order; (0, []) when there is none."""
    advanced = s["advanced"]
    key = (kind.shape, kind.type, advanced)
    rows = _BY_SURCHARGE.get(key)
    if rows is None:
        rows = sorted([(_position_surcharge(kind, cells), cells, touches, mask)
                       for cells, touches, mask in _POSITION_MASKS[kind.shape]
                       if advanced or touches], key=lambda x: x[0])
        _BY_SURCHARGE[key] = rows
    low = None
    out: list[Cells] = []
    for extra, cells, _touches, mask in rows:
        if low is not None and extra > low:
            break
        # (a position's mask names its blocks: the same mask is the same position)
        if not occ & mask and mask != not_at:
            low = extra
            out.append(cells)
    return (low or 0), out


def build_options(s: State, kind: Kind) -> list[dict[str, Any]]:
    """Ways to execute a construction plan: fresh placements at the least possible cost (RB Plan
    Execution: the chairman 'cannot sabotage plans by intentionally increasing building costs'),
    and every upgrade of a built building the chart allows, each at its least cost (RB Upgrading:
    pay the cost difference; the new tile must completely cover the old one)."""
    return [{"cells": [list(x) for x in cells], "cost": cost} if up is None
            else {"upgrade": up, "cells": [list(x) for x in cells], "cost": cost}
            for cost, cells, up in build_choices(s, kind)]


def build_choices(s: State, kind: Kind) -> list[tuple[int, Cells, str | None]]:
    """`build_options` as (cost, blocks, the building upgraded or None), in the same order, without
    a dict and lists per option (an execution's listing makes its own move from each)."""
    occ = _occupied_mask(s)  # read once for the fresh placements and every upgrade
    extra, fresh = _cheapest_placements(s, kind, occ)
    cost = kind.cost + extra
    out: list[tuple[int, Cells, str | None]] = [(cost, cells, None) for cells in fresh]
    olds = []  # the built buildings this kind may upgrade
    for bid, b in s["buildings"].items():
        old = kind_of(b)
        if kind.name in old.upgrades_to:
            olds.append((bid, b, old))
    if not olds:
        return out
    advanced = s["advanced"]
    at = _POSITIONS_AT[kind.shape]
    for bid, b, old in sorted(olds, key=lambda x: x[0]):
        own = frozenset([tuple(x) for x in b["cells"]])
        own_mask = 0
        for r, c in own:
            own_mask |= CELL_BIT[r][c]
        free = occ & ~own_mask  # `placements(s, shape, own)`: the old tile's blocks count as free
        opts = []
        r0, c0 = b["cells"][0]
        for cells, touches, mask in at[r0][c0]:  # a position covering the old tile holds its first block
            # a free position that covers every block of the old tile
            if (advanced or touches) and not free & mask and mask & own_mask == own_mask:
                new_blocks = [x for x in cells if x not in own]
                opts.append((kind.cost - old.cost + surcharge(kind, new_blocks), cells))
        if opts:
            low = min([c for c, _ in opts])
            out += [(c, cells, bid) for c, cells in opts if c == low]
    return out


def option_cost(s: State, kind: Kind, cells: list[list[int]], upgrade: str | None = None,
                relocate: bool = False) -> int:
    """The cost of one option `build_options` or `relocate_options` lists, from its blocks alone
    (the same sums, without listing every other option): a relocation's surcharge; a fresh
    construction's cost plus surcharge; an upgrade's cost difference plus the surcharge on the
    blocks it newly covers."""
    blocks = [(r, c) for r, c in cells]
    if relocate:
        return surcharge(kind, blocks)
    if upgrade is None:
        return kind.cost + surcharge(kind, blocks)
    old = s["buildings"][upgrade]
    own = {tuple(x) for x in old["cells"]}
    return kind.cost - kind_of(old).cost + surcharge(kind, [x for x in blocks if x not in own])


def relocate_options(s: State, bid: str) -> list[dict[str, Any]]:
    """New locations for a relocated building at the least surcharge (RB Relocating: free, but
    $1 per block on a non-matching zone)."""
    extra, opts = relocate_choices(s, bid)
    return [{"cells": [list(x) for x in cells], "cost": extra} for cells in opts]


def relocate_choices(s: State, bid: str) -> tuple[int, list[Cells]]:
    """`relocate_options` as (their common cost, the blocks of each), in the same order."""
    b = s["buildings"][bid]
    kind = kind_of(b)
    own = frozenset([tuple(x) for x in b["cells"]])
    here = 0  # where it stands now, as a mask
    for r, c in b["cells"]:
        here |= CELL_BIT[r][c]
    return _cheapest_placements(s, kind, _occupied_mask(s, own), not_at=here)


def zones_of(b: dict[str, Any]) -> set[str]:
    """Zones a building is built on or overlaps."""
    return {ZONE_GRID[r][c] for r, c in b["cells"]}


ALL_CELLS = BUILD_CELLS
