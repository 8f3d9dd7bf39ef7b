"""Vacation: a player pauses their turn clocks for a few days a year; every running deadline of
their turn-paced seats moves back by the vacation, and a clock that starts meanwhile starts when
it ends. Ending early gives the unused days back and pulls those deadlines forward again."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, RoomPace, Seat, SeatClock, Vacation
from app.services.clocks import aware, now
from app.services.errors import Refusal, ServiceError

DAY = timedelta(days=1)


async def _row(session: AsyncSession, player_id: str, moment: datetime) -> Vacation:
    """The player's vacation row (created, or its count reset in a new year)."""
    row = await session.get(Vacation, player_id)
    if row is None:
        row = Vacation(player_id=player_id, year=moment.year, days_used=0.0)
        session.add(row)
    elif row.year != moment.year and not _active(row, moment):
        row.year, row.days_used = moment.year, 0.0
    return row


def _until(row: Vacation | None, moment: datetime) -> datetime | None:
    """When the vacation running at `moment` ends; None if none is running."""
    until = aware(row.until) if row is not None else None
    return until if until is not None and until > moment else None


def _active(row: Vacation | None, moment: datetime) -> bool:
    return _until(row, moment) is not None


async def until(session: AsyncSession, player_ids: list[str]) -> dict[str, datetime]:
    """When each of these players' vacation ends, for those on vacation now."""
    if not player_ids:
        return {}
    moment = now()
    rows = (
        await session.execute(
            select(Vacation).where(Vacation.player_id.in_(player_ids), Vacation.until > moment)
        )
    ).scalars()
    return {r.player_id: aware(r.until) for r in rows if r.until is not None}


async def _shift_clocks(session: AsyncSession, player_id: str, by: timedelta) -> int:
    """Move every running turn-paced deadline of the player's seats by `by`."""
    clocks = (
        (
            await session.execute(
                select(SeatClock)
                .join(Game, Game.id == SeatClock.game_id)
                .join(Seat, (Seat.room_id == Game.room_id) & (Seat.seat == SeatClock.seat))
                .join(RoomPace, RoomPace.room_id == Game.room_id)
                .where(
                    Seat.player_id == player_id,
                    Seat.bot.is_(None),
                    Game.status == "active",
                    RoomPace.pace == "turn",
                    SeatClock.deadline.is_not(None),
                )
            )
        )
        .scalars()
        .all()
    )
    for clock in clocks:
        deadline = aware(clock.deadline)  # never None: the query asked for set deadlines
        if deadline is not None:
            clock.deadline = deadline + by
        clock.warned_for = None  # the "12 hours left" notice is due again at the new time
    return len(clocks)


def status(row: Vacation | None, allowance: float, moment: datetime) -> dict[str, Any]:
    """The vacation as the API shows it."""
    until = _until(row, moment)
    used = row.days_used if row is not None and (row.year == moment.year or until is not None) else 0.0
    return {
        "on_vacation": until is not None,
        "until": until.isoformat() if until is not None else None,
        "days_per_year": allowance,
        "days_left": round(max(0.0, allowance - used), 3),
    }


async def read(session: AsyncSession, player_id: str, allowance: float) -> dict[str, Any]:
    """The player's vacation state."""
    return status(await session.get(Vacation, player_id), allowance, now())


async def start(session: AsyncSession, player_id: str, days: Any, allowance: float) -> dict[str, Any]:
    """Begin a vacation of `days` days now (inside the caller's transaction), or a 4xx saying
    why not."""
    if isinstance(days, bool) or not isinstance(days, (int, float)) or not 0 < days <= allowance:
        raise ServiceError(Refusal.INVALID, f"A vacation lasts more than 0 and at most {allowance:g} days.")
    moment = now()
    row = await _row(session, player_id, moment)
    if _active(row, moment):
        raise ServiceError(
            Refusal.VACATION_ACTIVE, "You are on vacation already; end it before starting another."
        )
    left = allowance - row.days_used
    if days > left + 1e-9:
        raise ServiceError(
            Refusal.VACATION_USED_UP, f"You have {max(0.0, left):g} vacation days left this year."
        )
    row.started_at, row.until = moment, moment + days * DAY
    row.days_used += float(days)
    await _shift_clocks(session, player_id, days * DAY)
    return status(row, allowance, moment)


async def end(session: AsyncSession, player_id: str, allowance: float) -> dict[str, Any]:
    """End the vacation now: the unused days come back and the deadlines move forward by them."""
    moment = now()
    row = await session.get(Vacation, player_id)
    until = _until(row, moment)
    if row is None or until is None:
        raise ServiceError(Refusal.VACATION_NONE, "You are not on vacation.")
    unused = until - moment
    row.days_used = max(0.0, row.days_used - unused / DAY)
    row.until = moment
    await _shift_clocks(session, player_id, -unused)
    return status(row, allowance, moment)
