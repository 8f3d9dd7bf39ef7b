"""What a borough's tiles imply, kept beside its tiles list: occupied cells, the frontier (where
a tile may go), the tiles that can react to a placement, and the tiles still open to investment.

A `Borough` is found by the identity of the tiles list it describes, in the active memo
(app/engine/memo.py: the game's, a decision's, or one call's; the entry holds the list, so its id
cannot be reused meanwhile), and derived afresh when the memo has none: it depends on the tiles
alone. `apply` never changes a tiles list in place: a placement makes a new list and files a new
`Borough` derived from the old one. A playout (turn.playout) owns its
private copy of the state and changes tiles lists in place: it updates their `Borough` in place
too, so both paths run the same rules over the same derived data.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints are plain Python (no-ops)
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

from app.engine.memo import forget as forget_in_memo
from app.engine.memo import recall, remember
from app.rulesets.suburbia.tables import BOARD_CELLS, KINDS, LAKE, START_LAYOUT, Effect

Cell = tuple[int, int]
Investable = list[tuple[int, list[int]]]  # (printed cost, [q, r]) per tile open to investment
DIRS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


# Cells this far from the origin in q and r have their neighbours in tables built at import (a
# borough of a whole game stays well inside; a cell beyond is worked out on each call).
# Typed module variables, compiled: `.get` on them is a direct dictionary lookup, not a method
# call on a global looked up by name (every placement and adjacency count reads them).
_REACH = 24


def _six(q: int, r: int) -> tuple[Cell, ...]:
    # No generator expressions in the hot functions of this package: compiled, a function that
    # holds one allocates a closure on every call, even when the branch using it never runs.
    return tuple([(q + dq, r + dr) for dq, dr in DIRS])


_NEIGHBOURS = cython.declare(
    dict, {(q, r): _six(q, r) for q in range(-_REACH, _REACH + 1) for r in range(-_REACH, _REACH + 1)}
)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six cells sharing an edge with `cell`."""
    hit = _NEIGHBOURS.get(cell)
    return _six(cell[0], cell[1]) if hit is None else hit


# A cell's sort key: one integer ordered as the (q, r) pairs are (|r| stays far below
# _KEY_ROW / 2: a borough holds a few dozen tiles), so the frontier's sorted order is kept by
# bisecting integers, not [q, r] lists (every placement inserts a few cells).
_KEY_ROW = cython.declare(cython.Py_ssize_t, 1 << 17)  # q's weight: twice r's largest size


@cython.ccall
@cython.locals(q=cython.Py_ssize_t, r=cython.Py_ssize_t)
@cython.returns(cython.Py_ssize_t)
def cell_key(q: int, r: int) -> int:
    """The integer that sorts cell (q, r) among others as the pair (q, r) sorts."""
    return q * _KEY_ROW + r


def _off_board(cell: Cell) -> tuple[tuple[Cell, int], ...]:
    return tuple([(n, cell_key(n[0], n[1])) for n in neighbours(cell) if n not in BOARD_CELLS])


_OFF_BOARD = cython.declare(dict, {cell: _off_board(cell) for cell in _NEIGHBOURS})


def off_board_neighbours(cell: Cell) -> tuple[tuple[Cell, int], ...]:
    """The neighbours of `cell` not on the Borough Board, the only ones that can join a
    frontier, each with its `cell_key` (a table like `neighbours`': the board never changes)."""
    hit = _OFF_BOARD.get(cell)
    return _off_board(cell) if hit is None else hit


def tile_key(tile: dict[str, Any]) -> str:
    """The kind a borough tile behaves as: "lake" for a face-down tile, else its kind id."""
    return "lake" if tile["lake"] else tile["t"]


TAGS = {k.id: k.tags for k in KINDS.values()}  # "lake" (the face-down tile) included


def tile_cost(tile: dict[str, Any]) -> int:
    """The printed cost of a borough tile (a lake prints none: $0)."""
    return 0 if tile["lake"] else KINDS[tile["t"]].cost


