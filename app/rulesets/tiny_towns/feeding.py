"""End-of-game feeding: which Cottages (and Barrett Castle, Eraflage Vineyard) are fed, and the
coins spent on it. Players must spend coins while any unfed building can still be fed (RB-F).

Allocation is automatic and greedy for the player (see NOTES.md): fixed feeders first, then each
Greenhouse takes the contiguous group with most unfed buildings, then Farms, then coins.
"""

from __future__ import annotations

from typing import Any, Callable

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import ADJ, CELLS, COL, RING, ROW

Grid = list[Any]


def _feedables(grid: Grid) -> list[int]:
    return [i for i in CELLS if data.is_feedable(grid[i])]


_NEEDS_FED_NEIGHBOUR = {"adjacent_fed_cottages", "schoolhouse"}


def _value(grid: Grid, i: int) -> int:
    """Preference when a feeder has spare capacity: bigger payoffs first, then buildings whose
    neighbours (Temple, Parsonage, Schoolhouse) want fed Cottages next to them."""
    wanted = sum(1 for j in ADJ[i] if grid[j] in data.CARDS
                 and data.card(grid[j])["score"]["kind"] in _NEEDS_FED_NEIGHBOUR)
    return data.card(grid[i])["score"].get("vp", 0) * 10 + data.cottage_weight(grid[i]) + 3 * wanted


def _groups(grid: Grid, cells: list[int]) -> list[set[int]]:
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            for j in ADJ[todo.pop()]:
                if j in left:
                    left.discard(j)
                    group.add(j)
                    todo.append(j)
        out.append(group)
    return out


def _fixed(grid: Grid, cell: int, feed: dict[str, Any]) -> set[int]:
    kind = feed["kind"]
    if kind == "feed_around":
        return set(RING[cell])
    if kind == "feed_lines":
        return set(ROW[cell]) | set(COL[cell])
    if kind == "feed_adjacent_and_coin_pairs":
        return set(ADJ[cell])
    return set()


FIXED_KINDS = {"feed_around", "feed_lines", "feed_adjacent_and_coin_pairs"}
FEED_KINDS = FIXED_KINDS | {"feed_any", "feed_group", "feed_coin_line"}


def feed(grid: Grid, coins: int) -> tuple[set[int], int]:
    """(fed squares, coins spent on feeding)."""
    targets = _feedables(grid)
    fed: set[int] = set()
    feeders = [(i, data.card(grid[i])["feed"]) for i in CELLS
               if grid[i] in data.CARDS and "feed" in data.card(grid[i])]
    for i, f in feeders:
        fed |= _fixed(grid, i, f) & set(targets)
    for _, f in feeders:
        if f["kind"] == "feed_group":
            groups = _groups(grid, targets)
            if groups:
                fed |= max(groups, key=lambda g: (len(g - fed), sorted(g)))
    capacity = sum(f["count"] for _, f in feeders if f["kind"] == "feed_any")
    unfed = sorted((i for i in targets if i not in fed), key=lambda i: (-_value(grid, i), i))
    fed |= set(unfed[:capacity])
    return _coin_feed(grid, coins, fed, targets, feeders)


def _coin_feed(grid: Grid, coins: int, fed: set[int], targets: list[int],
               feeders: list[tuple[int, dict[str, Any]]]) -> tuple[set[int], int]:
    pairs = any(f["kind"] == "feed_adjacent_and_coin_pairs" for _, f in feeders)
    lines = any(f["kind"] == "feed_coin_line" for _, f in feeders)
    spent = 0
    while coins - spent > 0:
        unfed = [i for i in targets if i not in fed]
        if not unfed:
            break
        best_line: set[int] = set()
        if lines:
            for line in [ROW[i] for i in (0, 4, 8, 12)] + [COL[i] for i in range(4)]:
                got = {i for i in line if i in unfed}
                if len(got) > len(best_line):
                    best_line = got
        pair = set(sorted(unfed, key=lambda i: (-_value(grid, i), i))[:2]) if pairs else set()
        gain = max(best_line, pair, key=len)
        if not gain:
            break  # nothing coins can feed: keep them
        fed |= gain
        spent += 1
    return fed, spent


FEEDERS: dict[str, Callable[..., Any]] = {k: _fixed for k in FEED_KINDS}
