"""Tile effects: placement and investment resolution in the rulebook's order, the tracks
(income/reputation clamped -5..15), population with red lines, and the income/reputation steps.

Everything works on a `World`: a scratch copy of the players that copies a player on first write,
so `apply` never mutates its input and untouched players stay the same objects. A playout's World
(`in_place`) changes its own private state in place instead; the rules are the same code.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints are plain Python (no-ops)
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

from app.rulesets.suburbia import geo
from app.rulesets.suburbia.geo import FIRES, borough, placed, tile_key, unplace
from app.rulesets.suburbia.hexes import Cell, cell_of, neighbours, occupied
from app.rulesets.suburbia.tables import KINDS, LAKE, RED_LINES, TRACK_MAX, TRACK_MIN, Effect

# Typed module variables, compiled (read without a lookup by name): every effect moves a track.
_TRACK_KEY = cython.declare(
    dict, {"income": "income", "reputation": "rep", "population": "pop", "money": "money"}
)
_TRACK_LOW = cython.declare(cython.Py_ssize_t, TRACK_MIN)
_TRACK_HIGH = cython.declare(cython.Py_ssize_t, TRACK_MAX)


def tile_effects(tile: dict[str, Any]) -> tuple[Effect, ...]:
    """The conditional effects of a borough tile entry."""
    return LAKE.effects if tile["lake"] else KINDS[tile["t"]].effects


EFFECTS = {**{k: kind.effects for k, kind in KINDS.items()}, "lake": LAKE.effects}  # by tile_key


# Per tile kind (the lake under "lake"), its 'redline' effects, in printed order; kinds with none
# are left out, so a red line visits only the tiles that have one.
REDLINE = {k: fire for k, fire in geo._scoped(("redline",)).items() if fire}

# Per red-line set, for each population 0..last line: how many lines lie at or below it
# (bisect_right), so lines passed between two populations is a difference of two entries.
_UPTO = {key: [bisect_right(lines, pop) for pop in range(lines[-1] + 1)] for key, lines in RED_LINES.items()}

# Tile kinds (tile_key) with a "built after" or red-line effect: only their placement needs a
# `since` record (World._since_record), so the others skip the look at their effects.
SINCE_KINDS = frozenset(
    k for k, effs in EFFECTS.items() if any(e.scope in ("after", "redline") for e in effs)
)

# (seat, boroughs) -> the others in order, for up to five boroughs (four players and Dale), built
# at import; typed, compiled: its .get is a direct lookup
_ORDER = cython.declare(
    dict, {(i, n): tuple([(i + k) % n for k in range(1, n)]) for n in range(1, 6) for i in range(n)}
)


@cython.final
@cython.cclass
class World:
    """Players being changed by one move; `players[i]` is copied before its first change."""

    # Compiled (scripts/compile_rules.py), World is an extension type: these fields are C struct
    # members and the methods marked ccall call one another directly, which every effect does
    # many times over (12-15 % of a compiled playout). In Python the hints do nothing; the
    # fields are declared here instead of in __slots__ (the two would clash in Python).
    state = cython.declare(dict, visibility="public")
    in_place = cython.declare(cython.bint, visibility="public")
    # The annotations are for mypy (Cython's annotation typing is off: the declare is the C type).
    players: list[dict[str, Any]] = cython.declare(list, visibility="public")
    _copied: set[int] = cython.declare(set, visibility="public")
    lines: list[int] = cython.declare(list, visibility="public")
    upto: list[int] = cython.declare(list, visibility="public")
    line_step: int = cython.declare(  # type: ignore[assignment]  # declare(object) is `object`
        object, visibility="public"
    )
    red_lines_active = cython.declare(cython.bint, visibility="public")
    trial = cython.declare(cython.bint, visibility="public")

    def __init__(self, state: dict[str, Any], in_place: bool = False) -> None:
        self.state = state
        # in_place: `state` is a playout's private copy, changed in place (players, tiles lists)
        self.in_place = in_place
        self.players = state["p"] if in_place else list(state["p"])
        self._copied = set()
        self.lines = RED_LINES[state["red_lines"]]
        self.upto = _UPTO[state["red_lines"]]
        # Lone Architect: moving past a red line gives +2 Income and +2 Reputation as RB-S is
        # written (an option plays it as -2/-2; see NOTES.md).
        self.line_step = state.get("la_step", 2) if state["mode"] == "lone_architect" else -1
        self.red_lines_active = True
        # A trial placement (Dale weighing his cells) needs only the placer's own tracks, so
        # other boroughs' reactions are skipped.
        self.trial = False

    @cython.ccall
    def mut(self, i: int) -> dict[str, Any]:
        """Player i, copied on first write."""
        if i not in self._copied and not self.in_place:
            self.players[i] = dict(self.players[i])
            self._copied.add(i)
        return self.players[i]

    @cython.ccall
    def others_in_order(self, i: int) -> tuple[int, ...]:
        """Every other borough (Dale's too), in turn order starting after i."""
        n = len(self.players)
        order = _ORDER.get((i, n))
        return tuple([(i + k) % n for k in range(1, n)]) if order is None else order

    # ------------------------------------------------------------------ tracks
    @cython.ccall
    @cython.locals(p=dict, moved=cython.Py_ssize_t)
    def gain(self, i: int, stat: str, amount: int) -> None:
        """Move one of player i's tracks; income/reputation stop at -5 and 15 (RB-S)."""
        if amount == 0:
            return
        if stat == "population":
            self.move_population(i, amount)
            return
        p = self.players[i] if self.in_place else self.mut(i)
        key = _TRACK_KEY[stat]
        moved = p[key] + amount
        if stat == "money":
            p[key] = max(0, moved)
        else:
            p[key] = max(_TRACK_LOW, min(_TRACK_HIGH, moved))

    @cython.ccall
    @cython.locals(
        p=dict, upto=list, old=cython.Py_ssize_t, new=cython.Py_ssize_t, crossed=cython.Py_ssize_t
    )  # C integers: the range loops below run in C
    def move_population(self, i: int, delta: int) -> int:
        """Move population (never below 0), applying red lines as they are crossed."""
        p = self.players[i] if self.in_place else self.mut(i)
        old: int = p["pop"]
        new = max(0, old + delta)
        p["pop"] = new
        if self.red_lines_active and new != old:
            upto = self.upto  # lines_passed by table (every turn moves population twice)
            if new < len(upto) and 0 <= old < len(upto):
                crossed = upto[new] - upto[old]  # upward minus downward
            else:
                crossed = lines_passed(self.lines, old, new)
            for _ in range(crossed):
                self._cross(i, 1)
            for _ in range(-crossed):
                self._cross(i, -1)
        return new - old

    @cython.ccall
    @cython.locals(tiles=list, tile=dict)
    def _cross(self, i: int, direction: int) -> None:
        """One red line crossed: upward lowers Income and Reputation (LA: raises by 2); downward
        undoes it; Casino/PR Firm-style 'redline' effects fire with the same sign."""
        step = self.line_step * direction
        self.gain(i, "income", step)
        self.gain(i, "reputation", step)
        tiles = self.players[i]["tiles"]
        for k in borough(tiles).reacting(REDLINE, len(tiles)):  # in placement order
            tile = tiles[k]
            mult = 2 if tile["inv"] else 1
            for eff in REDLINE[tile_key(tile)]:
                self.gain(i, eff.stat, eff.amount * mult * direction)

    # ------------------------------------------------------------------ counting
    @cython.ccall
    @cython.locals(tiles=list, tags=list, near=list)
    def count_for(
        self,
        i: int,
        cell: Cell,
        eff: Effect,
        tile: dict[str, Any] | None = None,
        near: list[int] | None = None,
    ) -> int:
        """How many times a tile of player i at `cell` scores `eff` right now.

        "after" and "redline" effects score nothing when their tile is placed; for an
        investment (`tile` given) they count what happened since the tile was built: the
        matching tiles built after it, and the red lines its owner has passed since (net).
        `near`: the indices of player i's tiles next to `cell`, when the caller has them."""
        tiles = self.players[i]["tiles"]
        scope = eff.scope  # read once: a field of a Python object, compiled too
        if scope == "after" or scope == "redline":
            return 0 if tile is None else self.since_built(i, tile, eff)
        if scope == "adjacent":
            b = borough(tiles)
            tags, match = b.tags, eff.match
            found = 0
            for k in near if near is not None else next_to(b.occ, cell):
                if not tags[k].isdisjoint(match):
                    found += 1
            return found
        if scope == "own":
            return borough(tiles).count(eff.match)
        if scope == "every" or scope == "others":
            every = scope == "every"
            found = 0
            for j, p in enumerate(self.players):
                if every or j != i:
                    found += borough(p["tiles"]).count(eff.match)
            return found
        if scope == "lake_pairs":
            return lake_pairs(tiles)
        return 0

    @cython.ccall
    def count_every(self, match: frozenset[str]) -> int:
        """Face-up tiles in all boroughs carrying one of the `match` tags."""
        found = 0
        for p in self.players:
            found += borough(p["tiles"]).count(match)
        return found

    @cython.ccall
    def since_built(self, i: int, tile: dict[str, Any], eff: Effect) -> int:
        """For a tile's "after" effect: matching tiles built since it (tiles are never removed,
        so this is today's count minus the count recorded when it was built). For "redline":
        red lines player i has passed since, upward minus downward. Tiles without the record
        (never placed through `place`) count 0."""
        since: dict[str, int] = tile.get("since") or {}
        if eff.scope == "after" and "after" in since:
            return self.count_every(eff.match) - since["after"]
        if eff.scope == "redline" and "pop" in since:
            return lines_passed(self.lines, since["pop"], self.players[i]["pop"])
        return 0

    # ------------------------------------------------------------------ resolution
    @cython.ccall
    @cython.locals(
        tile=dict,
        p=dict,
        tiles=list,
        adjacent=list,
        fire=dict,
        fire_adjacent=dict,
        fire_rest=dict,
        fire_other=dict,
        t=dict,
        theirs=list,
    )
    def place(self, i: int, kind: str, cell: Cell, lake: bool) -> None:
        """Add a tile to player i's borough and resolve every effect in the rulebook's order."""
        tile: dict[str, Any] = {"t": kind, "at": [cell[0], cell[1]], "lake": lake, "inv": False}
        p = self.players[i] if self.in_place else self.mut(i)
        n = len(p["tiles"])  # the new tile's index: the tiles before it are the ones reacting
        tiles, b = placed(p["tiles"], tile, cell, self.in_place, not self.trial)
        p["tiles"] = tiles
        key = "lake" if lake else kind
        if not self.trial and key in SINCE_KINDS and (since := self._since_record(i, tile)):
            tile["since"] = since  # what an investment needs to double the tile later
        # the tiles next to the new one, found once: its own effects (3) and the adjacent stage
        # (4) read them (effects change tracks, never the borough)
        adjacent = next_to(b.occ, cell)
        # 2. immediate effect; 3. the tile's own conditional effect.
        if not lake:
            for stat, amount in KINDS[kind].immediate:
                self.gain(i, stat, amount)
        for eff in EFFECTS[key]:
            self.gain(i, eff.stat, eff.amount * self.count_for(i, cell, eff, None, adjacent))
        # 4. adjacent tiles' conditional effects; 5. the rest of the borough (each stage in
        # placement order, NOTES item 21).
        fire_adjacent, fire_rest, fire_other = FIRES[key]
        adjacent.sort()
        fire = fire_adjacent
        for k in adjacent:
            t = tiles[k]
            if effects := fire.get("lake" if t["lake"] else t["t"]):  # tile_key, inlined
                self._react(i, t, cell, lake, effects)
        fire = fire_rest
        if fire:
            for k in b.reacting(fire, n):
                if k not in adjacent:
                    t = tiles[k]
                    self._react(i, t, cell, lake, fire["lake" if t["lake"] else t["t"]])
        # 6. no base-game tile changes another player's tracks from its owner's borough, so the
        # rulebook's "their tiles cause you adjustments" step is empty; 7. other boroughs react
        # (they only ever change their owners' tracks: `trial` placements skip them).
        if self.trial:
            return
        fire = fire_other
        if fire:
            for j in self.others_in_order(i):
                theirs = self.players[j]["tiles"]
                for k in borough(theirs).reacting(fire, len(theirs)):
                    t = theirs[k]
                    self._react(j, t, cell, lake, fire["lake" if t["lake"] else t["t"]])

    @cython.ccall
    @cython.locals(fire=dict, matters=list)
    def touch_matters(self, i: int, kind: str) -> list[bool]:
        """Per tile of borough i, whether having it next to the cell can change what placing a
        face-up `kind` tile there does. `place` reads the cell only through its neighbours:
        the kind's own 'adjacent' effects count some of them, lake pairs count the lakes, and
        the adjacent stage sets off the tiles whose kind the placement fires there; only those
        can also react in the rest stage (REACT_REST's scopes are a subset of REACT_ADJACENT's),
        where they are skipped when adjacent. Any other neighbour changes nothing."""
        b = borough(self.players[i]["tiles"])
        fire = FIRES[kind][0]
        matters = [False] * len(b.tags)
        for key, indices in b.kinds.items():
            if key in fire or key == "lake":
                for k in indices:
                    matters[k] = True
        for eff in EFFECTS[kind]:
            if eff.scope == "adjacent":
                for k, tags in enumerate(b.tags):
                    if not tags.isdisjoint(eff.match):
                        matters[k] = True
        return matters

    @cython.ccall
    def _since_record(self, i: int, tile: dict[str, Any]) -> dict[str, int]:
        """For a tile with a "built after" or red-line effect: the count of matching tiles
        (itself included) and its owner's population at the moment it is built."""
        since = {}
        for eff in tile_effects(tile):
            if eff.scope == "after":
                since["after"] = self.count_every(eff.match)
            elif eff.scope == "redline":
                since["pop"] = self.players[i]["pop"]
        return since

    @cython.ccall
    @cython.locals(t=dict)
    def _react(
        self, owner: int, t: dict[str, Any], cell: Cell, lake: bool, effects: tuple[Effect, ...]
    ) -> None:
        """Existing tile `t` (owner's) reacting to a tile just placed at `cell`; `effects` are
        those of its effects this placement sets off (geo.firing: at this stage, matching the
        placed tile's tags)."""
        mult = 2 if t["inv"] else 1
        for eff in effects:
            n = 1
            if eff.scope == "lake_pairs":
                n = new_lake_pairs(self.players[owner]["tiles"], cell, lake)
            if n:
                self.gain(owner, eff.stat, eff.amount * mult * n)

    @cython.ccall
    def invest(self, i: int, index: int) -> None:
        """Mark tile `index` invested and gain its immediate and own conditional effects again
        (RB-S: other tiles' conditional effects are not triggered again). The conditional
        effects are counted as the borough stands now; "built after" penalties already taken
        and red-line bonuses already earned are repeated too, so the tile's whole effect
        doubles (NOTES.md)."""
        p = self.mut(i)
        p["tiles"] = tiles = geo.invested(p["tiles"], index, self.in_place)
        tile = tiles[index]
        p["markers"] -= 1
        if not tile["lake"]:
            for stat, amount in KINDS[tile["t"]].immediate:
                self.gain(i, stat, amount)
        for eff in tile_effects(tile):
            self.gain(i, eff.stat, eff.amount * self.count_for(i, cell_of(tile), eff, tile))

    @cython.ccall
    @cython.locals(p=dict)
    def try_place(self, i: int, kind: str, cell: Cell) -> tuple[int, int]:
        """Player i's Income and Reputation change if a `kind` tile were placed at `cell` (the
        same `place`, on a `trial_world`), then the placement is taken back."""
        p = self.players[i]
        saved = (p["money"], p["income"], p["rep"], p["pop"])
        self.place(i, kind, cell, lake=False)
        gain = (p["income"] - saved[1], p["rep"] - saved[2])
        # a trial placement changes only the placer's four tracks and tiles list (no `since`
        # record, no other borough's reaction), so restoring those undoes it
        p["money"], p["income"], p["rep"], p["pop"] = saved
        unplace(p["tiles"], cell)
        return gain

    # ------------------------------------------------------------------ turn steps
    @cython.ccall
    def pay(self, i: int, amount: int) -> None:
        """Pay money to the supply (callers check the player can afford it)."""
        if amount:
            p = self.players[i] if self.in_place else self.mut(i)
            p["money"] -= amount

    @cython.ccall
    @cython.locals(p=dict)
    def income_step(self, i: int) -> None:
        """Collect income, or pay it: money first, then one population per missing $1 (not
        below 0; what still cannot be paid is forgiven)."""
        income = self.players[i]["income"]
        if income >= 0:
            self.gain(i, "money", income)
            return
        owed = -income
        p = self.mut(i)
        paid = min(p["money"], owed)
        p["money"] -= paid
        if owed > paid:
            self.move_population(i, -min(owed - paid, p["pop"]))

    @cython.ccall
    def reputation_step(self, i: int) -> None:
        """Population moves by reputation; below 0 each further step costs $1 while money lasts."""
        rep = self.players[i]["rep"]
        if rep >= 0:
            self.move_population(i, rep)
            return
        need = -rep
        drop = min(need, self.players[i]["pop"])
        self.move_population(i, -drop)
        fee = min(need - drop, self.players[i]["money"])
        if fee:
            self.pay(i, fee)


def trial_world(w: World, i: int) -> World:
    """A World for trial placements in borough i (`World.try_place`): the players of `w`, player
    i replaced by a private copy whose tiles list is changed in place and restored each time."""
    players = list(w.players)
    me = players[i]
    players[i] = dict(me, tiles=geo.private_tiles(me["tiles"], with_frontier=False))
    state = {"p": players, "red_lines": w.state["red_lines"], "mode": w.state["mode"]}
    trial = World(state, in_place=True)
    trial.trial = True  # other boroughs' reactions never change the placer's tracks
    return trial


@cython.ccall
@cython.locals(taken=dict, found=list)
def next_to(taken: dict[Cell, int], cell: Cell) -> list[int]:
    """Indices of the tiles next to `cell` in a borough whose cell -> tile index map is `taken`
    (Borough.occ), in neighbour order (a new list)."""
    found = []  # a loop, not a generator: this runs for every cell Dale weighs
    for n in neighbours(cell):
        if (k := taken.get(n)) is not None:
            found.append(k)
    return found


def lines_passed(lines: list[int], old: int, new: int) -> int:
    """Red lines passed moving population from `old` to `new`: how many lie in (old, new] going
    up, minus how many lie in (new, old] going down (`lines` is sorted)."""
    return bisect_right(lines, new) - bisect_right(lines, old)


def lake_pairs(tiles: list[dict[str, Any]]) -> int:
    """(lake, non-lake tile) edge pairs in one borough."""
    taken = occupied(tiles)
    total = 0
    for t in tiles:
        if t["lake"]:
            for n in neighbours(cell_of(t)):
                if n in taken and not tiles[taken[n]]["lake"]:
                    total += 1
    return total


def new_lake_pairs(tiles: list[dict[str, Any]], cell: Cell, lake: bool) -> int:
    """Lake pairs formed by the tile just placed at `cell` (already in `tiles`)."""
    taken = occupied(tiles)
    found = 0
    for n in neighbours(cell):
        if n in taken and n != cell and tiles[taken[n]]["lake"] != lake:
            found += 1
    return found
