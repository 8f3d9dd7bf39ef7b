"""SQLAlchemy 2 models: players, their sessions and codes, rooms, seats, games, the append-only
move log and snapshots."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """Timezone-aware now, for timestamps."""
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    """Declarative base with a naming convention so migrations name constraints predictably."""

    from sqlalchemy import MetaData

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class Player(Base):
    """A player: a guest, or an account once an e-mail and password claim the name. The name
    here is the only one (rooms, games, chat and the log read it). Deleting an account keeps
    the row (games refer to it) with a neutral name and no e-mail, password or session."""

    __tablename__ = "players"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, unique=True)  # lower case
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)  # Argon2id
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PlayerSession(Base):
    """One signed-in device of a player; only the SHA-256 of its bearer token is stored. Tokens
    expire (None: issued before expiry existed, counted from created_at) and rotate; the previous
    token stays valid for a short grace so a rotation never logs out other tabs."""

    __tablename__ = "player_sessions"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    prev_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    prev_valid_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    label: Mapped[str] = mapped_column(String(80), default="", server_default="")  # the browser
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AccountCode(Base):
    """A single-use code for a player, stored hashed: 'verify' (an e-mail address, by link),
    'reset' (a password, by link) or 'device' (a short code that signs in another device)."""

    __tablename__ = "account_codes"
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)  # the address verified
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Room(Base):
    """A table: ruleset, options, host, privacy, invite code and status."""

    __tablename__ = "rooms"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_code: Mapped[str] = mapped_column(String(40), unique=True)
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(16), default="lobby")
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Bumped by every room write with `WHERE version = <read>`: a second writer (another
    # instance, or SQLite where FOR UPDATE does nothing) finds it moved on and is refused.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Whether players may take moves back: "off", "misclick" (the last move) or "turn" (every
    # move of their current turn), while nothing was revealed and nobody else has acted.
    undo: Mapped[str] = mapped_column(String(16), default="off", server_default="off")

    __table_args__ = (Index("ix_rooms_status_private", "status", "private"),)


class Seat(Base):
    """One seat of a room: a player, a bot, or empty."""

    __tablename__ = "seats"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)

    __table_args__ = (UniqueConstraint("room_id", "player_id", name="uq_seats_room_player"),)


class Game(Base):
    """A started game: the ruleset and version it is played with, options, seed, current version."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    ruleset: Mapped[str] = mapped_column(String(40))
    ruleset_version: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str] = mapped_column(String(40))
    seed_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="active")
    to_act: Mapped[list[int]] = mapped_column(JSON)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The lease of the one instance driving this game's bot seats (see app.services.bots).
    bot_owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot_lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # epoch ms


class MoveRow(Base):
    """One accepted move; append-only, keyed by (game, seq) so racing writers cannot both win."""

    __tablename__ = "moves"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    move: Mapped[dict[str, Any]] = mapped_column(JSON)
    # No unique index on (game, seat, client_move_id) since migration 0006: a repeated id is
    # answered from the game's copy, which the version guard proves holds every stored id.
    client_move_id: Mapped[str | None] = mapped_column(String(80), nullable=True)
    to_act: Mapped[list[int]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Who held the seat when the move was stored, read from `seats` in the move's own
    # transaction (0009_history): a player alone, a bot holding the seat of that player, or a
    # bot alone. Names are looked up when read, so a rename reaches every past line; both NULL:
    # stored before 0009, when nobody was recorded.
    actor_player: Mapped[str | None] = mapped_column(String(32), nullable=True)
    actor_bot: Mapped[str | None] = mapped_column(String(40), nullable=True)


class GameEvent(Base):
    """Who holds a seat from a version on: 'seated' at the start, then 'left', 'held' (a bot plays
    for an absent player: `reason` timeout, away or idle) and 'returned' (0009_history)."""

    __tablename__ = "game_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)  # the game's version when it happened
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # The seat's holder after the event (the same pair as a move's actor).
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerRating(Base):
    """A player's rating in one game and pool ('rated', 'bots'): the fold of app/ratings.py over
    the finished games so far (0010_ratings)."""

    __tablename__ = "ratings"
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(40), primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float(precision=53))
    sigma: Mapped[float] = mapped_column(Float(precision=53))
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_ratings_ruleset_pool", "ruleset", "pool"),)


