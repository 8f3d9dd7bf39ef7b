"""Request and response bodies of the REST wire contract (v1)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt


class Strict(BaseModel):
    """Requests refuse unknown fields."""

    model_config = ConfigDict(extra="forbid")


class PlayerCreate(Strict):
    name: str = Field(min_length=1, max_length=40)


class PlayerPublic(BaseModel):
    id: str
    name: str


class PlayerCreated(PlayerPublic):
    token: str
    expires_at: str  # ISO 8601; renew before then with POST /api/players/me/token


class RulesetInfo(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    options: dict[str, Any]


class RoomCreate(Strict):
    ruleset: str = Field(max_length=40)
    seats: StrictInt = Field(ge=1, le=6)
    private: StrictBool = False  # true or false only: "yes" and 1 are refused, not coerced
    options: dict[str, Any] = Field(default_factory=dict)
    # {"kind": "none"} | {"kind": "realtime", "move_minutes", "reserve_minutes"} | {"kind": "turn", "move_hours"}
    pace: dict[str, Any] | None = None


class SeatPublic(BaseModel):
    seat: int
    player: PlayerPublic | None
    bot: str | None


class RoomPublic(BaseModel):
    id: str
    ruleset: str
    options: dict[str, Any]
    private: bool
    invite_code: str | None = None
    host: PlayerPublic
    status: Literal["lobby", "playing", "finished"]
    seats: list[SeatPublic]
    game_id: str | None
    # The clock: {"kind": "none"} or the kind with move_seconds and reserve_seconds (as a table's).
    pace: dict[str, Any] = Field(default_factory=lambda: {"kind": "none"})


class RoomJoin(Strict):
    invite_code: str | None = Field(None, max_length=40)
    seat: StrictInt | None = Field(None, ge=0, le=5)


class InviteCode(Strict):
    invite_code: str = Field(min_length=1, max_length=40)


class BotAdd(Strict):
    seat: StrictInt | None = Field(None, ge=0, le=5)


class GameStarted(BaseModel):
    game_id: str


class GameDocument(BaseModel):
    id: str
    room_id: str
    ruleset: str
    version: int
    status: Literal["active", "finished"]
    to_act: list[int]
    seat: int | None
    seed_hash: str
    view: dict[str, Any]
    outcome: dict[str, Any] | None
    # Only on a game that ended without a result (abandoned after a long idle period):
    # {"reason": "abandoned", "detail": sentence}.
    ended: dict[str, str] | None = None


class LegalMoves(BaseModel):
    version: int
    seat: int | None
    moves: list[dict[str, Any]]


class MoveSubmit(Strict):
    version: StrictInt
    move: dict[str, Any]
    id: str | None = Field(None, max_length=80)


class MoveAccepted(BaseModel):
    version: int


class LogEntry(BaseModel):
    seq: int
    seat: int
    move: dict[str, Any]
    time: str
    text: str | None = None  # the move in words for this viewer, with players' names


class GameLog(BaseModel):
    game_id: str
    version: int
    ruleset: str
    seed_hash: str
    moves: list[LogEntry]
    seed: str | None = None
    players: int | None = None
    options: dict[str, Any] | None = None
    ruleset_version: str | None = None


class ErrorBody(BaseModel):
    """Every 4xx answer: a sentence, plus the current version on a stale move."""

    detail: str
    code: str | None = None
    version: int | None = None


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the refusals a router can give (all share ErrorBody)."""
    return {status: {"model": ErrorBody, "description": "Refused; `detail` says why."}
            for status in statuses}


class SeatClockPublic(BaseModel):
    deadline: str | None  # when the running clock runs out (null: not running)
    reserve_seconds: float


class TableSeat(BaseModel):
    seat: int
    name: str
    kind: str  # player | bot | held (a bot plays for its absent player) | empty
    connected: bool | None
    held: bool
    held_for: str | None
    clock: SeatClockPublic | None
    # When a bot takes this absent player's seat if they stay away while asked to act (ISO time;
    # null while they are connected, for bots and for held seats).
    bot_at: str | None = None


class RematchPublic(BaseModel):
    room_id: str
    game_id: str | None
    by: int
    accepted: list[int]


class TableInfo(BaseModel):
    """The table around a game: seats with presence and clocks, the pace, the rematch."""

    game_id: str
    room_id: str
    now: str
    pace: dict[str, Any]
    seats: list[TableSeat]
    rematch: RematchPublic | None


class RematchStarted(BaseModel):
    room_id: str
    game_id: str | None


class ChatLine(BaseModel):
    id: int
    name: str
    text: str
    spectator: bool  # spectators' lines are shown under their own heading
    time: str | None
