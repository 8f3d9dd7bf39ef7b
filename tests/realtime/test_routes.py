"""The socket router: the three live paths go to their endpoints with their ids; others do not."""

from __future__ import annotations

from app.realtime import ws
from app.realtime.routes import match


def test_socket_paths_and_their_parameters():
    """Exact paths only: one id segment, nothing after it; anything else is left to the framework."""
    assert match("/ws/lobby") == (ws.lobby_socket, {})
    assert match("/ws/games/g1") == (ws.game_socket, {"game_id": "g1"})
    assert match("/ws/rooms/r 1") == (ws.room_socket, {"room_id": "r 1"})
    for path in ("/ws/games/", "/ws/games/g1/x", "/ws/lobby/", "/ws/rooms", "/ws/other", "/api/games/g1"):
        assert match(path) is None, path


def test_an_unknown_socket_path_is_refused(client):
    """A socket on a path that is not one of the three is closed, not served."""
    import pytest
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect("/ws/games/g1/extra") as socket:
            socket.receive_text()
