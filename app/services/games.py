"""Games: the one place that joins the engine, the database and the broker for a move.

Each instance keeps a `LiveGame` per game it has touched (state at the latest version it knows,
plus recent states for building patches). The database is the truth: every move runs in one
transaction guarded by `UPDATE games SET version = v + 1 WHERE version = v` and the (game, seq)
primary key, so two instances racing on one game cannot both win; the loser catches up and
re-checks the move against the stale-version rule.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from sqlalchemy import bindparam, create_engine, event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.pool import StaticPool

from app.config import sync_url
from app.engine import registry
from app.engine.errors import ErrorCode, GameError
from app.engine.rng import seed_hash
from app.engine.ruleset import Move, Ruleset, State
from app.engine.runner import History, parse_options, play
from app.db.models import Game, MoveRow, Room, Seat, Snapshot, utcnow
from app.db.session import sqlite_pragmas
from app.services.errors import ServiceError, not_found

RECENT_STATES = 8
_GAMES, _MOVES, _SNAPSHOTS = Game.__table__, MoveRow.__table__, Snapshot.__table__
# The optimistic-concurrency guard: only the writer that saw version `old` may make it `new`.
_FINISH_ROOM = update(Room.__table__).where(Room.__table__.c.id == bindparam("room")).values(
    status="finished")
_BUMP_VERSION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("old"))
    .values(version=bindparam("new"), to_act=bindparam("now_to_act"),
            status=bindparam("new_status"), outcome=bindparam("new_outcome"))
)


@dataclass
class LiveGame:
    """An instance's in-memory copy of one game, always equal to some committed version."""

    id: str
    room_id: str
    ruleset: Ruleset
    players: int
    options: dict[str, Any]
    seed: int
    seed_hash: str
    version: int
    state: State
    to_act_at: list[list[int]]  # to_act at every version 0..version
    movers: list[int]  # movers[v] made the move from version v to v + 1
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {player_id, bot}
    client_ids: dict[tuple[int, str], tuple[Move, int]] = field(default_factory=dict)
    states: OrderedDict[int, State] = field(default_factory=OrderedDict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    log: "PublicLog" = field(default_factory=lambda: PublicLog())

    @property
    def finished(self) -> bool:
        """True once the rules say the game is over."""
        return self.ruleset.outcome(self.state) is not None

    def advance(self, seat: int, move: Move, state: State, client_id: str | None = None) -> None:
        """Record that `seat` played `move`, reaching `state` at the next version."""
        self.version += 1
        if client_id is not None:
            self.client_ids[(seat, client_id)] = (move, self.version)
        self.state = state
        self.movers.append(seat)
        self.to_act_at.append(self.ruleset.to_act(state))
        self.states[self.version] = state
        while len(self.states) > RECENT_STATES:
            self.states.popitem(last=False)

    def earlier(self, seat: int, client_id: str, move: Any) -> int | None:
        """The version a repeated client move id produced (idempotent retries); 409 on reuse."""
        known = self.client_ids.get((seat, client_id))
        if known is None:
            return None
        if known[0] != move:
            raise ServiceError(409, "That move id was already used for a different move.")
        return known[1]

    def state_at(self, version: int) -> State | None:
        """The state at a recent version, if this instance still holds it."""
        return self.states.get(version)

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat a player holds in this game, if any."""
        for seat, holder in self.seats.items():
            if player_id is not None and holder.get("player_id") == player_id:
                return seat
        return None

    def bot_seats(self) -> list[int]:
        """Seats the server plays."""
        return [seat for seat, holder in self.seats.items() if holder.get("bot")]

    def history(self, sent: int) -> History | None:
        """What the stale-version rule needs for a move sent at version `sent`."""
        if not 0 <= sent <= self.version:
            return None
        return History(sent, self.to_act_at[sent:], self.movers[sent:])


@dataclass
class PublicLog:
    """The move log as each viewer may see it, built once per move (see GameService.log)."""

    count: int = 0
    state: State | None = None
    moves: list[Move] = field(default_factory=list)
    entries: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def extend(self, live: LiveGame, rows: Any) -> None:
        """Redact each new move for every seat and the spectators."""
        ruleset = live.ruleset
        if self.state is None:
            self.state = ruleset.setup(live.players, parse_options(ruleset, live.options), live.seed)
            self.entries = {viewer: [] for viewer in [*range(live.players), None]}
        for row in rows:
            if row.seq != self.count + 1:
                break
            for viewer, entries in self.entries.items():
                entries.append({"seq": row.seq, "seat": row.seat,
                                "move": ruleset.public_move(self.state, row.seat, row.move, viewer),
                                "time": row.created_at.isoformat()})
            self.moves.append(row.move)
            self.state = ruleset.apply(self.state, row.seat, row.move)
            self.count = row.seq


def game_document(live: LiveGame, state: State, version: int, seat: int | None) -> dict[str, Any]:
    """The wire contract's game document for a viewer at a version."""
    outcome = live.ruleset.outcome(state)
    return {
        "id": live.id,
        "room_id": live.room_id,
        "ruleset": live.ruleset.id,
        "version": version,
        "status": "finished" if outcome is not None else "active",
        "to_act": live.ruleset.to_act(state),
        "seat": seat,
        "seed_hash": live.seed_hash,
        "view": live.ruleset.view(state, seat),
        "outcome": outcome.to_json() if outcome is not None else None,
    }


class GameService:
    """Starts games, loads them, applies moves, and tells listeners when a game moves on."""

    def __init__(self, sessions: async_sessionmaker, snapshot_every: int = 20,
                 max_live_games: int = 5000) -> None:
        self.sessions = sessions
        self.snapshot_every = snapshot_every
        self.max_live_games = max_live_games
        # Least recently used games are dropped from memory; the database rebuilds them on demand.
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_locks: dict[str, asyncio.Lock] = {}
        self.listeners: list[Callable[[str, int], Awaitable[None]]] = []
        # SQLite has one writer at a time: moves queue here (not in SQLite's busy handler, which
        # sleeps in steps of up to 100 ms) and are written by one thread in one hop each.
        bind = sessions.kw.get("bind")
        self._write_lock = asyncio.Lock()
        self._sqlite_writer: SqliteWriter | None = None
        if bind is not None and bind.dialect.name == "sqlite":
            self._sqlite_writer = SqliteWriter(bind.url.render_as_string(hide_password=False))

    def close(self) -> None:
        """Release the SQLite writer, if any."""
        if self._sqlite_writer is not None:
            self._sqlite_writer.close()

    # -- loading -----------------------------------------------------------------------------

    async def live(self, game_id: str, *, fresh: bool = False) -> LiveGame:
        """The game, loaded once per instance; with `fresh`, caught up with the database first."""
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            if fresh:
                async with live.lock:
                    async with self.sessions() as session:
                        await self._catch_up(session, live)
            return live
        lock = self._load_locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self._live.get(game_id)
                if live is None:
                    async with self.sessions() as session:
                        live = await self._load(session, game_id)
                    self._live[game_id] = live
                    while len(self._live) > self.max_live_games:
                        self._live.popitem(last=False)
        finally:
            self._load_locks.pop(game_id, None)
        return live

    async def _load(self, session: AsyncSession, game_id: str) -> LiveGame:
        game = await session.get(Game, game_id)
        if game is None:
            raise not_found("game")
        ruleset = registry.get(game.ruleset)
        if ruleset is None:
            raise ServiceError(409, f"This server does not have the ruleset {game.ruleset!r}.")
        if ruleset.version != game.ruleset_version:
            raise ServiceError(
                409,
                f"This game was played with version {game.ruleset_version} of its rules and this "
                f"server has version {ruleset.version}; it cannot be replayed here.",
            )
        snap = (await session.execute(
            select(Snapshot).where(Snapshot.game_id == game_id, Snapshot.version <= game.version)
            .order_by(Snapshot.version.desc()).limit(1)
        )).scalar_one_or_none()
        seed = int(game.seed)
        if snap is not None:
            state, base = snap.state, snap.version
        else:
            opts = parse_options(ruleset, game.options)
            state, base = ruleset.setup(game.players, opts, seed), 0
        live = LiveGame(
            id=game.id, room_id=game.room_id, ruleset=ruleset, players=game.players,
            options=game.options, seed=seed, seed_hash=game.seed_hash, version=base, state=state,
            to_act_at=[], movers=[],
        )
        rows = (await session.execute(
            select(MoveRow.seq, MoveRow.seat, MoveRow.to_act, MoveRow.move, MoveRow.client_move_id)
            .where(MoveRow.game_id == game_id).order_by(MoveRow.seq)
        )).all()
        # to_act at version 0 comes from setup; later versions are stored with each move.
        setup_state = state if base == 0 else ruleset.setup(
            game.players, parse_options(ruleset, game.options), seed)
        live.to_act_at = [ruleset.to_act(setup_state)] + [list(r.to_act) for r in rows[:base]]
        live.movers = [r.seat for r in rows[:base]]
        live.client_ids = {(r.seat, r.client_move_id): (r.move, r.seq) for r in rows[:base]
                           if r.client_move_id is not None}
        live.states[base] = state
        for row in rows[base:]:
            live.advance(row.seat, row.move, ruleset.apply(live.state, row.seat, row.move),
                         row.client_move_id)
        live.seats = await self._seats(session, game.room_id)
        return live

    async def _seats(self, session: AsyncSession, room_id: str) -> dict[int, dict[str, Any]]:
        rows = (await session.execute(select(Seat).where(Seat.room_id == room_id))).scalars()
        return {s.seat: {"player_id": s.player_id, "bot": s.bot} for s in rows}

    async def _catch_up(self, session: AsyncSession, live: LiveGame) -> None:
        """Apply moves other instances committed since this copy's version."""
        rows = (await session.execute(
            select(MoveRow.seq, MoveRow.seat, MoveRow.move, MoveRow.client_move_id).where(
                MoveRow.game_id == live.id, MoveRow.seq > live.version).order_by(MoveRow.seq)
        )).all()
        for row in rows:
            if row.seq != live.version + 1:
                break
            live.advance(row.seat, row.move, live.ruleset.apply(live.state, row.seat, row.move),
                         row.client_move_id)
        if rows:
            live.seats = await self._seats(session, live.room_id)

    async def refresh_seats_of_room(self, room_id: str) -> None:
        """Reload who holds each seat of a room's loaded game (after a bot takes a seat over)."""
        for live in list(self._live.values()):
            if live.room_id == room_id:
                async with self.sessions() as session:
                    live.seats = await self._seats(session, live.room_id)

    # -- starting ----------------------------------------------------------------------------

    async def create(self, session: AsyncSession, room: Room, players: int) -> Game:
        """Insert a new game for a room (inside the caller's transaction) at version 0."""
        ruleset = registry.get(room.ruleset)
        assert ruleset is not None
        seed = secrets.randbits(63)
        state = ruleset.setup(players, parse_options(ruleset, room.options), seed)
        game = Game(
            id=secrets.token_hex(8), room_id=room.id, ruleset=ruleset.id,
            ruleset_version=ruleset.version, options=room.options, players=players,
            seed=str(seed), seed_hash=seed_hash(seed), version=0, status="active",
            to_act=ruleset.to_act(state), outcome=None,
        )
        session.add(game)
        return game

    # -- moves -------------------------------------------------------------------------------

    async def submit(
        self, game_id: str, seat: int, sent_version: Any, move: Any, client_id: str | None = None
    ) -> int:
        """Check and store one move; return the version it produced. Raises GameError/ServiceError."""
        if isinstance(sent_version, bool) or not isinstance(sent_version, int):
            raise ServiceError(422, "The move must name the version it was made at, as an integer.")
        live = await self.live(game_id)
        for attempt in range(2):
            async with live.lock:
                async with self.sessions() as session:
                    if attempt:
                        await self._catch_up(session, live)
                    if client_id is not None:
                        earlier = live.earlier(seat, client_id, move)
                        if earlier is not None:
                            return earlier
                    new_state = play(live.ruleset, live.state, seat, move,
                                     sent_version=sent_version, current_version=live.version,
                                     history=live.history(sent_version))
                    version = live.version + 1
                    if await self._store(session, live, seat, move, client_id, new_state, version):
                        live.advance(seat, move, new_state, client_id)
                        break
            # Another instance stored a move first: catch up and check this one again.
        else:
            raise GameError(ErrorCode.STALE_VERSION,
                            "The game moved on while this move was being stored; try again.",
                            version=live.version)
        for listener in self.listeners:
            await listener(game_id, version)
        return version

    async def _store(self, session: AsyncSession, live: LiveGame, seat: int, move: Move,
                     client_id: str | None, state: State, version: int) -> bool:
        """Append the move in one transaction; False if another writer got this version first."""
        outcome = live.ruleset.outcome(state)
        statements = _move_statements(live, seat, move, client_id, state, version, outcome,
                                      self.snapshot_every)
        if self._sqlite_writer is not None:
            async with self._write_lock:
                loop = asyncio.get_running_loop()
                return await loop.run_in_executor(self._sqlite_writer.thread,
                                                  self._sqlite_writer.write, statements)
        try:
            conn = await session.connection()
            for i, (statement, params) in enumerate(statements):
                result = await conn.execute(statement, params)
                if i == 0 and result.rowcount != 1:
                    raise _Conflict()
            await session.commit()
        except (_Conflict, IntegrityError):
            await session.rollback()
            return False
        except BaseException:
            await session.rollback()
            raise
        return True

    # -- reading -----------------------------------------------------------------------------

    async def log(self, game_id: str, viewer: int | None) -> dict[str, Any]:
        """The moves as `viewer` may see them; every move and the seed once the game is over."""
        live = await self.live(game_id, fresh=True)
        finished = live.finished
        async with live.log.lock:
            async with self.sessions() as session:
                rows = (await session.execute(
                    select(MoveRow.seq, MoveRow.seat, MoveRow.move, MoveRow.created_at)
                    .where(MoveRow.game_id == game_id, MoveRow.seq > live.log.count,
                           MoveRow.seq <= live.version).order_by(MoveRow.seq))).all()
            # Each move is redacted for every viewer once, stepping one shared replay state,
            # so a log request costs only the moves made since the last one.
            live.log.extend(live, rows)
        if finished:
            entries = [dict(e, move=m) for e, m in zip(live.log.entries[None], live.log.moves)]
        else:
            entries = [e for e in live.log.entries[viewer] if e["move"] is not None]
        body: dict[str, Any] = {"game_id": game_id, "version": live.version,
                                "ruleset": live.ruleset.id, "seed_hash": live.seed_hash,
                                "moves": entries}
        if finished:
            body.update(seed=str(live.seed), players=live.players, options=live.options,
                        ruleset_version=live.ruleset.version)
        return body

    async def games_with_bots(self) -> list[str]:
        """Active games that have a bot seat (to restart their bots after a restart)."""
        async with self.sessions() as session:
            return list((await session.execute(
                select(Game.id).join(Seat, Seat.room_id == Game.room_id)
                .where(Game.status == "active", Seat.bot.is_not(None)).distinct())).scalars())


def _move_statements(live: LiveGame, seat: int, move: Move, client_id: str | None, state: State,
                     version: int, outcome: Any, snapshot_every: int
                     ) -> list[tuple[Any, dict[str, Any]]]:
    """The statements of one move's transaction, the version guard first. Plain Core statements:
    the ORM's bulk-update and unit-of-work machinery cost more than the statements here."""
    to_act = live.ruleset.to_act(state)
    statements: list[tuple[Any, dict[str, Any]]] = [
        (_BUMP_VERSION, {"game": live.id, "old": version - 1, "new": version, "now_to_act": to_act,
                         "new_status": "finished" if outcome else "active",
                         "new_outcome": outcome.to_json() if outcome else None}),
        (_MOVES.insert(), {"game_id": live.id, "seq": version, "seat": seat, "move": move,
                           "client_move_id": client_id, "to_act": to_act, "created_at": utcnow()}),
    ]
    if version % snapshot_every == 0:
        statements.append((_SNAPSHOTS.insert(), {"game_id": live.id, "version": version,
                                                 "state": state}))
    if outcome is not None:
        statements.append((_FINISH_ROOM, {"room": live.room_id}))
    return statements


class SqliteWriter:
    """SQLite's single writer: one sync connection on one thread, so a move's whole transaction
    is one hop off the event loop instead of one hop per statement (about twice the moves/s)."""

    def __init__(self, url: str) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self.engine = create_engine(sync_url(url), poolclass=StaticPool,
                                    connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(self.engine, "connect", sqlite_pragmas)

    def write(self, statements: list[tuple[Any, dict[str, Any]]]) -> bool:
        """Run the statements in one transaction; False if the version guard matched no row."""
        try:
            with self.engine.begin() as conn:
                for i, (statement, params) in enumerate(statements):
                    if conn.execute(statement, params).rowcount != 1 and i == 0:
                        raise _Conflict()
        except (_Conflict, IntegrityError):
            return False
        return True

    def close(self) -> None:
        """Release the connection and the thread."""
        self.engine.dispose()
        self.thread.shutdown(wait=False)


class _Conflict(Exception):
    """Raised inside the move transaction to roll it back when the version guard fails."""
