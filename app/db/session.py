"""Async engine and session factory; SQLite gets WAL and foreign keys on every connection."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.config import async_url


def sqlite_pragmas(dbapi_conn: Any, _record: Any = None) -> None:
    """Every SQLite connection: WAL journal, NORMAL sync (no fsync per commit), foreign keys."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for `url` (sqlite or postgresql)."""
    url = async_url(url)
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        event.listen(engine.sync_engine, "connect", sqlite_pragmas)
        return engine
    # No pre-ping (it costs a round trip per request, about a third of a move's time here): a
    # connection the server dropped fails its request with a retryable 503, and SQLAlchemy
    # then discards the pool's stale connections.
    return create_async_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)
