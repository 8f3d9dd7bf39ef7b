"""Scale-out: two server processes on one PostgreSQL and one Redis serve the same game; a player
on each instance sees the other's moves pushed as patches."""

from __future__ import annotations

import asyncio
import json
import os

import httpx
import jsonpatch
import pytest
import websockets

from tests.support.server import ServerProcess

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
# In CI these services must be there: a missing one fails the run instead of skipping quietly.
IN_CI = bool(os.environ.get("CI"))
REDIS_URL = os.environ.get("CIVITAS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:
        return False


pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(
        not POSTGRES_URL and not IN_CI,
        reason="needs CIVITAS_TEST_POSTGRES_URL (make test sets it when a PostgreSQL is reachable)",
    ),
    pytest.mark.skipif(
        not _redis_up() and not IN_CI, reason=f"needs a Redis at {REDIS_URL} (.ci/run starts one)"
    ),
]


async def _next(ws, kind):
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] != "heartbeat":
            assert frame["type"] == kind, frame
            return frame


def test_a_game_across_two_instances(postgres_url):
    """Players on different instances play a whole game; each instance pushes every move to its socket."""
    env = {
        "CIVITAS_DATABASE_URL": postgres_url,
        "CIVITAS_BROKER_URL": REDIS_URL,
        "CIVITAS_BOT_DELAY_MS": "0",
        "CIVITAS_HEARTBEAT_SECONDS": "600",
    }
    with ServerProcess(env) as one, ServerProcess(env) as two:
        asyncio.run(_play(one.url, two.url))


async def _play(url_one: str, url_two: str) -> None:
    async with httpx.AsyncClient() as http:
        a = (await http.post(f"{url_one}/api/players", json={"name": "A"})).json()
        b = (await http.post(f"{url_two}/api/players", json={"name": "B"})).json()
        ha, hb = ({"Authorization": f"Bearer {p['token']}"} for p in (a, b))
        room = (
            await http.post(
                f"{url_one}/api/rooms",
                headers=ha,
                json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 2}},
            )
        ).json()
        assert (
            await http.post(f"{url_two}/api/rooms/{room['id']}/join", headers=hb, json={})
        ).status_code == 200
        game_id = (await http.post(f"{url_one}/api/rooms/{room['id']}/start", headers=ha)).json()["game_id"]
        ws_base = {url_one: url_one.replace("http", "ws"), url_two: url_two.replace("http", "ws")}
        async with (
            websockets.connect(f"{ws_base[url_one]}/ws/games/{game_id}?token={a['token']}") as wa,
            websockets.connect(f"{ws_base[url_two]}/ws/games/{game_id}?token={b['token']}") as wb,
        ):
            docs = [(await _next(wa, "snapshot"))["game"], (await _next(wb, "snapshot"))["game"]]
            sockets, urls, headers = [wa, wb], [url_one, url_two], [ha, hb]
            while docs[0]["status"] == "active":
                seat = docs[0]["to_act"][0]
                legal = (
                    await http.get(f"{urls[seat]}/api/games/{game_id}/legal-moves", headers=headers[seat])
                ).json()
                await sockets[seat].send(
                    json.dumps(
                        {
                            "type": "move",
                            "version": legal["version"],
                            "move": legal["moves"][0],
                            "id": f"m{legal['version']}",
                        }
                    )
                )
                for i, ws in enumerate(sockets):
                    frames = [json.loads(await asyncio.wait_for(ws.recv(), 10))]
                    if i == seat:
                        frames.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                    patch = next(f for f in frames if f["type"] == "patch")
                    docs[i] = jsonpatch.apply_patch(docs[i], patch["ops"])
                    assert docs[i]["version"] == patch["version"]
                for i in range(2):
                    fetched = (
                        await http.get(f"{urls[1 - i]}/api/games/{game_id}", headers=headers[i])
                    ).json()
                    assert fetched == docs[i]
            assert docs[1]["status"] == "finished" and docs[1]["outcome"]
