"""End-of-game feeding: which Cottages (and Barrett Castle, Eraflage Vineyard) are fed, and the
coins spent on it. Players must spend coins while any unfed building can still be fed (RB-F Root
Cellar / Little Barn / Feeding).

The allocation is chosen *for* the player, and it is the best one for them (NOTES decision 33):

1. Every feeding choice (which group each Greenhouse feeds, which buildings the Farms feed, which
   lines the Root Cellar coins feed, which buildings the Little Barn coin pairs feed) only ever
   adds fed buildings, and no card scores less because more of its town is fed. So a player who
   can feed everything wants that, at the lowest coin cost.
2. With a coin feeder (Root Cellar, Little Barn) every unfed building can be fed by one more
   coin, so the forced-spend rule means: if everything can be fed with the coins in hand, the
   player feeds everything (cheapest way, which keeps the most coins); otherwise every coin is
   spent. Without a coin feeder no coin is spent. The coins left are therefore fixed before any
   choice is made (`coins_spent`), which is also why the Schoolhouse comparison does not depend
   on the choices.
3. When not everything can be fed, `best_feeding` enumerates every Greenhouse group choice, every
   set of Root Cellar lines, and every choice of the buildings fed by Farm slots and Little Barn
   pairs, and keeps the fed set the player's scoring values most (`value`).
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any, Callable, Iterable

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import ADJ, CELLS, COL, RING, ROW

Grid = list[Any] | tuple[Any, ...]
LINES = [frozenset(ROW[i]) for i in (0, 4, 8, 12)] + [frozenset(COL[i]) for i in range(4)]
COMBO_CAP = 20000  # a safety bound, never reached: at most 15 feedable squares, C(15, 7) = 6435

FIXED_KINDS = {"feed_around", "feed_lines", "feed_adjacent_and_coin_pairs"}
FEED_KINDS = FIXED_KINDS | {"feed_any", "feed_group", "feed_coin_line"}


def _feedables(grid: Grid) -> frozenset[int]:
    # No generator expressions in the functions that run during play (scoring, the bot's
    # evaluations): compiled, a function holding one allocates a closure on every call.
    return frozenset([i for i in CELLS if data.is_feedable(grid[i])])


def _groups(cells: Iterable[int]) -> list[frozenset[int]]:
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
        out.append(frozenset(group))
    return sorted(out, key=sorted)


def _fixed(cell: int, kind: str) -> set[int]:
    if kind == "feed_around":
        return set(RING[cell])
    if kind == "feed_lines":
        return set(ROW[cell]) | set(COL[cell])
    if kind == "feed_adjacent_and_coin_pairs":
        return set(ADJ[cell])
    return set()


class Feeders:
    """What a town's feeders can do: the always-fed squares, Greenhouse options, Farm slots and
    the coin feeders present."""

    def __init__(self, grid: Grid) -> None:
        self.targets = _feedables(grid)
        kinds = [
            (i, data.card(grid[i])["feed"])
            for i in CELLS
            if grid[i] in data.CARDS and "feed" in data.card(grid[i])
        ]
        fixed: set[int] = set()
        for i, f in kinds:
            fixed |= _fixed(i, f["kind"])
        self.always = frozenset(fixed) & self.targets
        self.greenhouses = len([f for _, f in kinds if f["kind"] == "feed_group"])
        self.slots = sum([f["count"] for _, f in kinds if f["kind"] == "feed_any"])
        self.lines = any([f["kind"] == "feed_coin_line" for _, f in kinds])
        self.pairs = any([f["kind"] == "feed_adjacent_and_coin_pairs" for _, f in kinds])

    def coin_feeder(self) -> bool:
        """Whether coins can feed anything (Root Cellar or Little Barn)."""
        return self.lines or self.pairs

    def free_options(self) -> list[frozenset[int]]:
        """The fed sets reachable without coins or Farm slots: fixed feeders plus each choice of
        one group per Greenhouse."""
        if not self.greenhouses:
            return [self.always]
        groups = _groups(self.targets)
        if not groups:
            return [self.always]
        out = {self.always.union(*combo) for combo in combinations_with_replacement(groups, self.greenhouses)}
        return sorted(out, key=sorted)

    def line_sets(self, unfed: frozenset[int], most: int) -> list[tuple[int, frozenset[int]]]:
        """(coins, squares fed) for every set of at most `most` Root Cellar lines that each feed
        something; the empty set included."""
        useful = [ln & unfed for ln in LINES if ln & unfed] if self.lines else []
        out: list[tuple[int, frozenset[int]]] = [(0, frozenset())]
        for k in range(1, min(most, len(useful)) + 1):
            out += [(k, frozenset().union(*c)) for c in combinations(useful, k)]
        return out

    def cost_all(self, unfed: frozenset[int], coins: int) -> int | None:
        """The fewest coins that feed every building in `unfed` (Farm slots used first), or None."""
        best: int | None = None
        for k, covered in self.line_sets(unfed, coins):
            rest = max(0, len(unfed - covered) - self.slots)
            if rest and not self.pairs:
                continue
            cost = k + (rest + 1) // 2
            if best is None or cost < best:
                best = cost
        return best


def coins_spent(grid: Grid, coins: int) -> int:
    """The coins a player spends on feeding (fixed by the forced-spend rule, see the module
    docstring): the cheapest cost of feeding everything if they can afford it, else all of them;
    nothing without a Root Cellar or Little Barn."""
    fd = Feeders(grid)
    if not fd.coin_feeder() or coins <= 0 or not fd.targets:
        return 0
    costs = [c for g in fd.free_options() if (c := fd.cost_all(fd.targets - g, coins)) is not None]
    cheapest = min(costs, default=None)
    return cheapest if cheapest is not None and cheapest <= coins else coins


def best_feeding(
    grid: Grid, coins: int, value: Callable[[frozenset[int]], float]
) -> tuple[frozenset[int], int]:
    """(fed squares, coins spent): the legal feeding the player values most."""
    fd = Feeders(grid)
    spent = coins_spent(grid, coins)
    if not fd.targets:
        return frozenset(), 0
    options = fd.free_options()
    for g in options:
        unfed = fd.targets - g
        cost = fd.cost_all(unfed, spent if fd.coin_feeder() else 0)
        if cost is not None and cost <= spent:
            return fd.targets, spent  # everything fed: nothing can be better (monotone)
    candidates: set[frozenset[int]] = set()
    for g in options:
        unfed = fd.targets - g
        for k, covered in fd.line_sets(unfed, spent):
            if fd.lines and not fd.pairs and k != spent:
                continue  # only Root Cellar coins: every coin feeds a line (spending is forced)
            pick = fd.slots + (2 * (spent - k) if fd.pairs else 0)
            rest = sorted(unfed - covered)
            base = g | covered
            if len(rest) <= pick:
                candidates.add(base | frozenset(rest))
                continue
            combos = combinations(rest, pick)
            for n, chosen in enumerate(combos):
                if n >= COMBO_CAP:
                    break
                candidates.add(base | frozenset(chosen))
    best = max(sorted(candidates, key=sorted), key=value)
    return best, spent
