"""The open-rooms cap holds under concurrency (issue 12 follow-up): one player's simultaneous
room creations, on one instance or spread over two sharing a database, open exactly the cap."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app.config import sync_url
from app.main import create_app
from tests.support.api import new_player

CAP = 3
BODY = {"ruleset": "testgame", "seats": 2}


def _capped(settings):
    return settings.model_copy(
        update={
            "limits_scale": 1,
            "open_rooms_per_player": CAP,
            "rate_rooms": "1000/60",
            "rate_players": "1000/60",
        }
    )


def _open_rooms(settings, player_id):
    engine = create_engine(sync_url(settings.database_url))
    try:
        with engine.connect() as conn:
            return conn.execute(
                text("SELECT count(*) FROM rooms WHERE host_id = :p AND status = 'lobby'"), {"p": player_id}
            ).scalar()
    finally:
        engine.dispose()


def test_twenty_concurrent_creations_open_exactly_the_cap(settings):
    """20 creations at once on one event loop: CAP rooms (201), the rest 429 with a sentence."""
    settings = _capped(settings)
    with TestClient(create_app(settings)) as client:
        ann = new_player(client)

        async def run():
            transport = httpx.ASGITransport(app=client.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                return await asyncio.gather(
                    *(http.post("/api/rooms", headers=ann["headers"], json=BODY) for _ in range(20))
                )

        answers = client.portal.call(run)
        codes = sorted(a.status_code for a in answers)
        assert codes == [201] * CAP + [429] * (20 - CAP), codes
        assert all("open rooms" in a.json()["detail"] for a in answers if a.status_code == 429)
        assert _open_rooms(settings, ann["id"]) == CAP


def test_concurrent_creations_over_two_instances_open_exactly_the_cap(settings):
    """20 creations by one player spread over two instances on one database (each instance has
    its own in-process locks, so only the database can serialize them): exactly CAP rooms."""
    settings = _capped(settings)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        ann = new_player(one)
        with ThreadPoolExecutor(10) as pool:
            codes = sorted(
                pool.map(
                    lambda c: c.post("/api/rooms", headers=ann["headers"], json=BODY).status_code,
                    [one, two] * 10,
                )
            )
        assert codes == [201] * CAP + [429] * (20 - CAP), codes
        assert _open_rooms(settings, ann["id"]) == CAP
