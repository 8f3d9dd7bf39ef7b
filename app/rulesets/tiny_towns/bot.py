"""A greedy heuristic bot: place resources where they best extend the town's promising patterns,
build when the town's end score (with the patterns still in reach) improves, else declare done.

Score potential: feeders are worth more the more Cottages wait for them (shared between feeders);
a square lost to a building that scores nothing (a Mine,
Statue or lone Millstone) costs a little while the town still has room."""

from __future__ import annotations

from typing import Any

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.legal import legal_moves, uses_coin
from app.rulesets.tiny_towns.patterns import buildable_cards
from app.rulesets.tiny_towns.scoring import score_all

Move = dict[str, Any]

_BY_CELL: dict[str, list[list[tuple[tuple[int, str], ...]]]] = {}
for _cid, _places in data.PLACEMENTS.items():
    _cells: list[list[tuple[tuple[int, str], ...]]] = [[] for _ in range(16)]
    for _pl in _places:
        for _c, _ in _pl:
            _cells[_c].append(_pl)
    _BY_CELL[_cid] = _cells

_RES = set(data.RESOURCES)
_UNFED = 1.5  # a Cottage still waiting for a feeder is worth something
_PART = 0.5  # weight of a half-built pattern: card worth x (fraction done)^2
_GUESS = {"count_table": 3.0, "fed_flat": 3.0}
_FEEDER_BASE = 2.0  # a feeder's worth: base + per Cottage in town (shared between feeders)
_FEEDER_PER = 3.5
_CHANGE = 1.5  # what spending a coin to change a resource costs, for placements
_MONUMENT = 5.0  # a monument's rough worth
_DEAD = 1.0  # a square lost to a building that scores nothing (Mine, Statue, lone Millstone)
_OPEN_SCALE = 6  # ...matters less as the town fills (fewer than this many empty squares)


# No generator expressions in these functions: compiled, a function holding one allocates a
# closure on every call (list comprehensions are inlined).


def _feeders(grid: list[Any]) -> int:
    return len([g for g in grid if g in data.CARDS and "feed" in data.card(g)])


def _weight(state: dict[str, Any], seat: int, cid: str) -> float:
    """A rough worth of constructing the card (VP plus coins), used to steer placements."""
    row = data.card(cid)
    grid: list[Any] = state["p"][seat]["grid"]
    if data.is_monument(cid):
        return _MONUMENT
    if row["colour"] == "red":  # feeders pay off through the cottages
        cottages = grid.count("cottage")
        return _FEEDER_BASE + _FEEDER_PER * min(cottages, 4) / (1 + _feeders(grid))
    score = row["score"]
    coins: int = sum([b.get("coins", 0) for b in row.get("build", ())])
    if score["kind"] == "flat":
        return float(score["vp"] + coins) or 0.5
    return _GUESS.get(score["kind"], 2.5) + coins


def _cell_potential(
    state: dict[str, Any], seat: int, grid: list[Any], cell: int, complete: float = 0.0
) -> float:
    """The best pattern still completable through the cube on `cell` (0 for a dead cube);
    a completed pattern counts `complete` times the card's weight."""
    best = 0.0
    for cid in buildable_cards(state, seat):
        w = _weight(state, seat, cid)
        for placement in _BY_CELL[cid][cell]:
            matched = 0
            ok = True
            for c, res in placement:
                v = grid[c]
                if v == res:
                    matched += 1
                elif v is not None:
                    ok = False
                    break
            if ok and (cell, grid[cell]) in placement:  # the cube on `cell` is in the pattern
                frac = matched / len(placement)
                best = max(best, w * (complete if frac == 1 else frac * frac * _PART))
    return best


def _grid_potential(state: dict[str, Any], seat: int, grid: list[Any]) -> float:
    return sum([_cell_potential(state, seat, grid, c) for c in range(16) if grid[c] in _RES])


