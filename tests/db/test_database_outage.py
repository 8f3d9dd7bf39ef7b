"""A dropped database connection gives a retryable 503, never a false acknowledgement; the pool
recovers and a retried move id is applied exactly once."""

from __future__ import annotations

import os
from typing import Any

import psycopg
import pytest

from tests.support.api import doc, legal, started_game

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
# In CI these services must be there: a missing one fails the run instead of skipping quietly.
IN_CI = bool(os.environ.get("CI"))


NEEDS_POSTGRES = pytest.mark.skipif(
    not POSTGRES_URL and not IN_CI,
    reason="needs CIVITAS_TEST_POSTGRES_URL (a PostgreSQL whose connections the test can terminate)",
)


def _terminate_connections(postgres_url: str) -> None:
    """Kill every other server connection to the test database, as a PostgreSQL restart would."""
    with psycopg.connect(
        postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    ) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


def _client(postgres_url: str):
    from fastapi.testclient import TestClient

    from app.config import Settings
    from app.main import create_app

    settings = Settings(
        database_url=postgres_url, bot_delay_ms=0, extra_rulesets="tests.support.testgame:TEST_GAME"
    )
    return TestClient(create_app(settings))


def _move(client, game_id: str, player: dict[str, Any], version: int, move_id: str, move: Any = None):
    """Send `move` (by default the player's first legal move) with a client id."""
    move = legal(client, game_id, player)["moves"][0] if move is None else move
    body = {"version": version, "move": move, "id": move_id}
    return client.post(f"/api/games/{game_id}/moves", headers=player["headers"], json=body)


@NEEDS_POSTGRES
def test_killed_connections_give_503_then_recover(postgres_url):
    """Terminate every server connection of the app mid-game: moves fail with 503 or succeed;
    a retry with the same id never plays twice; reads recover after at most one 503."""
    with _client(postgres_url) as client:
        game_id, (a, b) = started_game(client)
        move = legal(client, game_id, a)["moves"][0]
        _terminate_connections(postgres_url)
        body = {"version": 0, "move": move, "id": "after-outage"}
        answers = [
            client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body) for _ in range(3)
        ]
        statuses = [r.status_code for r in answers]
        assert set(statuses) <= {200, 503} and 200 in statuses, statuses
        for r in answers:
            if r.status_code == 503:
                assert "retry" in r.json()["detail"]
            else:
                assert r.json() == {"version": 1}
        # A read may meet one stale pooled connection (no pre-ping, by design: README); the 503
        # says to retry and the pool has then dropped every stale connection.
        reads = [client.get(f"/api/games/{game_id}", headers=a["headers"]) for _ in range(2)]
        assert [r.status_code for r in reads] in ([200, 200], [503, 200]), [r.text for r in reads]
        assert doc(client, game_id, a)["version"] == 1
        assert len(client.get(f"/api/games/{game_id}/log").json()["moves"]) == 1


@NEEDS_POSTGRES
def test_a_move_store_disconnect_refreshes_the_request_pool(postgres_url):
    """The move store and the request sessions keep separate pools: when a move finds its
    connection dead, the request pool is dropped too, so the next read does not fail again."""
    with _client(postgres_url) as client:
        game_id, (a, b) = started_game(client)
        assert _move(client, game_id, a, 0, "m1").status_code == 200  # the store now holds a connection
        move = legal(client, game_id, b)["moves"][0]  # and so does the request pool
        _terminate_connections(postgres_url)
        failed = _move(client, game_id, b, 1, "m2", move)
        assert failed.status_code == 503, failed.text
        assert doc(client, game_id, a)["version"] == 1  # first read after the outage: no 503
        assert _move(client, game_id, b, 1, "m2", move).status_code == 200


@NEEDS_POSTGRES
def test_a_request_pool_disconnect_refreshes_the_move_store(postgres_url):
    """The other way round: a read that meets a dead connection warns the move store, whose next
    move opens a fresh connection instead of failing on its stale one."""
    with _client(postgres_url) as client:
        game_id, (a, b) = started_game(client)
        assert _move(client, game_id, a, 0, "m1").status_code == 200
        move = legal(client, game_id, b)["moves"][0]
        _terminate_connections(postgres_url)
        stale = client.get(f"/api/games/{game_id}", headers=a["headers"])
        assert stale.status_code == 503, stale.text
        assert _move(client, game_id, b, 1, "m2", move).status_code == 200  # no second 503
        assert doc(client, game_id, a)["version"] == 2
