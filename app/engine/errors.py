"""Namespaced error codes for the checks every game shares, and the exception that carries them."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable machine-readable codes (the wire's `code`); app/api/errors.py maps each to an HTTP
    status and app/realtime/ws.py to a socket error frame."""

    GAME_OVER = "game/over"
    NOT_YOUR_TURN = "move/not_your_turn"
    STALE_VERSION = "move/stale_version"
    ILLEGAL_MOVE = "move/illegal"
    MALFORMED_MOVE = "move/malformed"
    UNDO_OFF = "undo/off"
    NOTHING_TO_UNDO = "undo/nothing"
    UNDO_TOO_FAR = "undo/too_far"


class GameError(Exception):
    """A move refused by a shared check or by the rules; `detail` is a sentence for the sender."""

    def __init__(self, code: ErrorCode, detail: str, *, version: int | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.version = version

    def __repr__(self) -> str:
        return f"GameError({self.code.value!r}, {self.detail!r})"