def _dead(grid: list[Any], board: dict[str, Any]) -> int:
    """Squares taken by buildings that score nothing and do nothing more for the town (a Mine
    past the full chest, a Millstone with no red/yellow neighbour, a Statue...): Cottages and
    feeders are left to the feeding terms."""
    out = 0
    for cid, pts in board["cards"].items():
        row = data.card(cid)
        if pts > 0 or data.is_monument(cid) or data.is_feedable(cid) or "feed" in row or "react" in row:
            continue
        out += grid.count(cid)
    return out


def town_value(state: dict[str, Any], seat: int) -> float:
    grid: list[Any] = state["p"][seat]["grid"]
    board = score_all(state)[seat]
    total: int = board["total"]
    fed = board["fed"]
    unfed = len([c for c in range(16) if data.is_feedable(grid[c]) and c not in fed])
    open_sq = grid.count(None)
    dead = _DEAD * _dead(grid, board) * min(1.0, open_sq / _OPEN_SCALE)
    return total + _grid_potential(state, seat, grid) + _UNFED * unfed - dead


def place_value(state: dict[str, Any], seat: int, move: Move) -> float:
    pl = state["p"][seat]
    if move["type"] != "place":
        return 0.5 if move["type"] in ("museum",) else -0.5
    grid = list(pl["grid"])
    grid[move["cell"]] = move["resource"]
    cost = _CHANGE if state["coins_on"] and uses_coin(state, seat, move["resource"]) else 0.0
    # the whole town's pattern potential after the cube (not just the cube's own best pattern)
    return (
        sum([_cell_potential(state, seat, grid, c, complete=1.0) for c in range(16) if grid[c] in _RES])
        - cost
    )


def choose(state: dict[str, Any], seat: int, rng: Any) -> Move | None:
    """The bot's move for `seat`, or None when it has nothing to do."""
    moves = legal_moves(state, seat)
    if not moves:
        return None
    kind = moves[0]["type"]
    if kind == "keep_monument":
        return min(moves, key=lambda m: (len(data.PLACEMENTS[m["monument"]][0]), m["monument"]))
    if kind in ("name", "choose_card", "take_oddity") and state["phase"] == "name":
        return _best_name(state, seat, moves)
    if state["phase"] == "place" and kind != "choose":
        values = [place_value(state, seat, m) for m in moves]
        top = max(values)
        best = [m for m, v in zip(moves, values) if v == top]
        # Equal best placements are drawn with the seat's generator: two bots on identical
        # towns (every town starts empty) would otherwise build square for square alike.
        return best[0] if rng is None or len(best) == 1 else rng.choice(best)
    return _greedy(state, seat, moves, rng)


def _best_name(state: dict[str, Any], seat: int, moves: list[Move]) -> Move:
    from app.rulesets.tiny_towns.apply import apply_move

    best, best_v = moves[0], float("-inf")
    for m in moves:
        if m["type"] == "take_oddity":
            return m  # a free cube and a coin
        nxt = apply_move(state, seat, m)
        opts = [x for x in legal_moves(nxt, seat) if x["type"] == "place"]
        v = max([place_value(nxt, seat, x) for x in opts], default=0.0)
        if v > best_v:
            best, best_v = m, v
    return best


def _greedy(state: dict[str, Any], seat: int, moves: list[Move], rng: Any) -> Move:
    """Try each move (capped) and keep the one that leaves the best town."""
    from app.rulesets.tiny_towns.apply import apply_move

    sample = moves if len(moves) <= 40 else [moves[-1], *[rng.choice(moves) for _ in range(40)]]
    base = town_value(state, seat)
    best, best_v = None, float("-inf")
    for m in sample:
        if m["type"] == "done":
            v = base
        else:
            v = town_value(apply_move(state, seat, m), seat) + (0.3 if m["type"] == "build" else 0.0)
        if v > best_v:
            best, best_v = m, v
    return best if best is not None else moves[-1]
