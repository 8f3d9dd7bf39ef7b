"""Pattern matching: which buildings a town can construct, where, and with which squares.

A construction uses one placement of a card's pattern (any rotation or mirror). Resources on it
are removed; a Trading Post stands in for any resource and stays; with The Prism Forge the
resources just removed by the previous construction this round (the "ghost") can count again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.memo import derived
from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import CELLS, built

_BY_CELLS: dict[str, dict[tuple[int, ...], list[tuple[tuple[int, str], ...]]]] = {}
for _cid, _places in data.PLACEMENTS.items():
    _index: dict[tuple[int, ...], list[tuple[tuple[int, str], ...]]] = {}
    for _pl in _places:
        _index.setdefault(tuple(c for c, _ in _pl), []).append(_pl)
    _BY_CELLS[_cid] = _index

# Each placement as bit masks over the 16 squares: every square it covers, and per resource the
# squares that need it, filed under its lowest square and the resource that square needs. A town
# is matched with a few integer operations per placement, and only placements whose lowest
# square holds that resource (or a Trading Post) are looked at (build_moves checks every card
# each time it is asked).
# Without Trading Posts a whole town is also one integer, one byte per square holding the
# resource's code (0: empty or a building; `_CELL_CODE`), and a placement matches when the town's
# bytes under its squares equal its own codes: one AND and one comparison.
_CODE = {r: k + 1 for k, r in enumerate(data.RESOURCES)}
_Row = tuple[int, int, tuple[tuple[str, int], ...], tuple[int, ...], int, int]
_ANCHORED: dict[str, list[dict[str, list[_Row]]]] = {}
for _cid, _places in data.PLACEMENTS.items():
    _by_low: list[dict[str, list[_Row]]] = [{} for _ in range(16)]
    for _n, _pl in enumerate(_places):
        _need: dict[str, int] = {}
        for _c, _r in _pl:
            _need[_r] = _need.get(_r, 0) | (1 << _c)
        _all = sum(1 << _c for _c, _ in _pl)
        _low = (_all & -_all).bit_length() - 1
        _res = next(_r for _c, _r in _pl if _c == _low)
        _bits = sum(0xFF << 8 * _c for _c, _ in _pl)
        _codes = sum(_CODE[_r] << 8 * _c for _c, _r in _pl)
        _by_low[_low].setdefault(_res, []).append(
            (_n, _all, tuple(_need.items()), tuple(_c for _c, _ in _pl), _bits, _codes)
        )
    _ANCHORED[_cid] = _by_low

# Per card, its placements as _anchor_index files them, built once at import: slot
# `lowest square * 8 + code of the resource needed there` holds (bits, codes, card, placement
# number, squares, square mask) rows. A player's index is then the merge of their cards' lists,
# in card order (the same rows, in the same order, as filing it placement by placement).
_Row8 = tuple[int, int, str, int, tuple[int, ...], int]
_PAIRS: dict[str, dict[int, list[_Row8]]] = {}
for _cid, _by_low in _ANCHORED.items():
    _slots: dict[int, list[_Row8]] = {}
    for _low, _groups in enumerate(_by_low):
        for _res, _rows in _groups.items():
            _slots[_low * 8 + _CODE[_res]] = [
                (_row[4], _row[5], _cid, _row[0], _row[3], _row[1]) for _row in _rows
            ]
    _PAIRS[_cid] = _slots


def _merged_index(cards: tuple[str, ...]) -> tuple[tuple[_Row8, ...], ...]:
    """For some cards: every placement, filed by (lowest square, the resource it needs there) in
    slot `square * 8 + code`, so a town without Trading Posts looks up each of its resource
    squares once for all these cards."""
    out: list[list[_Row8]] = [[] for _ in range(16 * 8)]
    for cid in dict.fromkeys(cards):
        for slot, rows in _PAIRS[cid].items():
            out[slot] += rows
    return tuple(tuple(rows) for rows in out)


# The building cards in play are the same for every player all game: their index is merged
# once per game's memo (~25 µs), and every card (the monuments are what it is for) has its own,
# built at import, so a player's monument (or building it) does not call for another merge.
_OWN_INDEX = {cid: _merged_index((cid,)) for cid in data.CARDS}


_WILD = frozenset(cid for cid in data.CARDS if data.has_passive(cid, "wild"))
_WILD_CODE = 7
# What a square holds, as one byte of the town word: 0 a building, 1-5 a resource (_CODE), 7 a
# Trading Post (wild); an empty square (None) is 0 too, kept out of the dict so that its keys are
# all strings (CPython's faster lookup).
_CELL_CODE: dict[str, int] = dict.fromkeys(data.CARDS, 0)
for _cid in _WILD:
    _CELL_CODE[_cid] = _WILD_CODE
_CELL_CODE.update(_CODE)


def buildable_cards(state: dict[str, Any], seat: int) -> list[str]:
    """The building cards in play plus the player's own unbuilt monument."""
    pl = state["p"][seat]
    cards = list(state["buildings"])
    if pl["monument"] and not pl["built_monument"]:
        cards.append(pl["monument"])
    return cards


