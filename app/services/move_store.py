"""Writing one move: its transaction's statements, and SQLite's single writer."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson

from sqlalchemy import bindparam, create_engine, exists, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.pool import StaticPool

from app.config import sync_url
from app.db.models import Game, MoveRow, Room, Seat, Snapshot, utcnow
from app.db.session import sqlite_pragmas
from app.engine.ruleset import Move, State
from app.services.live import LiveGame

_GAMES, _MOVES, _SNAPSHOTS = Game.__table__, MoveRow.__table__, Snapshot.__table__
# The optimistic-concurrency guard: only the writer that saw version `old` may make it `new`.
_FINISH_ROOM = update(Room.__table__).where(Room.__table__.c.id == bindparam("room")).values(
    status="finished")
_BUMP_VERSION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("old"),
           _GAMES.c.status == "active")  # an abandoned game (cleanup) takes no more moves
    .values(version=bindparam("new"), to_act=bindparam("now_to_act"),
            status=bindparam("new_status"), outcome=bindparam("new_outcome"))
)

_INSERT_MOVE, _INSERT_SNAPSHOT = _MOVES.insert(), _SNAPSHOTS.insert()  # built once, not per move
_SEATS = Seat.__table__
# The same guard for a player's move, which also needs the player to still hold the seat: the
# database, not an instance's copy of the seats, decides whether a player who left may move.
_BUMP_VERSION_HELD = _BUMP_VERSION.where(exists().where(
    _SEATS.c.room_id == bindparam("room"), _SEATS.c.seat == bindparam("seat_no"),
    _SEATS.c.player_id == bindparam("holder")))


def move_statements(live: LiveGame, seat: int, move: Move, client_id: str | None, state: State,
                     version: int, outcome: Any, snapshot_every: int, holder: str | None = None,
                     to_act: list[int] | None = None) -> list[tuple[Any, dict[str, Any]]]:
    """The statements of one move's transaction, the version guard first. Plain Core statements:
    the ORM's bulk-update and unit-of-work machinery cost more than the statements here. With
    `holder`, the guard also requires that player to hold the seat; `to_act` is the new state's,
    if the caller has it already."""
    if to_act is None:
        to_act = live.ruleset.to_act(state)
    bump = {"game": live.id, "old": version - 1, "new": version, "now_to_act": to_act,
            "new_status": "finished" if outcome else "active",
            "new_outcome": outcome.to_json() if outcome else None}
    if holder is not None:
        bump.update(room=live.room_id, seat_no=seat, holder=holder)
    statements: list[tuple[Any, dict[str, Any]]] = [
        (_BUMP_VERSION if holder is None else _BUMP_VERSION_HELD, bump),
        (_INSERT_MOVE, {"game_id": live.id, "seq": version, "seat": seat, "move": move,
                           "client_move_id": client_id, "to_act": to_act, "created_at": utcnow()}),
    ]
    if version % snapshot_every == 0:
        statements.append((_INSERT_SNAPSHOT, {"game_id": live.id, "version": version,
                                                 "state": state,
                                                 "ruleset_version": live.ruleset.version}))
    if outcome is not None:
        statements.append((_FINISH_ROOM, {"room": live.room_id}))
    return statements


def _json(value: Any) -> str | None:
    """A JSON column's text as SQLAlchemy's JSON type reads it back (None is stored as 'null')."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # an integer beyond 64 bits: the stdlib writes any size
        return json.dumps(value)


def _stamp(value: Any) -> str:
    """A DateTime column's text in SQLAlchemy's SQLite storage format, for a UTC datetime.
    Formatted from its fields: `replace(tzinfo=None).isoformat(" ", "microseconds")` parses its
    keyword arguments twice (1.1 µs a move, timeit, against 0.5 µs here)."""
    return "%04d-%02d-%02d %02d:%02d:%02d.%06d" % (
        value.year, value.month, value.day, value.hour, value.minute, value.second,
        value.microsecond)


_SQL_BUMP = ("UPDATE games SET version = ?, to_act = ?, status = ?, outcome = ? "
             "WHERE id = ? AND version = ? AND status = 'active'")
_SQL_BUMP_HELD = _SQL_BUMP + (" AND EXISTS (SELECT 1 FROM seats WHERE room_id = ? AND seat = ? "
                             "AND player_id = ?)")
_SQL_MOVE = ("INSERT INTO moves (game_id, seq, seat, move, client_move_id, to_act, created_at) "
             "VALUES (?, ?, ?, ?, ?, ?, ?)")
_SQL_SNAPSHOT = ("INSERT INTO snapshots (game_id, version, state, ruleset_version) "
                 "VALUES (?, ?, ?, ?)")
_SQL_FINISH = "UPDATE rooms SET status = 'finished' WHERE id = ?"


