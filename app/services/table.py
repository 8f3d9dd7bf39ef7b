"""The table around a game: who sits where (names, bots, presence, held seats), the clocks, and the
rematch of a finished game (same ruleset, options, pace and seats; bots accept at once)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Player, Rematch, Room, RoomPace, Seat, SeatClock
from app.db.session import rowcount
from app.services.clocks import aware, now, pace_json, pace_of
from app.services import history
from app.services.errors import Refusal, ServiceError, not_found
from app.services.ports import SeatPresence
from app.ratings import bot_rating
from app.services.rooms import BOT_NAME, bot_level, seat_label, seats_of


async def table_info(platform: SeatPresence, game_id: str, viewer_id: str | None = None) -> dict[str, Any]:
    """Seats with names, kinds, presence, held state and clocks; the pace; and the rematch, if
    any, for the game's own players only (a rematch room is private: nothing public names it)."""
    live = await platform.games.live(game_id, fresh=True)
    clocks = await platform.clocks.seats(game_id)
    async with platform.sessions() as session:
        rows = (
            await session.execute(
                select(Seat.seat, Seat.player_id, Seat.bot, Player.name)
                .outerjoin(Player, Player.id == Seat.player_id)
                .where(Seat.room_id == live.room_id)
                .order_by(Seat.seat)
            )
        ).all()
        pace = await pace_of(session, live.room_id)
        seated = viewer_id is not None and any(r.player_id == viewer_id for r in rows)
        rematch = await _rematch_json(session, live.room_id) if seated else None
    seats = []
    for r in rows:
        clock = clocks.get(r.seat)
        held = bool(clock is not None and clock.held and r.player_id and r.bot)
        entry: dict[str, Any] = {
            "seat": r.seat,
            "name": seat_label(r.seat, r.name, r.bot),
            "kind": "player"
            if r.player_id and not r.bot
            else "bot"
            if r.bot and not r.player_id
            else "held"
            if held
            else "player"
            if r.player_id
            else "empty",
            "connected": platform.clocks.connected(clock) if r.player_id else None,
            "held": held,
            "held_for": r.name if held else None,
            "clock": None,
            "bot_at": _bot_at(platform, clock) if r.player_id and not r.bot and not held else None,
            # The player's profile (/players/{id}); a bot seat's level carries a fixed rating.
            "player_id": r.player_id,
            "bot_rating": bot_rating(bot_level(r.bot)) if r.bot and not r.player_id else None,
            # The 'offer' timeout policy: its player lost it; anyone not seated may take it.
            "offered": bool(clock is not None and clock.offered and not r.player_id),
        }
        if pace is not None and clock is not None:
            deadline = aware(clock.deadline)
            entry["clock"] = {
                "deadline": deadline.isoformat() if deadline else None,
                "reserve_seconds": clock.reserve_left,
            }
        seats.append(entry)
    return {
        "game_id": game_id,
        "room_id": live.room_id,
        "now": now().isoformat(),
        "pace": pace_json(pace),
        "seats": seats,
        "rematch": rematch,
        "undo": live.undo_mode,
    }


def _bot_at(platform: SeatPresence, clock: SeatClock | None) -> str | None:
    """When a bot takes an absent player's seat if they stay away (their last sign of life plus
    the grace period; the sweep holds it only while the seat is asked to act), or None while the
    player is connected."""
    if clock is None or clock.last_seen is None or platform.clocks.connected(clock):
        return None
    due: datetime = aware(clock.last_seen) + platform.clocks.grace
    return due.isoformat()


async def _rematch_json(session: AsyncSession, room_id: str) -> dict[str, Any] | None:
    row = await session.get(Rematch, room_id)
    if row is None:
        return None
    new_room = await session.get(Room, row.new_room_id)
    if new_room is None:
        return None
    seats = await seats_of(session, new_room.id)
    return {
        "room_id": new_room.id,
        "game_id": new_room.game_id,
        "by": row.by_seat,
        "accepted": [s.seat for s in seats if s.player_id or s.bot],
    }


