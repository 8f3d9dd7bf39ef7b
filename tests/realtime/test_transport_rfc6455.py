"""RFC 6455 conformance of Civitas's websocket protocol (app/realtime/transport.py), checked
against uvicorn's own websockets-sansio protocol: the same client byte stream, cut anywhere,
must give the app the same messages and the client the same bytes back (pongs, close frames)
and the same end as uvicorn's protocol reading it one whole frame per read.

(One whole frame per read, because uvicorn's protocol itself depends on the cuts in one way: a
read that ends in a frame the parser refuses loses the messages completed earlier in that same
read, since it closes without handling the read's events. Civitas's protocol hands the parser
one frame at a time, so it delivers them whatever the cuts, as uvicorn does when reads end
between frames.) Streams mix text, binary, ping, pong and close frames, fragmented messages
(with control frames between the fragments), masked and unmasked frames, every payload length
encoding (7-bit, 16-bit, 64-bit) and broken frames (reserved bits and opcodes, invalid UTF-8,
oversized frames, a continuation with nothing to continue).

Each protocol runs over an in-memory transport: no sockets, so every cut is exact and a run
takes a fraction of a millisecond."""

from __future__ import annotations

import asyncio
import itertools
import os

import pytest
import uvicorn
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from app.realtime.transport import RAW_EXTENSION, LeanWebSocketProtocol

MAX_SIZE = 70_000  # the servers' message limit: a 64-bit length frame fits, a bigger one does not
HANDSHAKE = (
    b"GET /ws HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
    b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
)


