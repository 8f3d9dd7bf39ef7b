"""Issue 32's peer comparison, one worker (SQLite, every move committed before its ack), against a
bare websocket echo measured in the same run: the figures a boardgame.io side-by-side reports.

  .venv/bin/python bench/peer_bench.py                 # every part below
  .venv/bin/python bench/peer_bench.py --parts create  # one part (open, closed, create)
  .venv/bin/python bench/peer_bench.py --compare DIR   # also DIR's server (a before/after), same run

(a) open: 10 and 100 tables (--tables), two seats, a move every 200 ms per table: ack and "every
    seat saw it" p50 / p99 / p99.9, moves/s achieved of offered, the echo's round trip;
(b) closed: 20 tables (--closed) in a closed loop (the next move as soon as every seat has the
    last one), each finished game (--rounds rounds, four moves a round) replaced by a table freshly
    created over REST; moves/s, tables made, and whether anything stalled;
(c) create: tables created per second over REST (create the room, join, start; players made
    beforehand), 4 at a time (--in-flight);
(d) reads: REST reads as a seat reads before its move (issue 26), server CPU per read;
and for every part: the server's CPU per move (or per table) from its own /proc times, the load
generator's CPU per move (it must stay below the server's for the figures to be the server's),
and the server's full garbage collections over the part (count, over 10 ms) from /metrics; at
the end, each of issue 32's targets met or not by this checkout's server.
The load generator is lean: raw `websockets` sockets and an aiohttp client for REST. Nothing is
pinned (--pin: server on core 0, this process on core 1).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import (  # noqa: E402
    Proc,
    civitas,
    cpu_seconds,
    echo_server,
    machine,
    pct,
    pin_self,
    run,
    sqlite_url,
    summary,
)
from bench.lib.load import (  # noqa: E402
    Stats,
    client_cpu_per_move,
    cpu_per_move,
    drive_echo,
    drive_game,
    open_sockets,
    rate,
)

SERVER_ENV = {"CIVITAS_HEARTBEAT_SECONDS": "600"}


# -- REST with aiohttp --------------------------------------------------------------------------


class Rest:
    """A lean JSON client for one server: the creation path without httpx's per-request cost."""

    def __init__(self, url: str, in_flight: int) -> None:
        self.url = url
        self.http = aiohttp.ClientSession(
            # idle connections closed before uvicorn's 5 s keep-alive closes them (a request sent
            # down one it is closing fails with "connection reset by peer")
            connector=aiohttp.TCPConnector(limit=max(8, in_flight * 2), keepalive_timeout=4),
            timeout=aiohttp.ClientTimeout(total=60),
        )

    async def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        """The JSON answer; raises on a status of 300 or more."""
        headers = {"Authorization": f"Bearer {token}"} if token else None
        async with self.http.request(method, self.url + path, json=body, headers=headers) as r:
            if r.status >= 300:
                raise RuntimeError(f"{method} {path}: {r.status} {(await r.text())[:200]}")
            return await r.json() if r.status != 204 else None

    async def players(self, n: int, prefix: str) -> list[dict]:
        """`n` guests (8 requests at a time)."""
        gate = asyncio.Semaphore(8)

        async def one(i: int) -> dict:
            async with gate:
                return await self.call("POST", "/api/players", body={"name": f"{prefix}{i}"})

        return list(await asyncio.gather(*(one(i) for i in range(n))))

    async def table(self, players: list[dict], rounds: int) -> str:
        """Create a benchgame room, seat the second player, start: the new game's id."""
        room = await self.call(
            "POST",
            "/api/rooms",
            players[0]["token"],
            {"ruleset": "benchgame", "seats": len(players), "options": {"rounds": rounds}},
        )
        for p in players[1:]:
            await self.call("POST", f"/api/rooms/{room['id']}/join", p["token"], {})
        started = await self.call("POST", f"/api/rooms/{room['id']}/start", players[0]["token"])
        return str(started["game_id"])

    async def close(self) -> None:
        """Close the connections."""
        await self.http.close()


# -- the server's own figures ------------------------------------------------------------------

