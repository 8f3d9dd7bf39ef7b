"""Crash consistency: a server killed with SIGKILL loses no acknowledged move, and a retried
move id after the restart returns the first answer instead of playing twice."""

from __future__ import annotations

import signal

import httpx

from tests.support.server import ServerProcess


def test_sigkill_loses_no_acked_move_and_retries_stay_idempotent(db_url):
    """Every move acked before SIGKILL is there after restart; the game goes on from there."""
    env = {"CIVITAS_DATABASE_URL": db_url, "CIVITAS_BOT_DELAY_MS": "0"}
    server = ServerProcess(env).start()
    port = server.port
    try:
        a = httpx.post(f"{server.url}/api/players", json={"name": "A"}).json()
        h = {"Authorization": f"Bearer {a['token']}"}
        room = httpx.post(
            f"{server.url}/api/rooms",
            headers=h,
            json={"ruleset": "testgame", "seats": 1, "options": {"rounds": 5}},
        ).json()
        game = httpx.post(f"{server.url}/api/rooms/{room['id']}/start", headers=h).json()["game_id"]
        acked = []
        for i in range(6):
            legal = httpx.get(f"{server.url}/api/games/{game}/legal-moves", headers=h).json()
            body = {"version": legal["version"], "move": legal["moves"][0], "id": f"move-{i}"}
            r = httpx.post(f"{server.url}/api/games/{game}/moves", headers=h, json=body)
            assert r.status_code == 200
            acked.append((body, r.json()["version"]))
        before = httpx.get(f"{server.url}/api/games/{game}", headers=h).json()
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(10)
    finally:
        server.stop()
    with ServerProcess(env, port=port) as again:
        after = httpx.get(f"{again.url}/api/games/{game}", headers=h).json()
        assert after == before and after["version"] == acked[-1][1] == 6
        body, version = acked[-1]
        retry = httpx.post(f"{again.url}/api/games/{game}/moves", headers=h, json=body)
        assert retry.status_code == 200 and retry.json() == {"version": version}
        log = httpx.get(f"{again.url}/api/games/{game}/log", headers=h).json()["moves"]
        assert [m["seq"] for m in log] == [1, 2, 3, 4, 5, 6]
        legal = httpx.get(f"{again.url}/api/games/{game}/legal-moves", headers=h).json()
        r = httpx.post(
            f"{again.url}/api/games/{game}/moves",
            headers=h,
            json={"version": legal["version"], "move": legal["moves"][0]},
        )
        assert r.status_code == 200 and r.json()["version"] == 7