def sqlite_rows(statements: list[tuple[Any, dict[str, Any]]]) -> list[tuple[str, tuple[Any, ...]]]:
    """The same transaction as plain SQL for the sqlite3 module (the guard stays first)."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    acting: tuple[Any, str | None] = (None, None)  # the guard's to_act and its JSON: the move's is the same
    for statement, p in statements:
        if statement is _BUMP_VERSION:
            acting = (p["now_to_act"], _json(p["now_to_act"]))
            out.append((_SQL_BUMP, (p["new"], acting[1], p["new_status"],
                                    _json(p["new_outcome"]), p["game"], p["old"])))
        elif statement is _BUMP_VERSION_HELD:
            acting = (p["now_to_act"], _json(p["now_to_act"]))
            out.append((_SQL_BUMP_HELD, (p["new"], acting[1], p["new_status"],
                                         _json(p["new_outcome"]), p["game"], p["old"],
                                         p["room"], p["seat_no"], p["holder"])))
        elif statement is _FINISH_ROOM:
            out.append((_SQL_FINISH, (p["room"],)))
        elif "seq" in p:
            to_act = acting[1] if p["to_act"] is acting[0] else _json(p["to_act"])
            out.append((_SQL_MOVE, (p["game_id"], p["seq"], p["seat"], _json(p["move"]),
                                    p["client_move_id"], to_act, _stamp(p["created_at"]))))
        elif "state" in p:
            out.append((_SQL_SNAPSHOT, (p["game_id"], p["version"], _json(p["state"]),
                                        p["ruleset_version"])))
        else:  # a statement added to move_statements needs its plain SQL here too
            raise ValueError(f"no plain SQL for {statement}")
    return out


LOCK_RETRY_SECONDS = 0.0002  # a move waiting for SQLite's write lock tries again this often
LOCK_WAIT_SECONDS = 30.0  # and gives up after this long (the move fails with a 503)


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the lock."""
    return "locked" in str(exc) or "busy" in str(exc)


class SqliteWriter:
    """SQLite's single writer: one plain sqlite3 connection, used by one move at a time.

    A move's transaction is a few microseconds of SQLite work in WAL mode (no fsync per commit),
    far less than a hop to a thread and back, so it first runs inline on the event loop with no
    busy wait; only when another connection holds the write lock does it go to the writer thread
    and wait there. Checkpoints run on a thread of their own, so neither the loop nor the moves
    wait while the WAL is copied back.
    """

    def __init__(self, url: str, synchronous: str = "normal") -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self.checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-checkpoint")
        path = sync_url(url).split(":///", 1)[1]
        self.conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False,
                                    cached_statements=16)
        # One cursor for every move's statements: `conn.execute` makes a cursor per statement.
        self._cursor = self.conn.cursor()
        sqlite_pragmas(self.conn, synchronous=synchronous)
        self.conn.execute("PRAGMA wal_autocheckpoint = 0")
        # SQLAlchemy over the same connection, for the odd Core statement (bot leases).
        self._engine = create_engine("sqlite://", creator=lambda: self.conn, poolclass=StaticPool)
        self.path = path
        self._checkpointer: sqlite3.Connection | None = None
        self.inline_busy = 0  # moves that found the write lock taken and went to the thread
        self._busy_ms = -1  # the connection's busy_timeout as last set
        self.since_checkpoint = 0

    def _busy_timeout(self, ms: int) -> None:
        """Set how long SQLite waits for the write lock (only when it changes: a PRAGMA per move
        is a statement per move)."""
        if self._busy_ms != ms:
            self.conn.execute(f"PRAGMA busy_timeout = {int(ms)}")
            self._busy_ms = ms

    def try_inline(self, rows: list[tuple[str, tuple[Any, ...]]]) -> bool | None:
        """Run the transaction now without waiting for a lock; None if SQLite was busy."""
        self._busy_timeout(0)
        try:
            return self._transaction(rows)
        except sqlite3.OperationalError as exc:
            if _busy(exc):
                self.inline_busy += 1
                return None
            raise

    def write(self, rows: list[tuple[str, tuple[Any, ...]]], wait: float = LOCK_WAIT_SECONDS) -> bool:
        """Run the transaction, waiting (at most `wait` s) for the write lock if need be; on the
        writer thread. It tries again every LOCK_RETRY_SECONDS: SQLite's own busy handler sleeps
        1, 2, 5, 10 ms... between tries, so a move behind a 2 ms presence write could wait ~8 ms."""
        self._busy_timeout(0)
        deadline = time.monotonic() + wait
        while True:
            try:
                return self._transaction(rows)
            except sqlite3.OperationalError as exc:
                if not _busy(exc):
                    raise
                if time.monotonic() >= deadline:  # as SQLAlchemy reports it: the move gets a 503
                    raise sa_exc.OperationalError("BEGIN IMMEDIATE", None, exc) from exc
            time.sleep(LOCK_RETRY_SECONDS)

    def _transaction(self, rows: list[tuple[str, tuple[Any, ...]]]) -> bool:
        cursor = self._cursor
        cursor.execute("BEGIN IMMEDIATE")
        try:
            for i, (sql, params) in enumerate(rows):
                if cursor.execute(sql, params).rowcount != 1 and i == 0:
                    cursor.execute("ROLLBACK")
                    return False
            cursor.execute("COMMIT")
        except sqlite3.IntegrityError:
            cursor.execute("ROLLBACK")
            return False
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        self.since_checkpoint += 1
        return True

    def write_one(self, statement: Any) -> int:
        """Run one SQLAlchemy Core statement in its own transaction (on the writer thread, waiting
        for the write lock if need be); the number of rows it changed."""
        self._busy_timeout(30000)
        with self._engine.connect() as conn:  # the driver autocommits: one statement, one transaction
            return conn.execute(statement).rowcount

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
            self._checkpointer = sqlite3.connect(self.path, timeout=1, isolation_level=None,
                                                 check_same_thread=False)
        _busy, frames, copied = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()[0]
        return frames, copied

    def close(self) -> None:
        """Release the connections and the threads."""
        self.thread.shutdown(wait=True)
        self.checkpoints.shutdown(wait=True)
        self.conn.close()
        if self._checkpointer is not None:
            self._checkpointer.close()


