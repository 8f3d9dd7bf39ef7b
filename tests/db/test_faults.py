"""Injected faults (issue 12, catalogue 3C): an instance killed between commit and broadcast.
No acknowledged move is lost, retries stay idempotent, and clients resync."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from tests.support.fault_server import EXIT_STATUS
from tests.support.server import ServerProcess

pytestmark = pytest.mark.multiprocess


def _setup_game(url, seats=1):
    players = [httpx.post(f"{url}/api/players", json={"name": f"P{i}"}).json() for i in range(seats)]
    headers = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    room = httpx.post(
        f"{url}/api/rooms",
        headers=headers[0],
        json={"ruleset": "testgame", "seats": seats, "options": {"rounds": 3}},
    ).json()
    for h in headers[1:]:
        assert httpx.post(f"{url}/api/rooms/{room['id']}/join", headers=h, json={}).status_code == 200
    game = httpx.post(f"{url}/api/rooms/{room['id']}/start", headers=headers[0]).json()["game_id"]
    return game, players, headers


def test_killed_between_commit_and_broadcast_loses_nothing(db_url):
    """The instance dies after the move commits and before anyone is told: the client gets no
    answer; after a restart the move is there once, a retry with its id returns the same
    version, and a reconnecting socket's snapshot shows it."""
    env = {"CIVITAS_DATABASE_URL": db_url, "CIVITAS_BOT_DELAY_MS": "0"}
    server = ServerProcess(env, module="tests.support.fault_server").start()
    port = server.port
    try:
        game, _, (h,) = _setup_game(server.url)
        legal = httpx.get(f"{server.url}/api/games/{game}/legal-moves", headers=h).json()
        body = {"version": 0, "move": legal["moves"][0], "id": "only-once"}
        with pytest.raises(httpx.HTTPError):
            httpx.post(f"{server.url}/api/games/{game}/moves", headers=h, json=body)
        assert server.proc.wait(10) == EXIT_STATUS
    finally:
        server.stop()
    with ServerProcess(env, port=port) as again:
        assert httpx.get(f"{again.url}/api/games/{game}", headers=h).json()["version"] == 1
        retry = httpx.post(f"{again.url}/api/games/{game}/moves", headers=h, json=body)
        assert retry.status_code == 200 and retry.json() == {"version": 1}

        async def reconnect():
            async with websockets.connect(f"{again.url.replace('http', 'ws')}/ws/games/{game}") as ws:
                return json.loads(await asyncio.wait_for(ws.recv(), 10))

        assert asyncio.run(reconnect())["game"]["version"] == 1
        log = httpx.get(f"{again.url}/api/games/{game}/log", headers=h).json()["moves"]
        assert [m["seq"] for m in log] == [1]
