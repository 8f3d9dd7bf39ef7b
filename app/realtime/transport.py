"""uvicorn's websockets-sansio protocol with less kept per idle socket.

Measured with bench/memory_bench.py (bare echo sockets, KiB of RSS each): websockets-sansio 24.7,
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
8.7 KiB of RSS against 18.6 KiB served through ASGI. A detached socket also reads the frames
every client sends (whole, masked text frames) without the websockets parser's generators; any
other frame goes through that parser as before. Everything else is uvicorn's own code path.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import Protocol, State

try:  # websockets' C helper; its pure-Python twin otherwise
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the wheel ships the C extension on every platform we run
    from websockets.utils import apply_mask

# The ASGI scope extension under which a socket's protocol offers `write_text` (and `detach`).
RAW_EXTENSION = "civitas.raw"
# The scope key under which a detached socket's session is left for the middlewares around the
# app (app/limits.py gives a socket's place back when the session ends, not when the app returns).
DETACHED = "civitas.detached"
_FIN_TEXT = 0x81  # the first byte of a whole text frame: FIN, no reserved bits, opcode 1
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


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """websockets-sansio, keeping less per open socket (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Inbox()  # type: ignore[assignment]
        self.writable = _Flag()  # type: ignore[assignment]
        self.writable.set()
        self.detached = False

    def detach(self, handler: Any) -> None:
        """The app's task may end without closing the socket: from now on every message goes to
        `handler.on_message(text, data)` as it arrives and the end to `handler.on_close(code)`,
        with no task, queue or ASGI call chain kept for the socket. Messages already queued go
        first, in order. The handler pauses and resumes reading itself (`pause`, `resume`)."""
        queued, self.queue = self.queue, _ToHandler(handler)  # type: ignore[assignment]
        self.detached = True
        while not queued.empty():
            self.queue.put_nowait(queued._items.popleft())  # type: ignore[union-attr]
        self._let_go_of_the_handshake()
        self.resume()

    def _let_go_of_the_handshake(self) -> None:
        """The websockets parser keeps the handshake request (two header maps, ~2 KiB) in its
        generator's frame for the socket's life. Between two frames (the parser waiting for
        data, nothing buffered) it is replaced by a parser of frames alone; in the middle of a
        frame it is left as it is."""
        conn = self.conn
        outer = conn.parser
        inner = getattr(outer, "gi_yieldfrom", None)  # ServerProtocol.parse -> Protocol.parse
        waiting = getattr(inner, "gi_yieldfrom", None)  # -> StreamReader.at_eof: between frames
        if (getattr(getattr(inner, "gi_code", None), "co_name", None) != "parse"
                or getattr(getattr(waiting, "gi_code", None), "co_name", None) != "at_eof"
                or conn.reader.buffer or conn.reader.eof or conn.state is not State.OPEN):
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
        """Bytes from the peer. A detached socket reads whole, unfragmented, masked text frames
        itself (what every client message is) and hands each text straight to its handler; any
        other frame, a frame cut across reads, and everything after it go through the websockets
        parser, which then starts at a frame boundary as if it had read the frames before."""
        if self.detached and not self.close_sent and not self.conn.reader.buffer:
            data = self._read_text_frames(data)
            if not data:
                return
        super().data_received(data)

    def _read_text_frames(self, data: bytes) -> bytes:
        """Hand on the whole text frames at the start of `data` (RFC 6455 section 5.2); the rest,
        from the first frame this does not take, is returned for the websockets parser."""
        conn = self.conn
        if conn.current_size is not None or conn.state is not State.OPEN or conn.extensions:
            return data
        limit = conn.max_message_size
        at, end = 0, len(data)
        while at + 6 <= end:
            first, second = data[at], data[at + 1]
            # FIN, no reserved bits, a text frame, masked (a client must mask: RFC 6455 5.1).
            if first != _FIN_TEXT or not second & 0x80:
                break
            size, head = second & 0x7F, at + 2
            if size == 126:
                if at + 8 > end:
                    break
                size, head = int.from_bytes(data[head:head + 2], "big"), head + 2
            elif size == 127:
                break  # 64-bit lengths are far past any limit: the parser refuses them
            if limit is not None and size > limit:
                break
            stop = head + 4 + size
            if stop > end:
                break
            try:
                text = apply_mask(data[head + 4:stop], data[head:head + 4]).decode()
            except UnicodeDecodeError:
                break  # the parser's path closes the socket with 1007
            at = stop
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
            if self.close_sent or not self.detached:  # the handler closed the socket
                break
        return data[at:] if at else data

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
        if (self.disconnected or self.close_sent or not self.handshake_complete
                or not self.writable.is_set() or self.conn.state is not State.OPEN
                or self.conn.extensions or self.transport.is_closing()):
            return False
        self.transport.write(text_frame(text))
        return True

    async def send(self, message: Any) -> None:
        """uvicorn's send; once the handshake is done its request and response are let go."""
        await super().send(message)
        if self.handshake_complete and getattr(self, "response", None) is not None:
            self.request = self.response = None  # type: ignore[assignment]