_PG_BUMP = ("UPDATE games SET version = %s, to_act = %s::json, status = %s, outcome = %s::json "
            "WHERE id = %s AND version = %s AND status = 'active'")
_PG_HELD = " AND EXISTS (SELECT 1 FROM seats WHERE room_id = %s AND seat = %s AND player_id = %s)"


def postgres_statement(statements: list[tuple[Any, dict[str, Any]]]) -> tuple[str, list[Any]]:
    """The same transaction as ONE PostgreSQL statement: the version guard is an UPDATE in a WITH
    clause, and every other write selects from it, so nothing is written unless the guard held.
    One statement in autocommit is one round trip and one commit; it answers 1 if stored."""
    parts: list[str] = []
    params: list[Any] = []
    for statement, p in statements:
        if statement is _BUMP_VERSION or statement is _BUMP_VERSION_HELD:
            sql = _PG_BUMP
            params += [p["new"], _json(p["now_to_act"]), p["new_status"], _json(p["new_outcome"]),
                       p["game"], p["old"]]
            if statement is _BUMP_VERSION_HELD:
                sql += _PG_HELD
                params += [p["room"], p["seat_no"], p["holder"]]
            parts.append(f"bump AS ({sql} RETURNING 1)")
        elif statement is _FINISH_ROOM:
            parts.append("room AS (UPDATE rooms SET status = 'finished' FROM bump WHERE rooms.id = %s)")
            params.append(p["room"])
        elif "seq" in p:
            parts.append("move AS (INSERT INTO moves (game_id, seq, seat, move, client_move_id, to_act,"
                         " created_at) SELECT %s, %s::int, %s::int, %s::json, %s::text, %s::json,"
                         " %s::timestamptz FROM bump)")
            params += [p["game_id"], p["seq"], p["seat"], _json(p["move"]), p["client_move_id"],
                       _json(p["to_act"]), p["created_at"]]
        elif "state" in p:
            parts.append("snap AS (INSERT INTO snapshots (game_id, version, state, "
                         "ruleset_version) SELECT %s, %s::int, %s::json, %s::text FROM bump)")
            params += [p["game_id"], p["version"], _json(p["state"]), p["ruleset_version"]]
        else:  # a statement added to move_statements needs its PostgreSQL form here too
            raise ValueError(f"no PostgreSQL form for {statement}")
    return "WITH " + ", ".join(parts) + " SELECT count(*) FROM bump", params


class PostgresWriter:
    """PostgreSQL's move path: each move is one statement (see postgres_statement) on a plain
    psycopg connection in autocommit, with no SQLAlchemy session around it. Connections are
    kept in a small pool of their own (prepared statements stay on them); a broken one drops
    every idle connection, as SQLAlchemy's pool does on a disconnect, and the move fails with a
    retryable 503."""

    def __init__(self, url: str, size: int = 8) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self._idle: list[Any] = []
        self._slots = asyncio.Semaphore(size)

    async def write(self, statements: list[tuple[Any, dict[str, Any]]]) -> bool:
        """Store one move's transaction; False if the guard failed or a key was taken."""
        import psycopg
        from sqlalchemy import exc as sa

        sql, params = postgres_statement(statements)
        async with self._slots:
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
                raise sa.DataError(sql, params, exc) from exc
            except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
                await self._drop(conn)
                raise sa.OperationalError(sql, params, exc) from exc
            except psycopg.Error as exc:
                await self._drop(conn)
                raise sa.DBAPIError(sql, params, exc) from exc
            except BaseException:  # cancelled mid-statement: the connection's state is unknown
                await self._drop(conn)
                raise
            self._idle.append(conn)
            return bool(row and row[0] == 1)

    async def _drop(self, conn: Any) -> None:
        """Close this connection and every idle one (after a disconnect they are all suspect)."""
        doomed, self._idle = [c for c in [conn, *self._idle] if c is not None], []
        for c in doomed:
            try:
                await c.close()
            except Exception:  # noqa: BLE001 - closing a dead connection may fail; it is gone anyway
                pass

    async def close(self) -> None:
        """Close the idle connections."""
        await self._drop(None)


class Conflict(Exception):
    """Raised inside the move transaction to roll it back when the version guard fails."""
