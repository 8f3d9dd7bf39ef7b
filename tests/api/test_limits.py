"""Limits and caps (issue 12 'Build'): rates per IP and per token before parsing, caps on open
rooms, bot games and sockets, a byte budget for live games; over a limit, 429 + Retry-After."""

from __future__ import annotations

import asyncio
import secrets
import time
from types import SimpleNamespace

import httpx
import pytest
from fastapi.testclient import TestClient

from app import limits
from app.main import create_app
from tests.support.services import REDIS_URL, needs_redis
from tests.support.api import new_player, new_room, started_game


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """The limiter's clock stands still in the middle of the current minute: its windows are
    fixed, and one that rolled over between two requests of a test let the second one through."""
    now = time.time()
    still = now - now % 60 + 30
    monkeypatch.setattr(limits, "time", SimpleNamespace(time=lambda: still))


def _app(settings, **rates):
    return TestClient(create_app(settings.model_copy(update={"limits_scale": 1, **rates})))


def _from(client, ip, calls):
    """Requests sent from a given client address, in order; their responses."""
    async def run():
        transport = httpx.ASGITransport(app=client.app, client=(ip, 1234))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            return [await http.request(m, url, headers=h, json=body) for m, url, h, body in calls]

    return client.portal.call(run)


def test_player_creation_is_rate_limited_per_ip(settings):
    """The 4th player a minute from one address gets 429 with Retry-After; another address not."""
    with _app(settings, rate_players="3/60") as client:
        answers = _from(client, "10.0.0.1", [("POST", "/api/players", {}, {"name": "A"})] * 4)
        assert [a.status_code for a in answers] == [201, 201, 201, 429]
        assert 0 < int(answers[3].headers["retry-after"]) <= 61
        assert "Too many" in answers[3].json()["detail"]
        assert _from(client, "10.0.0.2", [("POST", "/api/players", {}, {"name": "B"})])[0].status_code == 201


def test_limits_apply_before_the_body_is_parsed(settings):
    """Over the room-creation rate even a malformed body gets 429, not 422: nothing was parsed."""
    with _app(settings, rate_rooms="1/60") as client:
        ann = new_player(client)
        new_room(client, ann)
        r = client.post("/api/rooms", headers=ann["headers"], content=b"{not json")
        assert r.status_code == 429 and "retry-after" in r.headers


def test_room_creation_is_rate_limited_per_token_across_addresses(settings):
    """One token hopping between addresses is still counted once: its 3rd room is refused."""
    with _app(settings, rate_rooms="2/60") as client:
        ann = new_player(client)
        body = {"ruleset": "testgame", "seats": 2}
        codes = [_from(client, f"10.1.0.{i}", [("POST", "/api/rooms", ann["headers"], body)])[0].status_code
                 for i in range(3)]
        assert codes == [201, 201, 429]


def test_lobby_reads_and_moves_are_rate_limited(settings):
    """Lobby reads per address and moves per token have their own rates."""
    with _app(settings, rate_lobby="2/60", rate_moves="1/60") as client:
        assert [client.get("/api/rooms").status_code for _ in range(3)] == [200, 200, 429]
        game_id, (a, b) = started_game(client)
        move = client.get(f"/api/games/{game_id}/legal-moves", headers=a["headers"]).json()["moves"][0]
        first = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 0, "move": move})
        again = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 1, "move": move})
        assert first.status_code == 200 and again.status_code == 429


def test_sockets_per_token_are_capped(settings):
    """A third open socket for one token is told why (429) and closed with 4429; closing one
    frees its place."""
    with _app(settings, sockets_per_token=2) as client:
        game_id, (a, b) = started_game(client)
        url = f"/ws/games/{game_id}?token={a['token']}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            one.receive_json(), two.receive_json()
            with client.websocket_connect(url) as three:
                frame = three.receive_json()
                assert frame["status"] == 429 and "token" in frame["detail"]
        with client.websocket_connect(url) as again:
            assert again.receive_json()["type"] == "snapshot"


def test_socket_connects_are_rate_limited(settings):
    """Socket connects per address have a rate."""
    with _app(settings, rate_sockets="2/60") as client:
        for _ in range(2):
            with client.websocket_connect("/ws/lobby") as ws:
                assert ws.receive_json()["type"] == "rooms"
        with client.websocket_connect("/ws/lobby") as ws:
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["status"] == 429 and frame["retry_after"] > 0


def test_open_rooms_per_player_are_capped(settings):
    """A player hosting the cap of rooms waiting in the lobby gets 429 for one more."""
    with _app(settings, open_rooms_per_player=2) as client:
        ann = new_player(client)
        new_room(client, ann), new_room(client, ann)
        r = client.post("/api/rooms", headers=ann["headers"], json={"ruleset": "testgame", "seats": 2})
        assert r.status_code == 429 and r.headers["retry-after"] == "60" and "open rooms" in r.json()["detail"]


