"""RB Plan Execution on the real state: an approved plan constructed (fresh or as an upgrade),
relocated or sold, and the end of the council meeting (execution.py lists the ways allowed)."""

from __future__ import annotations

from app.rulesets.city_council import execution, production as prod
from app.rulesets.city_council.board import option_cost
from app.rulesets.city_council.state import Move, State, plan_of
from app.rulesets.city_council.tables import BUDGET_MAX, TILES, kind_of


def execute_options(s: State, o: int) -> list[Move]:
    """How the Election chairman may execute plan o now (empty: not now), anti-sabotage rule
    included (execution.allowed)."""
    return execution.moves(s, o)


def do_execute(s: State, move: Move) -> None:
    """Carry out one approved plan: construct (fresh or upgrade), relocate or sell."""
    o = move["plan"]
    kind = plan_of(s, o)["kind"]
    if kind == "sell":
        _sell(s, o)
    elif kind == "relocate":
        _relocate(s, o, move)
    else:
        _construct(s, o, move)
    s["executed"].append(o)


def _sell(s: State, o: int) -> None:
    """RB Selling: the tile to its discard pile, the City Budget gains its cost - $1."""
    b = s["buildings"].pop(plan_of(s, o)["target"])
    kind = kind_of(b)
    assert b["tile"] is not None  # a printed building is never sold (plan_options)
    s["bdiscard"][kind.shape].append(b["tile"])
    s["budget"] = min(BUDGET_MAX, s["budget"] + kind.cost - 1)
    s["last_exec"] = {"plan": o, "kind": "sell", "name": kind.name, "gain": kind.cost - 1}


def _relocate(s: State, o: int, move: Move) -> None:
    """RB Relocation: the building moves to the blocks chosen, the City Budget pays."""
    b = s["buildings"][plan_of(s, o)["target"]]
    kind = kind_of(b)
    # the move is one of relocate_options' (apply checked it): its cost from its blocks
    cost = option_cost(s, kind, move["cells"], relocate=True)
    s["budget"] -= cost
    b["cells"] = sorted(move["cells"])
    s["last_exec"] = {"plan": o, "kind": "relocate", "name": kind.name, "cost": cost}


def _construct(s: State, o: int, move: Move) -> None:
    """RB Construction: paid from the plan's private funds first, then the City Budget."""
    tile = plan_of(s, o)["target"]
    kind = TILES[tile]
    # the move is one of build_options' (apply checked it): its cost from its blocks
    cost = option_cost(s, kind, move["cells"], move.get("upgrade"))
    from_funds = min(cost, sum(s["plan_funds"][o]))
    _spend_funds(s, o, from_funds)
    s["budget"] -= cost - from_funds
    _remove_tile_from_area(s, tile)
    token = False
    if "upgrade" in move:
        # RB Upgrading: the old tile is discarded; a pre-constructed (printed) building is
        # covered instead, and is gone as well: nothing brings it back later
        old = s["buildings"].pop(move["upgrade"])
        token = old["token"]
        if old["tile"]:
            s["bdiscard"][kind_of(old).shape].append(old["tile"])
    bid = _new_building(s, tile, move["cells"])
    b = s["buildings"][bid]
    if kind.permanent_community:
        b["token"] = token or prod.reserve(s, "community") > 0  # RB: a Community token from the reserve
    s["last_exec"] = {
        "plan": o,
        "kind": "build",
        "name": kind.name,
        "cost": cost,
        "upgrade": "upgrade" in move,
    }


def _remove_tile_from_area(s: State, tile: str) -> None:
    sh = TILES[tile].shape
    if s["stacks"].get(sh) and s["stacks"][sh][0] == tile:
        s["stacks"][sh].pop(0)
    else:
        s["up"][sh].remove(tile)


def _new_building(s: State, tile: str, cells: list[list[int]]) -> str:
    bid = f"b{s['next_bid']}"
    s["next_bid"] += 1
    s["buildings"][bid] = {
        "id": bid,
        "name": TILES[tile].name,
        "tile": tile,
        "fixed": False,
        "cells": sorted(cells),
        "token": False,
        "prison": [0, 0],
    }
    return bid


def _spend_funds(s: State, o: int, amount: int) -> None:
    row = s["plan_funds"][o]
    for m in s["order"]:
        take = min(row[m], amount)
        row[m] -= take
        amount -= take


def end_council(s: State) -> str:
    """Unspent private funds on plans go back to their owners; production starts."""
    for o in range(s["members"]):
        for m in range(s["members"]):
            s["funds"][m] += s["plan_funds"][o][m]
            s["plan_funds"][o][m] = 0
    s["cursor"] = 0
    s["passes"] = 0
    s["acts_left"] = 0
    return "activate"
