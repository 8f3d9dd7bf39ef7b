"""Socket endpoints leave no task behind: when registering the socket fails, its heartbeat and
sender tasks stop with it (before the fix the heartbeat looped forever)."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.support.api import started_game


async def _socket_tasks() -> list[str]:
    names = []
    for task in asyncio.all_tasks():
        code = getattr(task.get_coro(), "cr_code", None)
        # per-socket tasks: the old heartbeat and sender, and the flush task that replaced them
        if code is not None and code.co_name in ("_heartbeat", "sender", "_flush"):
            names.append(code.co_name)
    return names


def test_a_failed_join_stops_the_heartbeat_and_sender(client):
    """Socket cleanup: hub.join raising closes the socket and cancels both of its tasks."""
    platform = client.app.state.platform
    game_id, (a, _) = started_game(client)

    async def broken_join(conn):
        raise RuntimeError("join failed")

    platform.hub.join = broken_join
    with pytest.raises((RuntimeError, WebSocketDisconnect)):
        with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
            ws.receive_json()
    for _ in range(50):
        if not client.portal.call(_socket_tasks):
            break
        client.portal.call(asyncio.sleep, 0.01)
    assert client.portal.call(_socket_tasks) == []


def test_closed_room_and_game_sockets_leave_no_tasks(client):
    """Socket cleanup: after game, room and lobby sockets close, none of their tasks remain."""
    game_id, (a, _) = started_game(client)
    room_id = client.get(f"/api/games/{game_id}").json()["room_id"]
    for url in (f"/ws/games/{game_id}?token={a['token']}", f"/ws/rooms/{room_id}", "/ws/lobby"):
        with client.websocket_connect(url) as ws:
            ws.receive_json()
    for _ in range(50):
        if not client.portal.call(_socket_tasks):
            break
        client.portal.call(asyncio.sleep, 0.01)
    assert client.portal.call(_socket_tasks) == []


def test_stopping_the_hub_ends_its_heartbeat_even_if_a_cancellation_is_lost(client):
    """Shutdown waits until background loops have ended. A heartbeat listener that once turns its
    cancellation into an ordinary error (as a library can lose a CancelledError) used to leave
    the heartbeat loop running after stop(): the event loop then waited for it forever at close
    (the suite's order-dependent teardown hangs)."""
    platform = client.app.state.platform
    game_id, (a, _) = started_game(client)
    entered: list[bool] = []

    async def deaf_once(conn):
        entered.append(True)
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            if len(entered) == 1:
                raise RuntimeError("a cancellation lost inside a listener") from None
            raise

    client.portal.call(platform.hub.stop)
    platform.hub.heartbeat_seconds = 0.01
    platform.hub.beat_listeners[:] = [deaf_once]
    client.portal.call(platform.hub.start)
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        ws.receive_json()
        for _ in range(500):  # a bound, not a timing: beats come every 0.01 s
            if entered:
                break
            client.portal.call(asyncio.sleep, 0.01)
        assert entered, "the heartbeat never called its listener"
        client.portal.call(platform.hub.stop)
        running = [t.get_name() for t in platform.hub._tasks if not t.done()]
    assert running == []