def _scoped(scopes: tuple[str, ...]) -> dict[str, tuple[Effect, ...]]:
    """Per tile kind (the lake under "lake"), its effects whose scope is one of `scopes`."""
    kinds = {k.id: k.effects for k in KINDS.values()}
    kinds["lake"] = LAKE.effects
    return {k: tuple(e for e in effs if e.scope in scopes) for k, effs in kinds.items()}


# Which effects can react at each stage of a placement, so tiles that cannot react are skipped:
# an adjacent tile of the placer's borough, the rest of that borough, another borough.
REACT_ADJACENT = _scoped(("adjacent", "own", "every", "after", "lake_pairs"))
REACT_REST = _scoped(("own", "every", "after", "lake_pairs"))
REACT_OTHER = _scoped(("every", "after", "others"))


def _tagged(match: frozenset[str]) -> frozenset[str]:
    return frozenset([key for key, tags in TAGS.items() if not tags.isdisjoint(match)])


# tagged_kinds' answers for every match set an effect names and every single tag (the goals'
# measures count one tag each), built at import: a few dozen.
_TAGGED = cython.declare(
    dict,
    {
        match: _tagged(match)
        for match in {
            *[e.match for kind in [*KINDS.values(), LAKE] for e in kind.effects],
            *[frozenset([tag]) for tags in TAGS.values() for tag in tags],
        }
    },
)


def tagged_kinds(match: frozenset[str]) -> frozenset[str]:
    """The tile kinds (tile_key) carrying one of the `match` tags."""
    hit = _TAGGED.get(match)
    return _tagged(match) if hit is None else hit


_FIRING: dict[tuple[int, frozenset[str]], dict[str, tuple[Effect, ...]]] = {}


def firing(stage: dict[str, tuple[Effect, ...]], tags: frozenset[str]) -> dict[str, tuple[Effect, ...]]:
    """Per tile kind, those of its effects able to react at `stage` (REACT_ADJACENT, _REST or
    _OTHER) that a placed tile with `tags` sets off: every one matching a tag, and the lake
    pairs (which look at the cells, not the tags). Kinds with none are left out."""
    key = (id(stage), tags)
    hit = _FIRING.get(key)
    if hit is None:
        hit = {
            k: fire
            for k, effs in stage.items()
            if (fire := tuple(e for e in effs if e.scope == "lake_pairs" or tags & e.match))
        }
        _FIRING[key] = hit
    return hit


# Per tile kind (tile_key), what a placed tile of that kind sets off at each stage (its tags are
# the kind's): geo.firing for REACT_ADJACENT, REACT_REST and REACT_OTHER, looked up once.
FIRES = {
    key: (firing(REACT_ADJACENT, tags), firing(REACT_REST, tags), firing(REACT_OTHER, tags))
    for key, tags in TAGS.items()
}


def _frontier_cells(occ: dict[Cell, int] | frozenset[Cell]) -> tuple[Cell, ...]:
    """The empty off-board cells next to the cells `occ`, sorted."""
    found = {(q + dq, r + dr) for q, r in occ for dq, dr in DIRS}
    return tuple(sorted([n for n in found if n not in occ and n not in BOARD_CELLS]))


# Every borough starts from the same three tiles: their frontier, worked out at import.
_START_CELLS = frozenset((q, r) for _, q, r in START_LAYOUT)
_START_FRONT = _frontier_cells(_START_CELLS)


