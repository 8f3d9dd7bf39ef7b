"""Lobby: R open rooms and L lobby sockets; a room change (a player joins) must reach every lobby
socket. Also the game round trip for G games while those changes happen, against the same games
with no changes. Baseline: the bare Starlette server sending one frame to L sockets. Lobby sockets
are raw sockets read with epoll in a child process (bench/lib/rawwatch.py).

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

from bench.lib.common import (  # noqa: E402
    civitas,
    echo_server,
    machine,
    new_games,
    new_players,
    pct,
    pin_self,
    run,
    sqlite_url,
    summary,
)
from bench.lib.load import drive_games, open_sockets  # noqa: E402
from bench.lib.rawwatch import RawListeners  # noqa: E402
from fanout_bench import baseline  # noqa: E402


async def _phase(server, games, socks, seconds: float, changes: list | None):
    """Drive the games for `seconds`; meanwhile (if given) make the room changes."""
    drive = asyncio.create_task(drive_games(server.url, games, socks, 0.2, seconds, 2))
    if changes is not None:
        await asyncio.sleep(2)
        await changes_task(*changes)
    return await drive


async def changes_task(server, rooms, joiners, count: int, gap: float, sent: dict) -> None:
    """`count` joins, `gap` s apart; notes when each was sent (by the joiner's name)."""
    async with httpx.AsyncClient(timeout=60) as http:
        for k in range(count):
            room_id = rooms[-1 - k]  # the newest rooms: on the lobby's first page
            sent[joiners[k]["name"]] = time.perf_counter()
            r = await http.post(
                f"{server.url}/api/rooms/{room_id}/join",
                headers={"Authorization": f"Bearer {joiners[k]['token']}"},
                json={},
            )
            r.raise_for_status()
            await asyncio.sleep(gap)


async def subject(server, n_rooms: int, n_lobby: int, n_games: int, changes: int, core: str | None):
    """Set up rooms, lobby sockets and games; measure the quiet and the changing phase."""
    async with httpx.AsyncClient(timeout=60) as http:
        hosts = await new_players(http, server.url, n_rooms, "H")
        joiners = await new_players(http, server.url, changes, "Joiner")
        sem = asyncio.Semaphore(8)

        async def room(p):
            async with sem:
                r = await http.post(
                    f"{server.url}/api/rooms",
                    headers={"Authorization": f"Bearer {p['token']}"},
                    json={"ruleset": "benchgame", "seats": 2},
                )
                r.raise_for_status()
                return r.json()["id"]

        rooms = list(await asyncio.gather(*(room(p) for p in hosts)))
    t0 = time.perf_counter()
    listeners = RawListeners("127.0.0.1", server.port, "/ws/lobby", n_lobby, rb'"(Joiner\d+)"', core)
    await asyncio.to_thread(listeners.wait_ready)
    connect_s = time.perf_counter() - t0
    games = await new_games(server.url, n_games, 2, "benchgame")
    socks = await open_sockets(server.ws, games)
    seconds = changes * 0.5 + 1
    quiet = await _phase(server, games, socks, seconds, None)
    sent: dict[str, float] = {}
    busy = await _phase(server, games, socks, seconds, [server, rooms, joiners, changes, 0.5, sent])
    await asyncio.sleep(1)
    arrivals, _ = await asyncio.to_thread(listeners.stop)
    lat = [(t - at) * 1000 for name, at in sent.items() for t in arrivals.get(name, [])]
    missing = n_lobby * len(sent) - len(lat)
    return connect_s, lat, missing, quiet, busy


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
    print(
        f"{args.rooms} open rooms, {args.lobby} lobby sockets, {args.changes} joins 0.5 s apart, "
        f"{args.games} games moving every 0.2 s"
    )
    with echo_server("0") as e:
        base, _ = run(baseline(e, args.lobby, 10, 0.2, "1"))
    print(f"baseline fan-out      : {summary(base)}", flush=True)
    for root in [None] + ([args.compare] if args.compare else []):
        with sqlite_url() as db, civitas({"CIVITAS_DATABASE_URL": db}, "0", root=root) as server:
            connect_s, lat, missing, quiet, busy = run(
                subject(server, args.rooms, args.lobby, args.games, args.changes, "1")
            )
        print(f"server: {root or 'this tree'}")
        print(f"lobby sockets connected in {connect_s:.1f} s")
        print(
            f"room change -> lobby  : {summary(lat)}  ratio p99 {pct(lat, 99) / pct(base, 99):.1f}x "
            f"(target p99 <= 50 ms); {missing} deliveries missing"
        )
        print(f"round trip, quiet     : {summary(quiet.ack)}")
        print(
            f"round trip, changing  : {summary(busy.ack)}  p99 "
            f"{100 * (pct(busy.ack, 99) / pct(quiet.ack, 99) - 1):+.0f}%, p50 "
            f"{100 * (pct(busy.ack, 50) / pct(quiet.ack, 50) - 1):+.0f}% (target <= +20%)",
            flush=True,
        )


if __name__ == "__main__":
    main()
