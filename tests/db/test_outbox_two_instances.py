"""Issue 27: two server processes sharing PostgreSQL and Redis, players moving through either one,
both senders looking for due notifications twice a second: 1,000 and more hand-overs give exactly
one your-turn webhook call each (none lost, none twice)."""

from __future__ import annotations

import asyncio
import os

import httpx
import pytest

from tests.support.push import WebhookServer
from tests.support.server import ServerProcess

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
REDIS_URL = os.environ.get("CIVITAS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
IN_CI = bool(os.environ.get("CI"))
HAND_OVERS = 1000


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:  # noqa: BLE001 - any failure means no Redis to test with
        return False


pytestmark = [
    pytest.mark.multiprocess,
    pytest.mark.skipif(not POSTGRES_URL and not IN_CI, reason="needs CIVITAS_TEST_POSTGRES_URL"),
    pytest.mark.skipif(not _redis_up() and not IN_CI, reason=f"needs a Redis at {REDIS_URL}"),
]


@pytest.mark.timeout(1200)  # about 2,000 moves through two servers on a shared machine
def test_a_thousand_hand_overs_across_two_instances_notify_exactly_once_each(postgres_url):
    import psycopg

    with psycopg.connect(
        postgres_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True
    ) as c:
        c.execute("TRUNCATE notification_outbox")
    env = {
        "CIVITAS_DATABASE_URL": postgres_url,
        "CIVITAS_BROKER_URL": REDIS_URL,
        "CIVITAS_BOT_DELAY_MS": "0",
        "CIVITAS_HEARTBEAT_SECONDS": "600",
        "CIVITAS_NOTIFY_SECONDS": "0.5",
        "CIVITAS_CLOCK_SWEEP_SECONDS": "0",
        "CIVITAS_LOG_LEVEL": "warning",
    }
    with WebhookServer() as hook, ServerProcess(env) as one, ServerProcess(env) as two:
        expected = asyncio.run(_play([one.url, two.url], hook.url))
        assert expected >= HAND_OVERS
        got = hook.wait_for(expected, timeout=120)
        tags = [r["json"]["tag"] for r in got]
        assert len(set(tags)) == expected, "a hand-over was told twice"
        import time

        time.sleep(2)  # nothing more trickles in after
        assert len(hook.received) == expected


async def _play(urls: list[str], hook_url: str) -> int:
    """Play testgames, each move through the other instance than the last, until the hand-overs
    (seats newly asked to act, the start included) reach HAND_OVERS; returns their number."""
    # A connection idle past uvicorn's keep-alive (5 s) may be closed by the server just as a
    # request goes down it (a ReadError under load): never reuse one that old.
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(keepalive_expiry=2)) as http:
        total = 0

        async def game(n: int) -> int:
            players = []
            for i in range(2):
                p = (await http.post(f"{urls[i]}/api/players", json={"name": f"G{n}P{i}"})).json()
                headers = {"Authorization": f"Bearer {p['token']}"}
                r = await http.put(
                    f"{urls[i]}/api/players/me/notifications",
                    headers=headers,
                    json={"events": {"your_turn": ["webhook"]}, "webhook_url": f"{hook_url}/{p['id']}"},
                )
                assert r.status_code == 200, r.text
                players.append(headers)
            room = (
                await http.post(
                    f"{urls[0]}/api/rooms",
                    headers=players[0],
                    json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 8}},
                )
            ).json()
            await http.post(f"{urls[1]}/api/rooms/{room['id']}/join", headers=players[1], json={})
            game_id = (await http.post(f"{urls[0]}/api/rooms/{room['id']}/start", headers=players[0])).json()[
                "game_id"
            ]
            doc = (await http.get(f"{urls[1]}/api/games/{game_id}")).json()
            told = len(doc["to_act"])
            step = 0
            while doc["status"] == "active":
                seat = doc["to_act"][0]
                url = urls[step % 2]
                step += 1
                legal = (
                    await http.get(f"{url}/api/games/{game_id}/legal-moves", headers=players[seat])
                ).json()
                r = await http.post(
                    f"{url}/api/games/{game_id}/moves",
                    headers=players[seat],
                    json={"version": legal["version"], "move": legal["moves"][0]},
                )
                assert r.status_code == 200, r.text
                after = (await http.get(f"{url}/api/games/{game_id}")).json()
                assert after["version"] == legal["version"] + 1
                if after["status"] == "active":
                    told += len(set(after["to_act"]) - set(doc["to_act"]))
                doc = after
            return told

        n = 0
        while total < HAND_OVERS:
            batch = await asyncio.gather(*(game(n + i) for i in range(20)))
            n += 20
            total += sum(batch)
        return total
