"""Building placement on the 9x9 city grid: free blocks, rotations, zone surcharges, upgrades."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import (
    BUILD_CELLS,
    CELL_BIT,
    KIND_BY_NAME,
    ORIENTATIONS,
    SIZE,
    ZONE_CELLS,
    ZONE_GRID,
    ZONES,
    Kind,
    kind_of,
)

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


def start_full(s: State) -> bool:
    """The Starting Zone has no free block (RB: 'Once the Starting Zone is full')."""
    return occupied_mask(s) & _START_MASK == _START_MASK


_START_MASK: int = sum(CELL_BIT[r][c] for r, c in ZONE_CELLS["start"])  # the Starting Zone's blocks


def zone_full(s: State, zone: str, occ: dict[tuple[int, int], str] | None = None) -> bool:
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
_POSITION_MASKS = {
    shape: [(cells, touches, sum(1 << (r * SIZE + c) for r, c in cells)) for cells, touches in rows]
    for shape, rows in POSITIONS.items()
}


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


def occupied_mask(s: State, own: Iterable[tuple[int, int]] = ()) -> int:
    """Blocks taken by buildings, as a bit mask (blocks in `own` free)."""
    occ = 0
    for b in s["buildings"].values():
        for r, c in b["cells"]:
            occ |= CELL_BIT[r][c]
    for r, c in own:
        occ &= ~CELL_BIT[r][c]
    return occ


def placements(s: State, shape: str, own: frozenset[tuple[int, int]] = frozenset()) -> list[Cells]:
    """Every position of a shape on free buildable blocks (blocks in `own` count as free). Before
    the advanced phase the tile must lie at least partly in the Starting Zone (RB Building
    Placement: 'at the beginning of the game you must construct buildings in the Starting Zone';
    Example 3 allows overlapping another zone)."""
    occ = occupied_mask(s, own)
    advanced = s["advanced"]
    return [
        cells for cells, touches, mask in _POSITION_MASKS[shape] if (advanced or touches) and not occ & mask
    ]


# Each shape's positions for each building type, by surcharge (stable: within one surcharge, the
# order of POSITIONS), so the affordable free positions are found cheapest first and the walk stops
# at the first one over the limit; before the advanced phase only those touching the Starting Zone.
# Fixed data, made at import for every (shape, type, advanced) a kind has: never added to later.
def _surcharge_table() -> dict[tuple[str, str, bool], list[tuple[int, Cells, bool, int]]]:
    """(surcharge, blocks, touches the Starting Zone, mask) of every position, by (shape, building
    type, advanced phase), cheapest first."""
    out: dict[tuple[str, str, bool], list[tuple[int, Cells, bool, int]]] = {}
    for kind in KIND_BY_NAME.values():
        for advanced in (False, True):
            key = (kind.shape, kind.type, advanced)
            if key not in out:
                out[key] = sorted(
                    [
                        (surcharge(kind, cells), cells, touches, mask)
                        for cells, touches, mask in _POSITION_MASKS[kind.shape]
                        if advanced or touches
                    ],
                    key=lambda x: x[0],
                )
    return out


_BY_SURCHARGE = _surcharge_table()


def _by_surcharge(kind: Kind, advanced: bool) -> list[tuple[int, Cells, bool, int]]:
    """The positions the kind may take in this phase, cheapest first (`_BY_SURCHARGE`'s row)."""
    return _BY_SURCHARGE[(kind.shape, kind.type, advanced)]


def mask_of(cells: Iterable[Any]) -> int:
    """Blocks as a bit mask (bit r * SIZE + c)."""
    out = 0
    for r, c in cells:
        out |= CELL_BIT[r][c]
    return out


# The building names each kind may upgrade (RB Building Upgrade Chart), by the upgrade's name.
UPGRADED_FROM: dict[str, set[str]] = {}
for _kind in KIND_BY_NAME.values():
    for _up in _kind.upgrades_to:
        UPGRADED_FROM.setdefault(_up, set()).add(_kind.name)


def iter_fresh(kind: Kind, advanced: bool, occ: int, limit: int) -> Iterator[tuple[int, Cells, int]]:
    """Every free position (`occ`: the blocks taken, as a mask) for a new tile of `kind` costing
    at most `limit` (printed cost + $1 per block off its zone, RB Constructing a Building),
    cheapest first, as (cost, blocks, mask). Before the advanced phase the tile must lie at least
    partly in the Starting Zone (RB Building Placement; Example 3 allows overlapping)."""
    base = kind.cost
    for extra, cells, _touches, mask in _by_surcharge(kind, advanced):
        if base + extra > limit:
            return
        if not occ & mask:
            yield base + extra, cells, mask


def iter_upgrades(
    buildings: dict[str, Any], kind: Kind, advanced: bool, occ: int, limit: int
) -> Iterator[tuple[int, Cells, str, int]]:
    """Every way to upgrade a built building into `kind` (RB Upgrading: the chart allows it; the
    new tile completely covers the old one; it costs the cost difference plus $1 per newly
    covered block off its zone) costing at most `limit`, by building id and, for each, cheapest
    first, as (cost, blocks, the building upgraded, mask)."""
    at = _POSITIONS_AT[kind.shape]
    sources = UPGRADED_FROM.get(kind.name)
    if not sources:
        return
    for bid in sorted(buildings):
        b = buildings[bid]
        if b["name"] not in sources:  # (a record's name is its kind's)
            continue
        old = kind_of(b)
        diff = kind.cost - old.cost
        if diff > limit:
            continue
        own = mask_of(b["cells"])
        free = occ & ~own  # the old tile's blocks count as free
        found = []
        r0, c0 = b["cells"][0]
        for cells, touches, mask in at[r0][c0]:  # a position covering the old tile holds its first block
            if (advanced or touches) and not free & mask and mask & own == own:
                extra = surcharge(kind, [(r, c) for r, c in cells if not own & CELL_BIT[r][c]])
                if diff + extra <= limit:
                    found.append((diff + extra, cells, bid, mask))
        found.sort(key=_first)
        yield from found


def iter_relocations(
    buildings: dict[str, Any], bid: str, advanced: bool, occ: int, limit: int
) -> Iterator[tuple[int, Cells, int]]:
    """Every new place for built building `bid` costing at most `limit` (RB Relocating: free, but
    $1 per block on a non-matching zone), cheapest first, as (cost, blocks, mask); its own blocks
    count as free, and the place it stands on now is not a relocation."""
    b = buildings[bid]
    here = mask_of(b["cells"])
    free = occ & ~here
    for extra, cells, _touches, mask in _by_surcharge(kind_of(b), advanced):
        if extra > limit:
            return
        if not free & mask and mask != here:
            yield extra, cells, mask


def _first(row: tuple[Any, ...]) -> Any:
    """A tuple's first item (a sort key)."""
    return row[0]


def build_choices(s: State, kind: Kind, limit: int | None = None) -> list[tuple[int, Cells, str | None]]:
    """Every way to execute a construction plan for `kind` costing at most `limit` (None: any):
    fresh placements cheapest first, then upgrades (RB Building Placement: 'you may construct a
    building anywhere on the board, as long as there is space'; RB Upgrading), as (cost, blocks,
    the building upgraded or None). Which of them the chairman may choose is execution.py's."""
    occ = occupied_mask(s)
    lim = 10**6 if limit is None else limit
    out: list[tuple[int, Cells, str | None]] = [
        (cost, cells, None) for cost, cells, _m in iter_fresh(kind, s["advanced"], occ, lim)
    ]
    out += [
        (cost, cells, bid)
        for cost, cells, bid, _m in iter_upgrades(s["buildings"], kind, s["advanced"], occ, lim)
    ]
    return out


def build_options(s: State, kind: Kind, limit: int | None = None) -> list[dict[str, Any]]:
    """`build_choices` as dicts {cells, cost[, upgrade]}."""
    return [
        {"cells": [list(x) for x in cells], "cost": cost}
        if up is None
        else {"upgrade": up, "cells": [list(x) for x in cells], "cost": cost}
        for cost, cells, up in build_choices(s, kind, limit)
    ]


def relocate_options(s: State, bid: str, limit: int | None = None) -> list[dict[str, Any]]:
    """Every new place for a relocated building costing at most `limit` (None: any), cheapest
    first, as dicts {cells, cost}."""
    lim = 10**6 if limit is None else limit
    return [
        {"cells": [list(x) for x in cells], "cost": cost}
        for cost, cells, _m in iter_relocations(s["buildings"], bid, s["advanced"], occupied_mask(s), lim)
    ]


def option_cost(
    s: State, kind: Kind, cells: list[list[int]], upgrade: str | None = None, relocate: bool = False
) -> int:
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


def zones_of(b: Mapping[str, Any]) -> set[str]:
    """Zones a building is built on or overlaps."""
    return {ZONE_GRID[r][c] for r, c in b["cells"]}


ALL_CELLS = BUILD_CELLS
