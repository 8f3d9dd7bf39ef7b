"""Lobby: R open rooms and L lobby sockets; a room change (a player joins) must reach every lobby
socket. Also the game round trip for G games while those changes happen, against the same games
with no changes. Baseline: the bare Starlette server sending one frame to L sockets.

Run: .venv/bin/python bench/lobby_bench.py [--rooms 1000] [--lobby 1000] [--games 100]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
import websockets  # noqa: E402

from bench.lib.clients import connect  # noqa: E402
from bench.lib.common import (  # noqa: E402
    civitas, echo_server, machine, new_games, new_players, pct, pin_self, run, sqlite_url, summary)
from bench.lib.load import drive_games, open_sockets  # noqa: E402
from fanout_bench import baseline  # noqa: E402


class LobbyWatcher:
    """A lobby socket: notes when a frame holding a marker (the joiner's name) first arrives."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.frames = 0
        self.bytes = 0
        self.want: tuple[str, asyncio.Future] | None = None
        self.task = asyncio.create_task(self._read())

    def expect(self, marker: str) -> asyncio.Future:
        """A future for the next frame that holds `marker`."""
        fut = asyncio.get_running_loop().create_future()
        self.want = (marker, fut)
        return fut

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                now = time.perf_counter()
                self.frames += 1
                self.bytes += len(text)
                if self.want and self.want[0] in text and not self.want[1].done():
                    self.want[1].set_result(now)
        except websockets.ConnectionClosed:
            pass


async def _phase(server, games, socks, seconds: float, changes: list | None):
    """Drive the games for `seconds`; meanwhile (if given) make the room changes."""
    drive = asyncio.create_task(drive_games(server.url, games, socks, 0.2, seconds, 2))
    if changes is not None:
        await asyncio.sleep(2)
        await changes_task(*changes)
    return await drive


async def changes_task(server, rooms, joiners, watchers, count: int, gap: float, out: list) -> None:
    """`count` joins, `gap` s apart; each join's time to reach every lobby socket."""
    async with httpx.AsyncClient(timeout=60) as http:
        for k in range(count):
            room_id = rooms[-1 - k]  # the newest rooms: on the lobby's first page
            waits = [w.expect(f'"{joiners[k]["name"]}"') for w in watchers]
            sent = time.perf_counter()
            r = await http.post(f"{server.url}/api/rooms/{room_id}/join",
                                headers={"Authorization": f"Bearer {joiners[k]['token']}"}, json={})
            r.raise_for_status()
            done, pending = await asyncio.wait(waits, timeout=10)
            out.extend((f.result() - sent) * 1000 for f in done)
            out.extend([10_000.0] * len(pending))  # missed within 10 s
            await asyncio.sleep(gap)


async def subject(server, n_rooms: int, n_lobby: int, n_games: int, changes: int):
    """Set up rooms, lobby sockets and games; measure the quiet and the changing phase."""
    async with httpx.AsyncClient(timeout=60) as http:
        hosts = await new_players(http, server.url, n_rooms, "H")
        joiners = await new_players(http, server.url, changes, "Joiner")
        sem = asyncio.Semaphore(8)

        async def room(p):
            async with sem:
                r = await http.post(f"{server.url}/api/rooms", headers={
                    "Authorization": f"Bearer {p['token']}"}, json={"ruleset": "benchgame", "seats": 2})
                r.raise_for_status()
                return r.json()["id"]

        rooms = list(await asyncio.gather(*(room(p) for p in hosts)))
    t0 = time.perf_counter()
    sem = asyncio.Semaphore(32)

    async def lobby_socket():
        async with sem:
            w = LobbyWatcher(await connect(f"{server.ws}/ws/lobby"))
            while not w.frames:
                await asyncio.sleep(0.01)
            return w

    watchers = list(await asyncio.gather(*(lobby_socket() for _ in range(n_lobby))))
    connect_s = time.perf_counter() - t0
    games = await new_games(server.url, n_games, 2, "benchgame")
    socks = await open_sockets(server.ws, games)
    seconds = changes * 0.5 + 1
    quiet = await _phase(server, games, socks, seconds, None)
    lat: list[float] = []
    busy = await _phase(server, games, socks, seconds,
                        [server, rooms, joiners, watchers, changes, 0.5, lat])
    return connect_s, lat, quiet, busy, sum(w.bytes for w in watchers) / max(1, sum(w.frames for w in watchers))


def main() -> None:
    """Print lobby delivery p50/p99, the baseline's, and the round trip with and without changes."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rooms", type=int, default=1000)
    ap.add_argument("--lobby", type=int, default=1000)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--changes", type=int, default=20)
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    args = ap.parse_args()
    pin_self("1")
    print(f"machine: {machine()}")
    print(f"{args.rooms} open rooms, {args.lobby} lobby sockets, {args.changes} joins 0.5 s apart, "
          f"{args.games} games moving every 0.2 s")
    with echo_server("0") as e:
        base = run(baseline(e.ws, args.lobby, 10, 0.2))
    print(f"baseline fan-out      : {summary(base)}", flush=True)
    for root in [None] + ([args.compare] if args.compare else []):
        with sqlite_url() as db, civitas({"CIVITAS_DATABASE_URL": db}, "0", root=root) as server:
            connect_s, lat, quiet, busy, frame_bytes = run(
                subject(server, args.rooms, args.lobby, args.games, args.changes))
        print(f"server: {root or 'this tree'}")
        print(f"lobby sockets connected in {connect_s:.1f} s; mean lobby frame {frame_bytes / 1024:.1f} KiB")
        print(f"room change -> lobby  : {summary(lat)}  ratio p99 {pct(lat, 99) / pct(base, 99):.1f}x "
              f"(target p99 <= 50 ms)")
        print(f"round trip, quiet     : {summary(quiet.ack)}")
        print(f"round trip, changing  : {summary(busy.ack)}  p99 "
              f"{100 * (pct(busy.ack, 99) / pct(quiet.ack, 99) - 1):+.0f}%, p50 "
              f"{100 * (pct(busy.ack, 50) / pct(quiet.ack, 50) - 1):+.0f}% (target <= +20%)", flush=True)


if __name__ == "__main__":
    main()
