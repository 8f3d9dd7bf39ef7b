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


async def _serve(path, endpoint):
    """uvicorn serving one websocket route with the lean protocol: (server, its task, port)."""
    app = Starlette(routes=[WebSocketRoute(path, endpoint)])
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        ws=LeanWebSocketProtocol,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    return server, task, server.servers[0].sockets[0].getsockname()[1]


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
        server, task, port = await _serve("/echo", echo)
        async with websockets.connect(f"ws://127.0.0.1:{port}/echo") as client:
            for i in range(20):
                await client.send(f"frame {i}")
            answers = [await client.recv() for _ in range(20)]
            protocol = next(iter(server.server_state.connections))
            seen.append(
                (protocol.request, protocol.response, client.response.headers.get("Sec-WebSocket-Extensions"))
            )
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


def test_text_frame_is_the_frame_websockets_itself_sends():
    """The app's pre-framed bytes equal what the websockets library serializes for a server's
    text frame, at every length encoding (7-bit, 16-bit, 64-bit), and a remembered frame is never
    handed out for a different text."""
    from websockets.frames import Frame, Opcode

    from app.realtime.transport import text_frame

    for n in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        text = "é" * (n // 2) + "x" * (n % 2)  # multi-byte characters: the length is in bytes
        assert text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
    a, b = "".join(["pa", "tch"]), "".join(["pat", "ch"])
    assert a == b and a is not b
    assert text_frame(a) == text_frame(b)
    assert text_frame("one") != text_frame("two")


def test_frames_written_straight_to_the_transport_arrive_in_order_with_asgi_ones():
    """Served with the lean protocol, the app finds the socket's protocol in its scope; frames it
    writes straight to the transport (write_text) and frames sent through ASGI reach the client
    whole and in the order sent, at every length encoding. Once the socket is closing, write_text
    declines (False) and the caller would send through ASGI."""
    from app.realtime.transport import RAW_EXTENSION

    declined: list[bool] = []
    texts = [f"{i}:" + "y" * size for i, size in enumerate([3, 200, 70000, 0, 125, 126, 65536, 9])]

    async def app_socket(websocket):
        raw = websocket.scope["extensions"][RAW_EXTENSION]
        await websocket.accept()
        await websocket.receive_text()
        for i, text in enumerate(texts):
            if i % 2:
                await websocket.send_text(text)
            else:
                assert raw.write_text(text)
        await websocket.close()
        declined.append(raw.write_text("too late"))

    async def scenario():
        server, task, port = await _serve("/raw", app_socket)
        got = []
        async with websockets.connect(f"ws://127.0.0.1:{port}/raw", max_size=None) as client:
            await client.send("go")
            try:
                while True:
                    got.append(await client.recv())
            except websockets.ConnectionClosedOK:
                pass
        server.should_exit = True
        await task
        return got

    assert asyncio.run(scenario()) == texts
    assert declined == [False]


class _Recorder:
    """A detached socket's handler: echoes text straight back, notes binary messages and ends."""

    def __init__(self, protocol) -> None:
        self.protocol = protocol
        self.messages: list[object] = []
        self.closes: list[int] = []

    def on_message(self, text, data) -> None:
        self.messages.append(text if text is not None else bytes(data))
        self.protocol.write_text(text if text is not None else f"{len(data)} bytes")

    def on_close(self, code) -> None:
        self.closes.append(code)


def _client_frame(opcode: int, payload: bytes, fin: bool = True, masked: bool = True) -> bytes:
    """A client frame (RFC 6455 section 5.2): masked unless told otherwise, any length."""
    import os

    n = len(payload)
    size = (
        bytes([n])
        if n < 126
        else bytes([126]) + n.to_bytes(2, "big")
        if n < 65536
        else (bytes([127]) + n.to_bytes(8, "big"))
    )
    first = bytes([(0x80 if fin else 0) | opcode])
    if not masked:
        return first + size + payload
    mask = os.urandom(4)
    return (
        first
        + bytes([0x80 | size[0]])
        + size[1:]
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


async def _detached_server(
    handlers: list, max_size: int | None = None, protocol: type = LeanWebSocketProtocol
):
    """A lean-protocol server whose one route accepts, detaches to a _Recorder and returns; and a
    raw client that has done the handshake: (server, task, reader, writer)."""
    from app.realtime.transport import RAW_EXTENSION

    async def detaching(websocket):
        await websocket.accept()
        protocol = websocket.scope["extensions"][RAW_EXTENSION]
        handlers.append(_Recorder(protocol))
        protocol.detach(handlers[-1])

    app = Starlette(routes=[WebSocketRoute("/d", detaching)])
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        ws=protocol,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
        **({"ws_max_size": max_size} if max_size else {}),
    )
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        b"GET /d HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await reader.readuntil(b"\r\n\r\n")
    while not handlers:
        await asyncio.sleep(0.01)
    return server, task, reader, writer


def test_a_detached_socket_reads_whole_text_frames_itself_and_leaves_the_rest_to_the_parser():
    """Whole masked text frames (short and 16-bit lengths, several in one read) go straight to the
    handler without the websockets parser; a ping, a fragmented message and a frame cut across
    reads, in the same reads, go through the parser, and everything still arrives in order."""
    handlers: list[_Recorder] = []
    parsed: list[int] = []

    async def scenario():
        server, task, reader, writer = await _detached_server(handlers)
        protocol = next(iter(server.server_state.connections))
        feed = protocol.conn.receive_data

        def counting(data):
            parsed.append(len(data))
            feed(data)

        protocol.conn.receive_data = counting
        long = "é" * 300  # 600 bytes: a 16-bit length
        writer.write(_client_frame(0x1, b"a") + _client_frame(0x1, long.encode()) + _client_frame(0x1, b"c"))
        got = [await _read_frame(reader) for _ in range(3)]
        only_fast = list(parsed)
        cut = _client_frame(0x1, b"cut in two")
        writer.write(
            _client_frame(0x1, b"d")
            + _client_frame(0x9, b"hi")
            + _client_frame(0x1, b"e")
            + _client_frame(0x1, b"frag", fin=False)
            + _client_frame(0x0, b"ment")
            + cut[:5]
        )
        got += [await _read_frame(reader) for _ in range(4)]
        await asyncio.sleep(0.05)
        writer.write(cut[5:] + _client_frame(0x1, b"f"))
        got += [await _read_frame(reader) for _ in range(2)]
        writer.close()
        server.should_exit = True
        await task
        return got, only_fast

    got, only_fast = asyncio.run(scenario())
    long = "é" * 300
    assert handlers[0].messages == ["a", long, "c", "d", "e", "fragment", "cut in two", "f"]
    assert got == [
        (0x1, b"a"),
        (0x1, long.encode()),
        (0x1, b"c"),
        (0x1, b"d"),
        (0xA, b"hi"),
        (0x1, b"e"),
        (0x1, b"fragment"),
        (0x1, b"cut in two"),
        (0x1, b"f"),
    ]
    assert only_fast == []  # the first read never reached the parser
    assert parsed  # the ping and what followed it did


def test_a_detached_socket_still_refuses_unmasked_and_oversized_frames():
    """The frames the fast reader does not take are the parser's to refuse, as before: an unmasked
    client frame closes the socket with 1002, one over the size limit with 1009; neither reaches
    the handler."""

    async def scenario(frame: bytes) -> tuple[int, list]:
        handlers: list[_Recorder] = []
        server, task, reader, writer = await _detached_server(handlers, max_size=1000)
        writer.write(_client_frame(0x1, b"ok") + frame)
        await _read_frame(reader)  # "ok" echoed
        opcode, payload = await _read_frame(reader)
        writer.close()
        server.should_exit = True
        await task
        assert opcode == 0x8
        return int.from_bytes(payload[:2], "big"), handlers[0].messages

    assert asyncio.run(scenario(_client_frame(0x1, b"bare", masked=False))) == (1002, ["ok"])
    assert asyncio.run(scenario(_client_frame(0x1, b"x" * 1001))) == (1009, ["ok"])


async def _told_and_stopped(handler: _Recorder, writer, server, task) -> None:
    """Wait (a second at most) until the handler is told its socket ended; then close the client
    and stop the server."""
    for _ in range(100):
        if handler.closes:
            break
        await asyncio.sleep(0.01)
    writer.close()
    server.should_exit = True
    await task


async def _read_frame(reader) -> tuple[int, bytes]:
    """One unmasked server frame: (opcode, payload)."""
    head = await reader.readexactly(2)
    size = head[1] & 0x7F
    if size == 126:
        size = int.from_bytes(await reader.readexactly(2), "big")
    return head[0] & 0x0F, await reader.readexactly(size)


def test_a_detached_socket_gets_every_frame_with_no_task_and_no_handshake_kept():
    """The app accepts, detaches and returns; the socket stays open. A frame that arrived before
    the detach (queued for the app), a frame written a byte at a time, a fragmented message, a
    ping, a binary message and the close all reach the handler (or the protocol) in order; the
    end is told once; the handshake request is let go (the parser is the frame parser alone)."""
    from app.realtime.transport import RAW_EXTENSION

    handlers: list[_Recorder] = []

    queued: list[bool] = []

    async def detaching(websocket):
        await websocket.accept()
        protocol = websocket.scope["extensions"][RAW_EXTENSION]
        while protocol.queue.empty():  # the client's first frame, waiting for the app to read it
            await asyncio.sleep(0.005)
        queued.append(True)
        handler = _Recorder(protocol)
        handlers.append(handler)
        protocol.detach(handler)

    async def scenario():
        server, task, port = await _serve("/d", detaching)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"GET /d HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
        writer.write(_client_frame(0x1, b"first"))
        got = [await _read_frame(reader)]
        assert queued == [True]
        protocol = next(iter(server.server_state.connections))
        parser = protocol.conn.parser.gi_code.co_qualname
        assert not protocol.tasks  # the app's task has ended; the socket is still open
        for byte in _client_frame(0x1, b"slowly"):
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.002)
        got.append(await _read_frame(reader))
        writer.write(_client_frame(0x1, b"frag", fin=False) + _client_frame(0x0, b"mented"))
        got.append(await _read_frame(reader))
        writer.write(_client_frame(0x9, b"hi"))
        got.append(await _read_frame(reader))
        writer.write(_client_frame(0x2, b"\x00\x01\x02"))
        got.append(await _read_frame(reader))
        writer.write(_client_frame(0x8, (1000).to_bytes(2, "big")))
        got.append(await _read_frame(reader))
        writer.close()
        for _ in range(100):
            if handlers[0].closes:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        server.should_exit = True
        await task
        return got, parser

    got, parser = asyncio.run(scenario())
    assert got == [
        (0x1, b"first"),
        (0x1, b"slowly"),
        (0x1, b"fragmented"),
        (0xA, b"hi"),
        (0x1, b"3 bytes"),
        (0x8, (1000).to_bytes(2, "big")),
    ]
    assert handlers[0].messages == ["first", "slowly", "fragmented", b"\x00\x01\x02"]
    assert handlers[0].closes == [1000]
    assert parser == "Protocol.parse"  # ServerProtocol.parse (holding the request) is gone


