"""Players and rooms: identities, creating and joining rooms, bot seats, starting the game."""

from __future__ import annotations

import asyncio
import secrets
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator

import orjson
from pydantic import ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.ext.asyncio import AsyncSession

from app.engine import registry
from app.engine.choosers import DEFAULT_LEVEL, PLAYABLE
from app.db.models import Player, Room, RoomPace, Seat
from app.db.session import rowcount
from app.services import history
from app.services.history import seat_label  # noqa: F401  (the one seat label, used here and by callers)
from app.services.errors import Refusal, ServiceError, not_found
from app.services.tokens import Identity, hash_token  # noqa: F401  (tokens are stored hashed; tests import it here)

BOT_NAME = "Bot"  # a bot seat of no chosen level (the default level), as older rooms have it


def bot_level(bot: str | None) -> str | None:
    """The level a seat's bot plays at: the one it was seated with (its `bot` column holds the
    level's id), else the default level; None for a seat with no bot."""
    if not bot:
        return None
    return bot if bot in PLAYABLE else DEFAULT_LEVEL


async def seats_of(session: AsyncSession, room_id: str) -> list[Seat]:
    """A room's seats in order."""
    return list(
        (await session.execute(select(Seat).where(Seat.room_id == room_id).order_by(Seat.seat))).scalars()
    )


async def seat_names(session: AsyncSession, room_id: str) -> dict[int, str]:
    """Display names of a room's seats, by seat number."""
    rows = (
        await session.execute(
            select(Seat.seat, Seat.bot, Player.name)
            .outerjoin(Player, Player.id == Seat.player_id)
            .where(Seat.room_id == room_id)
        )
    ).all()
    return {r.seat: seat_label(r.seat, r.name, r.bot) for r in rows}


def is_member(room: Room, seats: list[Seat], player: Identity | None) -> bool:
    """The host or anyone seated."""
    if player is None:
        return False
    return room.host_id == player.id or any(s.player_id == player.id for s in seats)


async def room_document(
    session: AsyncSession, room: Room, viewer: Identity | None, seats: list[Seat] | None = None
) -> dict[str, Any]:
    """The wire contract's room object; the invite code only for members."""
    seats = seats if seats is not None else await seats_of(session, room.id)
    ids = {s.player_id for s in seats if s.player_id} | {room.host_id}
    names = {
        p.id: p.name for p in (await session.execute(select(Player).where(Player.id.in_(ids)))).scalars()
    }
    doc = _document(room, seats, names, await session.get(RoomPace, room.id))
    if is_member(room, seats, viewer):
        doc["invite_code"] = room.invite_code
    return doc


def _document(room: Room, seats: list[Seat], names: dict[str, str], pace: RoomPace | None) -> dict[str, Any]:
    """The room document every viewer may see (no invite code)."""
    from app.services.clocks import pace_json  # clocks imports this module

    return {
        "id": room.id,
        "ruleset": room.ruleset,
        "options": room.options,
        "private": room.private,
        "host": {"id": room.host_id, "name": names.get(room.host_id, "")},
        "status": room.status,
        "seats": [
            {
                "seat": s.seat,
                "player": {"id": s.player_id, "name": names.get(s.player_id, "")} if s.player_id else None,
                "bot": s.bot,
                "level": bot_level(s.bot) if not s.player_id else None,
            }
            for s in seats
        ],
        "game_id": room.game_id,
        "undo": room.undo or "off",
        "pace": pace_json(pace),  # shown in the lobby and the room before anyone sits down
    }


async def claim_host(session: AsyncSession, host: Identity) -> None:
    """Take the host's row for the rest of the transaction, so one player's cap checks and the
    writes they allow run one at a time on every instance: PostgreSQL locks the row; on SQLite
    this UPDATE is the transaction's first write, so it takes the database's write lock (and
    the count read after it sees every committed room)."""
    await session.execute(
        update(Player)
        .where(Player.id == host.id)
        .values(name=Player.name)
        .execution_options(synchronize_session=False)
    )


