"""Websocket frames of every wrong shape get an error frame; the socket and the game survive."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from tests.support.api import doc, started_game

values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False),
        st.text(max_size=20),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
frames = st.one_of(
    st.text(max_size=60),
    values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "sync", "ping", "nope"])},
        optional={"version": values, "move": values, "id": values},
    ).map(json.dumps),
    st.integers(1, 40).map(
        lambda depth: '{"type": "move", "move": ' + "[" * depth * 50 + "]" * depth * 50 + "}"
    ),
)


def test_random_frames_never_break_the_socket(settings):
    """Hypothesis sends random frames; each gets an answer, and the game does not move."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings.frames_per_second = 100_000  # this test is about shapes, not about throttling
    settings.frames_per_token_second = 100_000  # (the token's budget over its sockets too)
    settings.heartbeat_seconds = 3600  # a slow run outlasts 30 s: no heartbeat among the answers
    with TestClient(create_app(settings)) as client:
        _fuzz(client)


def _fuzz(client):
    game_id, (a, _) = started_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(frames)
        def send(text):
            ws.send_text(text)
            ws.send_text('{"type": "ping"}')
            answers = []
            while True:
                frame = ws.receive_json()
                if frame["type"] == "pong":
                    break
                answers.append(frame)
            for frame in answers:
                assert frame["type"] in ("error", "snapshot", "patch", "ack"), frame
                if frame["type"] == "error":
                    assert 400 <= frame["status"] < 500 and isinstance(frame["detail"], str)

        send()
    assert doc(client, game_id)["version"] == 0


def test_deeply_nested_frame_is_refused(client):
    """A frame nested thousands deep is an error, not a crash."""
    game_id, (a, _) = started_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        ws.receive_json()
        ws.send_text('{"type": "move", "move": ' + "[" * 5000 + "]" * 5000 + "}")
        error = ws.receive_json()
        assert error["type"] == "error" and "deeply" in error["detail"]
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


def test_a_flood_is_throttled_then_closed(settings):
    """Frames beyond the per-socket budget get 429 errors, and a sustained flood closes the socket;
    other sockets keep working."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from app.main import create_app

    settings.frames_per_second = 5
    with TestClient(create_app(settings)) as client:
        game_id, (a, _) = started_game(client)
        answers = []
        with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
            ws.receive_json()
            try:
                for _ in range(200):
                    ws.send_text('{"type": "ping"}')
                for _ in range(200):
                    answers.append(ws.receive_json())
            except WebSocketDisconnect as exc:
                assert exc.code == 1008
        statuses = [f.get("status") for f in answers if f["type"] == "error"]
        assert 429 in statuses and len(answers) < 200
        with client.websocket_connect(f"/ws/games/{game_id}") as other:
            assert other.receive_json()["type"] == "snapshot"