@cython.final
@cython.cclass
class Borough:
    """Derived data of one tiles list: `occ` cell -> tile index; `front` the frontier as sorted
    [q, r] lists (the order legal moves list them in), `fkeys` their `cell_key`s in the
    same order and `fset` the same keys as a set (all three None until first asked); `kinds`
    per tile kind (tile_key) the indices of its tiles, in order, so the tiles able to react to
    a placement are found without a walk over the borough;
    `invest` (printed cost, [q, r]) for the tiles without an Investment Marker, in borough
    order (None until first asked: `investable`); `tags` each tile's tags, and `counts` how
    many tiles carry one of a match set's tags, per match set asked for so far."""

    # An extension type when compiled, like effects.World (fields in C, ccall methods called
    # directly): every placement and every effect reads these.
    # The annotations are for mypy (Cython's annotation typing is off: the declare is the C type);
    # the stub types declare(object) as `object`, hence the ignores on the fields None at first.
    occ: dict[Cell, int] = cython.declare(dict, visibility="public")
    fkeys: list[int] | None = cython.declare(  # type: ignore[assignment]  # see above
        object, visibility="public"
    )
    fset: set[int] | None = cython.declare(  # type: ignore[assignment]  # see above
        object, visibility="public"
    )
    _front: list[list[int]] | None = cython.declare(  # type: ignore[assignment]  # see above
        object, visibility="public"
    )
    kinds: dict[str, tuple[int, ...]] = cython.declare(dict, visibility="public")
    invest: Investable | None = cython.declare(  # type: ignore[assignment]  # see above
        object, visibility="public"
    )
    tags: list[frozenset[str]] = cython.declare(list, visibility="public")
    counts: dict[frozenset[str], int] = cython.declare(dict, visibility="public")

    def __init__(self, tiles: list[dict[str, Any]]) -> None:
        self.occ = {(t["at"][0], t["at"][1]): i for i, t in enumerate(tiles)}
        self.fkeys = None
        self.fset = None
        self._front = None
        kinds: dict[str, tuple[int, ...]] = {}
        for i, t in enumerate(tiles):
            key = tile_key(t)
            kinds[key] = kinds.get(key, ()) + (i,)
        self.kinds = kinds
        self.invest = None
        self.tags = [TAGS[tile_key(t)] for t in tiles]
        self.counts = {}

    @cython.ccall
    def investable(self, tiles: list[dict[str, Any]]) -> Investable:
        """(printed cost, [q, r]) of the tiles of `tiles` (this Borough's list) without an
        Investment Marker, in borough order (shared: do not modify)."""
        if self.invest is None:
            self.invest = [(tile_cost(t), list(t["at"])) for t in tiles if not t["inv"]]
        return self.invest

    @cython.ccall
    @cython.locals(kinds=dict, found=list, ix=tuple)
    def reacting(self, fire: dict[str, tuple[Effect, ...]], n: int) -> list[int]:
        """Indices below `n` of the tiles whose kind is a key of `fire`, in placement order."""
        kinds = self.kinds
        found = []  # a loop, not a comprehension, which pure Python calls as a function
        for key in fire:
            if (ix := kinds.get(key)) is not None:
                for k in ix:
                    if k < n:
                        found.append(k)
        if len(found) > 1:
            found.sort()
        return found

    @cython.ccall
    @cython.locals(tagged=frozenset, n=cython.Py_ssize_t)
    def count(self, match: frozenset[str]) -> int:
        """How many tiles of the borough carry one of the `match` tags."""
        found = self.counts.get(match)
        if found is None:
            # counted by kind: a borough holds fewer kinds than tiles, and the tiles of one kind
            # carry the same tags
            tagged = tagged_kinds(match)
            n = 0
            for key, indices in self.kinds.items():
                if key in tagged:
                    n += len(indices)
            self.counts[match] = found = n
        return found

    @property
    def front(self) -> list[list[int]]:
        """Empty cells next to a tile and off the Borough Board, sorted (shared: do not modify)."""
        if self._front is None:
            occ = self.occ
            starting = len(occ) == len(_START_CELLS) and _START_CELLS.issuperset(occ)
            cells = _START_FRONT if starting else _frontier_cells(occ)
            self.fkeys = [cell_key(q, r) for q, r in cells]
            self.fset = set(self.fkeys)
            self._front = [[q, r] for q, r in cells]
        return self._front

    @cython.ccall
    def copy(self, with_frontier: bool = True) -> "Borough":
        """An independent copy (the lists of tiles' entries are new, their entries shared);
        without the frontier (recomputed if ever asked) when `with_frontier` is false."""
        new = Borough.__new__(Borough)
        new.occ = dict(self.occ)
        keep = with_frontier and self.fkeys is not None
        # keep: fkeys is set, so fset and _front are (the three are set and dropped together)
        new.fkeys = list(self.fkeys) if keep else None  # type: ignore[arg-type]  # keep
        new.fset = set(self.fset) if keep else None  # type: ignore[arg-type]  # keep
        new._front = list(self._front) if keep else None  # type: ignore[arg-type]  # keep
        new.kinds = dict(self.kinds)
        new.invest = None if self.invest is None else list(self.invest)
        new.tags, new.counts = list(self.tags), dict(self.counts)
        return new

    @cython.ccall
    @cython.locals(
        tile=dict,
        occ=dict,
        counts=dict,
        kinds=dict,
        front=list,
        fkeys=list,
        fset=set,
        q=cython.Py_ssize_t,
        r=cython.Py_ssize_t,
        here=cython.Py_ssize_t,
    )
    def add(self, tile: dict[str, Any], index: int, cell: Cell) -> None:
        """Record `tile`, just placed at `cell` as the tiles list's entry `index`."""
        occ = self.occ
        occ[cell] = index
        lake = tile["lake"]
        key = "lake" if lake else tile["t"]  # tile_key, inlined: every placement runs this
        tags = TAGS[key]
        self.tags.append(tags)
        counts = self.counts
        if counts:
            for match in counts:
                if not tags.isdisjoint(match):
                    counts[match] += 1
        kinds = self.kinds
        kinds[key] = kinds.get(key, ()) + (index,)
        if self.invest is not None and not tile["inv"]:
            self.invest.append((0 if lake else KINDS[key].cost, [cell[0], cell[1]]))
        fkeys, fset, front = self.fkeys, self.fset, self._front
        if fkeys is None or fset is None or front is None:
            return
        # the frontier in order: bisect the cells' integer keys (only to move a cell in or out;
        # the set answers whether it is there), change both lists at the same place
        q, r = cell
        here = q * _KEY_ROW + r  # cell_key, inlined: a call costs more in Python
        if here in fset:
            fset.discard(here)
            at = bisect_left(fkeys, here)
            del fkeys[at]
            del front[at]
        around = _OFF_BOARD.get(cell)  # the board test made once per cell, not per placement
        for n, n_key in around if around is not None else off_board_neighbours(cell):
            if n_key not in fset and n not in occ:
                fset.add(n_key)
                at = bisect_left(fkeys, n_key)
                fkeys.insert(at, n_key)
                front.insert(at, [n[0], n[1]])

    @cython.ccall
    @cython.locals(counts=dict, kinds=dict)
    def remove_last(self, tile: dict[str, Any], cell: Cell) -> None:
        """Forget `tile`, the last entry of the tiles list, placed at `cell` (undoes `add`); the
        frontier is dropped (recomputed if ever asked): trial placements never keep one."""
        del self.occ[cell]
        key = tile_key(tile)
        tags = self.tags.pop()
        counts = self.counts
        for match in counts:
            if not tags.isdisjoint(match):
                counts[match] -= 1
        kinds = self.kinds
        if len(kinds[key]) > 1:
            kinds[key] = kinds[key][:-1]
        else:
            del kinds[key]
        if not tile["inv"] and self.invest is not None:
            self.invest.pop()
        self.fkeys = self.fset = self._front = None

    @cython.ccall
    def invested(self, old: dict[str, Any], new: dict[str, Any], index: int) -> None:
        """Tile `index` (`old`) now carries an Investment Marker (`new` replaces it)."""
        at = old["at"]
        if self.invest is not None:  # its kind (and `kinds`) stays
            self.invest = [x for x in self.invest if x[1] != at]


