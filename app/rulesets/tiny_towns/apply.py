"""Applying moves: monument choice, naming, placing and its reactions, constructing, effect
decisions; then the round flow (rounds.py) runs until someone owes a decision."""

from __future__ import annotations

from typing import Any, Callable

from app.engine.diff import same_json
from app.engine.memo import Memo
from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.choices import prune, resolve_pending
from app.rulesets.tiny_towns.effects import place_building
from app.rulesets.tiny_towns.legal import (
    draw,
    drawn_move,
    free_choice,
    is_master,
    legal_moves,
    to_act,
    tracks_changes,
    uses_coin,
)
from app.rulesets.tiny_towns.patterns import check_build
from app.rulesets.tiny_towns.rounds import advance, complete, start_place
from app.rulesets.tiny_towns.state import Edit, built, gain, has_empty, private_copy, push, set_cell

Move = dict[str, Any]


def apply_move(state: dict[str, Any], seat: int, move: Move) -> dict[str, Any]:
    """The state after the move; raises IllegalMove naming the rule that forbids it."""
    if seat not in to_act(state):
        raise IllegalMove("It is not your turn: you have no decision to make at this point of the round.")
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("A move is a JSON object with a 'type'; ask for the legal moves to see them.")
    return play(Edit(state), seat, move)


def play(e: Edit, seat: int, move: Move) -> dict[str, Any]:
    """Play `move` of `seat` through `e` (a copy-on-write Edit for `apply_move`, an in-place one
    for a playout, whose moves are drawn from the legal moves and not checked again), then run
    the round on until someone owes a decision; returns the new state."""
    pl = e.s["p"][seat]
    if pl["pending"]:
        if not e.trusted and (move.get("type") != "choose" or not listed(e.before, seat, move)):
            raise IllegalMove(
                "You must first resolve your pending card effect with one of its listed choices."
            )
        resolve_pending(e, seat, move)
    else:
        handler = _HANDLERS.get(e.s["phase"], _NONE).get(move["type"])
        if handler is None:
            raise IllegalMove(
                f"A '{move['type']}' move is not allowed in the {e.s['phase']} step of the round."
            )
        handler(e, seat, move)
    e.s["last"] = {"seat": seat, "move": public_summary(move)}
    prune(e)
    advance(e)
    return e.s


def playout(state: dict[str, Any], rng: Any) -> dict[str, Any]:
    """The final state of the random game `play_random` plays from `state` with `rng` (same
    seat and move draws, same state), played on one private copy changed in place by the same
    `play`, with moves drawn as `random_move` draws them."""
    s = private_copy(state)
    e = Edit(s, in_place=True)  # an in-place Edit holds nothing per move: one serves them all
    # A memo of its own: the cards in play are indexed once for the whole game. Nothing is kept
    # per state in it (the state changes in place: moves are drawn without the memo's listing).
    with Memo():
        while acting := to_act(s):
            seat = rng.choice(acting)
            play(e, seat, draw(s, seat, rng, due=True))
    return s


_PUBLIC_KEYS = (
    "type",
    "resource",
    "cell",
    "index",
    "from",
    "shop",
    "to",
    "take",
    "card",
    "cells",
    "at",
    "pay",
    "stop",
    "skip",
    "coins",
    "line",
)


def listed(state: dict[str, Any], seat: int, move: Move) -> bool:
    """Whether the move is one of `legal_moves(state, seat)`: the move `random_move` just drew for
    this state is, without listing them (strict JSON types either way)."""
    drawn = drawn_move(state, seat)
    if drawn is not None and same_json(drawn, move):
        return True
    return is_listed(move, legal_moves(state, seat))


def is_listed(move: Move, moves: list[Move]) -> bool:
    """Whether the move is one of `moves`, comparing JSON types strictly (true is not 1)."""
    for m in moves:
        if m == move and same_json(m, move):
            return True
    return False


