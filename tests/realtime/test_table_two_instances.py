"""The table across instances (one PostgreSQL, one Redis): a chat line sent to one instance
reaches a socket on the other, and a seat held by a bot there shows here too."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from tests.realtime.test_two_instances import REDIS_URL, pytestmark  # noqa: F401  (same skips)
from tests.support.server import ServerProcess


async def _next(ws, kind):
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), 15))
        if frame["type"] == kind:
            return frame


def test_chat_crosses_instances_and_held_seats_show_everywhere(postgres_url):
    """Chat is sent over the broker to every instance's sockets of the game; a seat whose clock
    ran out (swept by whichever instance) is shown held on both instances."""
    env = {
        "CIVITAS_DATABASE_URL": postgres_url,
        "CIVITAS_BROKER_URL": REDIS_URL,
        "CIVITAS_BOT_DELAY_MS": "200",
        "CIVITAS_HEARTBEAT_SECONDS": "600",
        "CIVITAS_CLOCK_SWEEP_SECONDS": "0.3",
    }
    with ServerProcess(env) as one, ServerProcess(env) as two:
        asyncio.run(_run(one.url, two.url))


async def _run(url_one: str, url_two: str) -> None:
    async with httpx.AsyncClient() as http:
        a = (await http.post(f"{url_one}/api/players", json={"name": "Ann"})).json()
        b = (await http.post(f"{url_two}/api/players", json={"name": "Bob"})).json()
        ha, hb = ({"Authorization": f"Bearer {p['token']}"} for p in (a, b))
        room = (
            await http.post(
                f"{url_one}/api/rooms",
                headers=ha,
                json={
                    "ruleset": "testgame",
                    "seats": 2,
                    "options": {"rounds": 3},
                    "pace": {"kind": "realtime", "move_minutes": 0.05, "reserve_minutes": 0},
                },
            )
        ).json()
        await http.post(f"{url_two}/api/rooms/{room['id']}/join", headers=hb, json={})
        game_id = (await http.post(f"{url_one}/api/rooms/{room['id']}/start", headers=ha)).json()["game_id"]
        one, two = url_one.replace("http", "ws"), url_two.replace("http", "ws")
        async with (
            websockets.connect(f"{one}/ws/games/{game_id}?token={a['token']}") as wa,
            websockets.connect(f"{two}/ws/games/{game_id}?token={b['token']}") as wb,
        ):
            await _next(wa, "snapshot"), await _next(wb, "snapshot")
            await wa.send(json.dumps({"type": "chat", "text": "hello from one"}))
            line = (await _next(wb, "chat"))["message"]
            assert line["name"] == "Ann" and line["text"] == "hello from one"
        # Both sockets are gone; the 3 s clocks run out and a bot holds each seat.
        for _ in range(100):
            seats = [
                (await http.get(f"{url}/api/games/{game_id}/table")).json()["seats"]
                for url in (url_one, url_two)
            ]
            if all(s["held"] for s in seats[0]) and all(s["held"] for s in seats[1]):
                break
            await asyncio.sleep(0.2)
        assert [s["kind"] for s in seats[0]] == ["held", "held"] == [s["kind"] for s in seats[1]]
