"""Position builders for the Fortune City tests: cities drawn from {(x, y): tile} maps."""

from __future__ import annotations

import copy
from typing import Any

from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from app.rulesets.fortune_city.board import key

# Handy tiles by (type, price, production) from the reconstructed table.
BAKERY = "bread"  # meals, 2, 1 VP, coin
SNACK = "fried-snack"  # meals, 2, 2 VP, garbage
FRUIT = "fruit"  # meals, 2, 0 VP (tuned), diamond
BOOKS = "books"  # merchandise, 2, 1 VP, coin
COFFEE = "coffee"  # meals, 3, 2 VP, 2 coins
BUS = "bus-pass"  # transportation, 2, coin
BIKE = "bicycle"  # transportation, 2, coin
LAMP = "lamp"  # home, 2, coin
SUSHI = "sushi"  # meals, 4


def game(n: int = 2, seed: int = 0, **opts: Any) -> dict[str, Any]:
    """A fresh game (a deep copy, so tests may edit it freely), seat 0 to act."""
    st = copy.deepcopy(R.setup(n, R.Options(**opts), seed))
    st["start"] = st["turn"] = 0
    return st


def build(
    st: dict[str, Any],
    seat: int,
    cells: dict[tuple[int, int], str],
    *,
    tokens: bool = False,
    workers: dict[tuple[int, int], str] | None = None,
) -> dict[str, Any]:
    """Put buildings into a seat's city (no production unless `tokens`), in place; returns st."""
    city = st["players"][seat]["city"]
    for (x, y), tile in cells.items():
        city[key(x, y)] = {
            "tile": tile,
            "token": D.production_of(tile) if tokens else None,
            "worker": (workers or {}).get((x, y)),
        }
    return st


def play(st: dict[str, Any], *moves: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    """Apply (seat, move) pairs in order."""
    for seat, move in moves:
        st = R.apply(st, seat, move)
    return st


def pass_all(st: dict[str, Any]) -> dict[str, Any]:
    """Every seat passes in turn until the Player Actions phase of this round ends."""
    rnd = st["round"]
    while st["phase"] == "actions" and st["round"] == rnd:
        st = R.apply(st, st["turn"], {"type": "pass"})
    return st


def finish_phase(st: dict[str, Any]) -> dict[str, Any]:
    """Every seat still owing a decision in a simultaneous phase ends it (hire: done; truck: the
    first legal step until the truck stops)."""
    phase = st["phase"]
    while st["phase"] == phase and R.to_act(st):
        seat = R.to_act(st)[0]
        move = {"type": "done"} if phase == "hire" else R.legal_moves(st, seat)[0]
        st = R.apply(st, seat, move)
    return st


def cell(st: dict[str, Any], seat: int, x: int, y: int) -> dict[str, Any]:
    """A square of a seat's city."""
    return st["players"][seat]["city"][key(x, y)]
