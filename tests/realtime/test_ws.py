"""Websocket contract: snapshot, one patch per version per viewer, acks, errors, sync, heartbeats."""

from __future__ import annotations

import jsonpatch
import orjson

from tests.support.api import doc, legal, new_player, play_first_legal, started_game


def _url(game_id, player=None):
    return f"/ws/games/{game_id}" + (f"?token={player['token']}" if player else "")


def _next(ws, kind):
    """The next frame of a kind, skipping heartbeats."""
    while True:
        frame = ws.receive_json()
        if frame["type"] != "heartbeat":
            assert frame["type"] == kind, frame
            return frame


def test_snapshot_then_patches_rebuild_every_viewer_document(client):
    """Each viewer's patches, applied in order, give exactly the document GET returns at each version."""
    game_id, (a, b) = started_game(client, options={"rounds": 2})
    with (
        client.websocket_connect(_url(game_id, a)) as ws_a,
        client.websocket_connect(_url(game_id)) as ws_spec,
    ):
        docs = {"a": _next(ws_a, "snapshot")["game"], "spec": _next(ws_spec, "snapshot")["game"]}
        assert docs["a"] == doc(client, game_id, a) and docs["spec"] == doc(client, game_id)
        for step in range(5):
            player = (
                (a, b)[step % 2] if legal(client, game_id, (a, b)[step % 2])["moves"] else (b, a)[step % 2]
            )
            version = play_first_legal(client, game_id, player)
            for key, ws, who in (("a", ws_a, a), ("spec", ws_spec, None)):
                patch = _next(ws, "patch")
                assert patch["version"] == version
                docs[key] = jsonpatch.apply_patch(docs[key], patch["ops"])
                assert docs[key] == doc(client, game_id, who)


def test_moves_on_the_socket_are_acked_or_refused(client):
    """A move frame gets an ack with its id and version; a bad one an error with status and detail."""
    game_id, (a, b) = started_game(client)
    with client.websocket_connect(_url(game_id, a)) as ws:
        _next(ws, "snapshot")
        move = legal(client, game_id, a)["moves"][0]
        ws.send_json({"type": "move", "version": 0, "move": {"type": "bid", "card": "K999"}, "id": "x1"})
        error = _next(ws, "error")
        assert error["id"] == "x1" and error["status"] == 422 and "hand" in error["detail"]
        ws.send_json({"type": "move", "version": 0, "move": move, "id": "x2"})
        frames = [ws.receive_json(), ws.receive_json()]
        kinds = {f["type"]: f for f in frames}
        assert kinds["ack"] == {"type": "ack", "id": "x2", "version": 1}
        assert kinds["patch"]["version"] == 1
        ws.send_json({"type": "move", "version": 0, "move": move, "id": "x2"})
        assert _next(ws, "ack")["version"] == 1  # idempotent retry: same answer, no new version
        ws.send_json({"type": "move", "version": 1, "move": {"type": "pass"}, "id": "x3"})
        assert _next(ws, "error")["status"] == 403
    assert doc(client, game_id)["version"] == 1


def test_spectators_cannot_move_and_bad_frames_are_explained(client, settings):
    """Spectator moves, non-JSON, non-objects, unknown types, unknown fields and huge frames get errors."""
    game_id, (a, b) = started_game(client)
    with client.websocket_connect(_url(game_id)) as ws:
        _next(ws, "snapshot")
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "s"})
        assert _next(ws, "error")["status"] == 403
        for text in ("not json", "[1]", '{"type": "dance"}', "x" * (settings.max_frame_bytes + 1)):
            ws.send_text(text)
            error = _next(ws, "error")
            assert 400 <= error["status"] < 500 and error["detail"].endswith(".")
    with client.websocket_connect(_url(game_id, a)) as ws:
        _next(ws, "snapshot")
        ws.send_json({"type": "move", "version": 0, "move": {"type": "pass"}, "id": "u", "evil": 1})
        assert "Unknown fields" in _next(ws, "error")["detail"]
        ws.send_bytes(b"\x00\x01")
        assert _next(ws, "error")["status"] == 400
    assert doc(client, game_id)["version"] == 0


def test_bad_token_and_unknown_game_are_refused(client):
    """A token matching nobody and an unknown game get an error frame, then the socket closes."""
    game_id, _ = started_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}?token=nope") as ws:
        assert _next(ws, "error")["status"] == 401
    with client.websocket_connect("/ws/games/nope") as ws:
        assert _next(ws, "error")["status"] == 404