def public_summary(move: Move) -> Move:
    """What everyone may learn from a (validated) move: its known fields only, and a kept
    monument stays secret."""
    if move.get("type") == "keep_monument":
        return {"type": "keep_monument"}
    keys = [k for k in _PUBLIC_KEYS if k in move]
    if len(keys) == len(move):
        return dict(move)  # every key public: in the move's own order
    return {k: move[k] for k in keys}


def _require(ok: bool, reason: str) -> None:
    if not ok:
        raise IllegalMove(reason)


def _keep(e: Edit, seat: int, move: Move) -> None:
    dealt = e.s["p"][seat]["dealt"]
    _require(
        e.trusted or is_listed(move, [{"type": "keep_monument", "monument": m} for m in dealt]),
        "You must keep one of the two monuments dealt to you.",
    )
    pl = e.p(seat)
    pl["monument"] = move["monument"]
    # The other card is out of the game, but its owner knows it: determinize must never deal it
    # to an opponent. It stays in the state, and no view, log or patch shows it (view.py).
    pl["discarded"] = [m for m in pl["dealt"] if m != move["monument"]][0]
    pl["dealt"] = None


def _name(e: Edit, seat: int, move: Move) -> None:
    _require(
        e.trusted or listed(e.before, seat, move),
        "The Master Builder names one of the five resources (not one on their own Banks).",
    )
    start_place(e, move["resource"])


def _choose_card(e: Edit, seat: int, move: Move) -> None:
    _require(e.trusted or listed(e.before, seat, move), "Solo: choose one of the 3 revealed resource cards.")
    deck = e.s["solo_deck"]  # read only: replaced by a new dict below
    shown, rest = list(deck["shown"]), list(deck["deck"])
    res = shown[move["index"]]
    rest.append(res)  # the chosen card goes face down to the bottom of the deck...
    shown[move["index"]] = rest.pop(0)  # ...and the top card replaces it
    e.s["solo_deck"] = {"shown": shown, "deck": rest}
    start_place(e, res)


def _take_oddity(e: Edit, seat: int, move: Move) -> None:
    _require(
        e.trusted or listed(e.before, seat, move),
        "At the start of your Master Builder turn you may take 1 resource from another "
        "player's Oddity Shop into an empty square of your town, once.",
    )
    other, shop = move["from"], str(move["shop"])
    cube = e.s["p"][other]["store"][shop][0]
    del e.f(other, "store")[shop]
    _put_cube(e, seat, move["to"], cube)
    gain(e, seat, 1)
    e.s["oddity_taken"] = True
    if not has_empty(e.p(seat)["grid"]):  # RB-F: a cube from an Oddity Shop can complete a town
        complete(e, seat)


def _put_cube(e: Edit, seat: int, cell: int, resource: str) -> None:
    set_cell(e, seat, cell, resource)
    marks = e.s["p"][seat]["marks"]
    if marks and marks.get(str(cell)) == "petal":  # Petal Promenade: take the coin
        del e.f(seat, "marks")[str(cell)]
        gain(e, seat, 1)


def _placed(e: Edit, seat: int) -> None:
    e.p(seat)["placed"] = True
    pl = e.s["p"][seat]
    if pl["built_monument"] and data.react_kind(pl["monument"]) == "semaphore" and not is_master(e.s, seat):
        push(e, seat, {"kind": "semaphore", "resource": e.s["named"]})


def _check_place(e: Edit, seat: int, move: Move) -> None:
    if e.trusted or listed(e.before, seat, move):
        return
    pl = e.s["p"][seat]
    cell = move.get("cell")
    if move["type"] == "place" and isinstance(cell, int) and 0 <= cell < 16 and pl["grid"][cell] is not None:
        raise IllegalMove("A resource must be placed on an empty square of your town.")
    if move["type"] == "place" and free_choice(e.s):
        raise IllegalMove(
            "In a Town Hall free-choice round you place one resource of your choice "
            "(not one lying on your own Banks) on an empty square."
        )
    if move["type"] == "place" and move.get("resource") != e.s["named"]:
        if is_master(e.s, seat):
            raise IllegalMove("The Master Builder must place the resource they named.")
        raise IllegalMove(
            "Placing a different resource than the one named costs 1 coin "
            "(free only with a Factory holding the named resource)."
        )
    raise IllegalMove(
        "That placement is not allowed: place the named resource on an empty square "
        "(Petal Promenade coin squares first), or use one of your buildings' reactions."
    )


