"""Playing a move: the legality check (naming the rule broken), a private copy changed in place,
and random playouts on the same path."""

from __future__ import annotations

import json
import marshal
from typing import Any

from app.engine.ruleset import IllegalMove
from app.rulesets.city_council.execute import execute_options
from app.rulesets.city_council.legal import to_act
from app.rulesets.city_council.phases import due_moves, run
from app.rulesets.city_council.reasons import reason
from app.rulesets.city_council.state import Move, State


def _canon(move: Any) -> str:
    if isinstance(move, dict) and move.get("type") == "execute" and "cells" in move:
        move = dict(move)
        try:
            move["cells"] = sorted([[int(r), int(c)] for r, c in move["cells"]])
        except (TypeError, ValueError):
            pass
    return json.dumps(move, sort_keys=True)


def _candidates(s: State, seat: int, move: Any) -> list[Move]:
    """The legal moves `move` can be among: `legal_moves`, or for an execution only the options
    of the plan it names (each execution option names its plan, so no other one can match)."""
    if s["phase"] == "execute" and isinstance(move, dict) and move.get("type") == "execute":
        o = move.get("plan")
        if type(o) is int and o in s["approved"] and o not in s["executed"] and o not in s["failed"]:
            return execute_options(s, o)
        return []
    return due_moves(s, seat)  # apply has checked that seat is to act


def copy_state(state: State) -> State:
    """A deep copy of a state (JSON values only: dicts, lists, strings, numbers, booleans, None);
    marshal copies them faster than pickle and keeps the same types and sharing."""
    plain: Any = state  # marshal's stubs know no TypedDict: a State is a dict of JSON values
    copied: State = marshal.loads(marshal.dumps(plain))
    return copied


def _listed(norm: Any, key: str, moves: list[Move]) -> bool:
    for m in moves:
        if m == norm and _canon(m) == key:
            return True
    return False


def apply(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move`; raises IllegalMove naming the rule otherwise."""
    if state["phase"] == "over":
        raise IllegalMove("The game is over: no more moves can be made.")
    if seat not in to_act(state):
        raise IllegalMove("It is not your turn: another council member must decide first.")
    key = _canon(move)
    norm = json.loads(key) if isinstance(move, dict) else None
    # == finds candidates fast; the JSON text then tells true from 1 (strict JSON types)
    if not _listed(norm, key, _candidates(state, seat, norm)):
        raise IllegalMove(reason(state, seat, move))
    s = copy_state(state)
    apply_in_place(s, seat, move)
    return s


def playout(state: State, rng: Any) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    (uniform draws from `legal_moves`): one private copy changed in place by `apply_in_place`,
    the rules `apply` runs after its legality check (every move drawn here is legal)."""
    s = copy_state(state)
    while seats := to_act(s):
        seat = rng.choice(seats)
        apply_in_place(s, seat, rng.choice(due_moves(s, seat)))  # = legal_moves: seat is to act
    return s


def apply_in_place(s: State, seat: int, move: Move) -> None:
    """Play a legal move on `s`, changing it in place."""
    run(s, seat, move)
