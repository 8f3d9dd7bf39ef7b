"""Storing moves: one `MoveStore` per database backend, each owning its SQL.

A store appends a move under the optimistic-concurrency guard (only the writer that saw version
`v - 1` may make it `v`) and commits, in one transaction: the games row's version bump first,
then the move row, a snapshot every few versions, and the room marked finished at the end. The
(game, seq) primary key is the second guard. SQLite writes on one thread of its own, never on
the event loop (`SqliteMoveStore`); PostgreSQL writes one statement per move (`PostgresMoveStore`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import orjson
from sqlalchemy import create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.pool import StaticPool

from app.config import sync_url
from app.db.models import utcnow
from app.db.session import sqlite_pragmas
from app.engine.ruleset import Move, State
from app.tasks import stop_tasks

log = logging.getLogger(__name__)


@dataclass(slots=True)
class MoveRecord:
    """One move as every store writes it."""

    game_id: str
    room_id: str
    seat: int
    move: Move
    client_id: str | None
    version: int  # the version this move makes; the guard wants version - 1 stored
    to_act: list[int]  # the seats asked to act after it
    outcome: dict[str, Any] | None  # the outcome's JSON when this move ends the game
    snapshot: State | None  # the new state, when this version keeps a snapshot
    ruleset_version: str = ""  # the rules version the snapshot's state is in (0007_deploy)
    holder: str | None = None  # the player who must still hold the seat (None: not checked)
    created_at: datetime = field(default_factory=utcnow)


class MoveStore(Protocol):
    """What GameService needs from a database to store moves."""

    async def append(self, record: MoveRecord) -> bool:
        """Store the move and commit; False if the guard failed (another writer stored this
        version first, the game is no longer active, or `holder` no longer holds the seat) or
        the move's (game, seq) or client id was taken."""
        ...

    async def execute(self, statement: Any) -> int:
        """Run one SQLAlchemy Core write in its own transaction, beside the moves without making
        them wait longer than it takes; the number of rows it changed."""
        ...

    def turn(self) -> AbstractAsyncContextManager[None]:
        """Hold the moves' writing while another transaction of this process writes (SQLite has
        one writer at a time); a no-op where writers do not exclude each other."""
        ...

    async def aclose(self) -> None:
        """Release the store's connections and threads."""
        ...


def _json(value: Any) -> str | None:
    """A JSON column's text as SQLAlchemy's JSON type reads it back (None is stored as 'null')."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # an integer beyond 64 bits: the stdlib writes any size
        return json.dumps(value)


def _stamp(value: datetime) -> str:
    """A DateTime column's text in SQLAlchemy's SQLite storage format, for a UTC datetime.
    Formatted from its fields: `replace(tzinfo=None).isoformat(" ", "microseconds")` parses its
    keyword arguments twice (1.1 µs a move, timeit, against 0.5 µs here)."""
    return "%04d-%02d-%02d %02d:%02d:%02d.%06d" % (
        value.year,
        value.month,
        value.day,
        value.hour,
        value.minute,
        value.second,
        value.microsecond,
    )


# -- SQLite ------------------------------------------------------------------------------------

_SQL_BUMP = (
    "UPDATE games SET version = ?, to_act = ?, status = ?, outcome = ? "
    "WHERE id = ? AND version = ? AND status = 'active'"
)  # abandoned games take no moves
_SQL_BUMP_HELD = _SQL_BUMP + (
    " AND EXISTS (SELECT 1 FROM seats WHERE room_id = ? AND seat = ? AND player_id = ?)"
)
# The seat's holder is read in the move's own transaction: who made the move as it happened.
_SQL_MOVE = (
    "INSERT INTO moves (game_id, seq, seat, move, client_move_id, to_act, created_at, "
    "actor_player, actor_bot) VALUES (?, ?, ?, ?, ?, ?, ?, "
    "(SELECT player_id FROM seats WHERE room_id = ? AND seat = ?), "
    "(SELECT bot FROM seats WHERE room_id = ? AND seat = ?))"
)
_SQL_SNAPSHOT = "INSERT INTO snapshots (game_id, version, state, ruleset_version) VALUES (?, ?, ?, ?)"
_SQL_FINISH = "UPDATE rooms SET status = 'finished' WHERE id = ?"

Rows = list[tuple[str, tuple[Any, ...]]]


def sqlite_rows(r: MoveRecord) -> Rows:
    """A move's transaction as plain SQL for the sqlite3 module, the version guard first."""
    to_act = _json(r.to_act)
    bump = (
        r.version,
        to_act,
        "finished" if r.outcome else "active",
        _json(r.outcome),
        r.game_id,
        r.version - 1,
    )
    rows: Rows = [
        (_SQL_BUMP, bump) if r.holder is None else (_SQL_BUMP_HELD, bump + (r.room_id, r.seat, r.holder)),
        (
            _SQL_MOVE,
            (
                r.game_id,
                r.version,
                r.seat,
                _json(r.move),
                r.client_id,
                to_act,
                _stamp(r.created_at),
                r.room_id,
                r.seat,
                r.room_id,
                r.seat,
            ),
        ),
    ]
    if r.snapshot is not None:
        rows.append((_SQL_SNAPSHOT, (r.game_id, r.version, _json(r.snapshot), r.ruleset_version)))
    if r.outcome is not None:
        rows.append((_SQL_FINISH, (r.room_id,)))
    return rows


