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


class AccountClaim(Strict):
    email: str = Field(max_length=254)
    password: str = Field(min_length=8, max_length=200)


class SignIn(Strict):
    email: str = Field(max_length=254)
    password: str = Field(min_length=1, max_length=200)


class CodeSignIn(Strict):
    code: str = Field(min_length=1, max_length=20)  # as shown: 'ABCD-2345'


class LinkCode(Strict):
    code: str = Field(min_length=1, max_length=100)  # the code= of a link from an e-mail


class ResetRequest(Strict):
    email: str = Field(max_length=254)


class PasswordReset(LinkCode):
    password: str = Field(min_length=8, max_length=200)


class PasswordChange(Strict):
    current_password: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=8, max_length=200)


class Rename(Strict):
    name: str = Field(min_length=1, max_length=40)


class AccountDelete(Strict):
    password: str | None = Field(default=None, max_length=200)  # needed once the name is claimed


class AccountPublic(BaseModel):
    id: str
    name: str
    email: str | None  # verified, or waiting for its link (email_verified false)
    email_verified: bool
    claimed: bool  # a password is set


class SessionPublic(BaseModel):
    id: str
    label: str  # the browser, e.g. 'Firefox on Linux'
    created_at: str
    expires_at: str
    current: bool  # the session of the token that asked


class DeviceCode(BaseModel):
    code: str  # 'ABCD-2345': type it on the other device within minutes; it works once
    expires_at: str


class Accepted(BaseModel):
    detail: str


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
    # Taking moves back: "off", "misclick" (your last move) or "turn" (your whole turn so far).
    undo: Literal["off", "misclick", "turn"] = "off"


class SeatPublic(BaseModel):
    seat: int
    player: PlayerPublic | None
    bot: str | None
    level: str | None = None  # a bot seat's level: easy | normal | hard | expert


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
    undo: Literal["off", "misclick", "turn"] = "off"
    pace: dict[str, Any] = {"kind": "none"}  # kind, move_seconds, reserve_seconds, timeout


class RoomJoin(Strict):
    invite_code: str | None = Field(None, max_length=40)
    seat: StrictInt | None = Field(None, ge=0, le=5)


class InviteCode(Strict):
    invite_code: str = Field(min_length=1, max_length=40)


class BotAdd(Strict):
    seat: StrictInt | None = Field(None, ge=0, le=5)
    level: Literal["easy", "normal", "hard", "expert"] | None = None


class BotLevel(Strict):
    level: Literal["easy", "normal", "hard", "expert"]


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


class ReplayInfo(BaseModel):
    version: int
    last: int  # the game's current version
    seat: int | str | None  # the viewpoint: a seat, None for the spectator's, "all" after the end
    finished: bool
    seed: str | None = None  # once the game is over
    seed_ok: bool | None = None  # the seed's SHA-256 is the seed_hash published from the start


class ReplayDocument(GameDocument):
    """The game document at a past version, for a replay viewpoint."""

    replay: ReplayInfo
    views: dict[str, dict[str, Any]] | None = None  # every seat's view ("all", after the end)


class TurnMark(BaseModel):
    version: int  # the first move of a turn
    seat: int


class RoundMark(BaseModel):
    version: int  # the first version of a round
    round: int | None


class ScoringMark(BaseModel):
    version: int  # a scoring phase begins here, or (phase "end") the game ends
    phase: str


class ReplayIndex(BaseModel):
    """A game's replay index: where turns and rounds begin and the scoring moments."""

    game_id: str
    ruleset: str
    players: int
    version: int  # the last version the caller may replay
    finished: bool
    seed_hash: str
    seat: int | None  # the caller's seat
    viewpoints: list[int | str | None]  # what `?seat=` the caller may ask for
    turns: list[TurnMark]
    rounds: list[RoundMark]
    scoring: list[ScoringMark]
    movers: list[int]  # the seat that made each move, 1..version


class LegalMoves(BaseModel):
    version: int
    seat: int | None
    moves: list[dict[str, Any]]
    # How many of its latest moves the caller may take back now (POST /api/games/{id}/undo);
    # present only when the room allows taking moves back.
    undo: int | None = None


class UndoSubmit(Strict):
    version: StrictInt
    moves: StrictInt = Field(1, ge=1, le=100)
    id: str | None = Field(None, max_length=80)


class UndoAccepted(BaseModel):
    version: int
    undone: int


class MoveSubmit(Strict):
    version: StrictInt
    move: dict[str, Any]
    id: str | None = Field(None, max_length=80)


class MoveAccepted(BaseModel):
    version: int


class PlayerRef(BaseModel):
    id: str
    name: str


class LogActor(BaseModel):
    """Who made a move as it happened: 'player', 'held' (a bot playing `player`'s seat) or 'bot'."""

    kind: str
    player: PlayerRef | None = None
    bot: str | None = None


class LogEntry(BaseModel):
    seq: int
    seat: int
    move: dict[str, Any]
    time: str
    text: str | None = None  # the move in words for this viewer, with players' names
    # On a take-back row (move {"undo": n}): the sequence numbers of the moves it took back.
    takes_back: list[int] | None = None
    actor: LogActor | None = None  # absent on moves stored before anybody was recorded


class LogEvent(BaseModel):
    """A seat change between moves (after move `version`): left, held (`reason` timeout, away or
    idle) or returned, in words."""

    version: int
    seat: int
    kind: str
    reason: str | None = None
    player: PlayerRef | None = None
    text: str
    time: str | None = None


class GameLog(BaseModel):
    game_id: str
    version: int
    ruleset: str
    seed_hash: str
    moves: list[LogEntry]
    events: list[LogEvent] = []
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
    return {status: {"model": ErrorBody, "description": "Refused; `detail` says why."} for status in statuses}


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
    player_id: str | None = None  # whose profile the name links to (/players/{id})
    bot_rating: int | None = None  # a bot seat's fixed rating (its level's)
    offered: bool = False  # a turn pace's 'offer' policy: open to any player not seated


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
    undo: Literal["off", "misclick", "turn"] = "off"  # whether players may take moves back


class RematchStarted(BaseModel):
    room_id: str
    game_id: str | None


class ChatLine(BaseModel):
    id: int
    name: str
    text: str
    spectator: bool  # spectators' lines are shown under their own heading
    time: str | None


class RatingPublic(BaseModel):
    """A rating on the shown scale (1500 to start), provisional for its first 20 games."""

    ruleset: str
    pool: str  # "rated" (two or more people) or "bots" (one person against bots)
    rating: int
    games: int
    wins: int
    provisional: bool


class PlayerProfile(BaseModel):
    id: str
    name: str
    ratings: list[RatingPublic]
    games_played: int  # games over (finished or abandoned) the player sat down in
    games_in_progress: int
    wins: int
    win_share: float | None  # of the games with a result
    finished_share: float | None  # of the games over: not left, not lost to a bot for time
    provisional_games: int


class ProfileSeat(BaseModel):
    seat: int
    name: str
    player_id: str | None


class RatingChange(BaseModel):
    pool: str
    before: int
    after: int


class ProfileGame(BaseModel):
    game_id: str
    ruleset: str
    status: str
    started_at: str
    seat: int
    place: int | None
    players: list[ProfileSeat]
    rating: RatingChange | None
    replay: str


class LeaderboardRow(BaseModel):
    place: int
    player_id: str
    name: str
    rating: int
    games: int
    wins: int
    provisional: bool


class Leaderboard(BaseModel):
    ruleset: str
    pool: str
    players: list[LeaderboardRow]
    bots: dict[str, int]  # each bot level's fixed rating
