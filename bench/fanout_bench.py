"""Fan-out: one game, S spectator sockets; time from a move's send to its patch at every spectator,
against a bare Starlette server sending one frame to the same number of sockets.

Run:
  .venv/bin/python bench/fanout_bench.py --spectators 1000
  .venv/bin/python bench/fanout_bench.py --spectators 1000 --slow 10   # 10 spectators never read
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson  # noqa: E402
import websockets  # noqa: E402

from bench.lib.benchgame import bench_move  # noqa: E402
from bench.lib.clients import connect  # noqa: E402
from bench.lib.common import (  # noqa: E402
    civitas, dumps, echo_server, machine, new_games, pct, pin_self, run, sqlite_url, summary)
from bench.lib.load import open_sockets  # noqa: E402


def stalled_socket(port: int, path: str) -> socket.socket:
    """A websocket that completes its handshake and then never reads (a tiny receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    s.recv(1024)
    return s


class Watcher:
    """A spectator that only notes when each version's patch (or a snapshot) arrives."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.version = -1
        self.resyncs = 0
        self.waiters: dict[int, asyncio.Future] = {}
        self.ready = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._read())

    def wait_version(self, version: int) -> asyncio.Future:
        """A future for reaching `version`."""
        fut = asyncio.get_running_loop().create_future()
        self.waiters[version] = fut
        return fut

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                frame = orjson.loads(text)
                if frame["type"] == "snapshot":
                    self.resyncs += self.ready.done()
                    self.version = frame["game"]["version"]
                    if not self.ready.done():
                        self.ready.set_result(now)
                elif frame["type"] == "patch":
                    self.version = frame["version"]
                else:
                    continue
                for v in [v for v in self.waiters if v <= self.version]:
                    self.waiters.pop(v).set_result(now)
        except websockets.ConnectionClosed:
            pass

    async def close(self) -> None:
        """Close."""
        await self.ws.close()
        self.task.cancel()


async def _spectators(ws_base: str, path: str, n: int) -> list:
    sem = asyncio.Semaphore(64)

    async def one():
        async with sem:
            return await connect(f"{ws_base}{path}")

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def baseline(ws_base: str, n: int, moves: int, interval: float) -> list[float]:
    """Echo server /fanout: one trigger socket's frame reaches n listeners; ms per delivery."""
    listeners = await _spectators(ws_base, "/fanout", n)
    trigger = await connect(f"{ws_base}/fanout")
    times: list[float] = []
    frame = dumps({"type": "patch", "version": 1, "ops": [{"op": "replace", "path": "/version",
                                                           "value": 1}] * 6})
    for _ in range(moves):
        sent = time.perf_counter()
        await trigger.send(frame)

        async def got(ws):
            await ws.recv()
            times.append((time.perf_counter() - sent) * 1000)

        await asyncio.gather(*(got(ws) for ws in listeners), trigger.recv())
        await asyncio.sleep(interval)
    await asyncio.gather(*(ws.close() for ws in listeners + [trigger]))
    return times


async def subject(server, n: int, moves: int, interval: float, slow: int) -> tuple[list[float], int]:
    """Civitas: a 2-seat game and n spectators (+ `slow` that never read); ms per patch delivery."""
    (game_id, players), = await new_games(server.url, 1, 2, "benchgame")
    seats = (await open_sockets(server.ws, [(game_id, players)]))[0]
    stalled = [stalled_socket(server.port, f"/ws/games/{game_id}") for _ in range(slow)]
    specs = [Watcher(ws) for ws in await _spectators(server.ws, f"/ws/games/{game_id}", n)]
    await asyncio.gather(*(s.ready for s in specs))
    times: list[float] = []
    for i in range(moves):
        doc = seats[0].doc
        seat = doc["to_act"][0]
        version = seats[seat].doc["version"]
        waits = [s.wait_version(version + 1) for s in specs + seats]
        sent = time.perf_counter()
        await seats[seat].ws.send(dumps({"type": "move", "version": version,
                                         "move": bench_move(seats[seat].doc["view"]), "id": str(i)}))
        for t in await asyncio.wait_for(asyncio.gather(*waits), 60):
            times.append((t - sent) * 1000)
        await asyncio.sleep(interval)
    resyncs = sum(s.resyncs for s in specs)
    await asyncio.gather(*(s.close() for s in specs + seats))
    for s in stalled:
        s.close()
    return times, resyncs


def main() -> None:
    """Baseline fan-out, then Civitas's; p50/p99 per delivery and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--slow", type=int, default=0)
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    args = ap.parse_args()
    server_core, client_core = (None, None) if args.no_pin else ("0", "1")
    pin_self(client_core)
    print(f"machine: {machine()}")
    print(f"{args.spectators} spectators, {args.moves} moves {args.interval}s apart, {args.slow} stalled readers")
    with echo_server(server_core) as e:
        base = run(baseline(e.ws, args.spectators, args.moves, args.interval))
    print(f"baseline fan-out : {summary(base)}")
    for root in [None] + ([args.compare] if args.compare else []):
        with sqlite_url() as db, civitas({"CIVITAS_DATABASE_URL": db}, server_core, root=root) as server:
            times, resyncs = run(subject(server, args.spectators, args.moves, args.interval, args.slow))
        print(f"civitas patches  : {summary(times)}  ({resyncs} spectator resyncs) {root or ''}")
        print(f"ratio            : p50 {pct(times, 50) / pct(base, 50):.2f}x, "
              f"p99 {pct(times, 99) / pct(base, 99):.2f}x  (target: p99 <= 50 ms)")

if __name__ == "__main__":
    main()
