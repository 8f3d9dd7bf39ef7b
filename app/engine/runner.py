"""The shared checks for one move (game over, seat to act, stale version, legality) and replay.

Pure: callers pass in what they know of the game's history; nothing here touches I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from pydantic import BaseModel

from app.engine.errors import ErrorCode, GameError
from app.engine.ruleset import IllegalMove, Move, Ruleset, State
from app.engine.takeback import Line


@dataclass(frozen=True)
class History:
    """What the checks need about versions `sent..current`: who was asked to act, who moved.

    `to_act[i]` is the to_act list at version `sent + i` (so the last entry is the current one);
    `movers[i]` is the seat that made the move from version `sent + i` to `sent + i + 1`.
    """

    sent: int
    to_act: Sequence[Sequence[int]]
    movers: Sequence[int]


def check_version(seat: int, sent: int, current: int, history: History | None) -> None:
    """Raise STALE_VERSION unless `sent` is current, or the simultaneous-phase rule lets it through.

    A move built on an older version is accepted only if its seat was asked to act at that version,
    stayed asked at every version since, and made no move in between (so nothing it saw changed
    for it except other seats' simultaneous decisions); legality is checked afterwards as usual.
    """
    if sent == current:
        return
    stale = GameError(
        ErrorCode.STALE_VERSION,
        f"The game is at version {current}, not {sent}; reload the game and try again.",
        version=current,
    )
    if sent > current or sent < 0 or history is None or history.sent != sent:
        raise stale
    if not all(seat in asked for asked in history.to_act) or seat in history.movers:
        raise stale


def play(
    ruleset: Ruleset,
    state: State,
    seat: int,
    move: Any,
    *,
    sent_version: int,
    current_version: int,
    history: History | None = None,
) -> State:
    """Run the shared checks and the ruleset's `apply`; return the new state or raise GameError."""
    return play_canonical(
        ruleset,
        state,
        seat,
        move,
        sent_version=sent_version,
        current_version=current_version,
        history=history,
    )[0]


def play_canonical(
    ruleset: Ruleset,
    state: State,
    seat: int,
    move: Any,
    *,
    sent_version: int,
    current_version: int,
    history: History | None = None,
) -> tuple[State, Move]:
    """Like `play`, also returning the move as the ruleset lists it (the one to store): a move
    is accepted only if it equals one of the seat's legal moves, so nothing a client adds (extra
    keys, odd number types) is ever stored or shown to others."""
    if ruleset.outcome(state) is not None:
        raise GameError(ErrorCode.GAME_OVER, "The game is over; no more moves are accepted.")
    if seat not in ruleset.to_act(state):
        raise GameError(ErrorCode.NOT_YOUR_TURN, f"Seat {seat} is not asked to act now.")
    check_version(seat, sent_version, current_version, history)
    if not isinstance(move, dict):
        raise GameError(ErrorCode.MALFORMED_MOVE, "A move must be a JSON object.")
    legal = ruleset.legal_moves(state, seat)
    canonical = next((m for m in legal if m == move), None)
    if canonical is None:
        _refuse_extra_fields(legal, move)
    try:
        # An unlisted move still goes through `apply` first: its refusal names the rule broken.
        new_state = ruleset.apply(state, seat, move if canonical is None else canonical)
    except IllegalMove as exc:
        raise GameError(ErrorCode.ILLEGAL_MOVE, exc.reason) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A move whose fields have the wrong shape reaches the rules as a Python error; report it
        # as malformed rather than crashing, and never echo internals that could reveal state.
        raise GameError(
            ErrorCode.MALFORMED_MOVE,
            "The move is not one of this game's move shapes; ask for the legal moves to see them.",
        ) from None
    if canonical is None:  # the rules let it through, but it is not listed: not legal
        raise GameError(
            ErrorCode.ILLEGAL_MOVE,
            "That move is not one of your legal moves now; ask for the legal moves to see them.",
        )
    return new_state, canonical


def _refuse_extra_fields(legal: list[Move], move: dict[str, Any]) -> None:
    """Refuse a listed move sent with fields added to it, naming them."""
    for listed in legal:
        if set(listed) < set(move) and all(move[k] == listed[k] for k in listed):
            extra = sorted(str(k)[:40] for k in set(move) - set(listed))[:5]
            raise GameError(
                ErrorCode.MALFORMED_MOVE,
                f"The move has fields this game does not use: {extra}; send the "
                "move exactly as the legal moves list it.",
            )


def parse_options(ruleset: Ruleset, options: dict[str, Any] | None) -> BaseModel:
    """Validate raw options against the ruleset's Options model (raises pydantic.ValidationError)."""
    return ruleset.Options.model_validate(options or {})


def replay(
    ruleset: Ruleset,
    players: int,
    options: dict[str, Any] | BaseModel,
    seed: int,
    moves: Iterable[tuple[int, Move]],
    *,
    start: State | None = None,
) -> State:
    """Rebuild a state from setup (or from `start`, a snapshot) and a sequence of (seat, move);
    a take-back row (`{"undo": n}`, see engine.takeback) returns to the state before that seat's
    last n moves."""
    if start is None:
        opts = options if isinstance(options, BaseModel) else parse_options(ruleset, options)
        state = ruleset.setup(players, opts, seed)
    else:
        state = start
    line = Line()
    for seat, move in moves:
        state = line.step(ruleset, state, seat, move)
    return state
