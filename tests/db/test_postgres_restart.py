"""A PostgreSQL restart in the middle of a game (catalogue C2), on a throwaway cluster this test
starts on its own port (never the shared server): moves during the outage get a retryable 503,
never a false ack; after the restart the game goes on and no acknowledged move is lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from tests.support.api import doc, legal, started_game
from tests.support.server import free_port

BIN = Path("/usr/lib/postgresql/15/bin")
pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not (BIN / "initdb").exists() or os.geteuid() != 0 and not os.environ.get("CI"),
        reason="needs PostgreSQL 15's server binaries (Debian postgresql-15) and root "
        "to run them as the postgres user",
    ),
]


def _pg(*args, data):
    run = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run(
        run + [str(BIN / args[0]), *args[1:]],
        check=True,
        cwd="/tmp",
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


@pytest.fixture
def cluster():
    """A fresh PostgreSQL cluster on a free port, removed afterwards."""
    data = Path(tempfile.mkdtemp(prefix="civitas-pg-"))
    shutil.chown(data, "postgres", "postgres")
    port = free_port()
    _pg("initdb", "-D", str(data / "db"), "-A", "trust", "-U", "postgres", data=data)
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
    control = lambda action: _pg(
        "pg_ctl",
        "-D",
        str(data / "db"),
        "-o",
        options,
        "-w",
        "-m",
        "fast",
        "-l",
        str(data / "log"),
        action,
        data=data,
    )
    control("start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", control
    finally:
        try:
            control("stop")
        finally:
            shutil.rmtree(data, ignore_errors=True)


def _move(client, game_id, players, move_id):
    player = next(p for p in players if legal(client, game_id, p)["moves"])
    moves = legal(client, game_id, player)
    return client.post(
        f"/api/games/{game_id}/moves",
        headers=player["headers"],
        json={"version": moves["version"], "move": moves["moves"][0], "id": move_id},
    ), player


def test_a_postgres_restart_mid_game_loses_no_acknowledged_move(cluster):
    """Two acked moves, a restart of the database server, then the game resumes: the first
    request after the restart may get 503 (a retry with the same move id is safe), never a
    false ack, and every acked move is there."""
    url, control = cluster
    settings = Settings(
        database_url=url,
        bot_delay_ms=0,
        heartbeat_seconds=30,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        bot_watchdog_seconds=3600,
    )
    with TestClient(create_app(settings)) as client:
        game_id, players = started_game(client, options={"rounds": 3})
        acked = []
        for i in range(2):
            r, _ = _move(client, game_id, players, f"m{i}")
            assert r.status_code == 200
            acked.append(r.json()["version"])
        control("restart")
        answers = []
        for _attempt in range(12):  # the pool drops its dead connections on the first failures
            try:
                r, player = _move(client, game_id, players, "after")
            except AssertionError as exc:  # a read refused during the reconnect
                assert "retry" in str(exc)
                answers.append(503)
                continue
            answers.append(r.status_code)
            if r.status_code == 200:
                break
            assert r.status_code == 503 and "retry" in r.json()["detail"]
        assert answers[-1] == 200 and r.json()["version"] == acked[-1] + 1
        final = doc(client, game_id)
        assert final["version"] == acked[-1] + 1
        log = client.get(f"/api/games/{game_id}/log").json()["moves"]
        assert [m["seq"] for m in log] == [1, 2, 3]


def test_a_postgres_restart_gives_503s_then_answers_with_no_error_logged(cluster, caplog):
    """After a restart the pool's connections are dead: requests that use a session answer 503
    "retry" (never a traceback, never "response already started"), then 200, and nothing is
    logged as an error. (The teardown failure itself, which a restart only hits in a narrow
    window, is forced in tests/api/test_pool.py.)"""
    url, control = cluster
    settings = Settings(
        database_url=url,
        bot_delay_ms=0,
        heartbeat_seconds=30,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        bot_watchdog_seconds=3600,
        clock_sweep_seconds=0,
        cleanup_seconds=0,
        lobby_resync_seconds=0,
    )
    with TestClient(create_app(settings)) as client:
        game_id, players = started_game(client, options={"rounds": 3})
        host = players[0]
        room_id = doc(client, game_id)["room_id"]
        # Fill the pool with connections that the restart will kill.
        for _ in range(5):
            assert client.get(f"/api/rooms/{room_id}", headers=host["headers"]).status_code == 200
        control("restart")
        caplog.clear()
        statuses = []
        for _ in range(8):
            for method, path, body in (
                ("GET", f"/api/rooms/{room_id}", None),
                ("GET", "/api/players/me/rooms", None),
                ("POST", "/api/rooms", {"ruleset": "testgame", "seats": 2}),
            ):
                r = client.request(method, path, headers=host["headers"], json=body)
                statuses.append(r.status_code)
                assert r.status_code in (200, 201, 503), r.text
        assert statuses[-3:] == [200, 200, 201] or 503 not in statuses[-3:]
    errors = [rec for rec in caplog.records if rec.levelname in ("ERROR", "CRITICAL")]
    assert not any("already started" in rec.getMessage() for rec in caplog.records)
    assert errors == [], [rec.getMessage() for rec in errors]
