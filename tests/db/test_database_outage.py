"""A dropped database connection gives a retryable 503, never a false acknowledgement; the pool
recovers and a retried move id is applied exactly once."""

from __future__ import annotations

import os

import psycopg
import pytest

from tests.support.api import doc, legal, started_game

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
# In CI these services must be there: a missing one fails the run instead of skipping quietly.
IN_CI = bool(os.environ.get("CI"))


@pytest.mark.skipif(not POSTGRES_URL and not IN_CI, reason="needs CIVITAS_TEST_POSTGRES_URL (a PostgreSQL whose "
                    "connections the test can terminate)")
def test_killed_connections_give_503_then_recover(postgres_url):
    """Terminate every server connection of the app mid-game: moves fail with 503 or succeed;
    a retry with the same id never plays twice."""
    from fastapi.testclient import TestClient

    from app.config import Settings
    from app.main import create_app

    settings = Settings(database_url=postgres_url, bot_delay_ms=0,
                        extra_rulesets="tests.support.testgame:TEST_GAME")
    with TestClient(create_app(settings)) as client:
        game_id, (a, b) = started_game(client)
        move = legal(client, game_id, a)["moves"][0]
        with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://"),
                             autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE datname = current_database() AND pid <> pg_backend_pid()")
        body = {"version": 0, "move": move, "id": "after-outage"}
        answers = [client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body)
                   for _ in range(3)]
        statuses = [r.status_code for r in answers]
        assert set(statuses) <= {200, 503} and 200 in statuses, statuses
        for r in answers:
            if r.status_code == 503:
                assert "retry" in r.json()["detail"]
            else:
                assert r.json() == {"version": 1}
        assert doc(client, game_id, a)["version"] == 1
        assert len(client.get(f"/api/games/{game_id}/log").json()["moves"]) == 1
