"""A session ends everywhere when it ends (issue 33 item 2): logout closes the sockets opened with
the token, on every instance; a token replaced by a rotation loses its sockets when its grace
ends (each socket re-checks its token at every heartbeat); a replaced token cannot mint tokens;
and no request reads the database to learn who its token belongs to (issue 26 item 2)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.websockets import WebSocketDisconnect

from app.db.models import PlayerSession
from app.main import create_app
from tests.support.api import new_player, started_game
from tests.support.services import REDIS_URL, needs_redis


def _offer(player) -> list[str]:
    return ["civitas", f"bearer.{player['token'] if isinstance(player, dict) else player}"]


def _ended(ws) -> tuple[dict, int]:
    """Read past heartbeats and patches to the socket's end: (the error frame, the close code)."""
    frame = None
    while True:
        try:
            got = ws.receive_json()
        except WebSocketDisconnect as closed:
            return frame, closed.code
        if got["type"] == "error":
            frame = got


def _me(client, token):
    return client.get("/api/players/me/rooms", headers={"Authorization": f"Bearer {token}"})


def test_logout_closes_the_game_and_room_sockets_opened_before_it(client):
    """Before: a socket opened before logout kept its seat's private document, pings and chat."""
    game_id, (a, b) = started_game(client)
    room_id = client.get(f"/api/games/{game_id}", headers=a["headers"]).json()["room_id"]
    with (
        client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(a)) as game,
        client.websocket_connect(f"/ws/rooms/{room_id}", subprotocols=_offer(a)) as room,
        client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(b)) as other,
    ):
        assert game.receive_json()["type"] == "snapshot"
        assert room.receive_json()["type"] == "room"
        assert other.receive_json()["type"] == "snapshot"
        assert client.post("/api/players/me/logout", headers=a["headers"]).status_code == 204
        for ws in (game, room):
            frame, code = _ended(ws)
            assert code == 4401
            assert frame["status"] == 401 and frame["code"] == "token/ended"
            assert "sign in again" in frame["detail"]
        other.send_json({"type": "ping"})  # another player's socket is untouched
        assert other.receive_json()["type"] == "pong"
    assert _me(client, a["token"]).status_code == 401


def test_a_replaced_token_cannot_mint_tokens(client):
    """Before: a rotated-out token still in its grace got a fresh 30-day token, and the rightful
    holder's token died after the grace."""
    ann = new_player(client)
    fresh = client.post("/api/players/me/token", headers=ann["headers"]).json()
    stolen = client.post("/api/players/me/token", headers=ann["headers"])
    assert stolen.status_code == 401 and "newest token" in stolen.json()["detail"]
    assert _me(client, ann["token"]).status_code == 200  # it still reads, for its grace
    newer = client.post("/api/players/me/token", headers={"Authorization": f"Bearer {fresh['token']}"})
    assert newer.status_code == 200  # the rightful holder rotates on


def test_a_replaced_tokens_sockets_end_when_its_grace_ends(settings):
    """Before: a socket opened with a rotated-out token kept its seat after the grace, and its
    moves were acknowledged. Now the heartbeat finds the grace over and closes it with 4000
    (the browser reconnects with its newest token); a socket with the new token stays."""
    quick = settings.model_copy(update={"token_grace_seconds": 1, "heartbeat_seconds": 0.2})
    with TestClient(create_app(quick)) as client:
        game_id, (a, b) = started_game(client)
        with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(a)) as old:
            assert old.receive_json()["type"] == "snapshot"
            fresh = client.post("/api/players/me/token", headers=a["headers"]).json()
            with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(fresh["token"])) as new:
                assert new.receive_json()["type"] == "snapshot"
                frame, code = _ended(old)
                assert code == 4000 and frame["code"] == "token/ended"
                assert "newest token" in frame["detail"]
                new.send_json({"type": "ping"})
                while (got := new.receive_json())["type"] == "heartbeat":
                    pass
                assert got["type"] == "pong"
        assert _me(client, a["token"]).status_code == 401


def test_the_heartbeat_ends_a_socket_whose_token_was_revoked_behind_its_back(settings):
    """A revocation whose broker event never arrived (here: written straight to the database)
    still ends the socket at a heartbeat once the cached answer is read again."""
    quick = settings.model_copy(update={"heartbeat_seconds": 0.2, "token_cache_seconds": 0})
    with TestClient(create_app(quick)) as client:
        game_id, (a, b) = started_game(client)
        with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(a)) as ws:
            assert ws.receive_json()["type"] == "snapshot"
            platform = client.app.state.platform

            async def revoke() -> None:
                async with platform.sessions() as session:
                    await session.execute(
                        update(PlayerSession)
                        .where(PlayerSession.player_id == a["id"])
                        .values(token_hash="0" * 64)
                    )
                    await session.commit()

            client.portal.call(revoke)
            frame, code = _ended(ws)
            assert code == 4401 and frame["status"] == 401


def test_requests_do_not_read_the_database_to_know_their_caller(client):
    """Issue 26 item 2: every authenticated request used to look its token up in the database.
    Now the first use reads it (a token issued here not even that), the rest come from memory."""
    game_id, (a, b) = started_game(client)
    tokens = client.app.state.platform.tokens
    reads = tokens.reads
    for _ in range(20):
        assert client.get(f"/api/games/{game_id}", headers=a["headers"]).status_code == 200
        assert client.get(f"/api/games/{game_id}/legal-moves", headers=b["headers"]).status_code == 200
    assert tokens.reads == reads


@needs_redis
def test_logout_on_one_instance_ends_the_session_on_the_other(settings):
    """Two instances over Redis: the other instance's cached answer and its sockets for the
    token end as soon as the logout's event arrives (no cache expiry to wait for)."""
    shared = settings.model_copy(update={"broker_url": REDIS_URL, "token_cache_seconds": 3600})
    with TestClient(create_app(shared)) as one, TestClient(create_app(shared)) as two:
        game_id, (a, b) = started_game(one)
        assert _me(two, a["token"]).status_code == 200  # two caches the token now
        with two.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(a)) as ws:
            assert ws.receive_json()["type"] == "snapshot"
            assert one.post("/api/players/me/logout", headers=a["headers"]).status_code == 204
            frame, code = _ended(ws)
            assert code == 4401 and frame["code"] == "token/ended"
        deadline = time.monotonic() + 5
        while _me(two, a["token"]).status_code != 401:
            assert time.monotonic() < deadline, "the other instance still takes the token"
            time.sleep(0.05)
        assert _me(two, b["token"]).status_code == 200


@pytest.mark.parametrize("path", ["/api/players/me/token", "/api/players/me/logout"])
def test_session_endpoints_refuse_unknown_tokens(client, path):
    r = client.post(path, headers={"Authorization": "Bearer nobody"})
    assert r.status_code == 401 and r.json()["detail"]
