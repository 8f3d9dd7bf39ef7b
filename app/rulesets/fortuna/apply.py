"""Playing a move: the legality check, a private copy changed in place, the decisions that have
a single answer taken at once, and the move's public record; random playouts on the same path."""

from __future__ import annotations

import json
from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna.legal import make_move
from app.rulesets.fortuna.phases import legal_moves, move_specs, run
from app.rulesets.fortuna.reasons import reason
from app.rulesets.fortuna.state import Move, Spec, State, clone_state

# Decisions with a single possible answer are taken at once (docs/UX.md: no busywork):
# skipping military power with no card to play, declining when nothing else is possible,
# the 2-player flip when only one card qualifies.
AUTOMATIC = frozenset({"skip", "pass", "flip"})
_SECRET = frozenset({"keep", "palace"})  # the moves whose public form hides the cards


def _key(move: Any) -> str:
    return json.dumps(move, sort_keys=True)


def _listed(move: Move, key: str, moves: list[Move]) -> bool:
    for m in moves:
        if m == move and _key(m) == key:
            return True
    return False


def apply_move(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move`; IllegalMove (naming the rule) if it is not legal."""
    # == finds candidates fast; the JSON text then tells true from 1 (strict JSON types)
    key = _key(move) if isinstance(move, dict) else None
    if key is None or not _listed(move, key, legal_moves(state, seat)):
        raise IllegalMove(reason(state, seat, move))
    s = clone_state(state)
    play_in_place(s, seat, move)
    return s


def playout(state: State, rng: Rng) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    (uniform draws from `legal_moves`): one private copy changed in place by `play_in_place`,
    the rules `apply_move` runs after its legality check (every move drawn here is legal)."""
    s = clone_state(state)
    below = rng.below
    specs: list[Spec] | None = None
    while s["phase"] != "over":
        seat = s["order"][s["turn"]]
        if specs is None:
            specs = move_specs(s, seat)
        below(1)  # the reference loop draws the seat from to_act: one seat, one draw
        specs = play_in_place(s, seat, make_move(specs[below(len(specs))]))
    return s


def play_in_place(s: State, seat: int, move: Move) -> list[Spec] | None:
    """Play a legal move on `s` (changed in place), then every step with a single automatic
    answer, and record the move and its events as `last`. Returns the legal moves of the seat
    due next as `Spec`s (worked out on the way), or None once the game is over."""
    if s["events"]:  # it is empty between moves: a new list only when a caller left events in it
        s["events"] = []
    run(s, seat, move)
    only = None
    while s["phase"] != "over":
        following = s["order"][s["turn"]]
        only = move_specs(s, following)
        if len(only) != 1 or only[0][0] not in AUTOMATIC:
            break
        auto = make_move(only[0])
        s["events"].append({"k": "auto", "seat": following, "move": auto})
        run(s, following, auto)
        only = None
    s["last"] = {"seat": seat, "move": public_form(move), "events": s["events"]}
    s["events"] = []
    return only


def public_form(move: Move) -> Move:
    """The move as everyone may see it: which privilege cards were kept stays secret."""
    t = move["type"]
    if t not in _SECRET:
        return move
    if t == "keep":
        return {"type": "keep", "count": len(move["cards"])}
    return {"type": "palace"}
