"""The baseline server: a bare Starlette app on the same uvicorn stack and settings as Civitas.

`/echo` sends every text frame back; `/fanout` sends every text frame it receives to every socket
connected to `/fanout` (one pre-encoded string, one send per socket, like Civitas's sender tasks).
Run: python -m bench.lib.echo_app PORT
"""

from __future__ import annotations

import asyncio
import sys

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

LISTENERS: set[asyncio.Queue] = set()


async def echo(websocket: WebSocket) -> None:
    """Echo text frames."""
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnect:
        pass


async def fanout(websocket: WebSocket) -> None:
    """Every frame received is sent to every /fanout socket (each has its own sender task)."""
    await websocket.accept()
    queue: asyncio.Queue = asyncio.Queue(256)
    LISTENERS.add(queue)

    async def sender() -> None:
        while True:
            await websocket.send_text(await queue.get())

    task = asyncio.create_task(sender())
    try:
        while True:
            text = await websocket.receive_text()
            for q in list(LISTENERS):
                if not q.full():
                    q.put_nowait(text)
    except WebSocketDisconnect:
        pass
    finally:
        LISTENERS.discard(queue)
        task.cancel()


app = Starlette(routes=[WebSocketRoute("/echo", echo), WebSocketRoute("/fanout", fanout)])

if __name__ == "__main__":
    import os

    import uvicorn

    # The same settings as app.main.main(): auto loop (uvloop), no per-message deflate; uvicorn's
    # default websocket protocol unless CIVITAS_WS names another ("lean": Civitas's own).
    kind = os.environ.get("CIVITAS_WS", "auto")
    if kind == "lean":
        from app.realtime.transport import LeanWebSocketProtocol as kind  # type: ignore[assignment]  # a class, not a name

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=int(sys.argv[1]),
        ws_max_size=128 * 1024,
        ws_per_message_deflate=os.environ.get("CIVITAS_WS_DEFLATE") == "1",
        log_level="warning",
        ws=kind,
    )