_GC = re.compile(r'^civitas_gc_full_pause_seconds_(bucket\{le="([^"]+)"\}|count|sum) (\S+)$', re.M)


async def gc_figures(rest: Rest) -> dict[str, float]:
    """Full collections so far: count, total seconds, and how many took over 10 ms."""
    async with rest.http.get(rest.url + "/metrics") as r:
        text = await r.text()
    out = {"count": 0.0, "sum": 0.0, "le_10ms": 0.0}
    for what, le, value in _GC.findall(text):
        if what == "count":
            out["count"] = float(value)
        elif what == "sum":
            out["sum"] = float(value)
        elif le == "0.01":
            out["le_10ms"] = float(value)
    return out


def gc_over(before: dict[str, float], after: dict[str, float]) -> int:
    """Full collections over 10 ms between two readings."""
    return int(after["count"] - before["count"]) - int(after["le_10ms"] - before["le_10ms"])


def gc_line(before: dict[str, float], after: dict[str, float]) -> str:
    """Full collections between two readings."""
    count = int(after["count"] - before["count"])
    over = gc_over(before, after)
    return f"full GCs {count} ({over} over 10 ms, {1000 * (after['sum'] - before['sum']):.1f} ms in all)"


@dataclass
class Part:
    """One part's figures for one server."""

    stats: Stats = field(default_factory=Stats)
    tables: list[float] = field(default_factory=list)  # ms per table created
    cpu: float = 0.0
    wall: float = 0.0
    client_cpu: float = 0.0
    gc: str = ""
    gc_over: int = 0  # full collections over 10 ms


async def measured(server: Proc, rest: Rest, part: Part, warmup: float, duration: float) -> None:
    """The server's and this process's CPU over [warmup, warmup + duration], and the moves then."""
    await asyncio.sleep(warmup)
    cpu0, mine0, moves0, t0 = (
        cpu_seconds(server.pid),
        time.process_time(),
        part.stats.moves,
        time.perf_counter(),
    )
    await asyncio.sleep(duration)
    part.cpu = cpu_seconds(server.pid) - cpu0
    part.client_cpu = time.process_time() - mine0
    part.wall = time.perf_counter() - t0
    part.stats.cpu, part.stats.cpu_moves = part.cpu, part.stats.moves - moves0
    part.stats.client_cpu, part.stats.client_moves = part.client_cpu, part.stats.cpu_moves


# -- (a) open loop -------------------------------------------------------------------------------


async def open_loop(server: Proc, tables: int, interval: float, duration: float, warmup: float) -> Part:
    """`tables` tables, a move every `interval` s each, every seat on its own socket."""
    rest = Rest(server.url, 8)
    part = Part()
    try:
        players = await rest.players(2 * tables, "O")
        gate = asyncio.Semaphore(8)

        async def made(i: int) -> tuple[str, list[dict]]:
            async with gate:
                pair = players[2 * i : 2 * i + 2]
                return await rest.table(pair, 100_000), pair

        games = list(await asyncio.gather(*(made(i) for i in range(tables))))
        socks = await open_sockets(server.ws, games)
        gc0 = await gc_figures(rest)
        start = time.perf_counter()
        t_measure, t_end = start + warmup, start + warmup + duration
        await asyncio.gather(
            *(
                drive_game(server.url, g, p, s, interval, t_end, t_measure, part.stats)
                for (g, p), s in zip(games, socks)
            ),
            measured(server, rest, part, warmup, duration),
        )
        gc1 = await gc_figures(rest)
        part.gc, part.gc_over = gc_line(gc0, gc1), gc_over(gc0, gc1)
        await asyncio.gather(*(s.close() for row in socks for s in row))
    finally:
        await rest.close()
    return part


# -- (b) closed loop with rotation ------------------------------------------------------------


