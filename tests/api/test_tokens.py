"""Token hygiene (issue 12 finding 2): tokens out of URLs and logs, expiry, rotation, logout;
security headers on pages."""

from __future__ import annotations

import logging
from datetime import datetime, timezone

from fastapi.testclient import TestClient

from app.main import create_app
from app.security import RedactSecrets, redact
from tests.support.api import new_player, new_room, started_game


def _me(client, player_or_token):
    token = player_or_token if isinstance(player_or_token, str) else player_or_token["token"]
    return client.get("/api/players/me/rooms", headers={"Authorization": f"Bearer {token}"})


def test_a_token_carries_its_expiry(client):
    """New tokens say when they expire (30 days by default), in the future."""
    body = client.post("/api/players", json={"name": "Ann"}).json()
    left = datetime.fromisoformat(body["expires_at"]) - datetime.now(timezone.utc)
    assert 29 * 86400 < left.total_seconds() <= 30 * 86400


def test_an_expired_token_is_refused(settings):
    """A token past its expiry is a 401 like an unknown one, over REST and on sockets."""
    with TestClient(create_app(settings.model_copy(update={"token_ttl_hours": 0}))) as client:
        ann = new_player(client)
        r = _me(client, ann)
        assert r.status_code == 401 and "expired" in r.json()["detail"]


def test_rotation_gives_a_new_token_and_the_old_one_keeps_a_grace(client):
    """POST /api/players/me/token: the new token works, and so does the old one for the grace."""
    ann = new_player(client)
    r = client.post("/api/players/me/token", headers=ann["headers"])
    assert r.status_code == 200
    fresh = r.json()
    assert fresh["id"] == ann["id"] and fresh["token"] != ann["token"]
    assert _me(client, fresh["token"]).status_code == 200
    assert _me(client, ann).status_code == 200  # within the grace


def test_after_the_grace_the_rotated_out_token_is_dead(settings):
    """With no grace, the token a rotation replaced stops working at once."""
    with TestClient(create_app(settings.model_copy(update={"token_grace_seconds": 0}))) as client:
        ann = new_player(client)
        fresh = client.post("/api/players/me/token", headers=ann["headers"]).json()
        assert _me(client, ann).status_code == 401
        assert _me(client, fresh["token"]).status_code == 200


def test_logout_revokes_the_token_and_the_one_it_replaced(client):
    """POST /api/players/me/logout: neither token works any more, on REST or on a socket."""
    ann = new_player(client)
    fresh = client.post("/api/players/me/token", headers=ann["headers"]).json()
    assert (
        client.post(
            "/api/players/me/logout", headers={"Authorization": f"Bearer {fresh['token']}"}
        ).status_code
        == 204
    )
    assert _me(client, ann).status_code == 401 and _me(client, fresh["token"]).status_code == 401
    game_id, _ = started_game(client)
    with client.websocket_connect(
        f"/ws/games/{game_id}", subprotocols=["civitas", f"bearer.{fresh['token']}"]
    ) as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["status"] == 401


def test_sockets_authenticate_by_subprotocol(client):
    """The token travels as the subprotocol `bearer.<token>` beside `civitas`: the socket gets
    its seat's view, and the server answers with `civitas`. ?token= still works (deprecated)."""
    game_id, (a, b) = started_game(client)
    with client.websocket_connect(
        f"/ws/games/{game_id}", subprotocols=["civitas", f"bearer.{b['token']}"]
    ) as ws:
        assert ws.accepted_subprotocol == "civitas"
        assert ws.receive_json()["game"]["seat"] == 1
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["game"]["seat"] == 0
    with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=["civitas"]) as ws:
        assert ws.receive_json()["game"]["seat"] is None


def test_invite_codes_go_in_bodies(client):
    """POST /api/rooms/by-code {"invite_code"} finds a private room without the code in a URL."""
    ann = new_player(client)
    room = new_room(client, ann, private=True)
    r = client.post("/api/rooms/by-code", json={"invite_code": room["invite_code"]})
    assert r.status_code == 200 and r.json()["id"] == room["id"]
    assert client.post("/api/rooms/by-code", json={"invite_code": "nope"}).status_code == 404


def test_logs_never_show_tokens_or_invite_codes():
    """Access-log lines (uvicorn passes the path as an argument) and messages are redacted."""
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("1.2.3.4:5", "GET", "/ws/games/g1?token=SECRETTOKEN&x=1", "1.1", 101),
        None,
    )
    RedactSecrets().filter(record)
    line = record.getMessage()
    assert "SECRETTOKEN" not in line and "token=[redacted]&x=1" in line
    for text in (
        "/api/rooms/r1?invite_code=CODE123",
        "/r/CODE123",
        "/api/rooms/by-code/CODE123",
        "/ws/rooms/r1?token=T0K&invite_code=CODE123",
        "/?code=CODE123",
    ):
        assert "CODE123" not in redact(text) and "T0K" not in redact(text), text


def test_pages_carry_security_headers(client):
    """CSP with frame-ancestors 'none', nosniff, a referrer policy, on pages and the API."""
    for path in ("/", "/api/rooms"):
        headers = client.get(path).headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