def _ghost(pl: dict[str, Any]) -> dict[str, Any] | None:
    flags = pl["flags"]
    if flags and flags.get("ghost") and not flags.get("forge_used") and built(pl, "forge"):
        ghost: dict[str, Any] = flags["ghost"]
        return ghost
    return None


def match(
    grid: list[Any], placement: tuple[tuple[int, str], ...], ghost: dict[str, Any] | None
) -> tuple[list[int], list[int]] | None:
    """(resource squares to clear, ghost squares used) if the placement matches, else None."""
    real: list[int] = []
    ghosts: list[int] = []
    for cell, res in placement:
        value = grid[cell]
        if value == res:
            real.append(cell)
        elif value is not None and data.has_passive(value, "wild"):
            continue
        elif (
            ghost is not None
            and ghost["cells"].get(str(cell)) == res
            and (value is None or cell == ghost["at"])
        ):
            ghosts.append(cell)
        else:
            return None
    return real, ghosts


def targets(grid: list[Any], pl: dict[str, Any], cid: str, real: list[int], ghosts: list[int]) -> list[int]:
    """Where the new building may stand: a vacated square of the pattern, or (Shed, Obelisk)
    any square that is empty once the resources are removed."""
    if data.has_passive(cid, "place_anywhere") or built(pl, "place_anywhere_all"):
        return sorted(set(real) | {i for i in CELLS if grid[i] is None})
    return sorted(set(real) | {g for g in ghosts if grid[g] is None})


def can_afford(state: dict[str, Any], seat: int, cid: str) -> bool:
    """Coin costs that block construction: Estival Festival's 2 coins; the solo Jeweler's coin."""
    pl = state["p"][seat]
    cost = data.card(cid).get("build_cost", 0)
    if state["solo"] and any([b["kind"] == "jeweler_cost" for b in data.card(cid).get("build", ())]):
        cost = max(cost, 1)
    return bool(pl["coins"] >= cost)