async def rematch(
    session: AsyncSession, room_id: str, player_id: str, games: Any
) -> tuple[Room, Game | None]:
    """Ask for or accept the rematch of a finished game; the game starts once every seat of the
    old table has accepted (bots at once). Returns (new room, new game or None)."""
    room = await session.get(Room, room_id, with_for_update=True)
    if room is None:
        raise not_found("room")
    seats = await seats_of(session, room.id)
    mine = next((s.seat for s in seats if s.player_id == player_id), None)
    if mine is None and room.private:  # the same 404 as for a room that does not exist
        raise not_found("room")
    game = await session.get(Game, room.game_id) if room.game_id else None
    if game is None or game.status != "finished":
        raise ServiceError(Refusal.REMATCH_EARLY, "A rematch can be asked for once the game is over.")
    if mine is None:
        raise ServiceError(Refusal.REMATCH_NOT_PLAYER, "Only the players of this game can ask for a rematch.")
    existing = await session.get(Rematch, room.id)
    if existing is None:
        new_room = Room(
            id=secrets.token_hex(8),
            ruleset=room.ruleset,
            options=room.options,
            private=True,
            invite_code=secrets.token_urlsafe(12),
            host_id=player_id,
            status="lobby",
            undo=room.undo,
        )
        session.add(new_room)
        await session.flush()
        session.add_all(
            [
                Seat(
                    room_id=new_room.id,
                    seat=s.seat,
                    player_id=player_id if s.seat == mine else None,
                    bot=(s.bot or BOT_NAME) if s.bot and not s.player_id else None,
                )
                for s in seats
            ]
        )
        pace = await pace_of(session, room.id)
        if pace is not None:
            session.add(
                RoomPace(
                    room_id=new_room.id,
                    pace=pace.pace,
                    move_seconds=pace.move_seconds,
                    reserve_seconds=pace.reserve_seconds,
                )
            )
        session.add(Rematch(room_id=room.id, new_room_id=new_room.id, by_seat=mine))
        await session.flush()
    else:
        found = await session.get(Room, existing.new_room_id, with_for_update=True)
        if found is None:
            raise not_found("room")
        new_room = found
        if new_room.game_id:
            return new_room, await session.get(Game, new_room.game_id)
        target = await session.get(Seat, (new_room.id, mine))
        if target is not None and target.player_id is None:
            # The seat is this player's: a bot the host put there meanwhile gives way (a seat
            # never has a player and a bot at once; both drove it before).
            target.player_id, target.bot = player_id, None
            await session.flush()
    new_seats = await seats_of(session, new_room.id)
    if all(s.player_id or s.bot for s in new_seats):
        new_game = await games.create(session, new_room, len(new_seats))
        new_room.status = "playing"
        new_room.game_id = new_game.id
        return new_room, new_game
    return new_room, None


async def take_offered_seat(session: AsyncSession, game_id: str, seat: int, player_id: str) -> str:
    """Sit a player in a seat offered after its player's time ran out (the 'offer' timeout
    policy): the bot that kept it going gives way. Returns the room id; 409 with a sentence when
    the seat is not offered or the player already sits at this table."""
    game = await session.get(Game, game_id)
    if game is None:
        raise not_found("game")
    if game.status != "active":
        raise ServiceError(Refusal.TABLE_OVER, "This game is over; its seats can no longer be taken.")
    seats = await seats_of(session, game.room_id)
    if any(s.player_id == player_id for s in seats):
        raise ServiceError(Refusal.SEAT_ALREADY_HELD, "You already sit at this table.")
    if not any(s.seat == seat for s in seats):
        raise ServiceError(Refusal.INVALID, f"This game has no seat {seat}.")
    claimed = await session.execute(
        update(SeatClock)
        .where(SeatClock.game_id == game_id, SeatClock.seat == seat, SeatClock.offered.is_(True))
        .values(offered=False, held=False)
        .execution_options(synchronize_session=False)
    )
    taken = (
        rowcount(claimed) == 1
        and rowcount(
            await session.execute(
                update(Seat)
                .where(Seat.room_id == game.room_id, Seat.seat == seat, Seat.player_id.is_(None))
                .values(player_id=player_id, bot=None)
            )
        )
        == 1
    )
    if not taken:
        raise ServiceError(
            Refusal.SEAT_NOT_OFFERED, f"Seat {seat} is not offered to other players (or was just taken)."
        )
    await history.record_change(session, game_id, game.room_id, seat, "took")
    return game.room_id
