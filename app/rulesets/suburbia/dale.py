"""Dale the Bot (RB-S Solo Game 2): an automatic rule actor run inside `apply` after the
human's turn. He buys the most expensive market tile for $3, places it where Income plus
Reputation rises most (ties: Reputation), and the tiles left over are discarded."""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints are plain Python (no-ops)
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

from app.rulesets.suburbia import geo
from app.rulesets.suburbia.effects import World, trial_world
from app.rulesets.suburbia.hexes import Cell, distance, frontier, neighbours, occupied
from app.rulesets.suburbia.market import discard, refill, surcharges, take
from app.rulesets.suburbia.tables import KINDS

State = dict[str, Any]
DALE_PRICE = 3


def choose_slot(market: list[str | None], extra: list[int]) -> int | None:
    """Most expensive tile (printed cost + surcharge); ties go to the leftmost."""
    best = None
    for slot, kind in enumerate(market):
        if kind is None:
            continue
        price = KINDS[kind].cost + extra[slot]
        if best is None or price > best[0]:
            best = (price, slot)
    return None if best is None else best[1]


# typed containers, compiled: their lookups skip Python's method calls (every frontier cell's
# neighbours are looked up here, each of Dale's turns)
@cython.locals(taken=dict, matters=list, gains=dict)
def best_cell(w: World, dale: int, kind: str) -> Cell:
    """The placement raising Dale's Income + Reputation most, ties favouring Reputation (RB-S).
    Any valid space is allowed after that, so remaining ties go to the cell touching most of his
    tiles, then the one nearest his first tile, then (q, r) order: a compact, repeatable borough."""
    me = w.players[dale]
    taken = occupied(me["tiles"])
    trial = trial_world(w, dale)
    # A placement depends on its cell only through the tiles next to it, and only through
    # those that can react to it or that its own effects count (World.touch_matters): cells
    # with the same such neighbours give the same gain, so each set is simulated once.
    matters = trial.touch_matters(dale, kind)
    gains: dict[int, tuple[int, int]] = {}  # by the set of neighbours that matter, as bits
    best: tuple[int, int, int] | None = None
    near_first = 0
    choice: Cell | None = None
    for cell in frontier(me["tiles"]):
        touching = seen = 0
        for n in neighbours(cell):
            if (k := taken.get(n)) is not None:
                touching += 1
                if matters[k]:
                    seen |= 1 << k
        gain = gains.get(seen)
        if gain is None:
            gain = gains[seen] = trial.try_place(dale, kind, cell)
        d_income, d_rep = gain
        rank = (d_income + d_rep, d_rep, touching)
        # the distance only breaks ties: measured when the rest of the rank is equal or better
        if best is None or rank > best or (rank == best and -distance(cell) > near_first):
            best, near_first, choice = rank, -distance(cell), cell
    geo.forget(trial.players[dale]["tiles"])
    assert choice is not None
    return choice


def dale_turn(s: State, w: World) -> None:
    """Dale buys and places, takes his income and reputation steps, the rest of the market is
    discarded and four new tiles come out; the 1 More Round tile ends the game at once."""
    d = s["seats"]
    slot = choose_slot(s["market"], surcharges(s))
    report: dict[str, Any] = {"tile": None}
    if slot is not None:
        kind = take(s, slot)
        paid = min(DALE_PRICE, w.players[d]["money"])  # short of $3 he pays what he has
        w.pay(d, paid)
        cell = best_cell(w, d, kind)
        w.place(d, kind, cell, lake=False)
        report = {"tile": kind, "slot": slot, "at": [cell[0], cell[1]], "paid": paid}
    w.income_step(d)
    w.reputation_step(d)
    left = [k for k in s["market"] if k is not None]
    for k in left:
        discard(s, k)
    report["discarded"] = left
    s["market"] = [None] * len(s["market"])
    s["last"]["dale"] = report
    if refill(s, 0, w.in_place):
        s["phase"] = "over"
        return
    s["round"] += 1
    s["turn"] = 0
    s["phase"] = "play"
