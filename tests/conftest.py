"""Shared fixtures: the test-only game, a fresh database per test on SQLite and on PostgreSQL,
and a running app (lifespan included) behind Starlette's TestClient."""

from __future__ import annotations

import os
import secrets
from typing import Iterator

import pytest

from app.engine import registry
from tests.support.testgame import TEST_GAME

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
TABLES = "chat_messages, rematches, seat_clocks, room_paces, snapshots, moves, games, seats, rooms, players"


def _postgres_reachable(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=2):
            return True
    except Exception:
        return False


def _backends() -> list[str]:
    backends = ["sqlite"]
    if POSTGRES_URL and _postgres_reachable(POSTGRES_URL):
        backends.append("postgres")
    return backends


@pytest.fixture(autouse=True, scope="session")
def _register_test_game():
    registry.register(TEST_GAME)
    yield
    registry.unregister(TEST_GAME.id)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The test PostgreSQL database, migrated once for the session."""
    from app.main import migrate

    migrate(POSTGRES_URL)
    yield POSTGRES_URL


@pytest.fixture(params=_backends())
def db_url(request, tmp_path) -> str:
    """A database URL with an empty, migrated schema: a new SQLite file, or PostgreSQL truncated."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}"
    url = request.getfixturevalue("postgres_url")
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as c:
        c.execute(f"TRUNCATE {TABLES} CASCADE")
    return url


@pytest.fixture
def settings(db_url):
    """Settings for a test app: no bot delay, the test game registered."""
    from app.config import Settings

    # The bot watchdog's periodic pass is a background query; tests that count queries must not
    # see it, and tests of the watchdog call `platform.bots.check()` themselves.
    return Settings(database_url=db_url, bot_delay_ms=0, heartbeat_seconds=30,
                    extra_rulesets="tests.support.testgame:TEST_GAME", broker_url="memory://",
                    bot_watchdog_seconds=3600)


@pytest.fixture
def client(settings):
    """A running app."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def unique() -> str:
    """A short random string for names."""
    return secrets.token_hex(3)
