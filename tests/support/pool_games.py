"""Test games whose bots misbehave, for the bot worker pool's tests: registered in the server
and in its bot workers (CIVITAS_EXTRA_RULESETS), and played only with workers (in the test's
own process their bots would hang or end it)."""

from __future__ import annotations

import os
import time
from typing import Any

from app.engine.ruleset import Move, State
from tests.support.testgame import TestGame


class SleepyGame(TestGame):
    """The test game, whose bot thinks for a minute: every decision misses its deadline."""

    __test__ = False
    id = "sleepygame"
    name = "Sleepy Test Game"

    def bot_move(self, state: State, seat: int, rng: Any) -> Move:
        """Sleep far past any deadline."""
        time.sleep(60)
        return self.legal_moves(state, seat)[0]


class CrashGame(TestGame):
    """The test game, whose bot kills its worker process at each decision."""

    __test__ = False
    id = "crashgame"
    name = "Crashing Test Game"

    def bot_move(self, state: State, seat: int, rng: Any) -> Move:
        """Exit the process at once, as a segfault in a compiled rule would."""
        os._exit(3)


class LastGame(TestGame):
    """The test game, whose bot always plays the last legal move (random play would rarely
    match it every time)."""

    __test__ = False
    id = "lastgame"
    name = "Last-move Test Game"

    def bot_move(self, state: State, seat: int, rng: Any) -> Move:
        """The last legal move."""
        return self.legal_moves(state, seat)[-1]


class IllegalGame(TestGame):
    """The test game, whose bot answers a move the rules refuse."""

    __test__ = False
    id = "illegalgame"
    name = "Illegal-move Test Game"

    def bot_move(self, state: State, seat: int, rng: Any) -> Move:
        """A bid of a card nobody holds."""
        return {"type": "bid", "card": "K999"}


class RaisingGame(TestGame):
    """The test game, whose bot raises."""

    __test__ = False
    id = "raisinggame"
    name = "Raising Test Game"

    def bot_move(self, state: State, seat: int, rng: Any) -> Move:
        """Fail."""
        raise ZeroDivisionError("the bot divided by zero")


SLEEPY_GAME, CRASH_GAME, LAST_GAME = SleepyGame(), CrashGame(), LastGame()
ILLEGAL_GAME, RAISING_GAME = IllegalGame(), RaisingGame()
SPEC = ",".join(
    f"tests.support.pool_games:{name}"
    for name in ("SLEEPY_GAME", "CRASH_GAME", "LAST_GAME", "ILLEGAL_GAME", "RAISING_GAME")
)
