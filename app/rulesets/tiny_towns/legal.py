"""Who acts and which moves they have: monument choice, naming, placing (with every reaction to
another player's naming), constructing, and pending effect decisions."""

from __future__ import annotations

from typing import Any, Callable

from app.engine.memo import latest, recall, remember
from app.engine.rng import Rng

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.choices import pending_options
from app.rulesets.tiny_towns.patterns import build_moves, build_options
from app.rulesets.tiny_towns.state import CELLS, built, empties, incomplete

Move = dict[str, Any]
_REACTS = {cid: kind for cid in data.CARDS if (kind := data.react_kind(cid)) is not None}
# The cards reaction_moves' square loop acts on: a town without one skips the loop.
_STORING = frozenset(cid for cid, kind in _REACTS.items() if kind in ("warehouse", "oddity_shop"))


def to_act(state: dict[str, Any]) -> list[int]:
    """Seats owing a decision: pending effect choices first, then the phase's duty."""
    phase = state["phase"]
    if phase == "over":
        return []
    players = state["p"]
    # Each list is in seat order: the seats with a pending decision, plus the phase's duty.
    if phase == "place":
        return [i for i, pl in enumerate(players) if pl["pending"] or not (pl["complete"] or pl["placed"])]
    if phase == "build":
        return [i for i, pl in enumerate(players) if pl["pending"] or not (pl["complete"] or pl["done"])]
    if phase == "monument":
        return [i for i, pl in enumerate(players) if pl["pending"] or pl["monument"] is None]
    if phase == "name":
        master = 0 if state["solo"] else state["master"]
        return [i for i, pl in enumerate(players) if pl["pending"] or i == master]
    return [i for i, pl in enumerate(players) if pl["pending"]]


def free_choice(state: dict[str, Any]) -> bool:
    """A Town Hall free-choice round: every player picks their own resource (no one names)."""
    th = state["town_hall"]
    return th is not None and th["free"] and state["phase"] in ("place", "build")


def is_master(state: dict[str, Any], seat: int) -> bool:
    """Whether the seat named this round's resource itself (never in solo or a Town Hall card
    round: a card names it, which counts as another player naming; in a Town Hall free-choice
    round everyone names their own)."""
    if state["solo"]:
        return False
    return state["master"] == seat or free_choice(state)


def banned_names(state: dict[str, Any], seat: int) -> set[str]:
    """Resources on the player's Banks, which they may not name as Master Builder."""
    pl = state["p"][seat]
    out: set[str] = set()
    if not pl["store"]:
        return out  # nothing lies on any Bank
    for i in CELLS:
        if pl["grid"][i] is not None and data.has_passive(pl["grid"][i], "bank"):
            out |= set(pl["store"].get(str(i), ()))
    return out


def name_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Naming a resource (solo: taking 1 of the 3 revealed cards), or first taking from an
    Oddity Shop."""
    kind, key, values, oddity = _name_parts(state, seat)
    return [{"type": kind, key: v} for v in values] + oddity


def _name_parts(state: dict[str, Any], seat: int) -> tuple[str, str, list[Any], list[Move]]:
    """name_moves in parts: the move type and field of the naming moves, their values, then
    the Oddity Shop moves."""
    if state["solo"]:
        return "choose_card", "index", list(range(len(state["solo_deck"]["shown"]))), []
    banned = banned_names(state, seat)
    names = [r for r in data.RESOURCES if r not in banned] or list(data.RESOURCES)
    return "name", "resource", names, oddity_moves(state, seat)


def oddity_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """RB-F Oddity Shop: at the start of their Master Builder turn a player may take 1 resource
    from another player's Oddity Shop into an empty square."""
    if state["oddity_taken"]:
        return []
    cells = empties(state["p"][seat]["grid"])
    moves: list[Move] = []
    for other, opl in enumerate(state["p"]):
        if other == seat:
            continue
        for key, cubes in sorted(opl["store"].items()):
            if cubes and data.react_kind(opl["grid"][int(key)]) == "oddity_shop":
                moves += [{"type": "take_oddity", "from": other, "shop": int(key), "to": c} for c in cells]
    return moves


def placement_cells(state: dict[str, Any], seat: int) -> list[int]:
    """Where a placed cube may go, with The Petal Promenade's coin squares (RB-F)."""
    pl = state["p"][seat]
    free = empties(pl["grid"])
    if not pl["marks"]:
        return free  # no coin squares at all (the usual case)
    petal = [c for c in free if pl["marks"].get(str(c)) == "petal"]
    if not petal:
        return free
    if not is_master(state, seat):
        return petal  # resources named by others must go on the coin squares
    others = [c for c in free if c not in petal]
    if others and len(incomplete(state)) > 1:
        return others  # your own named resource may not go there...
    return free  # ...unless no other square is free or you are the last player


def factory_swap(state: dict[str, Any], seat: int) -> bool:
    """Factory: the named resource lies on one of your Factories, so you may place another."""
    pl = state["p"][seat]
    named = state["named"]
    for k, v in pl["store"].items():
        if named in v and data.react_kind(pl["grid"][int(k)]) == "factory":
            return True
    return False


