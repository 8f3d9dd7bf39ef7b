"""Cleanup: rooms never started expire, and games idle for a long time end as abandoned
(kept readable: document, log and seed stay; only new moves are refused). A turn-paced game is
abandoned only when no seat's clock is still running and it has been idle for
max(CIVITAS_ABANDON_AFTER_HOURS, 2 x move time + reserve)."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, exists, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import Game, MoveRow, OutboxRow, Room, RoomPace, Seat, SeatClock
from app.db.session import rowcount
from app.services import clocks
from app.services.accounts import Accounts
from app.services.ports import TableEvents, WriteTurn
from app.services.rooms import RoomLocks
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

OUTBOX_KEEP = timedelta(days=7)  # sent notifications kept this long (a key repeated later is new)


class Cleanup:
    """Sweeps now and then (every instance may; each step is idempotent)."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker[AsyncSession],
        write_turn: WriteTurn,
        seat_clocks: clocks.Clocks,
        accounts: Accounts,
        room_locks: RoomLocks,
        events: TableEvents,
    ) -> None:
        self.sessions = sessions
        self.write_turn = write_turn
        self.clocks = seat_clocks
        self.accounts = accounts
        self.room_locks = room_locks
        self.events = events
        self.room_ttl = timedelta(hours=settings.room_ttl_hours)
        self.idle = timedelta(hours=settings.abandon_after_hours)
        self.idle_seat = timedelta(hours=settings.idle_seat_hours)
        self.every = settings.cleanup_seconds
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Begin sweeping in the background."""
        if self.every > 0:
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop sweeping (and wait until the sweeper has ended)."""
        await stop_tasks([self._task])

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except Exception:  # a failed sweep waits for the next one
                log.warning("cleanup sweep failed", exc_info=True)

    async def _purge_outbox(self, now: datetime) -> None:
        """Notifications sent or given up more than a week ago are of no more use."""
        async with self.write_turn(), self.sessions() as session:
            await session.execute(
                delete(OutboxRow).where(
                    OutboxRow.status.in_(("sent", "failed")), OutboxRow.created_at < now - OUTBOX_KEEP
                )
            )
            await session.commit()

    async def _idle_turn_games(self, session: Any, now: Any, since: Any) -> list[Any]:
        """Turn-paced games idle past max(abandon_after, 2 x move + reserve) with no clock
        still running (a deadline in the future, a vacation's included, keeps a game alive)."""
        running = exists().where(SeatClock.game_id == Game.id, SeatClock.deadline > now)
        rows = (
            await session.execute(
                select(
                    Game.id,
                    Game.room_id,
                    Game.version,
                    since.label("since"),
                    RoomPace.move_seconds,
                    RoomPace.reserve_seconds,
                )
                .join(RoomPace, RoomPace.room_id == Game.room_id)
                .where(Game.status == "active", RoomPace.pace == "turn", since < now - self.idle, ~running)
            )
        ).all()
        return [
            (r.id, r.room_id, r.version)
            for r in rows
            if now - clocks.aware(r.since)
            >= max(self.idle, timedelta(seconds=2 * r.move_seconds + r.reserve_seconds))
        ]

    async def sweep(self) -> dict[str, list[str]]:
        """Hold the seats of players idle on their turn in games without a clock (a bot plays
        them), expire old rooms that never started and end long-idle games (returns their ids);
        delete expired sessions and account codes."""
        now = clocks.now()
        held = await self.clocks.hold_idle(self.idle_seat, self.idle)
        await self.accounts.purge()  # expired sessions and codes
        await self._purge_outbox(now)
        async with self.sessions() as session:
            stale_rooms = list(
                (
                    await session.execute(
                        select(Room.id).where(Room.status == "lobby", Room.created_at < now - self.room_ttl)
                    )
                ).scalars()
            )
            last_move = (
                select(func.max(MoveRow.created_at)).where(MoveRow.game_id == Game.id).scalar_subquery()
            )
            since = func.coalesce(last_move, Game.created_at)
            turn_paced = exists().where(RoomPace.room_id == Game.room_id, RoomPace.pace == "turn")
            idle = list(
                (
                    await session.execute(
                        select(Game.id, Game.room_id, Game.version).where(
                            Game.status == "active", since < now - self.idle, ~turn_paced
                        )
                    )
                ).all()
            )
            idle += await self._idle_turn_games(session, now, since)
        expired: list[str] = []
        for room_id in stale_rooms:
            async with (
                self.room_locks.hold(room_id),
                self.write_turn(),
                self.sessions() as session,
            ):
                room = await session.get(Room, room_id)
                if room is None or room.status != "lobby":
                    continue
                await session.execute(delete(Seat).where(Seat.room_id == room_id))
                await session.delete(room)
                await session.commit()
            expired.append(room_id)
            await self.events.announce_room(room_id)
        abandoned: list[str] = []
        just_held = {game_id for game_id, _ in held}  # their bots play now: not idle any more
        for game_id, room_id, version in idle:
            if game_id in just_held:
                continue
            async with self.write_turn(), self.sessions() as session:
                # Only if no move came in since the scan (the version guard, as for moves).
                done = await session.execute(
                    update(Game)
                    .where(Game.id == game_id, Game.status == "active", Game.version == version)
                    .values(status="abandoned")
                )
                if rowcount(done) != 1:
                    continue
                await session.execute(update(Room).where(Room.id == room_id).values(status="finished"))
                await session.commit()
            abandoned.append(game_id)
            await self.events.game_ended(game_id)
            await self.events.announce_room(room_id)
        if expired or abandoned:
            log.info("cleanup: %d rooms expired, %d games abandoned", len(expired), len(abandoned))
        return {"rooms": expired, "games": abandoned, "held": list(dict.fromkeys(g for g, _ in held))}