_TAG = "borough"  # what a tiles list's Borough is filed under in the memo


@cython.ccall  # called directly (in C) by this module's placed, unplace and invested
@cython.returns(Borough)
def borough(tiles: list[dict[str, Any]]) -> Borough:
    """The derived data of a tiles list, computed once per list while a memo is active (shared:
    do not modify), else afresh."""
    hit = recall(tiles, _TAG)
    if hit is not None:
        return hit  # type: ignore[no-any-return]  # filed under _TAG: a Borough
    b = Borough(tiles)
    remember(tiles, _TAG, b)
    return b


def file(tiles: list[dict[str, Any]], b: Borough) -> None:
    """Remember `b` as the derived data of `tiles`."""
    remember(tiles, _TAG, b)


def private_tiles(tiles: list[dict[str, Any]], with_frontier: bool = True) -> list[dict[str, Any]]:
    """A copy of a tiles list for a playout (or Dale's trials) to change in place, with its own
    `Borough` (without the frontier unless `with_frontier`); `tiles` itself is not filed."""
    hit = recall(tiles, _TAG)
    new = list(tiles)
    file(new, Borough(new) if hit is None else hit.copy(with_frontier))
    return new


def forget(tiles: list[dict[str, Any]]) -> None:
    """Drop the derived data filed for `tiles`, a private list no longer played on (a finished
    playout's, Dale's trial copy), so the memo does not keep a whole borough alive."""
    forget_in_memo(tiles, _TAG)


