"""Taking moves back at a live table: how many of its latest moves a seat may take back now, and
the checks of a take-back request. GameService stores the take-back as a row of the move log
(`{"undo": n}`) under the same version guard as a move (GameService.take_back)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from functools import partial

from app.engine.errors import ErrorCode, GameError
from app.engine.rng import Rng
from app.engine.ruleset import Move, State
from app.engine.takeback import MAX_TAKEBACK, takeable, undo_move
from app.services.live import LiveGame

MODES = ("off", "misclick", "turn")
OFF = "This table does not let players take moves back (the host chose so when opening it)."
REVEALED = (
    "Your last move showed you something that was hidden (a card, a tile or a roll), "
    "so it cannot be taken back."
)


def allowance(live: LiveGame, seat: int | None) -> int:
    """How many of its latest moves `seat` may take back now: none when the table does not
    allow it, a bot holds the seat, or another seat acted since; in `misclick` mode only the
    last move, once; never a move that showed the seat something hidden."""
    known = _known(live, seat)
    if known is not None:
        return known
    assert seat is not None
    return _remember(live, live.version, seat, _counter(live, seat)())


async def allowance_off_loop(live: LiveGame, seat: int | None) -> int:
    """`allowance`, with the re-deals (milliseconds per move) on a worker thread so that the
    event loop serves other games meanwhile; the line and state are read before it starts."""
    known = _known(live, seat)
    if known is not None:
        return known
    assert seat is not None
    version = live.version
    count = await asyncio.to_thread(_counter(live, seat))
    return _remember(live, version, seat, count)


def _known(live: LiveGame, seat: int | None) -> int | None:
    """The answer when no re-deal is needed (nothing to take back, or remembered for this
    version), else None."""
    if seat is None or live.undo_mode not in ("misclick", "turn") or live.abandoned:
        return 0
    if live.seats.get(seat, {}).get("bot") or live.line.seat != seat:
        return 0
    if live.undo_mode == "misclick" and live.undone_at == live.version:
        return 0
    cached = live.takeable
    if cached is not None and cached[:2] == (live.version, seat):
        return cached[2]
    return None


def _counter(live: LiveGame, seat: int) -> Callable[[], int]:
    """The re-deal count for the game as it is now, safe to run on another thread: the line is
    copied (states themselves are never changed)."""
    limit = 1 if live.undo_mode == "misclick" else MAX_TAKEBACK
    # The re-deals need no reproducibility, and nobody may predict them.
    return partial(
        takeable, live.ruleset, live.line.copy(), live.state, seat, limit, Rng(secrets.randbits(63))
    )


def _remember(live: LiveGame, version: int, seat: int, count: int) -> int:
    """Keep the count for its version (unless the game moved on while it was computed)."""
    if live.version == version:
        live.takeable = (version, seat, count)
    return count


def check(
    live: LiveGame, seat: int, sent_version: int, count: int, client_id: str | None
) -> tuple[int | None, State | None, Move]:
    """(the version an earlier take-back with this id made, None, the row) for a retry, else
    (None, the state the take-back returns to, the row to store); GameError with a sentence
    when nothing may be taken back."""
    if live.undo_mode not in ("misclick", "turn"):
        raise GameError(ErrorCode.UNDO_OFF, OFF)
    move = undo_move(count)
    if client_id is not None:
        earlier = live.earlier(seat, client_id, move)
        if earlier is not None:
            return earlier, None, move
    if live.finished:
        raise GameError(ErrorCode.GAME_OVER, "The game is over; its moves cannot be taken back.")
    if sent_version != live.version:
        raise GameError(ErrorCode.STALE_VERSION, _stale(live, seat, sent_version), version=live.version)
    allowed = allowance(live, seat)
    if allowed == 0:
        raise GameError(ErrorCode.NOTHING_TO_UNDO, _nothing(live, seat))
    if count > allowed:
        why = (
            "this table lets you take back only your last move"
            if live.undo_mode == "misclick"
            else "the move before them showed you something hidden, or was not yours"
        )
        raise GameError(
            ErrorCode.UNDO_TOO_FAR, f"You can take back {allowed} of your moves now, not {count}: {why}."
        )
    return None, live.line.target(seat, count), move


def _stale(live: LiveGame, seat: int, sent: int) -> str:
    """Why a take-back made at an older version is refused: another seat acted, or the page is
    behind."""
    others = sorted({m for m in live.movers[sent:] if m != seat}) if 0 <= sent <= live.version else []
    if others:
        return f"Seat {others[0]} has acted since, so your moves can no longer be taken back."
    return f"The game is at version {live.version}, not {sent}; reload the game and try again."


def _nothing(live: LiveGame, seat: int) -> str:
    """Why `seat` has no move to take back now, in a sentence."""
    if live.abandoned:
        return "This game was abandoned; its moves cannot be taken back."
    holder = live.seats.get(seat, {})
    if holder.get("bot") and not holder.get("player_id"):
        return "Bots never take moves back."
    if holder.get("bot"):
        return f"A bot is playing seat {seat} for you; take the seat back first."
    if live.line.seat is not None and live.line.seat != seat:
        return f"Seat {live.line.seat} has acted since your last move, so it can no longer be taken back."
    if not len(live.line) or live.line.seat != seat:
        return "You have no move of this turn to take back."
    if live.undo_mode == "misclick" and live.undone_at == live.version:
        return "This table lets you take back only your last move, once."
    return REVEALED