LOCK_RETRY_SECONDS = 0.0002  # a batch waiting for SQLite's write lock tries again this often
LOCK_WAIT_SECONDS = 30.0  # and gives up after this long (its moves fail with a 503)
MAX_BATCH = 64  # moves committed together at most (one commit, so one fsync under FULL)


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    return "locked" in str(exc) or "busy" in str(exc)


class SqliteWriter:
    """SQLite's single writer: one plain sqlite3 connection, used only on its own thread.

    Moves queue for that thread; it commits every move waiting when it gets to them in one
    transaction (each move in a savepoint of its own, so a failed guard undoes that move alone).
    Under `synchronous=FULL` that is one fsync for the lot, where a commit per move would make
    the moves queue behind one fsync each. Checkpoints copy the WAL back on a second thread, so
    moves never wait while it is copied.
    """

    def __init__(self, url: str, synchronous: str = "normal") -> None:
        self.path = sync_url(url).split(":///", 1)[1]
        self.conn = sqlite3.connect(
            self.path, timeout=30, isolation_level=None, check_same_thread=False, cached_statements=32
        )
        # One cursor for every statement: `conn.execute` makes a cursor per statement.
        self._cursor = self.conn.cursor()
        sqlite_pragmas(self.conn, synchronous=synchronous)
        self.conn.execute("PRAGMA busy_timeout = 0")  # the batch loop waits, in shorter steps
        self.conn.execute("PRAGMA wal_autocheckpoint = 0")
        # SQLAlchemy over the same connection, for the odd Core statement (bot leases).
        self._engine = create_engine("sqlite://", creator=lambda: self.conn, poolclass=StaticPool)
        self.checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        self._checkpointer: sqlite3.Connection | None = None
        self._jobs: queue.SimpleQueue[tuple[Any, Future[Any]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="sqlite-writer", daemon=True)
        self._thread.start()
        self.since_checkpoint = 0
        self.batches = 0  # transactions committed with more than one move
        self.busy = 0  # batches that found the write lock taken and waited for it

    # -- called from any thread ---------------------------------------------------------------

    def submit(self, job: Rows | Callable[[], Any]) -> Future[Any]:
        """Queue a move's rows (answered True if stored, False if its guard failed) or a callable
        to run alone on the writer thread (answered with what it returns)."""
        done: Future[Any] = Future()
        self._jobs.put((job, done))
        return done

    def close(self) -> None:
        """Let the queued jobs finish, then release the connections and the threads."""
        self._jobs.put(None)
        self._thread.join()
        self.checkpoints.shutdown(wait=True)
        self.conn.close()
        if self._checkpointer is not None:
            self._checkpointer.close()

    # -- the writer thread --------------------------------------------------------------------

    def _serve(self) -> None:
        after: Any = _NOTHING  # a job taken off the queue while batching, run after the batch
        while True:
            job = self._jobs.get() if after is _NOTHING else after
            after = _NOTHING
            if job is None:
                return
            if callable(job[0]):
                _settle(job[1], job[0])
                continue
            batch: list[tuple[Rows, Future[bool]]] = []
            while True:  # this move and whatever else waits, up to a job that runs alone
                if job[1].set_running_or_notify_cancel():  # a cancelled wait: never written
                    batch.append(job)
                if len(batch) >= MAX_BATCH:
                    break
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None or callable(job[0]):
                    after = job
                    break
            if batch:
                self._write_batch(batch)

    def _write_batch(self, batch: list[tuple[Rows, Future[bool]]]) -> None:
        """Commit the batch's moves together, waiting (at most LOCK_WAIT_SECONDS) for the write
        lock if another connection holds it; tries again every LOCK_RETRY_SECONDS, where
        SQLite's own busy handler sleeps 1, 2, 5, 10 ms... between tries."""
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                stored = self._transaction([rows for rows, _done in batch])
                break
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or time.monotonic() >= deadline:
                    # As SQLAlchemy reports it: the moves get a retryable 503.
                    error = sa_exc.OperationalError("BEGIN IMMEDIATE", None, exc)
                    for _rows, done in batch:
                        done.set_exception(error)
                    return
                self.busy += 1
            except BaseException as exc:  # noqa: BLE001 - told to every waiting move
                for _rows, done in batch:
                    done.set_exception(exc)
                return
            time.sleep(LOCK_RETRY_SECONDS)
        for (_rows, done), ok in zip(batch, stored):
            done.set_result(ok)

    def _transaction(self, moves: list[Rows]) -> list[bool]:
        """One transaction, each move in a savepoint (undone alone if its guard fails or a key
        is taken); whether each move was stored."""
        cursor = self._cursor
        cursor.execute("BEGIN IMMEDIATE")
        stored: list[bool] = []
        try:
            for rows in moves:
                cursor.execute("SAVEPOINT move")
                ok = True
                try:
                    for i, (sql, params) in enumerate(rows):
                        if cursor.execute(sql, params).rowcount != 1 and i == 0:
                            ok = False
                            break
                except sqlite3.IntegrityError:
                    ok = False
                if not ok:
                    cursor.execute("ROLLBACK TO move")
                cursor.execute("RELEASE move")
                stored.append(ok)
            cursor.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.since_checkpoint += sum(stored)
        if len(moves) > 1:
            self.batches += 1
        return stored

    def write_one(self, statement: Any) -> int:
        """Run one SQLAlchemy Core statement in its own transaction (on the writer thread: pass
        it to `submit` in a lambda); the number of rows it changed."""
        self.conn.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT_SECONDS * 1000)}")
        try:
            with self._engine.connect() as conn:  # the driver autocommits: one statement
                return conn.execute(statement).rowcount
        finally:
            self.conn.execute("PRAGMA busy_timeout = 0")

    def checkpoint_due(self, every: int) -> bool:
        """Whether `every` moves were written since the last checkpoint began (and restart the count)."""
        if self.since_checkpoint < every:
            return False
        self.since_checkpoint = 0
        return True

    def checkpoint(self) -> tuple[int, int]:
        """Copy the WAL back into the database file, on its own connection (run it on a thread):
        in WAL mode a checkpoint runs beside the writer, so moves never wait for it. Returns
        SQLite's (frames in the WAL, frames now in the database); fetched whole, so that no
        statement is left open holding a read lock (which would keep the WAL from restarting)."""
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(
                self.path, timeout=1, isolation_level=None, check_same_thread=False
            )
        _busy, frames, copied = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
        return frames, copied


