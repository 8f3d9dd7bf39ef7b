"""Socket clients for the benchmarks: a game seat that keeps its document, and an echo peer."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import jsonpatch
import orjson
import websockets


async def connect(url: str) -> Any:
    """A client socket with no compression and no size limit (like a browser)."""
    return await websockets.connect(
        url, max_size=None, compression=None, open_timeout=60, ping_interval=None, max_queue=None
    )


def apply_ops(doc: Any, ops: list[dict[str, Any]]) -> Any:
    """Apply RFC 6902 add/remove/replace operations in place (what the server sends), falling
    back to jsonpatch for anything else: a load generator that spends less per patch measures
    the server, not itself."""
    for op in ops:
        kind, path = op["op"], op["path"]
        if kind not in ("add", "remove", "replace") or not path:
            return jsonpatch.apply_patch(doc, ops[ops.index(op) :], in_place=True)
        *parents, last = path[1:].split("/")
        node = doc
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[_unescape(part)]
        if isinstance(node, list):
            index = len(node) if last == "-" else int(last)
            if kind == "add":
                node.insert(index, op["value"])
            elif kind == "remove":
                del node[index]
            else:
                node[index] = op["value"]
        elif kind == "remove":
            del node[_unescape(last)]
        else:
            node[_unescape(last)] = op["value"]
    return doc


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~") if "~" in part else part


class SeatSocket:
    """One socket on /ws/games/{id}: applies patches to its document, resolves waiters with the
    arrival time of an ack (by id) or of the patch reaching a version."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.doc: dict[str, Any] | None = None
        self.ready = asyncio.get_running_loop().create_future()
        self.acks: dict[str, asyncio.Future[float]] = {}
        self.versions: dict[int, asyncio.Future[float]] = {}
        self.errors: list[dict[str, Any]] = []
        self.resyncs = 0
        self.frames = 0
        self.task = asyncio.create_task(self._read())

    def wait_ack(self, move_id: str) -> "asyncio.Future[float]":
        """A future for the ack of move `move_id`."""
        fut = asyncio.get_running_loop().create_future()
        self.acks[move_id] = fut
        return fut

    def wait_version(self, version: int) -> "asyncio.Future[float]":
        """A future for this socket's document reaching `version`."""
        fut = asyncio.get_running_loop().create_future()
        if self.doc is not None and self.doc["version"] >= version:
            fut.set_result(time.perf_counter())
        else:
            self.versions[version] = fut
        return fut

    def _reached(self, now: float) -> None:
        version = self.doc["version"]
        for v in [v for v in self.versions if v <= version]:
            fut = self.versions.pop(v)
            if not fut.done():
                fut.set_result(now)

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                self.frames += 1
                frame = orjson.loads(text)
                kind = frame["type"]
                if kind == "patch":
                    if self.doc is None or frame["version"] != self.doc["version"] + 1:
                        await self.ws.send(
                            '{"type":"sync","version":%d}' % (self.doc or {}).get("version", -1)
                        )
                        continue
                    self.doc = apply_ops(self.doc, frame["ops"])
                    self._reached(now)
                elif kind == "snapshot":
                    if self.doc is not None:
                        self.resyncs += 1
                    self.doc = frame["game"]
                    if not self.ready.done():
                        self.ready.set_result(now)
                    self._reached(now)
                elif kind == "ack":
                    fut = self.acks.pop(frame.get("id"), None)
                    if fut is not None and not fut.done():
                        fut.set_result(now)
                elif kind == "error":
                    self.errors.append(frame)
                    fut = self.acks.pop(frame.get("id"), None)
                    if fut is not None and not fut.done():
                        fut.set_exception(RuntimeError(frame.get("detail")))
        except websockets.ConnectionClosed:
            pass
        finally:
            for fut in [*self.acks.values(), *self.versions.values()]:
                if not fut.done():
                    fut.set_exception(RuntimeError("socket closed"))
            if not self.ready.done():
                self.ready.set_exception(RuntimeError("socket closed before its snapshot"))

    async def close(self) -> None:
        """Close the socket and stop reading."""
        await self.ws.close()
        self.task.cancel()


class EchoSocket:
    """One socket on the baseline's /echo: resolves one waiter per echoed frame."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.waiter: asyncio.Future[float] | None = None
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for _ in self.ws:
                now = time.perf_counter()
                if self.waiter is not None and not self.waiter.done():
                    self.waiter.set_result(now)
        except websockets.ConnectionClosed:
            pass

    def expect(self) -> "asyncio.Future[float]":
        """A future for the next echo."""
        self.waiter = asyncio.get_running_loop().create_future()
        return self.waiter

    async def close(self) -> None:
        """Close the socket."""
        await self.ws.close()
        self.task.cancel()
