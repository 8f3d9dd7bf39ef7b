"""Async engine and session factory; SQLite gets WAL and foreign keys on every connection."""

from __future__ import annotations

from typing import Any

import time

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from app.config import async_url


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


class TimedPool(AsyncAdaptedQueuePool):
    """The usual async pool, timing how long each checkout waits for a free connection
    (the /metrics pool-wait histogram: a busy pool shows there before requests time out)."""

    def _do_get(self):  # type: ignore[no-untyped-def]
        from app.observability.metrics import POOL_WAIT, POOL_WAITS

        start = time.perf_counter()
        try:
            return super()._do_get()
        finally:
            waited = time.perf_counter() - start
            POOL_WAIT.observe(waited)
            if waited > 0.001:
                POOL_WAITS.inc()


def make_engine(url: str, sqlite_synchronous: str = "normal") -> AsyncEngine:
    """An async engine for `url` (sqlite or postgresql)."""
    url = async_url(url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, poolclass=TimedPool)
        event.listen(engine.sync_engine, "connect",
                     lambda conn, record: sqlite_pragmas(conn, record, sqlite_synchronous))
        return engine
    # No pre-ping (it costs a round trip per request, about a third of a move's time here): a
    # connection the server dropped fails its request with a retryable 503, and SQLAlchemy
    # then discards the pool's stale connections.
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800,
                               poolclass=TimedPool)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
