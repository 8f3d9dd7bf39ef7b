"""Builders for City Council positions used by the rule and scenario tests."""

from __future__ import annotations

import copy
from typing import Any

from app.engine.rng import Rng
from app.rulesets.city_council import RULESET
from app.rulesets.city_council.tables import SHAPE_ORDER, TILES

R = RULESET


def game(players: int = 3, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A fresh game (waiting for the first Election chairman's committee assignment)."""
    return R.setup(players, R.Options.model_validate(options), seed)


def take_tile(s: dict[str, Any], name: str) -> str:
    """Remove a tile of building `name` from wherever it waits (stacks, area, discards, box)."""
    for sh in SHAPE_ORDER:
        for pile in (s["stacks"].get(sh, []), s["up"].get(sh, []), s["bdiscard"].get(sh, [])):
            for t in pile:
                if TILES[t].name == name:
                    pile.remove(t)
                    return t
    for t in s["reserve_adv"]:
        if TILES[t].name == name:
            s["reserve_adv"].remove(t)
            return t
    raise LookupError(name)


def build(s: dict[str, Any], name: str, cells: list[tuple[int, int]], token: bool = False) -> str:
    """Put a building of `name` on the board at `cells` (in place); returns its id."""
    tile = take_tile(s, name)
    bid = f"b{s['next_bid']}"
    s["next_bid"] += 1
    s["buildings"][bid] = {
        "id": bid,
        "name": name,
        "tile": tile,
        "fixed": False,
        "cells": sorted([list(c) for c in cells]),
        "token": token,
        "prison": [0, 0],
    }
    return bid


def find(s: dict[str, Any], name: str) -> str:
    """The id of the (first) built building called `name`."""
    return next(bid for bid, b in sorted(s["buildings"].items()) if b["name"] == name)


def clear_board(s: dict[str, Any]) -> dict[str, Any]:
    """Remove the printed Starting-Zone buildings (for examples that lay out their own city)."""
    s["buildings"] = {k: v for k, v in s["buildings"].items() if not v["fixed"]}
    return s


def first(s: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """Play the first legal move of the first seat to act."""
    seat = R.to_act(s)[0] if seat is None else seat
    return R.apply(s, seat, R.legal_moves(s, seat)[0])


def play_until(s: dict[str, Any], phase: str, seed: int = 0, limit: int = 3000) -> dict[str, Any]:
    """Random legal play until the phase is reached."""
    rng = Rng(seed)
    for _ in range(limit):
        if s["phase"] == phase:
            return s
        seat = rng.choice(R.to_act(s))
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    raise AssertionError(f"phase {phase} not reached")


def random_states(players: int, seed: int, steps: int, **opts: Any) -> list[tuple[Any, Any, dict]]:
    """(seat, move, state after) along a random game, starting with (None, None, setup)."""
    s = game(players, seed, **opts)
    rng = Rng(seed + 1000)
    out = [(None, None, s)]
    for _ in range(steps):
        if not R.to_act(s):
            break
        seat = rng.choice(R.to_act(s))
        move = rng.choice(R.legal_moves(s, seat))
        s = R.apply(s, seat, move)
        out.append((seat, move, s))
    return out


def clone(s: dict[str, Any]) -> dict[str, Any]:
    """A deep copy to edit."""
    return copy.deepcopy(s)


def at_planning(n: int = 4, seed: int = 0, **options):
    """A game seated and played to the planning step of its first turn (committees known)."""
    s = game(n, seed, **options)
    d = s["decider"]
    s = R.apply(s, d, R.legal_moves(s, d)[0])
    while s["phase"] in ("treasury", "draw"):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.legal_moves(s, seat)[-1])
    return clone(s)