async def check_room_caps(
    session: AsyncSession, host: Identity, *, open_rooms: int | None = None, bot_games: int | None = None
) -> None:
    """429 when the player already hosts `open_rooms` rooms waiting in the lobby, or
    `bot_games` active games with bot seats (bots cost the server; rooms clutter the lobby).
    Atomic with the write it allows only after `claim_host` in the same transaction."""
    if open_rooms is not None:
        count = (
            await session.execute(
                select(func.count()).select_from(Room).where(Room.host_id == host.id, Room.status == "lobby")
            )
        ).scalar_one()
        if count >= open_rooms:
            raise ServiceError(
                Refusal.ROOM_TOO_MANY,
                f"You already host {count} open rooms; start or leave one before opening another.",
                retry_after=60,
            )
    if bot_games is not None:
        with_bots = select(Seat.room_id).where(Seat.bot.is_not(None))
        count = (
            await session.execute(
                select(func.count())
                .select_from(Room)
                .where(Room.host_id == host.id, Room.status == "playing", Room.id.in_(with_bots))
            )
        ).scalar_one()
        if count >= bot_games:
            raise ServiceError(
                Refusal.ROOM_TOO_MANY,
                f"You already host {count} games with bots in progress; finish or leave one first.",
                retry_after=60,
            )