_NOTHING = object()


def _set_if_pending(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _settle(done: Future[Any], job: Callable[[], Any]) -> None:
    """Run a job that runs alone on the writer thread and hand its answer to the waiter."""
    if not done.set_running_or_notify_cancel():
        return
    try:
        done.set_result(job())
    except BaseException as exc:  # noqa: BLE001 - the waiter gets it
        done.set_exception(exc)


CHECKPOINT_EVERY = 500  # moves between SQLite WAL checkpoints
# Past this many frames (16 MiB of 4 KiB pages) the WAL is started over (see
# SqliteMoveStore._checkpoint); the file keeps its size, so moves then overwrite blocks it
# already has instead of growing it.
WAL_RESTART_FRAMES = 4096


class SqliteMoveStore:
    """SQLite's moves, written by `SqliteWriter`'s thread; the event loop only waits for them."""

    def __init__(self, url: str, synchronous: str = "normal") -> None:
        self.writer = SqliteWriter(url, synchronous)
        self._checkpointing: asyncio.Task[None] | None = None

    async def append(self, record: MoveRecord) -> bool:
        """Queue the move for the writer thread and wait for its commit."""
        stored = await asyncio.wrap_future(self.writer.submit(sqlite_rows(record)))
        if self._checkpointing is None and self.writer.checkpoint_due(CHECKPOINT_EVERY):
            self._checkpointing = asyncio.create_task(self._checkpoint())
        return bool(stored)

    async def execute(self, statement: Any) -> int:
        """One Core statement, queued with the moves."""
        writer = self.writer
        return await asyncio.wrap_future(writer.submit(lambda: writer.write_one(statement)))

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """The writer thread's turn, for another connection's transaction: once the moves queued
        before it are committed, the thread waits (at most LOCK_WAIT_SECONDS) until the block
        ends, so that transaction never finds SQLite's write lock taken by a move; the moves
        queued meanwhile are committed together after it. Turns are taken in order, one at a
        time. Nothing in the block may wait for a move or `execute` (they wait for the block)."""
        loop = asyncio.get_running_loop()
        entered: asyncio.Future[None] = loop.create_future()
        release = threading.Event()

        def hold() -> None:
            loop.call_soon_threadsafe(_set_if_pending, entered)
            release.wait(LOCK_WAIT_SECONDS)

        held = self.writer.submit(hold)
        try:
            await entered
            yield
        finally:
            release.set()
            held.cancel()  # not yet taken by the thread (this wait was cancelled): it never is

    async def _checkpoint(self) -> None:
        """Copy SQLite's WAL into the database on the checkpoint thread, beside the moves; once
        the WAL holds WAL_RESTART_FRAMES, also let it start over.

        SQLite writes from the start of the WAL again only when a transaction begins with every
        frame already copied; a checkpoint run beside moves never gets there (moves arriving
        every few ms append frames while it runs), so under steady play the WAL grew without end
        (~10 MB/s at 500 moves/s), each commit allocating new blocks at its end. Hence a second
        pass on the writer thread, the moves held behind it: it copies only the frames written
        during the first (two fsyncs, 1.4-2.5 ms in the round-trip bench), and the next move
        starts the WAL over."""
        writer = self.writer
        loop = asyncio.get_running_loop()
        try:
            frames, _copied = await loop.run_in_executor(writer.checkpoints, writer.checkpoint)
            if frames >= WAL_RESTART_FRAMES:
                await asyncio.wrap_future(writer.submit(writer.checkpoint))
        except Exception:  # a busy database only delays the checkpoint to the next round
            log.warning("SQLite checkpoint failed; retrying later", exc_info=True)
        finally:
            self._checkpointing = None

    async def aclose(self) -> None:
        """Wait for a checkpoint in progress, then let the writer finish and close."""
        await stop_tasks([self._checkpointing])
        await asyncio.to_thread(self.writer.close)


# -- PostgreSQL --------------------------------------------------------------------------------

_PG_BUMP = (
    "UPDATE games SET version = %s, to_act = %s::json, status = %s, outcome = %s::json "
    "WHERE id = %s AND version = %s AND status = 'active'"
)
_PG_HELD = " AND EXISTS (SELECT 1 FROM seats WHERE room_id = %s AND seat = %s AND player_id = %s)"
_PG_MOVE = (
    "move AS (INSERT INTO moves (game_id, seq, seat, move, client_move_id, to_act,"
    " created_at, actor_player, actor_bot) SELECT %s, %s::int, %s::int, %s::json, %s::text,"
    " %s::json, %s::timestamptz, s.player_id, s.bot FROM bump"
    " LEFT JOIN seats s ON s.room_id = %s AND s.seat = %s::int)"
)
_PG_SNAPSHOT = (
    "snap AS (INSERT INTO snapshots (game_id, version, state, ruleset_version) "
    "SELECT %s, %s::int, %s::json, %s::text FROM bump)"
)
_PG_FINISH = "room AS (UPDATE rooms SET status = 'finished' FROM bump WHERE rooms.id = %s)"


def postgres_statement(r: MoveRecord) -> tuple[str, list[Any]]:
    """A move's transaction as ONE PostgreSQL statement: the version guard is an UPDATE in a WITH
    clause, and every other write selects from it, so nothing is written unless the guard held.
    One statement in autocommit is one round trip and one commit; it answers 1 if stored."""
    to_act = _json(r.to_act)
    bump = _PG_BUMP + (_PG_HELD if r.holder is not None else "")
    params: list[Any] = [
        r.version,
        to_act,
        "finished" if r.outcome else "active",
        _json(r.outcome),
        r.game_id,
        r.version - 1,
    ]
    if r.holder is not None:
        params += [r.room_id, r.seat, r.holder]
    parts = [f"bump AS ({bump} RETURNING 1)", _PG_MOVE]
    params += [
        r.game_id,
        r.version,
        r.seat,
        _json(r.move),
        r.client_id,
        to_act,
        r.created_at,
        r.room_id,
        r.seat,
    ]
    if r.snapshot is not None:
        parts.append(_PG_SNAPSHOT)
        params += [r.game_id, r.version, _json(r.snapshot), r.ruleset_version]
    if r.outcome is not None:
        parts.append(_PG_FINISH)
        params.append(r.room_id)
    return "WITH " + ", ".join(parts) + " SELECT count(*) FROM bump", params


class PostgresMoveStore:
    """PostgreSQL's moves: each one statement (see postgres_statement) on a plain psycopg
    connection in autocommit, with no SQLAlchemy session around it. Connections are kept in a
    small pool of their own (prepared statements stay on them); a broken one drops every idle
    connection, as SQLAlchemy's pool does on a disconnect, and the move fails with a retryable
    503. Other writes go through the application's sessions.

    The two pools hear of each other's disconnects: a server restart kills both pools'
    connections, and without this the first request on the other pool would fail a second time."""

    def __init__(self, url: str, sessions: async_sessionmaker, size: int = 8) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.sessions = sessions
        self._idle: list[Any] = []
        self._slots = asyncio.Semaphore(size)
        self._suspect = False  # SQLAlchemy saw a disconnect: the idle connections may be dead too
        event.listen(sessions.kw["bind"].sync_engine, "handle_error", self._heard_error)

    def _heard_error(self, context: Any) -> None:
        """SQLAlchemy's pool lost a connection: drop ours before the next move uses one."""
        if context.is_disconnect:
            self._suspect = True

    async def append(self, record: MoveRecord) -> bool:
        """Store one move; False if the guard failed or a key was taken."""
        import psycopg

        sql, params = postgres_statement(record)
        async with self._slots:
            if self._suspect:
                self._suspect = False
                await self._drop(None)
            conn = self._idle.pop() if self._idle else None
            try:
                if conn is None:
                    conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                cur = await conn.execute(sql, params)
                row = await cur.fetchone()
            except psycopg.IntegrityError:
                self._idle.append(conn)
                return False
            except psycopg.DataError as exc:
                self._idle.append(conn)
                raise sa_exc.DataError(sql, params, exc) from exc
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                await self._drop(conn)
                # The application's pool holds connections to the same server: let it start afresh.
                await self.sessions.kw["bind"].dispose()
                raise sa_exc.OperationalError(sql, params, exc) from exc
            except psycopg.Error as exc:
                await self._drop(conn)
                raise sa_exc.DBAPIError(sql, params, exc) from exc
            except BaseException:  # cancelled mid-statement: the connection's state is unknown
                await self._drop(conn)
                raise
            self._idle.append(conn)
            return bool(row and row[0] == 1)

    def turn(self) -> AbstractAsyncContextManager[None]:
        """No turn to take: PostgreSQL's writers wait for each other's row locks only."""
        return nullcontext()

    async def execute(self, statement: Any) -> int:
        """One Core statement in a session of its own."""
        async with self.sessions() as session:
            result = await session.execute(statement)
            await session.commit()
            return result.rowcount

    async def _drop(self, conn: Any) -> None:
        """Close this connection and every idle one (after a disconnect they are all suspect)."""
        doomed, self._idle = [c for c in [conn, *self._idle] if c is not None], []
        for c in doomed:
            try:
                await c.close()
            except Exception:  # noqa: BLE001 - closing a dead connection may fail; it is gone anyway
                pass

    async def aclose(self) -> None:
        """Close the idle connections."""
        await self._drop(None)


def make_move_store(sessions: async_sessionmaker, sqlite_synchronous: str = "normal") -> MoveStore:
    """The store for the sessions' database: SQLite or PostgreSQL (nothing else is supported)."""
    bind = sessions.kw["bind"]
    url = bind.url.render_as_string(hide_password=False)
    if bind.dialect.name == "sqlite":
        return SqliteMoveStore(url, sqlite_synchronous)
    if bind.dialect.name == "postgresql":
        return PostgresMoveStore(url, sessions)
    raise ValueError(f"Civitas stores games in SQLite or PostgreSQL, not {bind.dialect.name}.")
