"""The rolling-deploy game, for `make deploy-test` only (never in the product image): the test game
(tests/support/testgame.py, copied beside this file into the image) under the id "rollgame",
playing up to 100,000 rounds so no game ends during a run, in two versions of its rules chosen by
CIVITAS_ROLLGAME_VERSION (the image built from deploy/rolling/Dockerfile fixes it). Version 2
plays the same rules but stores the scores under "points", and carries version 1's stored states
over with `upgrade_state`: replacing the replicas with the version-2 image exercises the real
upgrade path (a stored snapshot in the old format, upgraded on load and recorded once)."""

from __future__ import annotations

import os
from typing import Any

from pydantic import BaseModel, Field

from app.engine.ruleset import CannotUpgrade, RulesetHooks, State

from .testgame import TestGame, TestGameOptions


class RollGameOptions(TestGameOptions):
    """The test game's options with a much higher round limit."""

    rounds: int = Field(100_000, ge=1, le=100_000, description="Rounds to play")


class RollGameV1(TestGame):
    """Version 1: the test game under another id, playing (nearly) forever."""

    id = "rollgame"
    name = "Rolling Deploy Game"
    version = "1"
    Options = RollGameOptions
    conformance_options: list[dict[str, Any]] = [{"rounds": 2}]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """The test game's set-up with this game's round limit."""
        opts = RollGameOptions.model_validate(options.model_dump())
        state = super().setup(players, TestGameOptions(double_points=opts.double_points), seed)
        state["rounds"] = opts.rounds
        return state


def _v1(state: State) -> State:
    """A version-2 state as version 1 keeps it (scores under "scores")."""
    state = dict(state)
    state["scores"] = state.pop("points")
    return state


def _v2(state: State) -> State:
    """A version-1 state as version 2 keeps it (scores under "points")."""
    state = dict(state)
    state["points"] = state.pop("scores")
    return state


class RollGameV2(RulesetHooks):
    """Version 2: version 1's rules (held, not inherited: its methods call each other on version-1
    states), the scores stored under "points"; upgrades version-1 states."""

    id, name, version = RollGameV1.id, RollGameV1.name, "2"
    min_players, max_players = RollGameV1.min_players, RollGameV1.max_players
    Options = RollGameOptions
    conformance_options = RollGameV1.conformance_options

    def __init__(self) -> None:
        self.inner = RollGameV1()

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Version 1's set-up, stored the version-2 way."""
        return _v2(self.inner.setup(players, options, seed))

    def to_act(self, state: State) -> list[int]:
        """As version 1."""
        return self.inner.to_act(_v1(state))

    def legal_moves(self, state: State, seat: int) -> list[Any]:
        """As version 1."""
        return self.inner.legal_moves(_v1(state), seat)

    def apply(self, state: State, seat: int, move: Any) -> State:
        """As version 1, stored the version-2 way."""
        return _v2(self.inner.apply(_v1(state), seat, move))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """As version 1 (the documents do not change)."""
        return self.inner.view(_v1(state), seat)

    def outcome(self, state: State) -> Any:
        """As version 1."""
        return self.inner.outcome(_v1(state))

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """As version 1, stored the version-2 way."""
        return _v2(self.inner.determinize(_v1(state), seat, rng))

    def public_move(self, state: State, seat: int, move: Any, viewer: int | None) -> Any:
        """As version 1."""
        return self.inner.public_move(_v1(state), seat, move, viewer)

    def log_text(self, state: State, seat: int, move: Any, viewer: int | None) -> str:
        """As version 1."""
        return self.inner.log_text(_v1(state), seat, move, viewer)

    def upgrade_state(self, state: State | None, from_version: str) -> State | None:
        """Version 1 -> 2: the scores move to "points"; a game with no snapshot replays from set-up."""
        if from_version != "1":
            raise CannotUpgrade(f"Rolling Deploy Game cannot carry games from version {from_version}.")
        return None if state is None else _v2(state)


RULESET = RollGameV2() if os.environ.get("CIVITAS_ROLLGAME_VERSION") == "2" else RollGameV1()
