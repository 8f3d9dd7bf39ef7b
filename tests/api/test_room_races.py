"""Room writes are serialized on every backend (issue 12 finding 3): concurrent joins, starts,
and bot seats cannot double up, on one instance or across two sharing a database."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from app.config import sync_url
from app.main import create_app
from tests.support.api import new_player, new_room


def _together(client, calls):
    """Send requests at once on the app's own event loop; their status codes in order."""

    async def run():
        transport = httpx.ASGITransport(app=client.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            answers = await asyncio.gather(
                *(http.request(m, url, headers=h, json=body) for m, url, h, body in calls)
            )
        return [a.status_code for a in answers]

    return client.portal.call(run)


def _seats(client, room_id, viewer):
    return client.get(f"/api/rooms/{room_id}", headers=viewer["headers"]).json()["seats"]


def test_one_players_concurrent_joins_take_one_seat(client):
    """Finding 3: a player's 8 simultaneous joins of a 4-seat room seat them once; the rest 409."""
    host, bob = new_player(client, "Host"), new_player(client, "Bob")
    room = new_room(client, host, seats=4)
    codes = _together(client, [("POST", f"/api/rooms/{room['id']}/join", bob["headers"], {})] * 8)
    assert sorted(codes) == [200] + [409] * 7
    held = [s for s in _seats(client, room["id"], host) if s["player"] and s["player"]["id"] == bob["id"]]
    assert len(held) == 1


def test_ten_concurrent_starts_make_one_game(client):
    """Finding 3: the host's 10 simultaneous starts make exactly one game; the others get 409."""
    host = new_player(client, "Host")
    room = new_room(client, host, seats=2)
    assert client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={}).status_code == 200
    codes = _together(client, [("POST", f"/api/rooms/{room['id']}/start", host["headers"], None)] * 10)
    assert sorted(codes) == [200] + [409] * 9
    engine = create_engine(sync_url(client.app.state.platform.settings.database_url))
    with engine.connect() as conn:
        games = conn.execute(
            text("SELECT count(*) FROM games WHERE room_id = :r"), {"r": room["id"]}
        ).scalar()
    engine.dispose()
    assert games == 1


def test_a_bot_and_a_player_never_share_a_seat(client):
    """Finding 3: a player joining seat 1 while the host seats a bot there: exactly one wins."""
    for _ in range(5):
        host, bob = new_player(client, "Host"), new_player(client, "Bob")
        room = new_room(client, host, seats=2)
        codes = _together(
            client,
            [
                ("POST", f"/api/rooms/{room['id']}/bots", host["headers"], {"seat": 1}),
                ("POST", f"/api/rooms/{room['id']}/join", bob["headers"], {"seat": 1}),
            ],
        )
        assert sorted(codes) == [200, 409]
        seat = _seats(client, room["id"], host)[1]
        assert (seat["player"] is None) != (seat["bot"] is None)


def test_many_players_racing_for_seats_fill_each_seat_once(client):
    """Finding 3: 6 players joining a 4-seat room at once: 3 get seats (the host has one), each
    seat holds one player, and nobody holds two."""
    host = new_player(client, "Host")
    room = new_room(client, host, seats=4)
    players = [new_player(client, f"P{i}") for i in range(6)]
    codes = _together(client, [("POST", f"/api/rooms/{room['id']}/join", p["headers"], {}) for p in players])
    assert sorted(codes) == [200] * 3 + [409] * 3
    holders = [s["player"]["id"] for s in _seats(client, room["id"], host) if s["player"]]
    assert len(holders) == len(set(holders)) == 4


def test_two_instances_on_one_database_cannot_double_seat(settings):
    """Finding 3 across instances: two apps on one database (each with its own in-process lock)
    racing joins for one player: the room version and the seat constraint keep it to one seat."""
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        host, bob = new_player(a, "Host"), new_player(a, "Bob")
        room = new_room(a, host, seats=4)
        url = f"/api/rooms/{room['id']}/join"
        with ThreadPoolExecutor(8) as pool:
            codes = list(
                pool.map(lambda c: c.post(url, headers=bob["headers"], json={}).status_code, [a, b] * 4)
            )
        assert sorted(codes) == [200] + [409] * 7
        held = [s for s in _seats(b, room["id"], host) if s["player"] and s["player"]["id"] == bob["id"]]
        assert len(held) == 1


def test_the_database_refuses_a_second_seat_for_one_player(settings, client):
    """The unique (room, player) seat constraint holds on every backend."""
    host = new_player(client, "Host")
    room = new_room(client, host, seats=3)
    engine = create_engine(sync_url(settings.database_url))
    try:
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(
                text("UPDATE seats SET player_id = :p WHERE room_id = :r AND seat = 1"),
                {"p": host["id"], "r": room["id"]},
            )
    finally:
        engine.dispose()