async def closed_loop(server: Proc, tables: int, rounds: int, duration: float, warmup: float) -> Part:
    """`tables` slots, each playing a game in a closed loop, then a freshly created one, ..."""
    rest = Rest(server.url, tables)
    part = Part()
    try:
        players = await rest.players(2 * tables, "C")
        gc0 = await gc_figures(rest)
        start = time.perf_counter()
        t_measure, t_end = start + warmup, start + warmup + duration

        async def slot(i: int) -> None:
            pair = players[2 * i : 2 * i + 2]
            while time.perf_counter() < t_end:
                begun = time.perf_counter()
                try:
                    game_id = await rest.table(pair, rounds)
                    if begun >= t_measure:
                        part.tables.append((time.perf_counter() - begun) * 1000)
                    socks = (await open_sockets(server.ws, [(game_id, pair)]))[0]
                    await drive_game(server.url, game_id, pair, socks, 0, t_end, t_measure, part.stats)
                    await asyncio.gather(*(s.close() for s in socks), return_exceptions=True)
                except Exception as exc:  # noqa: BLE001 - a failed table is counted, then the slot goes on
                    part.stats.errors += 1
                    reason = f"table: {type(exc).__name__}: {str(exc)[:80]}"
                    part.stats.failures[reason] = part.stats.failures.get(reason, 0) + 1
                    await asyncio.sleep(0.5)

        await asyncio.gather(
            *(slot(i) for i in range(tables)), measured(server, rest, part, warmup, duration)
        )
        gc1 = await gc_figures(rest)
        part.gc, part.gc_over = gc_line(gc0, gc1), gc_over(gc0, gc1)
    finally:
        await rest.close()
    return part


# -- (c) table creation ------------------------------------------------------------------------