def place_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Every way to deal with the named resource this round."""
    resources, cells, reactions = _place_parts(state, seat)
    return [{"type": "place", "resource": r, "cell": c} for r in resources for c in cells] + reactions


def _place_parts(state: dict[str, Any], seat: int) -> tuple[list[str], list[int], list[Move]]:
    """place_moves in parts: the resources and squares every combination of which is a
    `place` move (resources outer, squares inner), then the reaction moves."""
    pl = state["p"][seat]
    named = state["named"]
    other = not is_master(state, seat)
    cells = placement_cells(state, seat)
    resources = [named]
    if free_choice(state):  # Town Hall: any resource but those on your own Banks (UBG)
        banned = banned_names(state, seat)
        resources = [r for r in data.RESOURCES if r not in banned] or list(data.RESOURCES)
    elif other and (factory_swap(state, seat) or (state["coins_on"] and pl["coins"] >= 1)):
        resources = list(data.RESOURCES)
    return resources, cells, reaction_moves(state, seat) if other else []


def reaction_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Warehouse, Oddity Shop, Statue of the Bondmaker and Museum reactions to a named resource."""
    pl = state["p"][seat]
    grid = pl["grid"]
    named = state["named"]
    moves: list[Move] = []
    if not _STORING.isdisjoint(grid):  # a town without Warehouse or Oddity Shop skips the loop
        free = empties(grid)
        for i in CELLS:
            kind = _REACTS.get(grid[i])  # data.react_kind
            if kind is None:
                continue
            stored = pl["store"].get(str(i), [])
            if kind == "warehouse":
                cap = data.card(grid[i])["react"]["capacity"]
                if len(stored) < cap:
                    moves.append({"type": "store", "cell": i})
                for t in sorted(set(stored)):
                    moves += [{"type": "swap", "cell": i, "take": t, "to": c} for c in free]
            elif kind == "oddity_shop" and not stored:
                moves.append({"type": "store", "cell": i})
    if pl["built_monument"] and data.react_kind(pl["monument"]) == "bondmaker":
        moves += [
            {"type": "bondmaker", "cell": i}
            for i in CELLS
            if grid[i] == "cottage" and str(i) not in pl["store"]
        ]
    if pl["store"] and not pl["flags"].get("museum_used"):
        # A loop, not any(...): compiled, a generator expression here would cost this function a
        # closure on every call (the same holds for every hot function of this package).
        for k, v in pl["store"].items():
            if data.react_kind(grid[int(k)]) == "museum" and named in v:
                moves.append({"type": "museum"})
                break
    return moves


def legal_moves(state: dict[str, Any], seat: int) -> list[Move]:
    """Every concrete move the seat may make now (shared list: do not modify). Listing the
    legal moves and then applying one of them (the usual sequence) lists them once while the
    game's memo is active (app/engine/memo.py; states are never changed in place)."""
    return latest(state, ("legal", seat), _legal_moves, state, seat)


def random_move(state: dict[str, Any], seat: int, rng: Any) -> Move:
    """The move `rng.choice(legal_moves(state, seat))` would draw (same generator use, same
    move); while placing it is found by index, without building every (resource, square) move,
    and the memo keeps it so that `apply` accepts it without listing them."""
    placing = state["phase"] == "place" and not state["p"][seat]["pending"] and seat in to_act(state)
    move = draw(state, seat, rng, legal_moves)
    if placing:  # field values are strings and ints: a flat copy is whole (the caller owns `move`)
        remember(state, ("drawn", seat), dict(move))
    return move


def draw(
    state: dict[str, Any],
    seat: int,
    rng: Rng,
    listing: Callable[[dict[str, Any], int], list[Move]] | None = None,
    due: bool = False,
) -> Move:
    """The move `rng.choice(legal_moves(state, seat))` would draw; `listing` lists the legal
    moves when they must be listed (default: without the memo, for a playout's state that
    changes in place); `due`: the seat is known to be one of `to_act(state)`. Placing and
    constructing moves are found by index, in `legal_moves`' order."""
    phase = state["phase"]
    if (
        (phase != "place" and phase != "build" and phase != "name")
        or state["p"][seat]["pending"]
        or not (due or seat in to_act(state))
    ):
        return rng.choice((listing or _legal_moves)(state, seat))
    if phase == "name":  # name_moves' order: the naming moves, then the Oddity Shop ones
        kind, key, values, oddity = _name_parts(state, seat)
        i = rng.below(len(values) + len(oddity))
        return {"type": kind, key: values[i]} if i < len(values) else oddity[i - len(values)]
    if phase == "build":  # build_moves, then done (see _legal_moves)
        options = build_options(state, seat)
        i = rng.below(len(options) + 1)
        if i == len(options):
            return {"type": "done"}
        cid, used, at = options[i]
        return {"type": "build", "card": cid, "cells": list(used), "at": at}
    resources, cells, reactions = _place_parts(state, seat)
    n = len(resources) * len(cells)
    i = rng.below(n + len(reactions))
    if i < n:
        return {"type": "place", "resource": resources[i // len(cells)], "cell": cells[i % len(cells)]}
    return reactions[i - n]


def drawn_move(state: dict[str, Any], seat: int) -> Move | None:
    """The move `random_move` drew for exactly this state and seat while the memo was active
    (it is legal: states are never changed in place)."""
    return recall(state, ("drawn", seat))  # type: ignore[no-any-return]  # a move or None


def _legal_moves(state: dict[str, Any], seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    pl = state["p"][seat]
    if pl["pending"]:
        return pending_options(state, seat)
    phase = state["phase"]
    if phase == "monument":
        return [{"type": "keep_monument", "monument": m} for m in pl["dealt"]]
    if phase == "name":
        return name_moves(state, seat)
    if phase == "place":
        return place_moves(state, seat)
    if phase == "build":
        return [*build_moves(state, seat), {"type": "done"}]
    return []


def uses_coin(state: dict[str, Any], seat: int, resource: str) -> bool:
    """Whether placing `resource` costs a coin (a different resource, and no Factory for it)."""
    return resource != state["named"] and not free_choice(state) and not factory_swap(state, seat)


def tracks_changes(pl: dict[str, Any]) -> bool:
    """Hollow Hill built: coins spent changing resources are tracked for its penalty."""
    return built(pl, "change_penalty")