def test_sync_returns_missed_patches_or_a_snapshot(client):
    """A client that fell behind asks for sync and gets the patches after its version, in order;
    a version the server no longer has patches for gets a snapshot."""
    game_id, (a, b) = started_game(client)
    with client.websocket_connect(_url(game_id, b)) as ws:
        base = _next(ws, "snapshot")["game"]
        play_first_legal(client, game_id, a)
        play_first_legal(client, game_id, b)
        live_patches = [_next(ws, "patch"), _next(ws, "patch")]
        ws.send_json({"type": "sync", "version": 0})
        replayed = [_next(ws, "patch"), _next(ws, "patch")]
        assert replayed == live_patches
        rebuilt = base
        for patch in replayed:
            rebuilt = jsonpatch.apply_patch(rebuilt, patch["ops"])
        assert rebuilt == doc(client, game_id, b)
        ws.send_json({"type": "sync", "version": -5})
        assert _next(ws, "snapshot")["game"] == doc(client, game_id, b)
        ws.send_json({"type": "sync", "version": 2})
        ws.send_json({"type": "ping"})
        assert _next(ws, "pong") == {"type": "pong"}  # nothing owed after version 2


def test_a_reconnecting_client_gets_a_fresh_snapshot(client):
    """Reconnecting after missing moves starts with a snapshot at the current version."""
    game_id, (a, b) = started_game(client)
    with client.websocket_connect(_url(game_id, a)) as ws:
        _next(ws, "snapshot")
    play_first_legal(client, game_id, a)
    play_first_legal(client, game_id, b)
    with client.websocket_connect(_url(game_id, a)) as ws:
        snap = _next(ws, "snapshot")["game"]
        assert snap["version"] == 2 and snap == doc(client, game_id, a)


def test_heartbeat_carries_the_current_version(client, settings):
    """Idle sockets get heartbeats naming the current version, so a lost patch is noticed, and
    their interval (`every`, seconds), so a page notices a connection gone silent."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings.heartbeat_seconds = 0.05
    with TestClient(create_app(settings)) as fast:
        game_id, _ = started_game(fast)
        with fast.websocket_connect(_url(game_id)) as ws:
            assert ws.receive_json()["type"] == "snapshot"
            beat = ws.receive_json()
            assert beat == {"type": "heartbeat", "version": 0, "every": 0.05}


def test_patches_are_per_viewer_and_hide_other_hands(client):
    """Seat 0's patches never contain seat 1's hand; each seat's stream differs where views differ."""
    game_id, (a, b) = started_game(client, options={"rounds": 3})
    frames = []
    with client.websocket_connect(_url(game_id, a)) as ws:
        frames.append(ws.receive_text())
        for _ in range(4):
            for player in (a, b):
                if legal(client, game_id, player)["moves"]:
                    play_first_legal(client, game_id, player)
                    frames.append(ws.receive_text())
    live = client.app.state.platform.games._live[game_id]
    hidden = set(live.state["hands"][1]) | set(live.state["deck"])
    stream = "".join(frames)
    assert not [c for c in hidden if f'"{c}"' in stream]
    assert str(live.seed) not in stream
    new_player(client)  # the server is still healthy after the socket closed


def test_the_ack_leaves_before_the_listeners_and_stands_if_one_fails(client, monkeypatch):
    """A socket's ack is sent as soon as the move commits, before the move's listeners run; a
    listener failing after the commit (the database gone for the clocks, say) leaves the ack
    as the answer (no error frame for a stored move) and the patch still follows."""
    from sqlalchemy.exc import DBAPIError

    from app.realtime.hub import Connection

    platform = client.app.state.platform
    game_id, (a, _b) = started_game(client)
    seen: list[tuple[int, list[str]]] = []

    with client.websocket_connect(_url(game_id, a)) as ws:
        _next(ws, "snapshot")
        sent: list[str] = []
        send = Connection.send

        def recording(conn: Connection, frame: str) -> None:
            sent.append(frame)
            send(conn, frame)

        monkeypatch.setattr(Connection, "send", recording)

        async def failing(gid: str, version: int) -> None:
            seen.append((version, [orjson.loads(f)["type"] for f in sent]))
            raise DBAPIError("UPDATE clocks", None, Exception("database gone"))

        platform.games.listeners.append(failing)
        try:
            move = legal(client, game_id, a)["moves"][0]
            ws.send_json({"type": "move", "version": 0, "move": move, "id": "m1"})
            frames = [ws.receive_json(), ws.receive_json()]
        finally:
            platform.games.listeners.remove(failing)
    assert seen == [(1, ["ack"])]  # the listener ran after the ack had been sent
    assert [f["type"] for f in frames] == ["ack", "patch"]
    assert frames[0] == {"type": "ack", "id": "m1", "version": 1} and frames[1]["version"] == 1
    assert doc(client, game_id)["version"] == 1
