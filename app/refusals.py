"""The status every domain refusal carries on the wire, by its code: a REST answer's HTTP status
(app/api/errors.py) and a socket error frame's `status` (app/realtime/ws.py) read this one map, so a
refusal reads the same over both."""

from __future__ import annotations

from app.engine.errors import ErrorCode
from app.services.errors import Refusal

STATUS: dict[ErrorCode | Refusal, int] = {
    ErrorCode.GAME_OVER: 409,
    ErrorCode.NOT_YOUR_TURN: 403,
    ErrorCode.STALE_VERSION: 409,
    ErrorCode.ILLEGAL_MOVE: 422,
    ErrorCode.MALFORMED_MOVE: 422,
    ErrorCode.UNDO_OFF: 403,
    ErrorCode.NOTHING_TO_UNDO: 409,
    ErrorCode.UNDO_TOO_FAR: 409,
    Refusal.INVALID: 422,
    Refusal.NOT_FOUND: 404,
    Refusal.AUTH_REQUIRED: 401,
    Refusal.TOKEN_EXPIRED: 401,
    Refusal.TOKEN_REPLACED: 401,
    Refusal.PLAYER_DELETED: 401,
    Refusal.PASSWORD_WRONG: 401,
    Refusal.ACCOUNT_CODE_INVALID: 400,
    Refusal.ACCOUNT_CLAIMED: 409,
    Refusal.ACCOUNT_NO_PASSWORD: 409,
    Refusal.SESSION_UNKNOWN: 404,
    Refusal.RATE_LIMITED: 429,
    Refusal.ROOM_TOO_MANY: 429,
    Refusal.ROOM_INVITE_UNKNOWN: 404,
    Refusal.ROOM_CHANGED: 409,
    Refusal.ROOM_STARTED: 409,
    Refusal.ROOM_FINISHED: 409,
    Refusal.ROOM_FULL: 409,
    Refusal.ROOM_NOT_MEMBER: 403,
    Refusal.ROOM_NOT_HOST: 403,
    Refusal.ROOM_SEATS_EMPTY: 409,
    Refusal.SEAT_TAKEN: 409,
    Refusal.SEAT_ALREADY_HELD: 409,
    Refusal.SEAT_NOT_BOT: 409,
    Refusal.SEAT_NOT_OFFERED: 409,
    Refusal.SEAT_NOT_YOURS: 403,
    Refusal.SEAT_BOT_PLAYING: 409,
    Refusal.TABLE_OVER: 409,
    Refusal.REMATCH_EARLY: 409,
    Refusal.REMATCH_NOT_PLAYER: 403,
    Refusal.REPLAY_HIDDEN: 403,
    Refusal.REPLAY_UNAVAILABLE: 409,
    Refusal.VERSION_UNKNOWN: 404,
    Refusal.RULESET_MISSING: 409,
    Refusal.RULESET_OUTDATED: 409,
    Refusal.MOVE_ID_REUSED: 409,
    Refusal.VACATION_ACTIVE: 409,
    Refusal.VACATION_NONE: 409,
    Refusal.VACATION_USED_UP: 409,
}
