"""Taking moves back: the line of states a seat's latest moves left behind, and the test that a
move revealed nothing to its mover (so taking it back hides nothing the mover has already seen).

A take-back is a row of the move log like any other (`{"undo": count}`, played by the seat that
takes its moves back): the log stays append-only, every row makes a new version, and the state
after the row is the state before the last `count` moves of that seat's current run. Replaying a
log therefore needs those earlier states; `Line` keeps them. Pure: no I/O, no framework.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.engine.ruleset import Move, Ruleset, State

UNDO_KEY = "undo"
# The longest run of one seat's moves a take-back can reach into (a whole turn of the longest
# game stays well inside it); the line keeps no more states than this.
MAX_TAKEBACK = 24
# How many re-deals of the hidden information a move is tried on before it counts as revealing
# nothing. A revealed card that could have been one of two shows the same on half the deals: six
# deals missed such a Fortuna flip once in a hundred; sixteen miss it once in 65,000. A move that
# reveals something stops at the first deal that differs, so only the safe ones cost all of them.
DEALS = 16


class LineTooShort(LookupError):
    """A take-back reaches further back than the states this line still holds."""


def undo_move(count: int) -> Move:
    """The log row's move for taking back `count` moves."""
    return {UNDO_KEY: count}


def undo_count(move: Any) -> int | None:
    """How many moves a log row takes back, or None for an ordinary move."""
    if isinstance(move, dict) and len(move) == 1 and UNDO_KEY in move:
        count = move[UNDO_KEY]
        if isinstance(count, int) and not isinstance(count, bool) and count > 0:
            return count
    return None


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the current run: the state before it, the move, and a caller's tag (the
    log's sequence number, say)."""

    before: State
    move: Move
    tag: Any = None


class Line:
    """The current run of one seat's moves (since another seat's last row), newest last.

    A row by another seat starts a new run: no take-back ever spans another seat's move, so
    the states before it are never needed again. A take-back pops the moves it takes back.
    """

    __slots__ = ("seat", "steps")

    def __init__(self, limit: int = MAX_TAKEBACK) -> None:
        self.seat: int | None = None
        self.steps: deque[Step] = deque(maxlen=limit)

    def __len__(self) -> int:
        return len(self.steps)

    def played(self, seat: int, before: State, move: Move, tag: Any = None) -> None:
        """Note that `seat` played `move` from the state `before`."""
        if seat != self.seat:
            self.steps.clear()
            self.seat = seat
        self.steps.append(Step(before, move, tag))

    def target(self, seat: int, count: int) -> State:
        """The state `seat` returns to by taking back its last `count` moves (nothing changes)."""
        if seat != self.seat or count > len(self.steps) or count < 1:
            raise LineTooShort(f"seat {seat} has no {count} moves of its own to take back here")
        return self.steps[-count].before

    def took_back(self, seat: int, count: int) -> State:
        """Pop the last `count` moves of `seat`; the state they started from."""
        state = self.target(seat, count)
        for _ in range(count):
            self.steps.pop()
        return state

    def copy(self) -> Line:
        """A copy that later rows of this line do not change (to read it on another thread)."""
        other = Line(self.steps.maxlen or MAX_TAKEBACK)
        other.seat = self.seat
        other.steps.extend(self.steps)
        return other

    def reset(self) -> None:
        """Forget the run (a state loaded from a snapshot has no known past)."""
        self.steps.clear()
        self.seat = None

    def tags(self, count: int) -> list[Any]:
        """The tags of the last `count` moves, oldest first."""
        return [step.tag for step in list(self.steps)[len(self.steps) - count :]]

    def step(self, ruleset: Ruleset, state: State, seat: int, move: Move, tag: Any = None) -> State:
        """The state after a log row: a move applied, or a take-back's earlier state."""
        count = undo_count(move)
        if count is not None:
            return self.took_back(seat, count)
        after = ruleset.apply(state, seat, move)
        self.played(seat, state, move, tag)
        return after


def run_start(movers: Sequence[int]) -> int:
    """The version before the current run of one seat's rows began (`movers[v]` made version
    v + 1), reaching back at most MAX_TAKEBACK rows: the state a take-back may need most."""
    start = len(movers)
    while start > 0 and len(movers) - start < MAX_TAKEBACK and movers[start - 1] == movers[-1]:
        start -= 1
    return start


def reveals(
    ruleset: Ruleset, seat: int, before: State, move: Move, after: State, rng: Any, deals: int = DEALS
) -> bool:
    """Whether `move` showed `seat` anything hidden: the move is replayed on `deals` re-deals of
    what the seat could not see (`determinize`), and any deal that leaves the seat a different
    view, or refuses the move, means the view after it depended on hidden information.

    "No randomness used" would not do: drawing the top tile of a shuffled stack uses none, yet
    shows the mover a tile it did not know."""
    seen = ruleset.view(after, seat)
    for _ in range(deals):
        other = ruleset.determinize(before, seat, rng)
        try:
            result = ruleset.apply(other, seat, move)
        except Exception:  # noqa: BLE001 - refused on some deal: its legality hung on hidden things
            return True
        if ruleset.view(result, seat) != seen:
            return True
    return False


def takeable(
    ruleset: Ruleset, line: Line, state: State, seat: int, limit: int, rng: Any, deals: int = DEALS
) -> int:
    """How many of its latest moves `seat` may take back now (at most `limit`): the moves of its
    current run, newest first, up to the first that revealed anything to it."""
    if line.seat != seat or ruleset.outcome(state) is not None:
        return 0
    count = 0
    after = state
    for step in reversed(line.steps):
        if count >= limit or reveals(ruleset, seat, step.before, step.move, after, rng, deals):
            break
        count += 1
        after = step.before
    return count
