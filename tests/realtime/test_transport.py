"""The lean websocket protocol: frames in order both ways, and the handshake is let go once open."""

from __future__ import annotations

import asyncio

import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocketDisconnect

from app.realtime.transport import LeanWebSocketProtocol, _Flag, _Inbox


def test_inbox_and_flag_behave_like_queue_and_event():
    """Items come out in order, a reader waits for the next one, waiters wake on set()."""

    async def scenario():
        inbox, flag = _Inbox(), _Flag()
        inbox.put_nowait(1)
        inbox.put_nowait(2)
        got = [await inbox.get(), await inbox.get()]
        assert inbox.empty()
        reader = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)
        assert not reader.done()
        inbox.put_nowait(3)
        got.append(await reader)
        waiter = asyncio.ensure_future(flag.wait())
        await asyncio.sleep(0)
        assert not waiter.done()
        flag.set()
        await waiter
        flag.clear()
        assert not flag.is_set()
        return got

    assert asyncio.run(scenario()) == [1, 2, 3]


def test_a_real_socket_echoes_and_keeps_no_handshake():
    """Served by uvicorn with the lean protocol: text frames echo in order, the client's close is
    seen by the app, and the open socket's protocol no longer holds the handshake."""
    seen: list[object] = []

    async def echo(websocket):
        await websocket.accept()
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except WebSocketDisconnect:
            seen.append("disconnect")

    async def scenario():
        app = Starlette(routes=[WebSocketRoute("/echo", echo)])
        config = uvicorn.Config(app, host="127.0.0.1", port=0, ws=LeanWebSocketProtocol,
                                ws_per_message_deflate=False, log_level="warning", lifespan="off")
        server = uvicorn.Server(config)
        task = asyncio.ensure_future(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        async with websockets.connect(f"ws://127.0.0.1:{port}/echo") as client:
            for i in range(20):
                await client.send(f"frame {i}")
            answers = [await client.recv() for _ in range(20)]
            protocol = next(iter(server.server_state.connections))
            seen.append((protocol.request, protocol.response,
                         client.response.headers.get("Sec-WebSocket-Extensions")))
        for _ in range(100):
            if "disconnect" in seen:
                break
            await asyncio.sleep(0.01)
        server.should_exit = True
        await task
        return answers

    answers = asyncio.run(scenario())
    assert answers == [f"frame {i}" for i in range(20)]
    assert seen[0] == (None, None, None)  # handshake let go; deflate offered by the client, not taken
    assert seen[1] == "disconnect"
