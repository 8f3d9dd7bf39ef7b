"""The bench game: the test game (hidden hands, a sealed-bid simultaneous phase, a draw phase)
with rounds up to 100,000, so an open-loop run never ends a game mid-measurement.

It isolates the platform's cost (socket, checks, database, patches) from any real ruleset's
engine cost; `--ruleset suburbia` in the benches measures a product game instead.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.engine.ruleset import State

from tests.support.testgame import TestGame, TestGameOptions


class BenchGameOptions(TestGameOptions):
    """The test game's options with a much higher round limit."""

    rounds: int = Field(100_000, ge=1, le=100_000, description="Rounds to play")


class BenchGame(TestGame):
    """The test game under another id, playing (nearly) forever."""

    id = "benchgame"
    name = "Bench Game"
    Options = BenchGameOptions

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """The test game's set-up with the bench game's round limit."""
        opts = BenchGameOptions.model_validate(options.model_dump())
        state = super().setup(players, TestGameOptions(double_points=opts.double_points), seed)
        state["rounds"] = opts.rounds
        return state


BENCH_GAME = BenchGame()


def bench_move(view: dict) -> dict:
    """A legal move for the seat whose view this is (it must be asked to act)."""
    if view["phase"] == "bid":
        return {"type": "bid", "card": view["hand"][0] if view["hand"] else "K000"}
    return {"type": "draw"}
