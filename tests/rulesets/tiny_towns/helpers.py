"""Position builders for the Tiny Towns tests: a game with chosen cards, towns drawn as text."""

from __future__ import annotations

from typing import Any

from app.rulesets.tiny_towns import RULESET as R
from app.rulesets.tiny_towns.rounds import advance
from app.rulesets.tiny_towns.scoring import score_all
from app.rulesets.tiny_towns.state import Edit

LETTER = {"Wd": "wood", "Wh": "wheat", "Br": "brick", "Gl": "glass", "St": "stone"}
DEFAULT = ["cottage", "farm", "tavern", "chapel", "theater", "well", "factory"]


def town(*rows: str) -> list[Any]:
    """A 4x4 grid from 4 rows of 4 tokens: '.' empty, Wd/Wh/Br/Gl/St resources, card ids."""
    grid: list[Any] = []
    for row in rows:
        tokens = row.split()
        assert len(tokens) == 4, row
        grid += [None if t == "." else LETTER.get(t, t) for t in tokens]
    assert len(grid) == 16
    return grid


def new_game(
    n: int = 2,
    buildings: list[str] | None = None,
    monuments: list[str] | None = None,
    seed: int = 0,
    master: int = 0,
    **opts: Any,
) -> dict[str, Any]:
    """A game in the naming step of round 1 with the given cards in play and monuments kept.
    The Fortune game unless `fortune=False` is given (the rules tests were written for it; the
    ruleset's own default is the base game)."""
    st = R.setup(n, R.Options(**{"fortune": True, **opts}), seed)
    st = dict(st)
    st["buildings"] = list(buildings or DEFAULT)
    if st["master"] is not None:
        st["master"] = master
    players = []
    for i, pl in enumerate(st["p"]):
        q = dict(pl)
        q["monument"] = monuments[i] if monuments else pl["dealt"][0]
        q["dealt"] = None
        players.append(q)
    st["p"] = players
    e = Edit(st)
    advance(e)
    return e.s


def with_player(
    st: dict[str, Any], seat: int, grid: list[Any] | None = None, **fields: Any
) -> dict[str, Any]:
    """A copy of the state with one player's town and fields replaced."""
    st = dict(st)
    st["p"] = list(st["p"])
    pl = dict(st["p"][seat])
    if grid is not None:
        pl["grid"] = grid
    for key, value in fields.items():
        if key == "flags":
            pl["flags"] = {**pl["flags"], **value}
        else:
            pl[key] = value
    st["p"][seat] = pl
    return st


def play(st: dict[str, Any], seat: int, move: dict[str, Any]) -> dict[str, Any]:
    """Apply one move."""
    return R.apply(st, seat, move)


def name(st: dict[str, Any], resource: str) -> dict[str, Any]:
    """The Master Builder names a resource."""
    return play(st, st["master"], {"type": "name", "resource": resource})


def place(st: dict[str, Any], seat: int, cell: int, resource: str | None = None) -> dict[str, Any]:
    """Place the named (or another) resource."""
    return play(st, seat, {"type": "place", "resource": resource or st["named"], "cell": cell})


def done_all(st: dict[str, Any]) -> dict[str, Any]:
    """Every player still constructing declares done."""
    for seat in list(R.to_act(st)):
        if st["phase"] == "build" and not st["p"][seat]["pending"]:
            st = play(st, seat, {"type": "done"})
    return st


def build(st: dict[str, Any], seat: int, card: str, cells: list[int], at: int) -> dict[str, Any]:
    """Construct a building."""
    return play(st, seat, {"type": "build", "card": card, "cells": sorted(cells), "at": at})


def round_with(st: dict[str, Any], resource: str, cells: list[int]) -> dict[str, Any]:
    """A whole placing step: name `resource`, seat i places it on cells[i]."""
    st = name(st, resource)
    for seat, cell in enumerate(cells):
        if cell is not None and seat in R.to_act(st):
            st = place(st, seat, cell)
    return st


def score(st: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    """The end-of-game breakdown of one seat for the state as it stands."""
    return score_all(st)[seat]


def moves_of(st: dict[str, Any], seat: int, kind: str) -> list[dict[str, Any]]:
    """The seat's legal moves of one type."""
    return [m for m in R.legal_moves(st, seat) if m["type"] == kind]