async def creation(servers: list[Proc], count: int, in_flight: int, rounds: int) -> list[Part]:
    """`count` tables (room, join, start) on each server, `in_flight` at a time, players made
    beforehand; with several servers, in `rounds` batches taking turns (E1 E2 E1 E2 ...), so
    that the machine's drift hits every server alike."""
    rests = [Rest(server.url, in_flight) for server in servers]
    parts = [Part() for _ in servers]
    try:
        players = [await rest.players(2 * count + 16, "T") for rest in rests]
        for rest, mine in zip(rests, players):
            for i in range(8):  # warm the paths once
                await rest.table(mine[2 * count + 2 * i : 2 * count + 2 * i + 2], 3)
        gcs = [await gc_figures(rest) for rest in rests]
        gate = asyncio.Semaphore(in_flight)
        per_round = -(-count // rounds)
        for r in range(rounds):
            for server, rest, mine, part in zip(servers, rests, players, parts):

                async def one(i: int, rest: Rest = rest, mine: list[dict] = mine, part: Part = part) -> None:
                    async with gate:
                        begun = time.perf_counter()
                        await rest.table(mine[2 * i : 2 * i + 2], 3)
                        part.tables.append((time.perf_counter() - begun) * 1000)

                batch = range(r * per_round, min(count, (r + 1) * per_round))
                cpu0, mine0, t0 = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
                await asyncio.gather(*(one(i) for i in batch))
                part.wall += time.perf_counter() - t0
                part.cpu += cpu_seconds(server.pid) - cpu0
                part.client_cpu += time.process_time() - mine0
        for rest, part, gc0 in zip(rests, parts, gcs):
            gc1 = await gc_figures(rest)
            part.gc, part.gc_over = gc_line(gc0, gc1), gc_over(gc0, gc1)
    finally:
        for rest in rests:
            await rest.close()
    return parts


# -- (d) REST reads ------------------------------------------------------------------------------


async def reads(servers: list[Proc], count: int, in_flight: int, rounds: int) -> list[Part]:
    """`count` REST reads on each server (GET /api/games/{id} and /legal-moves in turn, over 4
    started tables, as a seat), `in_flight` at a time, the servers taking turns in `rounds`."""
    rests = [Rest(server.url, in_flight) for server in servers]
    parts = [Part() for _ in servers]
    try:
        tables = []
        for rest in rests:
            players = await rest.players(8, "R")
            tables.append(
                [(await rest.table(players[2 * i : 2 * i + 2], 3), players[2 * i]) for i in range(4)]
            )
        gate = asyncio.Semaphore(in_flight)
        per_round = -(-count // rounds)
        for _ in range(rounds):
            for server, rest, mine, part in zip(servers, rests, tables, parts):

                async def one(i: int, rest: Rest = rest, mine: list = mine, part: Part = part) -> None:
                    game_id, player = mine[i % len(mine)]
                    path = f"/api/games/{game_id}" + ("/legal-moves" if i % 2 else "")
                    async with gate:
                        begun = time.perf_counter()
                        await rest.call("GET", path, player["token"])
                        part.tables.append((time.perf_counter() - begun) * 1000)

                cpu0, t0 = cpu_seconds(server.pid), time.perf_counter()
                await asyncio.gather(*(one(i) for i in range(per_round)))
                part.wall += time.perf_counter() - t0
                part.cpu += cpu_seconds(server.pid) - cpu0
    finally:
        for rest in rests:
            await rest.close()
    return parts


# -- main ------------------------------------------------------------------------------------------


def moves_line(label: str, part: Part, offered: float | None = None) -> str:
    """Moves/s (of offered), server and client CPU per move, errors."""
    s = part.stats
    achieved = s.cpu_moves / part.wall if part.wall else rate(s)
    offer = f" of {offered:.0f} offered" if offered else ""
    return (
        f"  {label}: {achieved:7.0f} moves/s{offer}; server {cpu_per_move(s)}, "
        f"client {client_cpu_per_move(s)}; {s.errors} errors {s.failures or ''}"
    )


def verdicts(open_100: Part | None, closed: Part | None, create: Part | None) -> list[str]:
    """Issue 32's targets against this server's figures: met, or not (the breakdown of each unmet
    one is in docs/SCALING.md, "Per core")."""
    out: list[str] = []

    def check(name: str, value: float, limit: float, unit: str, at_most: bool = True) -> None:
        ok = value <= limit if at_most else value >= limit
        sign = "<=" if at_most else ">="
        shown = f"{value:.2f} {unit}" if unit else f"{value:.0f}"
        out.append(f"  {'met    ' if ok else 'NOT met'} {name}: {shown} (target {sign} {limit:g})")

    if open_100 is not None:
        s = open_100.stats
        if s.cpu_moves:
            check("server CPU per move, 100 tables", 1000 * s.cpu / s.cpu_moves, 0.42, "ms")
        if s.patch:
            check("every seat saw it, p99.9, 100 tables", pct(s.patch, 99.9), 50, "ms")
        check("full collections over 10 ms, 100 tables", open_100.gc_over, 0, "")
    if closed is not None:
        s = closed.stats
        if s.cpu_moves:
            check("server CPU per move, closed loop with rotation", 1000 * s.cpu / s.cpu_moves, 0.30, "ms")
            check("moves/s, closed loop with rotation", s.cpu_moves / closed.wall, 3000, "", at_most=False)
        check("errors (stalls, refusals), closed loop", s.errors, 0, "")
    if create is not None and create.tables:
        check("tables created per second", len(create.tables) / create.wall, 400, "", at_most=False)
    return out


def main() -> None:
    """Every part asked for, for this checkout's server and then --compare's, an echo beside."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default="open,closed,create,reads")
    ap.add_argument("--tables", default="10,100", help="open loop: table counts")
    ap.add_argument("--interval", type=float, default=0.2)
    ap.add_argument("--closed", type=int, default=20, help="closed loop: tables")
    ap.add_argument("--rounds", type=int, default=25, help="closed loop: rounds a game (4 moves each)")
    ap.add_argument("--create", type=int, default=400, help="tables to create")
    ap.add_argument("--in-flight", type=int, default=4)
    ap.add_argument("--create-rounds", type=int, default=6, help="with --compare: turns per server")
    ap.add_argument("--reads", type=int, default=4000, help="REST reads per server")
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=3)
    ap.add_argument("--compare", default="", help="another checkout's server too (before/after)")
    ap.add_argument("--pin", action="store_true", help="server on core 0, load generator on core 1")
    ap.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    server_core = "0" if args.pin else None
    pin_self("1" if args.pin else None)
    print(machine())
    roots: list[str | None] = [None] + ([args.compare] if args.compare else [])
    extra = dict(kv.split("=", 1) for kv in args.server_env)

    def server(stack: ExitStack, root: str | None) -> Proc:
        env = {"CIVITAS_DATABASE_URL": stack.enter_context(sqlite_url()), **SERVER_ENV, **extra}
        return stack.enter_context(civitas(env, server_core, root=root))

    mine: dict[str, Part] = {}  # this checkout's figures, for the targets
    with echo_server(server_core) as echo:
        if "open" in parts:
            for tables in [int(t) for t in args.tables.split(",")]:
                offered = tables / args.interval
                print(f"(a) {tables} tables, a move every {args.interval:g} s each ({offered:.0f} offered/s)")
                e = run(drive_echo(echo.ws, tables, 2, args.interval, args.duration, args.warmup))
                print(f"  echo          ack   {summary(e.ack)}; client {client_cpu_per_move(e)}")
                for root in roots:
                    with ExitStack() as stack:
                        p = run(
                            open_loop(server(stack, root), tables, args.interval, args.duration, args.warmup)
                        )
                    name = root or "this"
                    if root is None and tables == 100:
                        mine["open"] = p
                    print(f"  {name:13s} ack   {summary(p.stats.ack)}")
                    print(f"  {name:13s} seen  {summary(p.stats.patch)}")
                    print(moves_line(name, p, offered) + f"; {p.gc}")
        if "closed" in parts:
            print(
                f"(b) {args.closed} tables, closed loop, each game {args.rounds} rounds "
                f"({4 * args.rounds} moves) then a new table over REST"
            )
            e = run(drive_echo(echo.ws, args.closed, 2, 0, args.duration, args.warmup))
            print(f"  echo          {rate(e):7.0f} round trips/s; client {client_cpu_per_move(e)}")
            for root in roots:
                with ExitStack() as stack:
                    p = run(
                        closed_loop(server(stack, root), args.closed, args.rounds, args.duration, args.warmup)
                    )
                name = root or "this"
                if root is None:
                    mine["closed"] = p
                print(moves_line(name, p) + f"; {p.gc}")
                print(f"  {name:13s} seen  {summary(p.stats.patch)}")
                print(f"  {name:13s} tables made while measured: {len(p.tables)}, each {summary(p.tables)}")
        if "create" in parts:
            print(
                f"(c) {args.create} tables created (room, join, start), {args.in_flight} at a time"
                + (f", servers taking turns in {args.create_rounds} rounds" if len(roots) > 1 else "")
            )
            with ExitStack() as stack:
                servers = [server(stack, root) for root in roots]
                made = run(creation(servers, args.create, args.in_flight, args.create_rounds))
            mine["create"] = made[0]
            for root, p in zip(roots, made):
                n = len(p.tables)
                name = root or "this"
                print(
                    f"  {name:13s} {n / p.wall:7.0f} tables/s; server {1000 * p.cpu / n:.2f} ms CPU/table, "
                    f"client {1000 * p.client_cpu / n:.2f} ms; {p.gc}"
                )
                print(f"  {name:13s} per table {summary(p.tables)}")
    if "reads" in parts:
        print(
            f"(d) {args.reads} REST reads (GET /api/games/{{id}} and /legal-moves in turn), "
            f"{args.in_flight} at a time, the servers taking turns in {args.create_rounds} rounds"
        )
        with ExitStack() as stack:
            servers = [server(stack, root) for root in roots]
            made = run(reads(servers, args.reads, args.in_flight, args.create_rounds))
        for root, p in zip(roots, made):
            name = root or "this"
            n = len(p.tables)
            print(
                f"  {name:13s} {n / p.wall:7.0f} reads/s; server {1000 * p.cpu / n:.2f} ms CPU/read; "
                f"{summary(p.tables)}"
            )
    lines = verdicts(mine.get("open"), mine.get("closed"), mine.get("create"))
    if lines:
        print("targets of issue 32, this checkout's server (unmet: docs/SCALING.md, 'Per core'):")
        print("\n".join(lines))
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