def test_active_bot_games_per_player_are_capped(settings):
    """A player hosting the cap of running games with bots cannot start another one with bots."""
    with _app(settings, bot_games_per_player=1) as client:
        started_game(client, bots=1)
        host = new_player(client)
        for _ in range(2):
            room = new_room(client, host)
            client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={})
        rooms = client.get("/api/players/me/rooms", headers=host["headers"]).json()
        codes = [client.post(f"/api/rooms/{r['id']}/start", headers=host["headers"]).status_code
                 for r in rooms]
        assert codes == [200, 429]


def test_live_games_have_a_memory_budget(client):
    """The live-game cache drops least recently used games to stay within its byte budget, and
    a dropped game loads again from the database when asked for."""
    games = client.app.state.platform.games
    ids = [started_game(client)[0] for _ in range(3)]
    for game_id in ids:
        client.get(f"/api/games/{game_id}")
    games.max_live_bytes = sum(games._weights[g] for g in ids) - 1  # never room for all three
    for game_id in ids:
        games.forget(game_id)
    for _ in range(2):
        for game_id in ids:
            assert client.get(f"/api/games/{game_id}").json()["id"] == game_id  # reloads if dropped
            assert game_id in games._live  # the one just asked for is kept
            assert len(games._live) < 3 and games.live_bytes <= games.max_live_bytes
            assert games.live_bytes == sum(games._weights[g] for g in games._live)


@needs_redis
def test_rates_are_shared_between_instances_through_redis(settings):
    """With a Redis broker two instances count together: the third request is refused by
    whichever instance sees it."""
    url = REDIS_URL
    shared = settings.model_copy(update={"broker_url": url})
    ip = f"10.9.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    with _app(shared, rate_players="2/60") as one, _app(shared, rate_players="2/60") as two:
        codes = [_from(c, ip, [("POST", "/api/players", {}, {"name": "A"})])[0].status_code
                 for c in (one, two, one)]
        assert codes == [201, 201, 429]


@needs_redis
def test_socket_caps_are_shared_between_instances_through_redis(settings):
    """With a Redis broker the socket cap per token holds across instances: two sockets on one
    instance and the third on the other is refused (4429); closing one frees a place on either."""
    url = REDIS_URL
    shared = settings.model_copy(update={"broker_url": url})
    caps = {"sockets_per_token": 2, "sockets_per_ip": 1000, "sockets_per_game": 1000,
            "rate_sockets": "1000/60"}  # connects from "testclient" are counted in Redis too
    with _app(shared, **caps) as one, _app(shared, **caps) as two:
        game_id, (a, b) = started_game(one)
        url = f"/ws/games/{game_id}"
        offer = ["civitas", f"bearer.{a['token']}"]
        with one.websocket_connect(url, subprotocols=offer) as first:
            assert first.receive_json()["type"] == "snapshot"
            with two.websocket_connect(url, subprotocols=offer) as second:
                assert second.receive_json()["type"] == "snapshot"
                for client in (one, two):
                    with client.websocket_connect(url, subprotocols=offer) as third:
                        frame = third.receive_json()
                        assert frame["type"] == "error" and frame["status"] == 429, frame
                        assert "token" in frame["detail"]
            with two.websocket_connect(url, subprotocols=offer) as again:
                assert again.receive_json()["type"] == "snapshot"


def test_a_tokens_frames_are_limited_across_all_its_sockets(settings):
    """Each socket alone is within its own budget, but one token flooding over three sockets
    together gets 429 error frames with code socket/too_many_frames, then a close with 1008
    (policy); nothing is stored, and another player's socket is unaffected."""
    from starlette.websockets import WebSocketDisconnect

    with _app(settings.model_copy(update={"frames_per_second": 10_000,
                                          "frames_per_token_second": 5})) as client:
        game_id, (a, b) = started_game(client)
        url = f"/ws/games/{game_id}"
        offer = ["civitas", f"bearer.{a['token']}"]
        with client.websocket_connect(url, subprotocols=offer) as s1, \
                client.websocket_connect(url, subprotocols=offer) as s2, \
                client.websocket_connect(url, subprotocols=offer) as s3:
            sockets = [s1, s2, s3]
            for ws in sockets:
                assert ws.receive_json()["type"] == "snapshot"
            for _ in range(60):
                for ws in sockets:
                    ws.send_text('{"type": "ping"}')
            frames, closes = [], []
            for ws in sockets:
                try:
                    for _ in range(60):
                        frames.append(ws.receive_json())
                except WebSocketDisconnect as exc:
                    closes.append(exc.code)
        refused = [f for f in frames if f["type"] == "error"]
        assert refused and all(f["status"] == 429 and f["code"] == "socket/too_many_frames"
                               and f["retry_after"] > 0 for f in refused)
        assert "sockets together" in refused[0]["detail"]
        assert closes and set(closes) == {1008}
        assert client.get(f"/api/games/{game_id}").json()["version"] == 0
        with client.websocket_connect(url, subprotocols=["civitas", f"bearer.{b['token']}"]) as other:
            assert other.receive_json()["type"] == "snapshot"
            other.send_text('{"type": "ping"}')
            assert other.receive_json()["type"] == "pong"
