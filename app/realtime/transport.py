"""uvicorn's websockets-sansio protocol, framing client frames itself and keeping less per socket.

RFC 6455 framing first: after the opening handshake every byte the client sends is a frame's,
so this protocol cuts the stream into whole frames itself (section 5.2: a 2-byte header, a
16- or 64-bit length, a 4-byte mask, the payload) and hands the websockets parser whole frames
only. The parser therefore always stands between two frames when a read ends, which is what
lets a detached socket read the frames every client sends (whole, masked text frames) without
it, and start a frame whose bytes arrive over several reads only once it is whole (a ping whose
2-byte header came alone was once taken for a text frame). A frame that stays incomplete for
`frame_seconds` (CIVITAS_WS_FRAME_SECONDS) closes the socket with 1008: a client that sends half
a frame and goes silent is not kept open for ever. A frame the parser refuses from its header
(unmasked, reserved bits or opcode, over the size limit) goes to the parser at once, with the
rest of the stream, as uvicorn's own protocol would have it. tests/realtime/
test_transport_rfc6455.py checks that any stream, cut anywhere, gives the app the same messages
and the client the same bytes as uvicorn's protocol.

Memory, measured with bench/memory_bench.py (bare echo sockets, KiB of RSS each): websockets-sansio 24.7,
wsproto 23.0, legacy websockets 32.6, hypercorn 26.7, and 59.1 with permessage-deflate offered and
taken. Civitas serves websockets-sansio without deflate (a client that offers it gets no
extension, as RFC 7692 allows) and trims what that protocol keeps for a socket's whole life:
- the handshake's request and response (two header maps, ~4 KiB), dropped once the socket is open;
- the inbound asyncio.Queue (three deques, ~1.1 KiB) and the writable asyncio.Event (a deque),
  replaced by a list and a flag that make a future only while someone waits.
It also offers the app a shorter way out for the frames it fans out (`write_text`): a patch goes
to every socket of its audience as the same string, so its wire bytes are framed once and written
to each transport directly, instead of each socket's ASGI send framing the same text again.
And once a socket is open the app may `detach` it (app/realtime/session.py): its ASGI task ends,
the socket stays open, and each message goes to a handler object as it arrives; the parser that
still held the handshake request is replaced by a frame parser. A detached echo socket costs
8.7 KiB of RSS against 18.6 KiB served through ASGI. Everything else is uvicorn's own code path.
It subclasses uvicorn's protocol: pyproject.toml pins uvicorn and websockets to the versions
these tests pass with.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode
from websockets.protocol import Protocol, State

try:  # websockets' C helper; its pure-Python twin otherwise
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the wheel ships the C extension on every platform we run
    from websockets.utils import apply_mask

# The ASGI scope extension under which a socket's protocol offers `write_text` (and `detach`).
RAW_EXTENSION = "civitas.raw"
_FIN_TEXT = 0x81  # the first byte of a whole text frame: FIN, no reserved bits, opcode 1
# Opcodes RFC 6455 defines (section 5.2): the parser refuses any other from a frame's header.
_OPCODES = frozenset((0x0, 0x1, 0x2, 0x8, 0x9, 0xA))
FRAME_SECONDS = 10.0  # a frame begun and not whole after this long closes the socket (1008)
# Where the client's bytes go: the handshake to the parser; then frames, cut here and handed
# on whole; or (after a frame the parser refuses from its header) all to the parser.
_HANDSHAKE, _FRAMES, _PARSER = 0, 1, 2
_last_frame: list[Any] = [None, b""]  # the last text framed, and its wire bytes


def text_frame(text: str) -> bytes:
    """The wire bytes of one unmasked, unfragmented server text frame (RFC 6455 section 5.2).
    The last text framed is remembered by identity: a patch sent to many sockets is one string."""
    if _last_frame[0] is text:
        return _last_frame[1]
    payload = text.encode()
    n = len(payload)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 65536:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    frame = head + payload
    _last_frame[0], _last_frame[1] = text, frame
    return frame


class _Inbox:
    """The part of asyncio.Queue that uvicorn's protocol uses (put_nowait, get, empty), holding
    no deque while empty and a future only while the app waits for a frame."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: deque[Any] | None = None
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        """Queue one event and wake the reader."""
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def empty(self) -> bool:
        """Whether nothing is queued."""
        return not self._items

    async def get(self) -> Any:
        """The next event, waiting for one if need be (one reader at a time, as in ASGI)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item


class _Flag:
    """The part of asyncio.Event that the protocol uses (set, clear, wait), with no deque."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def set(self) -> None:
        """Set the flag and wake every waiter."""
        self._set = True
        waiters, self._waiters = self._waiters, None
        for fut in waiters or ():
            if not fut.done():
                fut.set_result(None)

    def clear(self) -> None:
        """Clear the flag."""
        self._set = False

    def is_set(self) -> bool:
        """Whether the flag is set."""
        return self._set

    async def wait(self) -> None:
        """Return at once if set, else when it is next set."""
        if self._set:
            return
        fut = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(fut)
        await fut


