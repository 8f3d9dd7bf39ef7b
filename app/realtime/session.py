"""A live socket's inbound frames, handled one at a time in the order they came.

Served by Civitas's own protocol (app/realtime/transport.py), a socket is *detached* once open:
the protocol hands each message to its `SocketSession` as it arrives, and the socket keeps no
task, no ASGI call chain (a dozen middleware and endpoint frames) and no framework objects while
it is idle. A message is handled at once, in the protocol's callback; a task exists only while a
frame's handling waits (a database read, say) or frames queue behind it. Measured: a bare echo socket
8.7 KiB of RSS detached against 18.6 KiB through ASGI (bench/RESULTS.md). Any other server (and
the test client) reads the frames through ASGI instead, with the same `handle` and `finish`.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Awaitable, Callable, Coroutine

from starlette.websockets import WebSocketDisconnect

from app.realtime import eager
from app.limits import DETACHED

log = logging.getLogger(__name__)

Handle = Callable[[str | None], Coroutine[Any, Any, bool]]  # one frame's text (None: binary); False: stop
Finish = Callable[[], Awaitable[None]]  # the socket is gone: clean up, once

MAX_BACKLOG = 32  # frames waiting to be handled before the socket stops reading from its peer


class ProtocolSink:
    """What a Connection writes through once its socket is detached: the protocol's own send,
    with no middleware wrappers (they are for the handshake; none of them changes frames)."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    async def send_text(self, text: str) -> None:
        """One text frame (waits while the transport's buffer is full)."""
        await self.protocol.send({"type": "websocket.send", "text": text})

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Start the closing handshake."""
        await self.protocol.send({"type": "websocket.close", "code": code, "reason": reason or ""})


class SocketSession:
    """One detached socket: messages queued as the protocol hands them over, handled in order by
    a task that lives only while some wait; `finish` runs once, after the last frame handled."""

    __slots__ = (
        "protocol",
        "handle",
        "finish",
        "inbox",
        "worker",
        "closing",
        "stopped",
        "finished",
        "closers",
    )

    def __init__(self, protocol: Any, handle: Handle, finish: Finish) -> None:
        self.protocol = protocol
        self.handle = handle
        self.finish = finish
        self.inbox: deque[str | None] | None = None
        self.worker: asyncio.Task[None] | None = None
        self.closing = False  # no more messages will come (the frames already here are handled)
        self.stopped = False  # a frame's handling closed the socket: drop the rest
        self.finished = False
        # Run after `finish` (the limits give the socket's place back here, not when the ASGI
        # app returns: a detached socket outlives it).
        self.closers: list[Callable[[], Awaitable[None]]] = []

    def on_message(self, text: str | None, data: bytes | None) -> None:
        """From the protocol: one message (text, or binary `data`). With nothing before it, it is
        handled at once, in the protocol's callback (app/realtime/eager.py); a task takes over
        only if its handling has to wait."""
        if self.closing:
            return
        if self.worker is None and not self.inbox and not self.finished:
            self._handle_now(text)
            return
        if self.inbox is None:
            self.inbox = deque()
        self.inbox.append(text)
        if len(self.inbox) >= MAX_BACKLOG:
            self.protocol.pause()
        self._wake()

    def _handle_now(self, text: str | None) -> None:
        coro = self.handle(text)
        try:
            go_on, pending = eager.start(coro)
        except Exception:  # a bug in one frame's handling: log it, close this socket
            log.exception("socket frame handler failed")
            self.stopped = self.closing = True
            self.worker = asyncio.get_running_loop().create_task(self._work(close_code=1011))
            return
        if eager.running(go_on):
            self.worker = asyncio.get_running_loop().create_task(self._work((coro, pending)))
        elif not go_on:
            self.stopped = self.closing = True
            self._wake()

    def on_close(self, code: int) -> None:
        """From the protocol (or a stopping platform): the socket is gone or going."""
        self.closing = True
        self._wake()

    def _wake(self) -> None:
        if self.worker is None and not self.finished:
            self.worker = asyncio.get_running_loop().create_task(self._work())

    async def _work(self, started: tuple[Any, Any] | None = None, close_code: int | None = None) -> None:
        """Handle the queued frames in order (first finishing one that started at once, or
        closing the socket after a frame's handler failed), then finish if the socket is gone."""
        try:
            if close_code is not None:
                await self._close(close_code)
            elif started is not None:
                await self._one(eager.finish(*started))
            while self.inbox and not self.stopped:
                await asyncio.sleep(0)  # one frame per turn: a busy socket lets the others in
                if not self.inbox or self.stopped:
                    break
                text = self.inbox.popleft()
                if len(self.inbox) < MAX_BACKLOG // 2:
                    self.protocol.resume()
                await self._one(self.handle(text))
            if not self.inbox:
                self.inbox = None
        finally:
            self.worker = None
            if self.closing and not self.finished:
                self.finished = True
                self.inbox = None
                # Shielded: a platform stopping cancels this task, and the cleanup (presence,
                # socket caps) must still run to its end.
                await asyncio.shield(self._finish())
            elif self.inbox:
                self._wake()  # a message came while the last one was being handled

    async def _one(self, handling: Awaitable[bool]) -> None:
        """One frame's handling; a handler that fails or says stop ends the socket's frames."""
        try:
            go_on = await handling
        except Exception:  # a bug in one frame's handling: log it, close this socket
            log.exception("socket frame handler failed")
            go_on = False
            await self._close(1011)
        if not go_on:
            self.stopped = self.closing = True

    async def _finish(self) -> None:
        try:
            await self.finish()
        finally:
            for closer in self.closers:
                try:
                    await closer()
                except Exception:  # noqa: BLE001 - one failing closer must not skip the others
                    log.exception("socket closer failed")

    async def _close(self, code: int) -> None:
        try:
            await ProtocolSink(self.protocol).close(code)
        except Exception:  # noqa: BLE001 - the socket may already be gone
            pass

    async def stop(self) -> None:
        """The platform is stopping: end this socket's session and wait for its cleanup."""
        if not self.finished:
            self.on_close(1012)
        worker = self.worker
        if worker is not None:
            await asyncio.gather(asyncio.shield(worker), return_exceptions=True)


class LiveSessions:
    """The detached sockets of one platform, so that stopping it can finish their cleanup."""

    def __init__(self) -> None:
        self.sessions: set[SocketSession] = set()

    async def stop(self, timeout: float = 5.0) -> None:
        """End every session and wait (at most `timeout` s) for their cleanups."""
        pending = [s.stop() for s in list(self.sessions)]
        if pending:
            await asyncio.wait_for(asyncio.gather(*pending, return_exceptions=True), timeout)


async def serve(websocket: Any, conn: Any, live: LiveSessions, handle: Handle, finish: Finish) -> None:
    """Serve an open socket's frames: detached when its protocol can (the app's task ends here
    and the protocol calls the session), else through ASGI until the peer goes."""
    protocol = conn.raw
    if protocol is not None and getattr(protocol, "detach", None) is not None:
        session = SocketSession(protocol, handle, finish)

        async def forget() -> None:
            live.sessions.discard(session)

        session.closers.append(forget)
        live.sessions.add(session)
        conn.websocket = ProtocolSink(protocol)  # let go of the ASGI send chain and the scope
        websocket.scope[DETACHED] = session
        protocol.detach(session)
        return
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            if not await handle(message.get("text")):
                break
            await asyncio.sleep(0)  # one frame per turn: a busy socket lets the others in
    except WebSocketDisconnect:
        pass
    finally:
        # Shielded: a handler cancelled while closing (a server stopping, a test client) still
        # cleans up (its presence was counted before the snapshot went out).
        await asyncio.shield(finish())
