"""Clocks and absent players: each seat's clock and presence live in the database (seat_clocks),
so they survive a restart and a move to another instance.

- A room's pace (room_paces) is 'none', 'realtime' (seconds per move plus a reserve used up by
  overtime) or 'turn' (hours per move, plus optional reserve hours).
- A seat's clock runs while the seat is asked to act. Under a realtime pace, when it runs out, or
  when its player's sockets have all been gone longer than the grace period while the seat is
  asked to act, the seat is *held*: a bot (the existing bot machinery) plays it while its player
  keeps the seat; the player takes it back when a socket of theirs joins the game again.
- Under a 'turn' pace nobody is expected to stay connected: the absence rule is off, and only an
  expired deadline acts, by the host's timeout policy: 'bot' (held, as above), 'skip' (held for
  the expired turn only, then the seat is its player's again) or 'offer' (the player loses the
  seat; a bot keeps it until another player takes it). A player on vacation (app/services/
  vacation.py) has their deadlines pushed back by the vacation.
Every instance sweeps now and then; a hold is claimed with a guarded UPDATE, so two instances
never both claim it.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import AbstractAsyncContextManager, nullcontext
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable, cast, overload

from sqlalchemy import Table, and_, bindparam, exists, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game, MoveRow, RoomPace, Seat, SeatClock
from app.db.session import rowcount
from app.services import history
from app.services.errors import Refusal, ServiceError
from app.services.rooms import BOT_NAME
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

PACES = ("none", "realtime", "turn")
TIMEOUT_POLICIES = ("bot", "skip", "offer")
WARN_BEFORE = timedelta(hours=12)  # the "12 hours left" notice


# Added to the wall clock by now(): tests move time forward (days of a turn-paced game) with it;
# nothing else sets it.
SKEW = timedelta(0)


def now() -> datetime:
    """Timezone-aware now: the clocks', the cleanup's and the outbox's notion of time (a function
    so tests can read it, and move it forward through SKEW)."""
    return datetime.now(timezone.utc) + SKEW


@overload
def aware(moment: datetime) -> datetime: ...
@overload
def aware(moment: datetime | None) -> datetime | None: ...
def aware(moment: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; every stored time is UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment


def parse_pace(body: dict[str, Any] | None) -> tuple[str, int, int]:
    """(pace, move_seconds, reserve_seconds) from a room-creation `pace` object, or a 422 saying
    which value is wrong."""
    if not body:
        return "none", 0, 0
    kind = body.get("kind", "none")
    if kind not in PACES:
        raise ServiceError(
            Refusal.INVALID, f"The pace must be one of {', '.join(PACES)}, not {str(kind)[:20]!r}."
        )

    def number(key: str, low: float, high: float) -> float:
        value = body.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise ServiceError(
                Refusal.INVALID, f"The pace's {key} must be a number from {low:g} to {high:g}."
            )
        return float(value)

    if kind == "realtime":
        return (
            kind,
            round(number("move_minutes", 0.05, 60) * 60),
            round(number("reserve_minutes", 0, 120) * 60),
        )
    if kind == "turn":
        reserve = number("reserve_hours", 0, 24 * 14) if "reserve_hours" in body else 0.0
        return kind, round(number("move_hours", 1, 24 * 14) * 3600), round(reserve * 3600)
    return "none", 0, 0


def parse_timeout(body: dict[str, Any] | None) -> str:
    """The timeout policy of a 'turn' pace ('bot' unless the host chose), or a 422."""
    policy = (body or {}).get("timeout", "bot")
    if policy not in TIMEOUT_POLICIES:
        raise ServiceError(
            Refusal.INVALID,
            f"The pace's timeout must be one of {', '.join(TIMEOUT_POLICIES)}, not {str(policy)[:20]!r}.",
        )
    if policy != "bot" and (body or {}).get("kind") != "turn":
        raise ServiceError(Refusal.INVALID, "A timeout policy can be chosen only for a 'turn' pace.")
    return str(policy)


async def set_pace(session: AsyncSession, room_id: str, body: dict[str, Any] | None) -> None:
    """Store the pace the host chose (inside the caller's transaction)."""
    pace, move_s, reserve_s = parse_pace(body)
    policy = parse_timeout(body)
    if pace != "none":
        session.add(
            RoomPace(
                room_id=room_id,
                pace=pace,
                move_seconds=move_s,
                reserve_seconds=reserve_s,
                timeout_policy=policy,
            )
        )


async def pace_of(session: AsyncSession, room_id: str) -> RoomPace | None:
    """The room's clock settings, or None for no clock."""
    return await session.get(RoomPace, room_id)


def pace_json(pace: RoomPace | None) -> dict[str, Any]:
    """The pace as the wire shows it."""
    if pace is None:
        return {"kind": "none"}
    doc: dict[str, Any] = {
        "kind": pace.pace,
        "move_seconds": pace.move_seconds,
        "reserve_seconds": pace.reserve_seconds,
    }
    if pace.pace == "turn":
        doc["timeout"] = pace.timeout_policy
    return doc


def _watched_seats(*columns: Any) -> Any:
    """Seats worth watching: a player's, not held, no bot, in a game in progress."""
    return (
        select(*columns)
        .join(Game, Game.id == SeatClock.game_id)
        .join(Seat, (Seat.room_id == Game.room_id) & (Seat.seat == SeatClock.seat))
        .where(
            Game.status == "active",
            SeatClock.held.is_(False),
            Seat.player_id.is_not(None),
            Seat.bot.is_(None),
        )
    )


# Only the seats already due (clock out, or gone past the grace period outside a 'turn' pace)
# are loaded: with thousands of seats a sweep reads a handful of rows, not every clock. Built
# once (the sweep runs every second).
_DUE_SEATS = (
    _watched_seats(
        SeatClock,
        Game.room_id,
        Game.to_act,
        Seat.player_id,
        Seat.bot,
        Game.version,
        RoomPace.pace,
        RoomPace.timeout_policy,
        RoomPace.reserve_seconds,
    )
    .outerjoin(RoomPace, RoomPace.room_id == Game.room_id)
    .where(
        or_(
            and_(SeatClock.deadline.is_not(None), SeatClock.deadline <= bindparam("now")),
            and_(
                SeatClock.last_seen.is_not(None),
                SeatClock.last_seen < bindparam("gone_before"),
                or_(RoomPace.pace.is_(None), RoomPace.pace != "turn"),
                or_(SeatClock.connected == 0, SeatClock.last_seen < bindparam("stale_before")),
            ),
        )
    )
)
_ANY_WATCHED = _watched_seats(SeatClock.seat).limit(1)
# Turn-paced clocks with less than WARN_BEFORE left whose notice has not gone out yet.
_TO_WARN = (
    _watched_seats(SeatClock, Game.room_id, Seat.player_id)
    .join(RoomPace, RoomPace.room_id == Game.room_id)
    .where(
        RoomPace.pace == "turn",
        SeatClock.deadline.is_not(None),
        SeatClock.deadline > bindparam("now"),
        SeatClock.deadline <= bindparam("warn_at"),
        or_(SeatClock.warned_for.is_(None), SeatClock.warned_for != SeatClock.deadline),
    )
)


async def _hold(
    session: AsyncSession,
    game_id: str,
    room_id: str,
    seat: int,
    version: int,
    left: float | None,
    reserve: float | None,
    reason: str,
    one_turn: bool = False,
) -> bool:
    """Hold a seat (a bot plays it for its player) unless it is held already; note what its clock
    had left and the game's version, and log why (`reason`: timeout, away, idle; `one_turn`:
    give it back once that turn is played). True if this call held it."""
    values: dict[str, Any] = {
        "held": True,
        "deadline": None,
        "started_at": None,
        "held_left": left,
        "held_version": version,
        "release_after_turn": one_turn,
    }
    if reserve is not None:
        values["reserve_left"] = reserve
    claimed = await session.execute(
        update(SeatClock)
        .where(SeatClock.game_id == game_id, SeatClock.seat == seat, SeatClock.held.is_(False))
        .values(**values)
    )
    if rowcount(claimed) != 1:
        return False
    await session.execute(
        update(Seat)
        .where(Seat.room_id == room_id, Seat.seat == seat, Seat.bot.is_(None))
        .values(bot=BOT_NAME)
    )
    await history.record_change(session, game_id, room_id, seat, "held", reason, version)
    return True


async def _offer(
    session: AsyncSession, clock: SeatClock, room_id: str, player_id: str, reserve: float
) -> bool:
    """The 'offer' policy: the player loses the seat (a bot keeps it going) and the seat is open
    to any other player; guarded on the deadline read, so two sweeps offer it once."""
    claimed = await session.execute(
        update(SeatClock)
        .where(
            SeatClock.game_id == clock.game_id,
            SeatClock.seat == clock.seat,
            SeatClock.offered.is_(False),
            SeatClock.held.is_(False),
            SeatClock.deadline == clock.deadline,
        )
        .values(
            offered=True,
            deadline=None,
            started_at=None,
            reserve_left=reserve,
            held_left=None,
            held_version=None,
            warned_for=None,
        )
        .execution_options(synchronize_session=False)
    )
    if rowcount(claimed) != 1:
        return False
    await session.execute(
        update(Seat)
        .where(Seat.room_id == room_id, Seat.seat == clock.seat, Seat.player_id == player_id)
        .values(player_id=None, bot=BOT_NAME)
    )
    await history.record_change(session, clock.game_id, room_id, clock.seat, "left", "timeout")
    return True


async def _moved_since(session: AsyncSession, game_id: str, seat: int, version: int | None) -> bool:
    """Whether the seat has made a move after `version` (None: not known, so yes)."""
    if version is None:
        return True
    return (
        await session.execute(
            select(MoveRow.seq)
            .where(MoveRow.game_id == game_id, MoveRow.seat == seat, MoveRow.seq > version)
            .limit(1)
        )
    ).first() is not None


class Clocks:
    """Runs clocks on each move, records presence, holds seats and gives them back."""

    def __init__(
        self,
        sessions: async_sessionmaker,
        grace_seconds: float,
        heartbeat_seconds: float,
        sweep_seconds: float,
        write_turn: Callable[[], AbstractAsyncContextManager[Any]] = nullcontext,
    ) -> None:
        self.sessions = sessions
        self.write_turn = write_turn  # SQLite's one writer's turn (GameService.write_turn)
        self.grace = timedelta(seconds=grace_seconds)
        self.stale = timedelta(seconds=3 * heartbeat_seconds)
        self.sweep_seconds = sweep_seconds
        self.on_hold: list[Callable[[str, str], Awaitable[None]]] = []  # (game_id, room_id)
        # A 'skip' hold ended by itself: the seat is its player's again (game_id, room_id).
        self.on_release: list[Callable[[str, str], Awaitable[None]]] = []
        # Called inside the sweep's transaction for a clock with WARN_BEFORE left:
        # (session, game_id, room_id, seat, player_id, deadline).
        self.on_warn: list[Callable[..., Awaitable[None]]] = []
        # When a player's vacation ends, or None (app/services/vacation.py fills this in).
        self.vacation_until: Callable[[AsyncSession, list[str]], Awaitable[dict[str, datetime]]] | None = None
        self._task: asyncio.Task[None] | None = None
        # A room's pace never changes once chosen: remember it so games without a clock cost no
        # query per move.
        self._paced: dict[str, bool] = {}
        # Sweeps query only while this instance knows of seats to watch (it wrote a clock or a
        # presence, or the last sweep found some), plus a full look now and then for the seats
        # another instance was watching before it stopped.
        self.armed = True
        self.full_sweep_every = 60.0

    async def _has_clock(self, game_id: str) -> bool:
        known = self._paced.get(game_id)
        if known is None:
            async with self.sessions() as session:
                game = await session.get(Game, game_id)
                known = game is not None and await pace_of(session, game.room_id) is not None
            if len(self._paced) > 20000:
                self._paced.clear()
            self._paced[game_id] = known
        return known

    async def _rows(self, session: AsyncSession, game: Game, reserve: float = 0.0) -> dict[int, SeatClock]:
        rows = {
            c.seat: c
            for c in (await session.execute(select(SeatClock).where(SeatClock.game_id == game.id))).scalars()
        }
        for seat in range(game.players):
            if seat not in rows:
                rows[seat] = SeatClock(
                    game_id=game.id, seat=seat, reserve_left=reserve, connected=0, held=False
                )
                session.add(rows[seat])
        return rows

    async def on_move(self, game_id: str, version: int = 0) -> None:
        """Start the clocks of seats now asked to act, stop the others (overtime eats the reserve)."""
        if not await self._has_clock(game_id):
            return
        for attempt in range(2):
            try:
                return await self._on_move(game_id)
            except IntegrityError:  # another instance created the rows first: read them again
                if attempt:
                    raise

    async def _on_move(self, game_id: str) -> None:
        async with self.write_turn(), self.sessions() as session:
            game = await session.get(Game, game_id)
            if game is None:
                return
            pace = await pace_of(session, game.room_id)
            if pace is None:
                return
            rows = await self._rows(session, game, float(pace.reserve_seconds))
            self.armed = True
            moment = now()
            acting = set(game.to_act or []) if game.status == "active" else set()
            away = await self._away(session, game.room_id, pace.pace)
            released = False
            for seat, clock in rows.items():
                # A 'skip' hold ends with the seat's first move since (one move per turn in
                # simultaneous phases; a longer turn is finished by its player).
                if (
                    clock.held
                    and clock.release_after_turn
                    and await _moved_since(session, game_id, seat, clock.held_version)
                ):
                    released = await self._release(session, game, clock) or released
                running = clock.deadline is not None
                if seat in acting and not running and not clock.held and not clock.offered:
                    # A player on vacation: their time starts when the vacation ends.
                    start = max(moment, away.get(seat, moment))
                    clock.started_at = start
                    clock.deadline = start + timedelta(seconds=pace.move_seconds + clock.reserve_left)
                elif seat not in acting and running:
                    started = aware(clock.started_at)  # set with every deadline
                    used = (moment - started).total_seconds() if started is not None else 0.0
                    clock.reserve_left = max(0.0, clock.reserve_left - max(0.0, used - pace.move_seconds))
                    clock.started_at = clock.deadline = None
            await session.commit()
        if released:
            for hook in self.on_release:
                await hook(game_id, game.room_id)

    async def _away(self, session: AsyncSession, room_id: str, pace: str) -> dict[int, datetime]:
        """Seats of a turn-paced room whose player is on vacation, with when it ends."""
        if pace != "turn" or self.vacation_until is None:
            return {}
        seats = {
            r.player_id: r.seat
            for r in (
                await session.execute(
                    select(Seat.seat, Seat.player_id).where(
                        Seat.room_id == room_id, Seat.player_id.is_not(None)
                    )
                )
            ).all()
        }
        until = await self.vacation_until(session, list(seats))
        return {seats[p]: moment for p, moment in until.items()}

    @staticmethod
    async def _release(session: AsyncSession, game: Game, clock: SeatClock) -> bool:
        """End a 'skip' hold (its turn was played): the seat is its player's again."""
        clock.held = clock.release_after_turn = False
        clock.held_left = clock.held_version = None
        seat_row = await session.get(Seat, (game.room_id, clock.seat))
        if seat_row is None or not seat_row.player_id:
            return False
        seat_row.bot = None
        await history.record_change(
            session, game.id, game.room_id, clock.seat, "returned", version=game.version
        )
        return True

    async def presence(
        self, game_id: str, seat: int | None, delta: int, reclaim: bool | None = None, strict: bool = False
    ) -> bool:
        """A seat's socket joined (+1), left (-1) or beat (0); True if the seat was held and its
        player has just taken it back. With `strict`, a reclaim that cannot happen yet (its time
        for this turn ran out) is a 409 saying so."""
        if seat is None:
            return False
        for attempt in range(2):
            try:
                return await self._presence(
                    game_id, seat, delta, delta > 0 if reclaim is None else reclaim, strict
                )
            except IntegrityError:  # another socket created the rows first: read them again
                if attempt:
                    raise
        return False

    async def _presence(
        self, game_id: str, seat: int, delta: int, reclaim: bool, strict: bool = False
    ) -> bool:
        moment = now()
        async with self.write_turn(), self.sessions() as session:
            game = await session.get(Game, game_id)
            if game is None:
                return False
            pace = await pace_of(session, game.room_id)
            rows = await self._rows(session, game, float(pace.reserve_seconds) if pace else 0.0)
            clock = rows.get(seat)
            if clock is None:
                return False
            self.armed = True
            clock.last_seen = moment
            clock.connected = max(0, clock.connected + delta)
            reclaimed = False
            acting = seat in (game.to_act or []) and game.status == "active"
            if reclaim and clock.held:
                same_turn = acting and not await _moved_since(session, game_id, seat, clock.held_version)
                if same_turn and clock.held_left is not None and clock.held_left <= 0:
                    # Its time for this turn ran out: the bot plays the turn, then the seat is
                    # the player's again (a reclaim that restarted the clock stalled the game).
                    if strict:
                        raise ServiceError(
                            Refusal.SEAT_BOT_PLAYING,
                            "Your time for this turn ran out, so a bot plays "
                            "it; take your seat back once it has.",
                        )
                    await session.commit()
                    return False
                clock.held = False
                seat_row = await session.get(Seat, (game.room_id, seat))
                if seat_row is not None and seat_row.player_id:
                    seat_row.bot = None
                    reclaimed = True
                    await history.record_change(
                        session, game_id, game.room_id, seat, "returned", version=game.version
                    )
                if pace is not None and acting:
                    # Resume where the clock stood on this turn; a new turn gets its full time.
                    left = (
                        clock.held_left
                        if same_turn and clock.held_left is not None
                        else pace.move_seconds + clock.reserve_left
                    )
                    clock.started_at = moment
                    clock.deadline = moment + timedelta(seconds=left)
                clock.held_left = clock.held_version = None
            await session.commit()
            return reclaimed

    async def seen(self, seats: list[tuple[str, int]], chunk: int = 200) -> None:
        """These (game, seat) pairs still have a socket open (the heartbeat): their last_seen is
        now. One short transaction per `chunk` seats instead of one per seat, so a heartbeat over
        thousands of seats holds SQLite's write lock only briefly at a time; a seat without a clock
        row yet takes the per-seat path, which creates the rows."""
        if not seats:
            return
        moment = now()
        table = cast(Table, SeatClock.__table__)
        bump = (
            update(table)
            .where(table.c.game_id == bindparam("g"), table.c.seat == bindparam("s"))
            .values(last_seen=bindparam("m"))
        )
        missing: list[tuple[str, int]] = []
        self.armed = True
        for i in range(0, len(seats), chunk):
            part = seats[i : i + chunk]
            async with self.write_turn(), self.sessions() as session:
                known = {
                    (row.game_id, row.seat)
                    for row in await session.execute(
                        select(table.c.game_id, table.c.seat).where(table.c.game_id.in_({g for g, _ in part}))
                    )
                }
                rows = [{"g": g, "s": s, "m": moment} for g, s in part if (g, s) in known]
                missing += [pair for pair in part if pair not in known]
                if rows:
                    await session.execute(bump, rows)
                    await session.commit()
        for game_id, seat in missing:
            await self.presence(game_id, seat, 0)

    async def reclaim(self, game_id: str, seat: int) -> bool:
        """The seat's player says they are back: take a held seat back (True if it was held)."""
        return await self.presence(game_id, seat, 0, reclaim=True, strict=True)

    async def sweep(self) -> list[tuple[str, str]]:
        """Hold every seat whose clock ran out or whose player has been gone past the grace
        period while asked to act; returns the (game, room) pairs that changed."""
        moment = now()
        changed: list[tuple[str, str]] = []
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    _DUE_SEATS,
                    {"now": moment, "gone_before": moment - self.grace, "stale_before": moment - self.stale},
                )
            ).all()
            self.armed = bool(rows) or (await session.execute(_ANY_WATCHED)).first() is not None
            for clock, room_id, to_act, player_id, bot, version, pace, policy, reserve in rows:
                if not player_id or bot or clock.seat not in (to_act or []):
                    continue
                out_of_time = clock.deadline is not None and aware(clock.deadline) <= moment
                if pace == "turn":  # only the deadline counts, by the host's policy
                    if out_of_time and await self._timeout(
                        session, clock, room_id, player_id, version, policy, reserve
                    ):
                        changed.append((clock.game_id, room_id))
                    continue
                seen = aware(clock.last_seen)
                gone = (
                    seen is not None
                    and (clock.connected == 0 or seen < moment - self.stale)
                    and seen < moment - self.grace
                )
                if not (out_of_time or gone):
                    continue
                deadline = aware(clock.deadline)
                left = (
                    0.0
                    if out_of_time
                    else (deadline - moment).total_seconds()
                    if deadline is not None
                    else None
                )
                if await _hold(
                    session,
                    clock.game_id,
                    room_id,
                    clock.seat,
                    version,
                    left,
                    0.0 if out_of_time else clock.reserve_left,
                    "timeout" if out_of_time else "away",
                ):
                    changed.append((clock.game_id, room_id))
            await self._warn(session, moment)
            await session.commit()
        for game_id, room_id in changed:
            for hook in self.on_hold:
                await hook(game_id, room_id)
        return changed

    @staticmethod
    async def _timeout(
        session: AsyncSession,
        clock: SeatClock,
        room_id: str,
        player_id: str,
        version: int,
        policy: str | None,
        reserve: int | None,
    ) -> bool:
        """A turn-paced seat's deadline passed: apply the room's timeout policy."""
        if policy == "offer":
            return await _offer(session, clock, room_id, player_id, float(reserve or 0))
        return await _hold(
            session,
            clock.game_id,
            room_id,
            clock.seat,
            version,
            0.0,
            0.0,
            "skip" if policy == "skip" else "timeout",
            one_turn=policy == "skip",
        )

    async def _warn(self, session: AsyncSession, moment: datetime) -> None:
        """Claim each turn clock now under WARN_BEFORE from its end (once per deadline, with a
        guarded UPDATE) and tell the listeners in this transaction; a clock whose whole time was
        shorter than that is marked without a notice (the your-turn notice said it all)."""
        if not self.on_warn:
            return
        rows = (await session.execute(_TO_WARN, {"now": moment, "warn_at": moment + WARN_BEFORE})).all()
        for clock, room_id, player_id in rows:
            claimed = await session.execute(
                update(SeatClock)
                .where(
                    SeatClock.game_id == clock.game_id,
                    SeatClock.seat == clock.seat,
                    SeatClock.deadline == clock.deadline,
                    or_(SeatClock.warned_for.is_(None), SeatClock.warned_for != clock.deadline),
                )
                .values(warned_for=clock.deadline)
                .execution_options(synchronize_session=False)
            )
            started = aware(clock.started_at)
            deadline = aware(clock.deadline)
            if rowcount(claimed) != 1 or started is None or deadline - started <= WARN_BEFORE:
                continue
            for hook in self.on_warn:
                await hook(session, clock.game_id, room_id, clock.seat, player_id, deadline)

    async def hold_idle(self, idle: timedelta, abandon: timedelta) -> list[tuple[str, str]]:
        """The timeout policy of games without a clock: a player's seat asked to act in a game
        with no move for `idle` (but less than `abandon`, when cleanup ends it) is held (a bot
        plays it), whether or not its player is connected, so one idle player cannot stall a
        game until it is abandoned. Returns the (game, room) pairs that changed."""
        moment = now()
        last_move = select(func.max(MoveRow.created_at)).where(MoveRow.game_id == Game.id).scalar_subquery()
        changed: list[tuple[str, str]] = []
        async with self.write_turn(), self.sessions() as session:
            games = list(
                (
                    await session.execute(
                        select(Game).where(
                            Game.status == "active",
                            func.coalesce(last_move, Game.created_at) < moment - idle,
                            func.coalesce(last_move, Game.created_at) >= moment - abandon,
                            ~exists().where(RoomPace.room_id == Game.room_id),
                        )
                    )
                ).scalars()
            )
            for game in games:
                seats = (
                    (
                        await session.execute(
                            select(Seat.seat).where(
                                Seat.room_id == game.room_id,
                                Seat.player_id.is_not(None),
                                Seat.bot.is_(None),
                                Seat.seat.in_(list(game.to_act or [])),
                            )
                        )
                    )
                    .scalars()
                    .all()
                )
                if not seats:
                    continue
                await self._rows(session, game)
                await session.flush()
                for seat in seats:
                    if await _hold(session, game.id, game.room_id, seat, game.version, 0.0, None, "idle"):
                        changed.append((game.id, game.room_id))
            await session.commit()
        for game_id, room_id in dict.fromkeys(changed):
            for hook in self.on_hold:
                await hook(game_id, room_id)
        return changed

    async def seats(self, game_id: str) -> dict[int, SeatClock]:
        """Every seat's clock row of a game (missing seats have none yet)."""
        async with self.sessions() as session:
            return {
                c.seat: c
                for c in (
                    await session.execute(select(SeatClock).where(SeatClock.game_id == game_id))
                ).scalars()
            }

    def connected(self, clock: SeatClock | None) -> bool:
        """Whether a socket of the seat's player is open somewhere (fresh enough to trust)."""
        if clock is None or clock.connected <= 0 or clock.last_seen is None:
            return False
        return aware(clock.last_seen) >= now() - self.stale

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        last_full = loop.time()
        while True:
            await asyncio.sleep(self.sweep_seconds)
            if not self.armed and loop.time() - last_full < self.full_sweep_every:
                continue
            if not self.armed:
                last_full = loop.time()
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - a database hiccup must not stop the sweeping
                log.exception("clock sweep failed")

    async def start(self) -> None:
        """Sweep once now (clocks that ran out while no instance was up), then now and then."""
        if self._task is None and self.sweep_seconds > 0:
            try:
                await self.sweep()
            except Exception:  # noqa: BLE001 - a database hiccup at start must not stop the server
                log.exception("first clock sweep failed")
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop sweeping, and wait until the sweeper has ended: a sweep cut short must close its
        session before the engine is disposed under it (a session left half-closed there can
        hang the loop's shutdown)."""
        task, self._task = self._task, None
        await stop_tasks([task])
