"""Fan-out: one game, S spectator sockets; time from a move's send to its patch at every spectator,
against a bare Starlette server sending one frame to the same number of sockets. The spectators are
raw sockets read with epoll in a child process (bench/lib/rawwatch.py), so that the load generator
is not what is measured.

With `--games G`, G other games move every 0.2 s meanwhile, and their round trip is printed with
the watched game quiet and while it moves: a game with many spectators must not hold the others up.

Run:
  .venv/bin/python bench/fanout_bench.py --spectators 1000
  .venv/bin/python bench/fanout_bench.py --spectators 1000 --slow 10   # 10 spectators never read
  .venv/bin/python bench/fanout_bench.py --spectators 1000 --games 100
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


from bench.lib.benchgame import bench_move  # noqa: E402
from bench.lib.clients import connect  # noqa: E402
from bench.lib.common import (  # noqa: E402
    civitas,
    dumps,
    echo_server,
    machine,
    new_games,
    pct,
    pin_self,
    run,
    sqlite_url,
    summary,
)
from bench.lib.load import drive_games, open_sockets  # noqa: E402
from bench.lib.rawwatch import RawListeners  # noqa: E402


def stalled_socket(port: int, path: str) -> socket.socket:
    """A websocket that completes its handshake and then never reads (a tiny receive buffer)."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    s.recv(1024)
    return s


PATCH = rb'"type":"patch","version":(\d+)'


def _deliveries(sent: dict[int, float], arrivals: dict[str, list[float]], n: int) -> tuple[list[float], int]:
    """ms from each send to each listener's arrival, and how many deliveries never came."""
    times, missing = [], 0
    for version, at in sent.items():
        got = arrivals.get(str(version), [])
        times.extend((t - at) * 1000 for t in got)
        missing += n - len(got)
    return times, missing


async def baseline(server, n: int, moves: int, interval: float, core: str | None) -> tuple[list[float], int]:
    """Echo server /fanout: one trigger socket's frame reaches n raw listeners; ms per delivery."""
    listeners = RawListeners("127.0.0.1", server.port, "/fanout", n, PATCH, core)
    trigger = await connect(f"{server.ws}/fanout")
    # the bare server sends nothing on connect: prime every listener with one frame
    await asyncio.sleep(0.5)
    await trigger.send('{"type":"hello"}')
    await asyncio.to_thread(listeners.wait_ready)
    sent: dict[int, float] = {}
    ops = [{"op": "replace", "path": "/version", "value": 1}] * 6
    for v in range(1, moves + 1):
        frame = dumps({"type": "patch", "version": v, "ops": ops})
        sent[v] = time.perf_counter()
        await trigger.send(frame)
        await asyncio.sleep(interval)
    await asyncio.sleep(1)
    arrivals, _ = await asyncio.to_thread(listeners.stop)
    await trigger.close()
    return _deliveries(sent, arrivals, n)


async def subject(
    server, n: int, moves: int, interval: float, slow: int, core: str | None, games: int = 0
) -> tuple[list[float], list[float], int, Any, Any]:
    """Civitas: a 2-seat game, n raw spectators (+ `slow` that never read); ms per delivery; with
    `games`, the other games' round trips while the watched game is quiet, then while it moves."""
    ((game_id, players),) = await new_games(server.url, 1, 2, "benchgame")
    seats = (await open_sockets(server.ws, [(game_id, players)]))[0]
    stalled = [stalled_socket(server.port, f"/ws/games/{game_id}") for _ in range(slow)]
    listeners = RawListeners("127.0.0.1", server.port, f"/ws/games/{game_id}", n, PATCH, core)
    await asyncio.to_thread(listeners.wait_ready)
    quiet = busy = None
    others: asyncio.Task | None = None
    if games:
        other_games = await new_games(server.url, games, 2, "benchgame")
        other_socks = await open_sockets(server.ws, other_games)
        seconds = moves * interval
        quiet = await drive_games(server.url, other_games, other_socks, 0.2, seconds, 2)
        others = asyncio.create_task(drive_games(server.url, other_games, other_socks, 0.2, seconds, 2))
        await asyncio.sleep(2)  # the others' warm-up
    sent: dict[int, float] = {}
    seat_times: list[float] = []
    for i in range(moves):
        seat = seats[0].doc["to_act"][0]
        version = seats[seat].doc["version"]
        waits = [s.wait_version(version + 1) for s in seats]
        sent[version + 1] = time.perf_counter()
        await seats[seat].ws.send(
            dumps(
                {
                    "type": "move",
                    "version": version,
                    "move": bench_move(seats[seat].doc["view"]),
                    "id": str(i),
                }
            )
        )
        for t in await asyncio.wait_for(asyncio.gather(*waits), 60):
            seat_times.append((t - sent[version + 1]) * 1000)
        await asyncio.sleep(interval)
    if others is not None:
        busy = await others
    await asyncio.sleep(1)
    arrivals, _ = await asyncio.to_thread(listeners.stop)
    times, missing = _deliveries(sent, arrivals, n)
    await asyncio.gather(*(s.close() for s in seats))
    for s in stalled:
        s.close()
    return times, seat_times, missing, quiet, busy


def main() -> None:
    """Baseline fan-out, then Civitas's; p50/p99 per delivery and the ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--interval", type=float, default=0.5)
    ap.add_argument("--slow", type=int, default=0)
    ap.add_argument("--games", type=int, default=0, help="other games moving every 0.2 s meanwhile")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    args = ap.parse_args()
    server_core, client_core = (None, None) if args.no_pin else ("0", "1")
    pin_self(client_core)
    print(f"machine: {machine()}")
    print(
        f"{args.spectators} spectators, {args.moves} moves {args.interval}s apart, {args.slow} stalled readers"
    )
    with echo_server(server_core) as e:
        base, base_missing = run(baseline(e, args.spectators, args.moves, args.interval, client_core))
    print(f"baseline fan-out : {summary(base)}  ({base_missing} deliveries missing)")
    for root in [None] + ([args.compare] if args.compare else []):
        with sqlite_url() as db, civitas({"CIVITAS_DATABASE_URL": db}, server_core, root=root) as server:
            times, seat_times, missing, quiet, busy = run(
                subject(
                    server, args.spectators, args.moves, args.interval, args.slow, client_core, args.games
                )
            )
        print(f"civitas patches  : {summary(times)}  ({missing} spectator deliveries missing) {root or ''}")
        print(f"  at the 2 seats : {summary(seat_times)}")
        print(
            f"ratio            : p50 {pct(times, 50) / pct(base, 50):.2f}x, "
            f"p99 {pct(times, 99) / pct(base, 99):.2f}x  (target: p99 <= 50 ms)"
        )
        if quiet is not None and busy is not None:
            print(f"  {args.games} other games, watched game quiet  : {summary(quiet.ack)}")
            print(
                f"  {args.games} other games, watched game moving : {summary(busy.ack)}  p99 "
                f"{100 * (pct(busy.ack, 99) / pct(quiet.ack, 99) - 1):+.0f}%",
                flush=True,
            )


if __name__ == "__main__":
    main()
