"""The conformance checks every registered ruleset must pass, as plain functions.

Used by tests/engine/test_conformance.py (over every ruleset, player count and variant) and by the
benchmarks. Each check raises AssertionError with a message that names the seed and the move.
"""

from __future__ import annotations

import json
from typing import Any

from app.engine.rng import Rng
from app.engine.runner import parse_options, replay
from app.engine.ruleset import Move, Ruleset, State

FORBIDDEN_VIEW_KEYS = {"rng", "seed"}


def _roundtrip(value: Any, what: str) -> None:
    text = json.dumps(value, sort_keys=True)
    assert json.loads(text) == value, f"{what} does not survive a JSON round trip"


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= _keys(v)
        return out
    if isinstance(value, list):
        out: set[str] = set()
        for v in value:
            out |= _keys(v)
        return out
    return set()


def check_views(ruleset: Ruleset, state: State, players: int, rng: Rng, label: str) -> None:
    """Views are JSON, name no generator or seed, and survive determinization for every seat."""
    for seat in [*range(players), None]:
        view = ruleset.view(state, seat)
        _roundtrip(view, f"{label}: view for seat {seat}")
        leaked = FORBIDDEN_VIEW_KEYS & _keys(view)
        assert not leaked, f"{label}: view for seat {seat} has keys {leaked}"
        det = ruleset.determinize(state, seat, rng)
        assert ruleset.view(det, seat) == view, (
            f"{label}: view(determinize(s, {seat}), {seat}) differs from view(s, {seat})"
        )


def random_playout(
    ruleset: Ruleset,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    max_moves: int = 5000,
    check_every_legal: int = 30,
    check_views_every: int = 1,
) -> tuple[State, list[tuple[int, Move]]]:
    """Play random legal moves to the end, checking the contract on the way; return (state, log)."""
    label = f"{ruleset.id} players={players} options={options} seed={seed}"
    opts = parse_options(ruleset, options)
    state = ruleset.setup(players, opts, seed)
    _roundtrip(state, f"{label}: initial state")
    chooser = Rng.from_seed(seed, "chooser")
    det_rng = Rng.from_seed(seed, "determinize")
    log: list[tuple[int, Move]] = []
    for step in range(max_moves + 1):
        to_act = ruleset.to_act(state)
        if step % check_views_every == 0:
            check_views(ruleset, state, players, det_rng, f"{label} step {step}")
        if not to_act:
            break
        assert ruleset.outcome(state) is None, f"{label}: outcome before the end at step {step}"
        assert len(set(to_act)) == len(to_act) and all(0 <= s < players for s in to_act), (
            f"{label}: bad to_act {to_act}"
        )
        seat = chooser.choice(to_act)
        moves = ruleset.legal_moves(state, seat)
        assert moves, f"{label}: seat {seat} must act at step {step} but has no legal move"
        _roundtrip(moves, f"{label}: legal moves")
        before = json.dumps(state, sort_keys=True)
        sample = moves if len(moves) <= check_every_legal else [
            chooser.choice(moves) for _ in range(check_every_legal)
        ]
        for move in sample:
            ruleset.apply(state, seat, move)  # must not raise: every legal move is accepted
        move = chooser.choice(moves)
        previous, state = state, ruleset.apply(state, seat, move)
        assert json.dumps(previous, sort_keys=True) == before, f"{label}: apply mutated its input"
        log.append((seat, move))
        _roundtrip(state, f"{label}: state after step {step}")
    else:
        raise AssertionError(f"{label}: no end after {max_moves} moves")
    outcome = ruleset.outcome(state)
    assert outcome is not None, f"{label}: to_act is empty but there is no outcome"
    assert len(outcome.scores) == players and len(outcome.ranks) == players, f"{label}: outcome size"
    others = [o["rank"] for o in outcome.extra.get("others", ())]  # e.g. Dale the Bot
    assert min([*outcome.ranks, *others]) == 1, f"{label}: nobody ranked first"
    _roundtrip(outcome.to_json(), f"{label}: outcome")
    rebuilt = replay(ruleset, players, opts, seed, log)
    assert rebuilt == state, f"{label}: replaying the log gives a different state"
    return state, log

