"""Cheap listening sockets for the fan-out and lobby benchmarks: raw websockets read with epoll in
a child process, so that the load generator spends microseconds per frame, not the ~0.2 ms per
frame of the websockets library that made one Python process the bottleneck at 1,000 sockets.

The child connects N sockets to one path, and for every text frame that matches a regular
expression it notes, per socket, the first arrival of each match's first group (a patch version, a
joiner's name). time.perf_counter is CLOCK_MONOTONIC on Linux, shared by every process, so the
parent's send times and the child's arrival times can be subtracted.
"""

from __future__ import annotations

import base64
import multiprocessing as mp
import os
import re
import select
import socket
import struct
import time
from typing import Any


def _handshake(host: str, port: int, path: str) -> tuple[socket.socket, bytes]:
    """Open one websocket (no extensions): its socket, set non-blocking, and any bytes read past
    the 101 response (frames the server sent at once)."""
    s = socket.create_connection((host, port), timeout=60)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            raise ConnectionError(f"{path}: closed during the handshake")
        head += chunk
    if not head.startswith(b"HTTP/1.1 101"):
        status = head.split(b"\r\n", 1)[0].decode()
        raise ConnectionError(f"{path}: {status}")
    s.setblocking(False)
    return s, head.split(b"\r\n\r\n", 1)[1]


def _pong(payload: bytes) -> bytes:
    """A masked pong frame (clients must mask) answering a ping's payload."""
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x8A, 0x80 | len(body)]) + mask + body


def _frames(buf: bytearray) -> list[tuple[int, bytes]]:
    """Cut every complete server frame (unmasked) off the front of `buf`."""
    out = []
    while len(buf) >= 2:
        n = buf[1] & 0x7F
        at = 2
        if n == 126:
            if len(buf) < 4:
                break
            n, at = struct.unpack_from("!H", buf, 2)[0], 4
        elif n == 127:
            if len(buf) < 10:
                break
            n, at = struct.unpack_from("!Q", buf, 2)[0], 10
        if len(buf) < at + n:
            break
        out.append((buf[0] & 0x0F, bytes(buf[at : at + n])))
        del buf[: at + n]
    return out


def _child(host: str, port: int, path: str, n: int, pattern: bytes, conn: Any) -> None:
    """Connect, report ready once every socket has had a first frame, record until told to stop."""
    rx = re.compile(pattern)
    opened = [_handshake(host, port, path) for _ in range(n)]
    socks = [s for s, _ in opened]
    bufs = {s.fileno(): bytearray(rest) for s, rest in opened}
    by_fd = {s.fileno(): s for s in socks}
    seen: dict[int, set[bytes]] = {fd: set() for fd in by_fd}
    first_frame: set[int] = set()
    arrivals: dict[str, list[float]] = {}
    ep = select.epoll()
    for fd in by_fd:
        ep.register(fd, select.EPOLLIN)
    ready_sent = closed = 0
    while True:
        if conn.poll():
            if conn.recv() == "stop":
                break
        for fd, _ in ep.poll(0.02):
            s = by_fd[fd]
            try:
                data = s.recv(262144)
            except BlockingIOError:
                continue
            now = time.perf_counter()
            if not data:
                ep.unregister(fd)
                closed += 1
                continue
            buf = bufs[fd]
            buf += data
            for op, payload in _frames(buf):
                first_frame.add(fd)
                if op == 0x9:
                    s.sendall(_pong(payload))
                elif op == 0x1:
                    for m in rx.finditer(payload):
                        key = m.group(1)
                        if key not in seen[fd]:
                            seen[fd].add(key)
                            arrivals.setdefault(key.decode(), []).append(now)
        if not ready_sent and len(first_frame) == n:
            conn.send(("ready", n))
            ready_sent = 1
    conn.send(("arrivals", arrivals, closed))
    for s in socks:
        s.close()


class RawListeners:
    """N raw listening sockets in a child process (pinned to `core` when given)."""

    def __init__(
        self, host: str, port: int, path: str, n: int, pattern: bytes, core: str | None = None
    ) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child_conn = ctx.Pipe()
        self.n = n
        self.proc = ctx.Process(
            target=_run, args=(host, port, path, n, pattern, child_conn, core), daemon=True
        )
        self.proc.start()

    def wait_ready(self, timeout: float = 300) -> None:
        """Block until every socket is open and has received its first frame."""
        if not self.conn.poll(timeout):
            raise TimeoutError("listeners not ready")
        kind, count = self.conn.recv()
        assert kind == "ready" and count == self.n, (kind, count)

    def stop(self) -> tuple[dict[str, list[float]], int]:
        """Stop the child; {key: [arrival perf_counter, one per socket that saw it]}, closed count."""
        self.conn.send("stop")
        kind, arrivals, closed = self.conn.recv()
        self.proc.join(30)
        return arrivals, closed


def _run(host, port, path, n, pattern, conn, core) -> None:
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(c) for c in core.split(",")})
    _child(host, port, path, n, pattern, conn)
