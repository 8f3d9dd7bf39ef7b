"""Errors the services raise: a stable code and a sentence, never a transport's status; the API
(app/api/errors.py) and the sockets (app/realtime/ws.py) each map a code to their answer once."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

# What a request hears when the database cannot be reached (REST 503 and the socket's error frame).
DATABASE_DOWN = "The database is unavailable right now; nothing was stored, so retry the request."


class Refusal(StrEnum):
    """Why a service refused a request (the game checks' own codes are app.engine.errors.ErrorCode)."""

    INVALID = "request/invalid"  # a field's value is not one the service takes
    NOT_FOUND = "request/not_found"  # no such room, game, player, ruleset (or not visible to you)
    AUTH_REQUIRED = "auth/required"  # the request needs a player token
    TOKEN_EXPIRED = "token/expired"  # the token is unknown, expired or revoked
    TOKEN_REPLACED = "token/replaced"  # only the newest token of a session may ask for another
    PLAYER_DELETED = "player/deleted"
    PASSWORD_WRONG = "account/password_wrong"  # or no account with that address
    ACCOUNT_CODE_INVALID = "account/code_invalid"  # a link or reset code unknown, expired or used
    ACCOUNT_CLAIMED = "account/claimed"  # the name is claimed already, or the address taken
    ACCOUNT_NO_PASSWORD = "account/no_password"
    SESSION_UNKNOWN = "session/unknown"
    RATE_LIMITED = "rate/limited"  # too many of these lately; `retry_after` says when to retry
    ROOM_TOO_MANY = "room/too_many"  # the host already has as many open rooms or bot games as allowed
    ROOM_INVITE_UNKNOWN = "room/invite_unknown"
    ROOM_CHANGED = "room/changed"  # a concurrent write won: try again
    ROOM_STARTED = "room/started"
    ROOM_FINISHED = "room/finished"
    ROOM_FULL = "room/full"
    ROOM_NOT_MEMBER = "room/not_member"
    ROOM_NOT_HOST = "room/not_host"
    ROOM_SEATS_EMPTY = "room/seats_empty"
    SEAT_TAKEN = "seat/taken"
    SEAT_ALREADY_HELD = "seat/already_held"  # the player already sits in this room or game
    SEAT_NOT_BOT = "seat/not_bot"
    SEAT_NOT_OFFERED = "seat/not_offered"
    SEAT_NOT_YOURS = "seat/not_yours"  # the caller holds no (or no longer this) seat: may refresh seats
    SEAT_BOT_PLAYING = "seat/bot_playing"  # a bot holds the seat for its player
    TABLE_OVER = "table/over"  # the game is over: its seats can no longer be taken
    REMATCH_EARLY = "rematch/early"
    REMATCH_NOT_PLAYER = "rematch/not_player"
    REPLAY_HIDDEN = "replay/hidden"  # other seats open only once the game is over
    REPLAY_UNAVAILABLE = "replay/unavailable"  # a stored state or move it needs is missing
    VERSION_UNKNOWN = "version/unknown"
    RULESET_MISSING = "ruleset/missing"  # this server lacks the game's ruleset
    RULESET_OUTDATED = "ruleset/outdated"  # the game was played with rules this server cannot run
    MOVE_ID_REUSED = "move/id_reused"
    VACATION_ACTIVE = "vacation/active"
    VACATION_NONE = "vacation/none"
    VACATION_USED_UP = "vacation/used_up"


class ServiceError(Exception):
    """A refused request: its code, a human sentence, and optional extra body fields."""

    def __init__(self, code: Refusal, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def __repr__(self) -> str:
        return f"ServiceError({self.code.value!r}, {self.detail!r})"


def not_found(what: str) -> ServiceError:
    """`request/not_found` with a sentence naming what is missing."""
    return ServiceError(Refusal.NOT_FOUND, f"No {what} with that id exists (or it is not visible to you).")
