"""Hub details: a socket that cannot keep up is closed (and will resync), never allowed to grow."""

from __future__ import annotations

import asyncio

from app.realtime.hub import SEND_QUEUE, Audience, Connection


class _SlowSocket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


def test_a_socket_that_falls_too_far_behind_is_closed():
    """Past SEND_QUEUE unsent frames the connection drops its backlog and closes with 1013."""

    async def scenario():
        socket = _SlowSocket()
        conn = Connection(socket, "g", 0, "p")
        sender = asyncio.create_task(conn.sender())
        await asyncio.sleep(0)
        for i in range(SEND_QUEUE + 5):
            conn.send(f"frame {i}")
        assert conn.closed and conn.queue.qsize() == 1
        socket.release.set()
        await asyncio.wait_for(sender, 2)
        return socket

    socket = asyncio.run(scenario())
    assert socket.closed_with == 1013 and len(socket.sent) <= 1


def test_frames_after_a_version_or_none_when_gone():
    """An audience answers sync with the kept patches after a version, or None when they are gone."""
    audience = Audience(seat=0, version=5, doc={"version": 5})
    audience.patches.extend([(4, "p4"), (5, "p5")])
    assert audience.frames_after(5) == []
    assert audience.frames_after(3) == ["p4", "p5"]
    assert audience.frames_after(4) == ["p5"]
    assert audience.frames_after(2) is None and audience.frames_after(9) is None