def occupied(tiles: list[dict[str, Any]]) -> dict[Cell, int]:
    """Cell -> index of the tile there (shared result: do not modify)."""
    return borough(tiles).occ


def frontier(tiles: list[dict[str, Any]]) -> list[Cell]:
    """Empty cells next to at least one tile, off the borough board, in a stable order."""
    return [(q, r) for q, r in borough(tiles).front]


@cython.locals(b=Borough)  # typed: its methods are called directly, compiled
def placed(
    tiles: list[dict[str, Any]], tile: dict[str, Any], cell: Cell, in_place: bool, with_frontier: bool = True
) -> tuple[list[dict[str, Any]], Borough]:
    """The tiles list with `tile` added at `cell`: the same list changed in place (a playout's
    private state), else a new list; and its `Borough`, which follows either way (a new list's
    without its frontier unless `with_frontier`: Dale's trial placements never ask for it).
    Returned with the list: the placement reads it next, and a lookup costs more."""
    b = borough(tiles)
    if in_place:
        tiles.append(tile)
        b.add(tile, len(tiles) - 1, cell)
        return tiles, b
    new = [*tiles, tile]
    b = b.copy(with_frontier)
    b.add(tile, len(tiles), cell)
    file(new, b)
    return new, b


@cython.locals(b=Borough)
def unplace(tiles: list[dict[str, Any]], cell: Cell) -> None:
    """Undo the last in-place `placed` (its tile at `cell`): a trial placement taken back."""
    # Looked up before the pop: if the cache was cleared meanwhile, the data derived afresh
    # includes the tile, so taking it out leaves them right.
    b = borough(tiles)
    b.remove_last(tiles.pop(), cell)


@cython.locals(b=Borough)
def invested(tiles: list[dict[str, Any]], index: int, in_place: bool) -> list[dict[str, Any]]:
    """The tiles list with tile `index` replaced by an invested copy (in place in a playout)."""
    b = borough(tiles)
    old = tiles[index]
    tile = dict(old, inv=True)
    if in_place:
        tiles[index] = tile
        b.invested(old, tile, index)
        return tiles
    new = list(tiles)
    new[index] = tile
    b = b.copy()
    b.invested(old, tile, index)
    file(new, b)
    return new