def _place(e: Edit, seat: int, move: Move) -> None:
    if not e.trusted:  # (a playout's moves come from the legal moves)
        _check_place(e, seat, move)
    resource = move["resource"]
    if resource != e.s["named"] and uses_coin(e.s, seat, resource):  # the named one never costs
        e.p(seat)["coins"] -= 1
        if tracks_changes(e.s["p"][seat]):
            flags = e.f(seat, "flags")
            flags["hollow"] = flags.get("hollow", 0) + 1
    _put_cube(e, seat, move["cell"], resource)
    _placed(e, seat)


def _store(e: Edit, seat: int, move: Move) -> None:
    _check_place(e, seat, move)
    key = str(move["cell"])
    store = e.f(seat, "store")
    store[key] = [*store.get(key, ()), e.s["named"]]
    _placed(e, seat)


def _swap(e: Edit, seat: int, move: Move) -> None:
    _check_place(e, seat, move)
    key = str(move["cell"])
    store = e.f(seat, "store")
    cubes = list(store[key])
    cubes.remove(move["take"])
    store[key] = [*cubes, e.s["named"]]
    _put_cube(e, seat, move["to"], move["take"])
    _placed(e, seat)


def _bondmaker(e: Edit, seat: int, move: Move) -> None:
    _check_place(e, seat, move)
    e.f(seat, "store")[str(move["cell"])] = [e.s["named"]]
    _placed(e, seat)


def _museum(e: Edit, seat: int, move: Move) -> None:
    _check_place(e, seat, move)
    e.f(seat, "flags")["museum_used"] = True
    gain(e, seat, 1)
    _placed(e, seat)


def _build(e: Edit, seat: int, move: Move) -> None:
    _require(
        set(move) == {"type", "card", "cells", "at"},
        "A build names exactly its card, the cells of its pattern and where it stands.",
    )
    found = check_build(e.s, seat, move)
    if isinstance(found, str):
        raise IllegalMove(found)
    real, ghosts = found
    cid = move["card"]
    grid = e.s["p"][seat]["grid"]
    removed = {str(c): grid[c] for c in real}
    forge = built(e.s["p"][seat], "forge")
    pl = e.p(seat)
    pl["coins"] -= data.card(cid).get("build_cost", 0)
    for c in real:
        set_cell(e, seat, c, None)
    if ghosts:
        flags = e.f(seat, "flags")
        flags["forge_used"] = True  # The Prism Forge: once per round
        flags["ghost"] = None
    elif forge:
        e.f(seat, "flags")["ghost"] = {"card": cid, "cells": removed, "at": move["at"]}
    pl["builds"] += 1
    place_building(e, seat, cid, move["at"])


def _done(e: Edit, seat: int, move: Move) -> None:
    _require(
        e.trusted or is_listed(move, [{"type": "done"}]), "Ending your build step is just {'type': 'done'}."
    )
    e.p(seat)["done"] = True


Handler = Callable[[Edit, int, Move], None]
# Phase -> move type -> handler (two lookups of strings: no (phase, type) tuple per move).
_HANDLERS: dict[str, dict[str, Handler]] = {
    "monument": {"keep_monument": _keep},
    "name": {"name": _name, "choose_card": _choose_card, "take_oddity": _take_oddity},
    "place": {"place": _place, "store": _store, "swap": _swap, "bondmaker": _bondmaker, "museum": _museum},
    "build": {"build": _build, "done": _done},
}
_NONE: dict[str, Handler] = {}
