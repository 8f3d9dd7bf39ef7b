"""A spectator that stops reading slows no one else: on a real server and real sockets, its
backlog is bounded, it is dropped (and would resync on return), and the players and the other
spectators still get every patch. Behaviour only: nothing here measures time."""

from __future__ import annotations

import asyncio
import os
import socket
import struct

import httpx
import orjson
import uvicorn
import websockets

from app.main import create_app
from app.observability.metrics import DROPPED
from app.realtime import hub
from app.realtime.transport import LeanWebSocketProtocol


def _masked_text(text: str) -> bytes:
    """One client-to-server text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    assert len(payload) < 126
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + body


async def _stalled_socket(port: int, path: str) -> socket.socket:
    """A websocket that completes its handshake and then never reads (a tiny receive buffer)."""
    loop = asyncio.get_running_loop()
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.setblocking(False)
    await loop.sock_connect(s, ("127.0.0.1", port))
    await loop.sock_sendall(
        s,
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode(),
    )
    assert b" 101 " in await loop.sock_recv(s, 200)
    return s


def _dropped() -> float:
    return DROPPED.values.get((), 0)


async def _until_version(ws, version: int) -> dict:
    while True:
        frame = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
        if frame["type"] == "snapshot" and frame["game"]["version"] >= version:
            return frame["game"]
        if frame["type"] == "patch" and frame["version"] >= version:
            return frame


def test_a_stalled_spectator_is_dropped_and_slows_no_one(settings, monkeypatch):
    """One spectator never reads while asking for snapshot after snapshot: once its bounded
    backlog is full it is dropped; both players and three other spectators get each move's patch."""
    monkeypatch.setattr(hub, "SEND_QUEUE", 16)  # a small bound fills sooner; the rule is the same
    settings = settings.model_copy(update={"frames_per_second": 100_000})

    async def scenario():
        app = create_app(settings)
        server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=0,
                log_level="warning",
                ws=LeanWebSocketProtocol,
                ws_per_message_deflate=False,
            )
        )
        serving = asyncio.ensure_future(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        stalled = None
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                ann, bob = [
                    (await http.post("/api/players", json={"name": n})).json() for n in ("Ann", "Bob")
                ]
                room = (
                    await http.post(
                        "/api/rooms",
                        json={"ruleset": "testgame", "seats": 2},
                        headers={"Authorization": f"Bearer {ann['token']}"},
                    )
                ).json()
                await http.post(
                    f"/api/rooms/{room['id']}/join",
                    json={},
                    headers={"Authorization": f"Bearer {bob['token']}"},
                )
                game_id = (
                    await http.post(
                        f"/api/rooms/{room['id']}/start", headers={"Authorization": f"Bearer {ann['token']}"}
                    )
                ).json()["game_id"]
            ws_base = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
            seats = [await websockets.connect(f"{ws_base}?token={p['token']}") for p in (ann, bob)]
            specs = [await websockets.connect(ws_base) for _ in range(3)]
            docs = [await _until_version(ws, 0) for ws in seats]
            for ws in specs:
                await _until_version(ws, 0)
            stalled = await _stalled_socket(port, f"/ws/games/{game_id}")
            # Loopback buffers autotune to megabytes; small ones make the backlog build up sooner.
            here = stalled.getsockname()
            for protocol in list(server.server_state.connections):
                if protocol.client and tuple(protocol.client) == here:
                    protocol.transport.get_extra_info("socket").setsockopt(
                        socket.SOL_SOCKET, socket.SO_SNDBUF, 4096
                    )
                    protocol.transport.set_write_buffer_limits(high=4096)
            flood = b"".join(_masked_text('{"type":"sync","version":-1}') for _ in range(50))
            dropped = _dropped()
            platform = app.state.platform
            channel = platform.hub.channels[game_id]
            for _ in range(400):  # ask for snapshots until the hub gives up on this socket
                try:
                    stalled.send(flood)
                except BlockingIOError:
                    pass
                await asyncio.sleep(0.02)
                if _dropped() > dropped:
                    break
            assert _dropped() == dropped + 1
            # it leaves the game's sockets; the players and the three other spectators stay
            for _ in range(100):
                if len(channel.connections) == 5:
                    break
                await asyncio.sleep(0.02)
            assert len(channel.connections) == 5
            assert all(not c.closed for c in channel.connections)
            # the game goes on: two bids, each patch reaches both players and the other spectators
            version = docs[0]["version"]
            for seat, ws in enumerate(seats):
                card = docs[seat]["view"]["hand"][0]
                await ws.send(
                    orjson.dumps(
                        {
                            "type": "move",
                            "version": version,
                            "id": f"m{seat}",
                            "move": {"type": "bid", "card": card},
                        }
                    ).decode()
                )
                version += 1
                for other in seats + specs:
                    await _until_version(other, version)
            for ws in seats + specs:
                await ws.close()
        finally:
            if stalled is not None:
                stalled.close()
            server.should_exit = True
            await serving

    asyncio.run(scenario())