async def create_room(
    session: AsyncSession,
    host: Identity,
    ruleset_id: str,
    seat_count: int,
    private: bool,
    options: dict[str, Any],
    undo: str = "off",
) -> Room:
    """A room in the lobby with the host in seat 0; options are checked against the ruleset;
    `undo` is whether players may take moves back (off, misclick, turn)."""
    ruleset = registry.get(ruleset_id)
    if ruleset is None:
        raise ServiceError(Refusal.INVALID, f"There is no ruleset called {ruleset_id!r}; see /api/rulesets.")
    if not ruleset.min_players <= seat_count <= ruleset.max_players:
        raise ServiceError(
            Refusal.INVALID,
            f"{ruleset.name} takes {ruleset.min_players} to {ruleset.max_players} players, not {seat_count}.",
        )
    try:
        # Strict, as JSON: true/false for a switch, a number for a number ("yes" and 1 were
        # coerced to true before).
        parsed = ruleset.Options.model_validate_json(orjson.dumps(options), strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "options"
        raise ServiceError(Refusal.INVALID, f"Option {where!r} is not valid: {first['msg']}.") from None
    room = Room(
        id=secrets.token_hex(8),
        ruleset=ruleset.id,
        options=parsed.model_dump(mode="json"),
        private=private,
        invite_code=secrets.token_urlsafe(12),
        host_id=host.id,
        status="lobby",
        undo=undo,
    )
    session.add(room)
    session.add_all(
        [Seat(room_id=room.id, seat=i, player_id=host.id if i == 0 else None) for i in range(seat_count)]
    )
    return room


async def visible_room(
    session: AsyncSession,
    room_id: str,
    viewer: Identity | None,
    invite_code: str | None = None,
    *,
    lock: bool = False,
) -> tuple[Room, list[Seat]]:
    """A room the viewer may see: public, or private to members and holders of the code (others
    get the same 404 as for a room that does not exist, so private rooms stay invisible)."""
    room = await session.get(Room, room_id, with_for_update=lock)
    if room is None:
        raise not_found("room")
    seats = await seats_of(session, room.id)
    if (
        room.private
        and not is_member(room, seats, viewer)
        and not (invite_code and secrets.compare_digest(invite_code, room.invite_code))
    ):
        raise not_found("room")
    return room, seats


class RoomLocks:
    """One asyncio lock per room being written on this instance, so room writes run one at a
    time (across instances, and on SQLite where FOR UPDATE does nothing, `claim` decides)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    @asynccontextmanager
    async def hold(self, room_id: str) -> AsyncIterator[None]:
        """Hold the room's lock for the block; a lock nobody waits for is forgotten."""
        lock, users = self._locks.setdefault(room_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                self._locks.pop(room_id, None)


async def claim(session: AsyncSession, room: Room) -> None:
    """Bump the room's version if nobody wrote it since it was read; else 409. On SQLite this
    UPDATE also takes the write lock, so the rest of the transaction cannot interleave."""
    result = await session.execute(
        update(Room)
        .where(Room.id == room.id, Room.version == room.version)
        .values(version=room.version + 1)
        .execution_options(synchronize_session=False)
    )
    if rowcount(result) != 1:
        raise ServiceError(
            Refusal.ROOM_CHANGED, "The room changed while this request was handled; try again."
        )
    set_committed_value(room, "version", room.version + 1)


async def room_by_code(session: AsyncSession, code: str) -> Room:
    """The room an invite code opens."""
    room = (await session.execute(select(Room).where(Room.invite_code == code))).scalar_one_or_none()
    if room is None:
        raise ServiceError(Refusal.ROOM_INVITE_UNKNOWN, "No room has that invite code.")
    return room


def _open_seat(seats: list[Seat], wanted: int | None) -> Seat:
    if wanted is not None:
        for s in seats:
            if s.seat == wanted:
                if s.player_id or s.bot:
                    raise ServiceError(Refusal.SEAT_TAKEN, f"Seat {wanted} is already taken.")
                return s
        raise ServiceError(Refusal.INVALID, f"This room has no seat {wanted}.")
    for s in seats:
        if not s.player_id and not s.bot:
            return s
    raise ServiceError(Refusal.ROOM_FULL, "Every seat in this room is taken.")


async def join_room(
    session: AsyncSession, room_id: str, player: Identity, invite_code: str | None, seat: int | None
) -> Room:
    """Sit a player down; a private room needs its invite code."""
    room, seats = await visible_room(session, room_id, player, invite_code, lock=True)
    if room.status != "lobby":
        raise ServiceError(Refusal.ROOM_STARTED, "This room's game has already started.")
    if any(s.player_id == player.id for s in seats):
        raise ServiceError(Refusal.SEAT_ALREADY_HELD, "You already have a seat in this room.")
    target = _open_seat(seats, seat)
    await claim(session, room)
    target.player_id = player.id
    return room


async def leave_room(session: AsyncSession, room_id: str, player: Identity) -> tuple[Room, bool]:
    """Leave: in the lobby the seat empties (the host role passes on, or the room closes when
    nobody is left); during a game a bot takes the seat over. Returns (room, room_deleted)."""
    room = await session.get(Room, room_id, with_for_update=True)
    if room is None:
        raise not_found("room")
    seats = await seats_of(session, room.id)
    mine = [s for s in seats if s.player_id == player.id]
    if not mine and room.host_id != player.id:
        if room.private:  # the same 404 as for a room that does not exist: no probing
            raise not_found("room")
        raise ServiceError(Refusal.ROOM_NOT_MEMBER, "You are not in this room.")
    if room.status == "finished":
        raise ServiceError(Refusal.ROOM_FINISHED, "This room's game is over; there is nothing to leave.")
    await claim(session, room)
    for s in mine:
        s.player_id = None
        if room.status == "playing":
            s.bot = BOT_NAME
            if room.game_id:
                await history.record_change(session, room.game_id, room.id, s.seat, "left")
    if room.host_id == player.id:
        others = [s.player_id for s in seats if s.player_id and s.player_id != player.id]
        if others:
            room.host_id = others[0]
        elif room.status == "lobby":
            await session.execute(delete(Seat).where(Seat.room_id == room.id))
            await session.delete(room)
            return room, True
    return room, False


async def host_room(session: AsyncSession, room_id: str, player: Identity) -> tuple[Room, list[Seat]]:
    """A room the player hosts, still in the lobby."""
    room, seats = await visible_room(session, room_id, player, lock=True)
    if room.host_id != player.id:
        raise ServiceError(Refusal.ROOM_NOT_HOST, "Only the room's host may do that.")
    if room.status != "lobby":
        raise ServiceError(Refusal.ROOM_STARTED, "This room's game has already started.")
    await claim(session, room)
    return room, seats


async def add_bot(
    session: AsyncSession, room_id: str, host: Identity, seat: int | None, level: str | None = None
) -> Room:
    """The host fills an empty seat with a bot, at `level` (one of PLAYABLE) if given."""
    room, seats = await host_room(session, room_id, host)
    _open_seat(seats, seat).bot = _bot_of_level(level)
    return room


async def set_bot_level(session: AsyncSession, room_id: str, host: Identity, seat: int, level: str) -> Room:
    """The host changes the level of the bot in a seat."""
    room, seats = await host_room(session, room_id, host)
    _bot_seat(seats, seat).bot = _bot_of_level(level)
    return room


def _bot_of_level(level: str | None) -> str:
    if level is None:
        return BOT_NAME
    if level not in PLAYABLE:
        raise ServiceError(
            Refusal.INVALID, f"There is no bot level {level!r}; choose one of {', '.join(PLAYABLE)}."
        )
    return level


def _bot_seat(seats: list[Seat], seat: int) -> Seat:
    target = next((s for s in seats if s.seat == seat), None)
    if target is None:
        raise ServiceError(Refusal.INVALID, f"This room has no seat {seat}.")
    if not target.bot:
        raise ServiceError(Refusal.SEAT_NOT_BOT, f"Seat {seat} is not held by a bot.")
    return target


async def remove_bot(session: AsyncSession, room_id: str, host: Identity, seat: int) -> Room:
    """The host empties a seat held by a bot."""
    room, seats = await host_room(session, room_id, host)
    _bot_seat(seats, seat).bot = None
    return room


@dataclass
class RoomEntry:
    """A room as every viewer sees it, plus what decides who may also see its invite code."""

    id: str
    created_at: Any
    listed: bool  # public and waiting in the lobby
    doc: dict[str, Any]  # the room document without the invite code
    invite_code: str
    members: frozenset[str]  # the host and seated players

    def document(self, viewer_id: str | None) -> dict[str, Any]:
        """The room document for a viewer: members also get the invite code."""
        if viewer_id is not None and viewer_id in self.members:
            return dict(self.doc, invite_code=self.invite_code)
        return self.doc


async def room_entries(session: AsyncSession, room_ids: list[str] | None = None) -> dict[str, RoomEntry]:
    """Rooms by id in three queries however many there are (None: every public lobby room)."""
    query = select(Room, RoomPace).outerjoin(RoomPace, RoomPace.room_id == Room.id)
    if room_ids is None:
        query = query.where(Room.private.is_(False), Room.status == "lobby")
    else:
        query = query.where(Room.id.in_(room_ids))
    found = (await session.execute(query)).all()
    if not found:
        return {}
    rooms = [room for room, _ in found]
    paces = {room.id: pace for room, pace in found}
    by_room: dict[str, list[Seat]] = {r.id: [] for r in rooms}
    for seat in (
        await session.execute(
            select(Seat).where(Seat.room_id.in_(list(by_room))).order_by(Seat.room_id, Seat.seat)
        )
    ).scalars():
        by_room[seat.room_id].append(seat)
    ids = {r.host_id for r in rooms} | {
        s.player_id for seats in by_room.values() for s in seats if s.player_id
    }
    names = {
        pid: name
        for pid, name in (
            await session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
        ).all()
    }
    entries = {}
    for room in rooms:
        seats = by_room[room.id]
        doc = _document(room, seats, names, paces.get(room.id))
        members = frozenset({room.host_id} | {s.player_id for s in seats if s.player_id})
        entries[room.id] = RoomEntry(
            room.id,
            room.created_at,
            not room.private and room.status == "lobby",
            doc,
            room.invite_code,
            members,
        )
    return entries


def _of(player_id: str) -> Any:
    """The condition: a room the player hosts or sits in."""
    return (Room.host_id == player_id) | Room.id.in_(select(Seat.room_id).where(Seat.player_id == player_id))


async def rooms_of(session: AsyncSession, player: Identity) -> list[Room]:
    """The rooms a player hosts or sits in, newest first (the lobby's "your tables")."""
    return list(
        (
            await session.execute(
                select(Room).where(_of(player.id)).order_by(Room.created_at.desc()).limit(50)
            )
        ).scalars()
    )


async def room_ids_of(
    session: AsyncSession, player_id: str, statuses: tuple[str, ...] = ("lobby", "playing")
) -> list[str]:
    """The ids of every room the player hosts or sits in that is in one of `statuses` (by
    default: not over)."""
    return list(
        (await session.execute(select(Room.id).where(_of(player_id), Room.status.in_(statuses)))).scalars()
    )