def test_a_detached_socket_closes_with_1007_on_invalid_utf8():
    """Invalid UTF-8 in a text frame after detaching: the socket is closed with 1007 and the
    handler is told it ended, without the message."""
    handlers: list[_Recorder] = []

    async def scenario():
        server, task, reader, writer = await _detached_server(handlers)
        writer.write(_client_frame(0x1, b"\xff\xfe"))
        frame = await _read_frame(reader)
        await _told_and_stopped(handlers[0], writer, server, task)
        return frame

    opcode, payload = asyncio.run(scenario())
    assert opcode == 0x8 and int.from_bytes(payload[:2], "big") == 1007
    assert handlers[0].messages == [] and len(handlers[0].closes) == 1


def test_a_socket_left_with_half_a_frame_is_closed_after_the_frame_timeout():
    """Issue 33 item 7: a client that sends half a frame and goes silent (here: a text frame's
    header and mask, no payload) is closed with 1008 once `frame_seconds` have passed since
    the frame began, and one that trickles a frame's bytes so slowly that it is never whole is
    closed while it is still trickling (more bytes of the same frame do not restart the wait);
    the handler is told the socket ended. A frame whose pieces arrive in time is read as usual."""
    from app.main import ws_protocol

    async def scenario(trickle: bool) -> tuple:
        handlers: list[_Recorder] = []
        server, task, reader, writer = await _detached_server(handlers, protocol=ws_protocol("lean", 0.3))
        whole = _client_frame(0x1, b"in time")
        writer.write(whole[:3])
        await asyncio.sleep(0.05)
        writer.write(whole[3:])
        assert await _read_frame(reader) == (0x1, b"in time")
        seen: tuple = ()
        if trickle:  # 60 bytes of a 106-byte frame over 3 s: progress, never a whole frame
            hung_up = False
            for byte in _client_frame(0x1, b"x" * 100)[:60]:
                try:
                    writer.write(bytes([byte]))
                    await writer.drain()
                except ConnectionError:
                    hung_up = True
                    break
                await asyncio.sleep(0.05)
            seen = (hung_up,)
        else:
            writer.write(_client_frame(0x1, b"never finished")[:6])
            opcode, payload = await asyncio.wait_for(_read_frame(reader), 10)
            hung_up = await asyncio.wait_for(reader.read(), 10) == b""
            seen = (opcode, int.from_bytes(payload[:2], "big"), hung_up)
        await _told_and_stopped(handlers[0], writer, server, task)
        return seen, handlers[0].messages, handlers[0].closes

    assert asyncio.run(scenario(trickle=False)) == ((0x8, 1008, True), ["in time"], [1008])
    assert asyncio.run(scenario(trickle=True)) == ((True,), ["in time"], [1008])
