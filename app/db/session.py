"""Async engine and session factory; SQLite gets WAL and foreign keys on every connection."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, cast

from sqlalchemy import CursorResult, Result, event
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from app.config import async_url

log = logging.getLogger(__name__)


SYNCHRONOUS = ("normal", "full")


def sqlite_pragmas(dbapi_conn: Any, _record: Any = None, synchronous: str = "normal") -> None:
    """Every SQLite connection: WAL journal, NORMAL sync by default (no fsync per commit; FULL
    on request, see docs/RELIABILITY.md), foreign keys."""
    if synchronous.lower() not in SYNCHRONOUS:
        raise ValueError(f"CIVITAS_SQLITE_SYNCHRONOUS must be one of {', '.join(SYNCHRONOUS)}.")
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA synchronous={synchronous.upper()}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


async def in_a_task() -> None:
    """Suspend once when running outside any task, before a database access: a socket frame is
    handled eagerly in the protocol's callback (app/realtime/eager.py), and a pool checkout that
    has to wait for a connection times its wait with asyncio.timeout, which needs a task (it
    raised "Timeout should be used inside a task" and closed the socket 1011 when the pool was
    busy). After the suspension a task drives the coroutine on."""
    if asyncio.current_task() is None:
        await asyncio.sleep(0)


class TimedPool(AsyncAdaptedQueuePool):
    """The usual async pool, timing how long each checkout waits for a free connection (the
    /metrics pool-wait histogram: a busy pool shows there before requests time out), counting
    checkouts that time out, and counting a task that checks out a connection while it already
    holds one: the pattern that deadlocks a busy pool (every holder waits for one more)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._holders: dict[int, Any] = {}  # id(connection record) -> the task holding it
        self._held: dict[Any, int] = {}  # task -> connections it holds

    def _do_get(self) -> Any:  # a ConnectionPoolEntry (SQLAlchemy types it loosely too)
        from app.observability.metrics import POOL_NESTED, POOL_TIMEOUTS, POOL_WAIT, POOL_WAITS

        start = time.perf_counter()
        try:
            record = super()._do_get()
        except PoolTimeout:
            POOL_TIMEOUTS.inc()
            raise
        finally:
            waited = time.perf_counter() - start
            POOL_WAIT.observe(waited)
            if waited > 0.001:
                POOL_WAITS.inc()
        task = _current_task()
        if task is not None:
            held = self._held.get(task, 0)
            if held:
                POOL_NESTED.inc()
                log.warning(
                    "a task checked out a second database connection while holding one: %r", task.get_coro()
                )
            self._held[task] = held + 1
            self._holders[id(record)] = task
        return record

    def _do_return_conn(self, record: Any) -> None:
        task = self._holders.pop(id(record), None)
        if task is not None:
            left = self._held.get(task, 1) - 1
            if left > 0:
                self._held[task] = left
            else:
                self._held.pop(task, None)
        return super()._do_return_conn(record)


def _current_task() -> Any:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop (a synchronous use, e.g. a migration)
        return None


def make_engine(
    url: str,
    sqlite_synchronous: str = "normal",
    pool_size: int | None = None,
    max_overflow: int | None = None,
    pool_timeout: float = 30.0,
) -> AsyncEngine:
    """An async engine for `url` (sqlite or postgresql), its pool sized by `pool_size` and
    `max_overflow` (None: the backend's default below)."""
    url = async_url(url)
    if url.startswith("sqlite"):
        # A request holds at most one connection, briefly (reads; writes queue for SQLite's one
        # writer): 10 + 10 covers a burst of 20 requests in flight without a wait.
        engine = create_async_engine(
            url,
            connect_args={"timeout": 30},
            poolclass=TimedPool,
            pool_size=10 if pool_size is None else pool_size,
            max_overflow=10 if max_overflow is None else max_overflow,
            pool_timeout=pool_timeout,
        )
        event.listen(
            engine.sync_engine,
            "connect",
            lambda conn, record: sqlite_pragmas(conn, record, sqlite_synchronous),
        )
        return engine
    # No pre-ping (it costs a round trip per request, about a third of a move's time here): a
    # connection the server dropped fails its request with a retryable 503, and SQLAlchemy
    # then discards the pool's stale connections.
    # 10 + 20 per process: two workers stay well under PostgreSQL's default 100 connections
    # (with the move writers' own connections and a migration beside them).
    return create_async_engine(
        url,
        pool_size=10 if pool_size is None else pool_size,
        max_overflow=20 if max_overflow is None else max_overflow,
        pool_timeout=pool_timeout,
        pool_recycle=1800,
        poolclass=TimedPool,
    )


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def rowcount(result: Result[Any]) -> int:
    """The rows an UPDATE or DELETE matched: its result is a CursorResult, though the session's
    `execute` is typed to return any Result."""
    return cast(CursorResult[Any], result).rowcount
