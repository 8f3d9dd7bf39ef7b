"""Fault C3: Redis stops in the middle of a game and starts again, under two server processes.

While Redis is down each instance keeps serving its own sockets (moves acknowledged, their
patches delivered locally); when it returns both instances subscribe again, the socket that
missed a move made on the other instance gets it without asking, events flow again, and no
acknowledged move is lost. The test runs its own throwaway `redis-server` on a free port: the
machine's shared Redis is never touched.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time

import httpx
import jsonpatch
import pytest
import redis
import websockets

from tests.support.server import ServerProcess, free_port
from tests.support.services import IN_CI

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
CHANNEL = "civitas:events"

pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not shutil.which("redis-server") and not IN_CI,
        reason="needs Redis's redis-server program (.ci/run has it)",
    ),
]


class ThrowawayRedis:
    """A redis-server of this test's own, on its own port, with nothing saved to disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it and wait until it answers a ping."""
        self.proc = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        for _ in range(100):  # a bound, not a timing
            try:
                if client.ping():
                    return
            except redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        """Stop it hard (SIGKILL), as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def subscribers(self) -> int:
        """How many connections are subscribed to the broker's channel."""
        return dict(redis.Redis(port=self.port).pubsub_numsub(CHANNEL)).get(CHANNEL.encode(), 0)


class Player:
    """One player's socket on one instance, keeping its document up to date frame by frame."""

    def __init__(self, http: httpx.AsyncClient, url: str, token: str, game_id: str) -> None:
        self.http, self.url, self.game_id = http, url, game_id
        self.headers = {"Authorization": f"Bearer {token}"}
        self.token = token
        self.doc: dict | None = None
        self.acks: dict[str, int] = {}
        self.ws = None

    async def frame(self) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
        if frame["type"] == "snapshot":
            self.doc = frame["game"]
        elif frame["type"] == "patch":
            assert frame["version"] == self.doc["version"] + 1, (frame["version"], self.doc["version"])
            self.doc = jsonpatch.apply_patch(self.doc, frame["ops"])
        elif frame["type"] == "ack":
            self.acks[frame["id"]] = frame["version"]
        elif frame["type"] == "error":
            raise AssertionError(frame)
        return frame

    async def move(self, move_id: str) -> int:
        """Play the seat's first legal move on the socket; the acknowledged version."""
        legal = (
            await self.http.get(f"{self.url}/api/games/{self.game_id}/legal-moves", headers=self.headers)
        ).json()
        await self.ws.send(
            json.dumps(
                {"type": "move", "version": legal["version"], "move": legal["moves"][0], "id": move_id}
            )
        )
        while move_id not in self.acks:
            await self.frame()
        return self.acks[move_id]

    async def settle(self) -> None:
        """Read everything the server sent before it answers a ping."""
        await self.ws.send(json.dumps({"type": "ping"}))
        while (await self.frame())["type"] != "pong":
            pass

    async def reach(self, version: int) -> None:
        """Wait (bounded) until the document is at `version`, without asking for a sync."""
        for _ in range(100):
            await self.settle()
            if self.doc["version"] >= version:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"stuck at version {self.doc['version']}, expected {version}")


def test_redis_stopped_and_started_mid_game(tmp_path):
    """Two instances over a Redis that is killed after two moves and started again after three
    more: every move is acknowledged, each instance's own sockets get their patches during the
    outage, the socket left behind catches up once Redis is back (no sync asked), the next move
    crosses instances through Redis again, and the database holds every acknowledged move."""
    store = ThrowawayRedis()
    store.start()
    env = {
        "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}",
        "CIVITAS_BROKER_URL": f"redis://127.0.0.1:{store.port}/0",
        "CIVITAS_BOT_DELAY_MS": "0",
        # No heartbeat during the test: only the broker can tell one instance of the other's moves.
        "CIVITAS_HEARTBEAT_SECONDS": "600",
    }
    try:
        with ServerProcess(env) as one, ServerProcess(env) as two:
            asyncio.run(_outage(one.url, two.url, store))
    finally:
        store.kill()


async def _outage(url_one: str, url_two: str, store: ThrowawayRedis) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        a = (await http.post(f"{url_one}/api/players", json={"name": "A"})).json()
        b = (await http.post(f"{url_two}/api/players", json={"name": "B"})).json()
        room = (
            await http.post(
                f"{url_one}/api/rooms",
                headers={"Authorization": f"Bearer {a['token']}"},
                json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 3}},
            )
        ).json()
        assert (
            await http.post(
                f"{url_two}/api/rooms/{room['id']}/join",
                headers={"Authorization": f"Bearer {b['token']}"},
                json={},
            )
        ).status_code == 200
        game_id = (
            await http.post(
                f"{url_one}/api/rooms/{room['id']}/start", headers={"Authorization": f"Bearer {a['token']}"}
            )
        ).json()["game_id"]
        pa, pb = Player(http, url_one, a["token"], game_id), Player(http, url_two, b["token"], game_id)
        for p in (pa, pb):
            p.ws = await websockets.connect(
                p.url.replace("http", "ws") + f"/ws/games/{game_id}",
                subprotocols=["civitas", f"bearer.{p.token}"],
            )
            assert (await p.frame())["type"] == "snapshot"
        try:
            assert await pa.move("a1") == 1 and await pb.move("b1") == 2  # both bid
            await pa.reach(2)  # b's bid reached instance one through Redis

            store.kill()
            assert await pa.move("a2") == 3  # seat 0 draws: acknowledged, patched locally
            assert await pb.move("b2") == 4  # seat 1 draws through the other instance
            await pb.reach(4)  # its own patches (3 and 4), delivered locally
            assert await pa.move("a3") == 5  # seat 0 bids: instance two is not told
            await pa.reach(5)
            await pb.settle()
            assert pb.doc["version"] == 4  # nothing can carry version 5 to instance two now

            store.start()
            for _ in range(300):  # both instances subscribe again (bounded wait)
                if store.subscribers() == 2:
                    break
                await asyncio.sleep(0.1)
            assert store.subscribers() == 2
            await pb.reach(5)  # the missed move arrives without the client asking
            assert await pb.move("b3") == 6
            await pa.reach(6)  # and events cross instances through Redis again
            await pb.reach(6)

            for p, other in ((pa, url_two), (pb, url_one)):
                fetched = (await http.get(f"{other}/api/games/{game_id}", headers=p.headers)).json()
                assert fetched == p.doc
            assert sorted({**pa.acks, **pb.acks}.values()) == [1, 2, 3, 4, 5, 6]
            log = (await http.get(f"{url_one}/api/games/{game_id}/log", headers=pa.headers)).json()
            assert log["version"] == 6 and [m["seq"] for m in log["moves"]] == [1, 2, 3, 4, 5, 6]
        finally:
            for p in (pa, pb):
                await p.ws.close()