def frame(
    opcode: int,
    payload: bytes,
    *,
    fin: bool = True,
    masked: bool = True,
    rsv: int = 0,
    mask: bytes | None = None,
    length_form: int | None = None,
) -> bytes:
    """A client frame (RFC 6455 section 5.2). `length_form` 126 or 127 writes a short payload's
    length in the 16- or 64-bit form (legal, if wasteful)."""
    n = len(payload)
    form = length_form or (n if n < 126 else 126 if n < 65536 else 127)
    size = (
        bytes([form])
        if form < 126
        else (bytes([126]) + n.to_bytes(2, "big") if form == 126 else bytes([127]) + n.to_bytes(8, "big"))
    )
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    if not masked:
        return head + size + payload
    mask = mask if mask is not None else os.urandom(4)
    return (
        head
        + bytes([0x80 | size[0]])
        + size[1:]
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


# -- an in-memory transport and the two apps --------------------------------------------------


class MemoryTransport(asyncio.Transport):
    """What a protocol writes, whether it paused reading, and whether it closed."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.paused = False
        self.closed = False
        self.protocol: asyncio.Protocol | None = None

    def write(self, data: bytes) -> None:
        self.written += data

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            asyncio.get_running_loop().call_soon(self.protocol.connection_lost, None)

    def pause_reading(self) -> None:
        self.paused = True

    def resume_reading(self) -> None:
        self.paused = False

    def get_extra_info(self, name, default=None):
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


class Seen:
    """What the app was given: messages in order, then the end's close code."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self.ended = False

    def on_message(self, text, data) -> None:  # a detached socket's handler
        self.events.append(("text", text) if text is not None else ("bytes", bytes(data)))

    def on_close(self, code) -> None:
        if not self.ended:
            self.ended = True
            self.events.append(("end", code))


SEEN: list[Seen] = []  # the run in progress


async def reading_app(scope, receive, send) -> None:
    """Accept, then read every message through ASGI until the end."""
    seen = SEEN[-1]
    await receive()
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            seen.on_close(message.get("code", 1005))
            return
        seen.on_message(message.get("text"), message.get("bytes"))


async def detaching_app(scope, receive, send) -> None:
    """Accept and detach: every message then goes to the handler as it arrives."""
    await receive()
    await send({"type": "websocket.accept"})
    scope["extensions"][RAW_EXTENSION].detach(SEEN[-1])


def _config(app, protocol) -> uvicorn.Config:
    config = uvicorn.Config(
        app,
        ws=protocol,
        ws_max_size=MAX_SIZE,
        ws_per_message_deflate=False,
        ws_ping_interval=None,
        lifespan="off",
        log_level="critical",
        proxy_headers=False,
    )
    config.load()
    return config


SERVERS = {
    "stock": (WebSocketsSansIOProtocol, reading_app),
    "lean": (LeanWebSocketProtocol, reading_app),
    "lean detached": (LeanWebSocketProtocol, detaching_app),
}
_CONFIGS: dict[str, uvicorn.Config] = {}


async def _turns(n: int = 4) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


async def serve(kind: str, chunks: list[bytes]) -> tuple[list[tuple], bytes]:
    """Feed the chunks to a fresh socket of `kind` after its handshake (waiting, as a real
    transport does, while it has paused reading; stopping once it has closed), then end the
    stream; what the app saw and what was written back after the handshake response."""
    protocol_class, app = SERVERS[kind]
    config = _CONFIGS.get(kind) or _CONFIGS.setdefault(kind, _config(app, protocol_class))
    SEEN.append(Seen())
    transport = MemoryTransport()
    protocol = protocol_class(config=config, server_state=ServerState(), app_state={})
    transport.protocol = protocol
    protocol.connection_made(transport)
    protocol.data_received(HANDSHAKE)
    await _turns()
    assert transport.written.startswith(b"HTTP/1.1 101"), transport.written[:200]
    answered = len(transport.written)
    for chunk in chunks:
        for _ in range(20):
            if not transport.paused:
                break
            await _turns(1)
        if transport.closed:
            break
        protocol.data_received(chunk)
        await _turns()
    if not transport.closed:
        protocol.eof_received()
        transport.close()
    await _turns(8)
    return SEEN.pop().events, bytes(transport.written[answered:])


def outcomes(frames: list[bytes], cuts: list[int]) -> dict[str, tuple[list[tuple], bytes]]:
    """Civitas's protocol's outcomes for the frames' stream cut at these offsets, and uvicorn's
    reading it one whole frame per read ("stock")."""
    stream = b"".join(frames)
    bounds = [0, *sorted({c for c in cuts if 0 < c < len(stream)}), len(stream)]
    chunks = [stream[a:b] for a, b in itertools.pairwise(bounds)]

    async def all_kinds():
        return {kind: await serve(kind, frames if kind == "stock" else chunks) for kind in SERVERS}

    return asyncio.run(all_kinds())


def assert_same(frames: list[bytes], cuts: list[int]) -> None:
    """Civitas's protocol, attached and detached, gives the stock protocol's outcome."""
    got = outcomes(frames, cuts)
    for kind, outcome in got.items():
        assert outcome == got["stock"], (kind, cuts, b"".join(frames)[:200])


# -- the streams ----------------------------------------------------------------------------

_text = st.text(alphabet=st.characters(codec="utf-8"), max_size=40).map(str.encode)
_bytes = st.binary(max_size=40)


@st.composite
def _message(draw) -> list[bytes]:
    """The frames of one message or control frame a client may send, legal or not."""
    kind = draw(
        st.sampled_from(["text", "text", "binary", "ping", "pong", "fragmented", "long", "close", "broken"])
    )
    masked = draw(st.booleans()) if kind == "broken" else True
    form = draw(st.sampled_from([None, None, 126, 127]))
    if kind == "text":
        return [frame(0x1, draw(_text), length_form=form)]
    if kind == "binary":
        return [frame(0x2, draw(_bytes), length_form=form)]
    if kind in ("ping", "pong"):
        return [frame(0x9 if kind == "ping" else 0xA, draw(st.binary(max_size=20)))]
    if kind == "long":  # a 16-bit length, or a 64-bit one
        size = draw(st.sampled_from([126, 300, 65535, 65536, 69_000]))
        return [frame(draw(st.sampled_from([0x1, 0x2])), b"z" * size)]
    if kind == "close":
        code = draw(st.sampled_from([1000, 1001, 4000, 1005, 999]))  # 1005, 999: not sendable
        return [frame(0x8, code.to_bytes(2, "big") + draw(_text)[:20])]
    if kind == "fragmented":
        opcode = draw(st.sampled_from([0x1, 0x2]))
        parts = draw(st.lists(_text, min_size=2, max_size=4))
        out = [frame(opcode, parts[0], fin=False)]
        for i, part in enumerate(parts[1:], 1):
            if draw(st.booleans()):
                out.append(frame(0x9, b"mid"))  # control frames may come between fragments
            out.append(frame(0x0, part, fin=i == len(parts) - 1))
        return out
    broken = draw(
        st.sampled_from(
            [
                "unmasked",
                "rsv",
                "opcode",
                "utf8",
                "too big",
                "orphan cont",
                "long ping",
                "fragmented ping",
                "text in fragments",
            ]
        )
    )
    if broken == "unmasked":
        return [frame(0x1, b"bare", masked=False)]
    if broken == "rsv":
        return [frame(0x1, b"rsv", rsv=draw(st.sampled_from([1, 2, 4])), masked=masked)]
    if broken == "opcode":
        return [frame(draw(st.sampled_from([0x3, 0x7, 0xB, 0xF])), b"op", masked=masked)]
    if broken == "utf8":
        return [frame(0x1, b"ok\xff\xfe", masked=masked)]
    if broken == "too big":
        return [frame(0x2, b"y" * (MAX_SIZE + 1), masked=masked)]
    if broken == "orphan cont":
        return [frame(0x0, b"cont", masked=masked)]
    if broken == "long ping":
        return [frame(0x9, b"p" * 126, masked=masked)]
    if broken == "fragmented ping":
        return [frame(0x9, b"p", fin=False, masked=masked)]
    return [frame(0x1, b"a", fin=False), frame(0x1, b"b")]


streams = st.lists(_message(), min_size=1, max_size=6).map(lambda ms: [f for m in ms for f in m])
# No shrinking: a failure prints its stream and offsets, and shrinking streams with 64 KiB frames
# takes minutes.
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _offsets(stream: bytes) -> list[int]:
    """Every byte offset of a stream up to 600 bytes; in a longer one (a long frame's payload
    is one repeated byte), every offset of its first and last 300 bytes and every 997th
    between."""
    if len(stream) <= 600:
        return list(range(1, len(stream)))
    return sorted(
        set(range(1, 300))
        | set(range(len(stream) - 300, len(stream)))
        | set(range(300, len(stream) - 300, 997))
    )


# -- the checks -----------------------------------------------------------------------------


def test_a_ping_whose_header_arrives_alone_is_answered_with_a_pong():
    """Issue 26 item 5: a valid ping whose 2-byte header arrives in its own read, the mask and
    payload in the next. uvicorn answers pong; Civitas's detached socket once took the mask
    (here 81 80 00 20: the first two bytes of an empty text frame) for a new frame, handed the
    app an empty message ("not valid JSON") and misread the rest. Every server now answers pong
    and hands the app the text frame that follows, and nothing else."""
    ping = frame(0x9, b"are you there", mask=b"\x81\x80\x00\x20")
    got = outcomes([ping, frame(0x1, b"after")], [2, len(ping)])
    pong = bytes([0x8A, len(b"are you there")]) + b"are you there"
    assert got["stock"][1].startswith(pong)
    for kind, (events, written) in got.items():
        assert events == [("text", "after"), ("end", 1005)] and written == pong, kind


@SETTINGS
@given(streams)
def test_a_stream_cut_at_any_one_offset_gives_the_stock_outcome(frames):
    """Cut in two at every byte offset (every offset of a stream up to 600 bytes): the same
    messages, the same bytes back and the same end as the stock protocol."""
    for offset in _offsets(b"".join(frames)):
        assert_same(frames, [offset])


@SETTINGS
@given(streams, st.lists(st.integers(min_value=1, max_value=200), min_size=2, max_size=12))
def test_a_stream_in_many_pieces_gives_the_stock_outcome(frames, steps):
    """Cut into many pieces (and, for a stream up to 600 bytes, a byte at a time)."""
    cuts, at = [], 0
    for step in steps * 4:
        at += step
        cuts.append(at)
    assert_same(frames, cuts)
    if len(b"".join(frames)) <= 600:
        assert_same(frames, list(range(1, len(b"".join(frames)))))


@pytest.mark.parametrize("form", [None, 126, 127])
def test_every_length_encoding_cut_at_every_offset(form):
    """A text frame with its length in each encoding, then a ping and a binary frame, cut at
    every offset."""
    frames = [frame(0x1, "é".encode() * 20, length_form=form), frame(0x9, b"x"), frame(0x2, b"b")]
    for offset in range(1, len(b"".join(frames))):
        assert_same(frames, [offset])