def build_moves(state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every construct move available to the player now."""
    return [
        {"type": "build", "card": cid, "cells": list(cells), "at": at}
        for cid, cells, at in build_options(state, seat)
    ]


Option = tuple[str, tuple[int, ...], int]


def build_options(state: dict[str, Any], seat: int) -> list[Option]:
    """`build_moves` as (card, pattern squares, target square) triples, in the same order (a
    random draw indexes them without building every move)."""
    pl = state["p"][seat]
    grid = pl["grid"]
    ghost = _ghost(pl)
    if ghost is not None:
        return [
            (m["card"], tuple(m["cells"]), m["at"]) for m in _build_moves_slow(state, seat, pl, grid, ghost)
        ]
    # The town word, one byte per square (a list comprehension: bytes() of a map is slower).
    town = bytes([0 if v is None else _CELL_CODE[v] for v in grid])
    if _WILD_CODE in town:
        return _build_options_wild(state, seat, pl, grid)
    word = int.from_bytes(town, "little")
    if not word:
        return []  # every construction needs at least one resource (NOTES 44)
    in_play = state["buildings"]  # one list all game, never changed: the memo keeps its index
    index = derived(in_play, "anchor index", _merged_index, tuple(in_play))
    mon = pl["monument"]  # buildable_cards' own unbuilt monument, matched with its own index
    own = _OWN_INDEX[mon] if mon and not pl["built_monument"] and mon not in in_play else None
    matched: dict[str, list[tuple[int, tuple[int, ...], int]]] = {}
    # Rows are indexed, not unpacked: a row that does not match (nearly all) is read for its bits
    # and codes only (unpacking touches all six objects, scattered in memory: the matcher's
    # main cost).
    for i, code in enumerate(town):
        if code:  # a resource square: the placements whose lowest square it is, for that resource
            for row in index[i * 8 + code]:
                if word & row[0] == row[1]:
                    matched.setdefault(row[2], []).append((row[3], row[4], row[5]))
            if own is not None:
                for row in own[i * 8 + code]:
                    if word & row[0] == row[1]:
                        matched.setdefault(row[2], []).append((row[3], row[4], row[5]))
    if not matched:  # the usual case: nothing to construct
        return []
    cards = buildable_cards(state, seat)
    found = {cid: rows for cid in cards if (rows := matched.get(cid)) and can_afford(state, seat, cid)}
    return _options(pl, found, sum([1 << i for i, v in enumerate(grid) if v is None]))


def _options(
    pl: dict[str, Any], found: dict[str, list[tuple[int, tuple[int, ...], int]]], empty: int
) -> list[Option]:
    """The options of the matched placements (card -> (placement number, squares, mask of the
    resource squares it clears)), cards in order: each placement's target squares, once each."""
    moves: list[Option] = []
    for cid, rows in found.items():
        rows.sort()
        anywhere = data.has_passive(cid, "place_anywhere") or built(pl, "place_anywhere_all")
        seen: set[tuple[tuple[int, ...], int]] = set()
        for _, cells, real in rows:
            spots = real | empty if anywhere else real
            for at in range(16):
                if spots >> at & 1 and (cells, at) not in seen:
                    seen.add((cells, at))
                    moves.append((cid, cells, at))
    return moves


# Complex: the hot path of listing builds with Trading Posts, kept as one loop over bit masks.
def _build_options_wild(
    state: dict[str, Any], seat: int, pl: dict[str, Any], grid: list[Any]
) -> list[Option]:
    """build_options for a town with Trading Posts, which stand in for any resource: square by
    square, with masks."""
    res: dict[str, int] = {}
    wild = empty = 0
    for i, value in enumerate(grid):
        if value is None:
            empty |= 1 << i
        elif value in _WILD:
            wild |= 1 << i
        elif value not in data.CARDS:
            res[value] = res.get(value, 0) | (1 << i)
    usable = wild
    for m in res.values():
        usable |= m
    if not res:
        return []  # every construction needs at least one resource (NOTES 44)
    anchors = [(i, grid[i]) for i in range(16) if usable >> i & 1]
    found: dict[str, list[tuple[int, tuple[int, ...], int]]] = {}
    for cid in buildable_cards(state, seat):
        if not can_afford(state, seat, cid):
            continue
        rows_found = []
        by_low = _ANCHORED[cid]
        for low, value in anchors:
            at_low = by_low[low]
            if value in _WILD:
                rows: Sequence[_Row] = [row for group in at_low.values() for row in group]
            else:
                rows = at_low.get(value, ())
            for n, allm, need, cells, _, _ in rows:
                if allm & ~usable:
                    continue
                real = 0
                for r, m in need:
                    have = res.get(r, 0)
                    if m & ~(have | wild):
                        break
                    real |= m & have
                else:
                    if real:
                        rows_found.append((n, cells, real))
        if rows_found:
            found[cid] = rows_found
    return _options(pl, found, empty)


def _build_moves_slow(
    state: dict[str, Any], seat: int, pl: dict[str, Any], grid: list[Any], ghost: dict[str, Any]
) -> list[dict[str, Any]]:
    """build_moves with a Prism Forge ghost to take into account, square by square."""
    moves: list[dict[str, Any]] = []
    seen: set[tuple[str, tuple[int, ...], int]] = set()
    for cid in buildable_cards(state, seat):
        if not can_afford(state, seat, cid):
            continue
        for placement in data.PLACEMENTS[cid]:
            found = match(grid, placement, ghost)
            if found is None:
                continue
            real, ghosts = found
            if ghosts and cid == ghost["card"]:
                continue  # Prism Forge: the second building must be a different type
            if not real and not ghosts:
                continue
            cells = tuple(c for c, _ in placement)
            for at in targets(grid, pl, cid, real, ghosts):
                key = (cid, cells, at)
                if key not in seen:
                    seen.add(key)
                    moves.append({"type": "build", "card": cid, "cells": list(cells), "at": at})
    return moves


def check_build(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple[list[int], list[int]] | str:
    """(squares to clear, ghost squares) for a valid construct move, else the rule it breaks."""
    pl = state["p"][seat]
    cid = move.get("card")
    if cid not in data.CARDS:
        return "You can only construct a building card in play or your own monument."
    if cid not in buildable_cards(state, seat):
        if data.is_monument(cid):
            return "A monument can be constructed only by the player who kept it, and only once."
        return "You can only construct the building cards in play this game."
    if not can_afford(state, seat, cid):
        return "You cannot pay this building's coin cost (Estival Festival 2 coins; solo Jeweler 1)."
    raw, at = move.get("cells"), move.get("at")
    if not (isinstance(raw, list) and all(type(c) is int for c in raw) and type(at) is int):
        return "A construction names the squares of the pattern and the target square (0-15)."
    cells = tuple(sorted(raw))
    ghost = _ghost(pl)
    for placement in _BY_CELLS[cid].get(cells, ()):
        found = match(pl["grid"], placement, ghost)
        if found is None:
            continue
        real, ghosts = found
        if ghosts and cid == ghost["card"]:  # type: ignore[index]  # ghost squares need a ghost
            continue
        if not real and not ghosts:
            return "A construction must use at least one resource from your town."
        if move.get("at") in targets(pl["grid"], pl, cid, real, ghosts):
            return real, ghosts
        return (
            "The building must go on one of the squares its pattern used "
            "(only a Shed, or any building after Obelisk of the Crescent, may go elsewhere)."
        )
    return "Those squares do not hold the building's pattern (rotations and mirrors allowed)."