class _ToHandler:
    """Stands in for the inbound queue once a socket is detached: each event goes straight to
    the handler (a text or binary message, or the socket's end, told once)."""

    __slots__ = ("handler", "ended")

    def __init__(self, handler: Any) -> None:
        self.handler = handler
        self.ended = False

    def put_nowait(self, event: dict[str, Any]) -> None:
        """Hand one ASGI-shaped event to the handler."""
        if event["type"] == "websocket.receive":
            if not self.ended:
                self.handler.on_message(event.get("text"), event.get("bytes"))
        elif not self.ended:  # websocket.disconnect: the first one counts
            self.ended = True
            self.handler.on_close(event.get("code", 1005))

    def empty(self) -> bool:
        """Nothing is ever queued here."""
        return True


def _frame_size(buf: bytes | bytearray, at: int, end: int, limit: int | None) -> int:
    """The length in bytes of the frame starting at `at` (RFC 6455 section 5.2); 0 while its
    header is not all here; -1 for a frame the parser refuses from its header alone (not
    masked, as a client's frames must be; reserved bits set, no extension being in use; a
    reserved opcode; a payload over the limit), which goes to it at once."""
    if end - at < 2:
        return 0
    first, second = buf[at], buf[at + 1]
    if not second & 0x80 or first & 0x70 or first & 0x0F not in _OPCODES:
        return -1
    length, head = second & 0x7F, 2
    if length == 126:
        if end - at < 4:
            return 0
        length, head = int.from_bytes(buf[at + 2 : at + 4], "big"), 4
    elif length == 127:
        if end - at < 10:
            return 0
        length, head = int.from_bytes(buf[at + 2 : at + 10], "big"), 10
    if limit is not None and length > limit:
        return -1
    return head + 4 + length


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """websockets-sansio, keeping less per open socket (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Inbox()  # type: ignore[assignment]  # a leaner stand-in for uvicorn's asyncio.Queue
        self.writable = _Flag()  # type: ignore[assignment]  # a leaner stand-in for its asyncio.Event
        self.writable.set()
        self.detached = False
        self._stage = _HANDSHAKE
        self._partial: bytearray | None = None  # the start of a frame still arriving
        self._frame_timer: asyncio.TimerHandle | None = None

    def detach(self, handler: Any) -> None:
        """The app's task may end without closing the socket: from now on every message goes to
        `handler.on_message(text, data)` as it arrives and the end to `handler.on_close(code)`,
        with no task, queue or ASGI call chain kept for the socket. Messages already queued go
        first, in order. The handler pauses and resumes reading itself (`pause`, `resume`)."""
        queued, self.queue = self.queue, _ToHandler(handler)  # type: ignore[assignment]  # same put_nowait
        self.detached = True
        while not queued.empty():
            self.queue.put_nowait(queued._items.popleft())  # type: ignore[attr-defined]  # queued is our _Inbox
        self._let_go_of_the_handshake()
        self.resume()

    def _let_go_of_the_handshake(self) -> None:
        """The websockets parser keeps the handshake request (two header maps, ~2 KiB) in its
        generator's frame for the socket's life. It only ever gets whole frames here, so it
        always stands between two frames: it is replaced by a parser of frames alone (unless
        the generators are not the ones this was written for)."""
        conn = self.conn
        outer = conn.parser
        inner = getattr(outer, "gi_yieldfrom", None)  # ServerProtocol.parse -> Protocol.parse
        if (
            self._stage != _FRAMES
            or conn.reader.buffer
            or conn.state is not State.OPEN
            or getattr(getattr(inner, "gi_code", None), "co_name", None) != "parse"
        ):
            return
        parser = Protocol.parse(conn)
        next(parser)  # runs to the same wait for data
        conn.parser = parser
        outer.close()

    def pause(self) -> None:
        """Stop reading from the peer (a detached handler with a backlog)."""
        if not self.read_paused and not self.transport.is_closing():
            self.read_paused = True
            self.transport.pause_reading()

    def resume(self) -> None:
        """Read from the peer again."""
        if self.read_paused and not self.transport.is_closing():
            self.read_paused = False
            self.transport.resume_reading()

    def data_received(self, data: bytes) -> None:
        """Bytes from the peer: the handshake goes to the parser; after it, frames are cut out
        here and handed on whole (see the module docstring)."""
        if self._stage == _FRAMES:
            self._frames_received(data)
            return
        super().data_received(data)
        if self._stage == _HANDSHAKE:
            # uvicorn's HTTP protocols hand the upgrade request over whole, in one call (and
            # drop what followed it in the same read): every byte from the next call on is a
            # frame's. Anything else, and the parser keeps reading the stream itself.
            framed = self.handshake_initiated and not self.conn.reader.buffer
            self._stage = _FRAMES if framed else _PARSER

    def _frames_received(self, data: bytes) -> None:
        """Hand each whole frame on (a detached socket's text straight to its handler, any
        other to the parser); keep an incomplete one until the rest arrives, timing it."""
        buf: bytes | bytearray = data
        if self._partial is not None:
            self._partial += data
            buf, self._partial = self._partial, None
        at, end = 0, len(buf)
        limit = self.conn.max_message_size
        while at < end:
            size = _frame_size(buf, at, end, limit)
            if size < 0:  # the parser refuses this frame from its header: all to the parser
                self._stage = _PARSER
                self._stop_frame_timer()
                super().data_received(bytes(buf[at:]))
                return
            if size == 0 or at + size > end:
                break
            self._frame(buf, at, at + size)
            at += size
            if self.transport.is_closing():  # closed by that frame: a closed socket reads no more
                self._stop_frame_timer()
                return
        if at:  # a frame ended: whatever follows has its own time
            self._stop_frame_timer()
        if at < end:
            self._partial = bytearray(buf[at:])
            if self._frame_timer is None and not self.transport.is_closing():
                self._frame_timer = self.loop.call_later(self.frame_seconds, self._frame_late)

    def _frame(self, buf: bytes | bytearray, start: int, stop: int) -> None:
        """One whole frame: a detached socket's whole masked text frame goes to its handler
        here (what every client message is); any other frame to the parser."""
        conn = self.conn
        if (
            self.detached
            and buf[start] == _FIN_TEXT
            and not self.close_sent
            and conn.state is State.OPEN
            and conn.current_size is None
            and not conn.extensions
        ):
            length = buf[start + 1] & 0x7F
            head = start + 2 + (2 if length == 126 else 8 if length == 127 else 0)
            try:
                text = apply_mask(bytes(buf[head + 4 : stop]), bytes(buf[head : head + 4])).decode()
            except UnicodeDecodeError:
                pass  # the parser's path closes the socket with 1007
            else:
                self.queue.put_nowait({"type": "websocket.receive", "text": text})
                return
        super().data_received(bytes(buf[start:stop]))

    frame_seconds = FRAME_SECONDS

    def _frame_late(self) -> None:
        """A frame began `frame_seconds` ago and is still not whole: close with 1008."""
        self._frame_timer = None
        if self.transport.is_closing() or self._partial is None:
            return
        self.logger.info("closing a websocket whose frame was not whole after %g s", self.frame_seconds)
        self._partial = None
        self.conn.fail(CloseCode.POLICY_VIOLATION, "frame not completed in time")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": CloseCode.POLICY_VIOLATION})
        self.transport.close()

    def _stop_frame_timer(self) -> None:
        if self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's, and no frame is waited for any more."""
        self._stop_frame_timer()
        self._partial = None
        super().connection_lost(exc)

    def send_receive_event_to_app(self) -> None:
        """uvicorn's, except that a detached socket hands the message on without pausing."""
        if not self.detached:
            return super().send_receive_event_to_app()
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return
        if self.curr_msg_data_type != "text":
            self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        self.queue.put_nowait({"type": "websocket.receive", "text": text})

    async def run_asgi(self) -> None:
        """uvicorn's, except that a socket the app detached stays open when the app returns."""
        try:
            result = await self.app(self.scope, self.receive, self.send)
        except ClientDisconnected:
            pass
        except BaseException:
            self.logger.exception("Exception in ASGI application\n")
            self.send_500_response()
        else:
            if not self.handshake_complete:
                self.logger.error("ASGI callable returned without completing handshake.")
                self.send_500_response()
            elif result is not None:
                self.logger.error("ASGI callable should return None, but returned '%s'.", result)
        if self.detached and not self.disconnected:
            self.scope = None  # type: ignore[assignment]  # its headers and state: not needed now
            return
        if self.close_timer is None:
            self.transport.close()

    def handle_connect(self, event: Any) -> None:
        """uvicorn's; the app's scope also carries this protocol, for `write_text`."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][RAW_EXTENSION] = self

    def write_text(self, text: str) -> bool:
        """Write a text frame straight to the transport; False when this socket cannot take it
        that way now (not open, closing, held back by a full transport buffer, or an extension
        that would transform frames), and the caller sends it through ASGI instead."""
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or not self.writable.is_set()
            or self.conn.state is not State.OPEN
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(text_frame(text))
        return True

    async def send(self, message: Any) -> None:
        """uvicorn's send; once the handshake is done its request and response are let go."""
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            self.request = self.response = None  # type: ignore[assignment]  # let go after the handshake