class RatedGame(Base):
    """A finished game folded into the ratings: its pool, when it ended, who took part, and each
    player's rating before and after (0010_ratings)."""

    __tablename__ = "rated_games"
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    ruleset: Mapped[str] = mapped_column(String(40))
    pool: Mapped[str] = mapped_column(String(8))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    lineup: Mapped[list[str]] = mapped_column(JSON)  # the human accounts
    changes: Mapped[dict[str, Any]] = mapped_column(JSON)  # player -> {before, after, weight}

    __table_args__ = (Index("ix_rated_games_ruleset_pool_finished", "ruleset", "pool", "finished_at"),)


class Snapshot(Base):
    """The full state at a version, a cache that bounds replay time."""

    __tablename__ = "snapshots"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The rules version whose format `state` is in (None: written before migration 0007, in the
    # game's ruleset_version). A rolling deploy has two versions writing snapshots of one game.
    ruleset_version: Mapped[str | None] = mapped_column(String(20), nullable=True)


class RoomPace(Base):
    """The pace the host chose for a room: 'none', 'realtime' (per move + reserve) or 'turn'."""

    __tablename__ = "room_paces"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    pace: Mapped[str] = mapped_column(String(16), default="none")
    move_seconds: Mapped[int] = mapped_column(Integer, default=0)
    reserve_seconds: Mapped[int] = mapped_column(Integer, default=0)
    # What an expired deadline does under a 'turn' pace (app/services/clocks.py): 'bot' (a bot
    # plays the seat until its player is back), 'skip' (a bot plays that one turn only) or
    # 'offer' (the player loses the seat; a bot keeps it until someone else takes it).
    timeout_policy: Mapped[str] = mapped_column(String(8), default="bot", server_default="bot")


class SeatClock(Base):
    """One seat's clock and presence in a game: the running deadline, the reserve left, when a
    socket of its player was last seen, and whether a bot holds the seat for its absent player."""

    __tablename__ = "seat_clocks"
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    reserve_left: Mapped[float] = mapped_column(default=0.0)
    last_seen: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    connected: Mapped[int] = mapped_column(Integer, default=0)
    held: Mapped[bool] = mapped_column(Boolean, default=False)
    # When held: the seconds its clock had left (0: ran out; None: it was not running), and the
    # game's version then (a seat held for running out stays held until it has moved since).
    held_left: Mapped[float | None] = mapped_column(nullable=True)
    held_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # 'skip' policy: the hold ends by itself once the bot has played the expired turn.
    release_after_turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # 'offer' policy: the seat's player lost it; any player not seated may take it.
    offered: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # The deadline the "12 hours left" notice was sent for (once per running clock).
    warned_for: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ChatMessage(Base):
    """One chat line of a room (its lobby and its games), from a seated player or a spectator."""

    __tablename__ = "chat_messages"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    spectator: Mapped[bool] = mapped_column(Boolean, default=False)
    text: Mapped[str] = mapped_column(String(400))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rematch(Base):
    """A finished room's rematch: the new room (same ruleset, options and seats) and who asked."""

    __tablename__ = "rematches"
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True)
    new_room_id: Mapped[str] = mapped_column(String(32))
    by_seat: Mapped[int] = mapped_column(Integer)


class Vacation(Base):
    """A player's vacation: their turn clocks are paused until `until`; `days_used` counts the
    days taken in `year` (each player has a few a year)."""

    __tablename__ = "vacations"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    year: Mapped[int] = mapped_column(Integer)
    days_used: Mapped[float] = mapped_column(default=0.0)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class NotificationSettings(Base):
    """A player's notification choices: per event, the channels it goes to; a webhook URL; and
    whether to send even while a page of that game is open."""

    __tablename__ = "notification_settings"
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    events: Mapped[dict[str, Any]] = mapped_column(JSON)  # event -> [channel, ...]
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    always: Mapped[bool] = mapped_column(Boolean, default=False)


class PushSubscription(Base):
    """One browser's Web Push subscription (endpoint and its keys) for a player."""

    __tablename__ = "push_subscriptions"
    endpoint: Mapped[str] = mapped_column(String(800), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OutboxRow(Base):
    """One notification to send on one channel: written in the transaction that decides it, then
    claimed by one instance with a guarded UPDATE (a lease), sent, and marked sent."""

    __tablename__ = "notification_outbox"
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    )
    # Event and channel, e.g. "turn:<game>:<seat>:<version>:push": the unique key makes every
    # hand-over notify at most once per channel, however many times it is reported.
    key: Mapped[str] = mapped_column(String(200), unique=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    event: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(12), default="pending")  # sending, sent, failed
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    not_before: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    claimed_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)

    __table_args__ = (Index("ix_notification_outbox_status_not_before", "status", "not_before"),)
