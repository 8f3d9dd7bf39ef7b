"""Open- and closed-loop drivers: N games, every seat on its own socket; and the echo baseline."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.lib.benchgame import bench_move
from bench.lib.clients import EchoSocket, SeatSocket, connect
from bench.lib.common import cpu_seconds, dumps, run

SAMPLE_MOVE = dumps(
    {"type": "move", "version": 123, "move": {"type": "bid", "card": "K017"}, "id": "g0-m123"}
)


@dataclass
class Stats:
    """Latencies in ms, measured after the warm-up."""

    ack: list[float] = field(default_factory=list)  # send -> ack on the mover's socket
    patch: list[float] = field(default_factory=list)  # send -> patch, on every seat's socket
    after_ack: list[float] = field(default_factory=list)  # ack -> patch, every seat's socket
    moves: int = 0  # all completed moves, warm-up included
    measured: int = 0
    errors: int = 0
    resyncs: int = 0
    first: float = 0.0
    last: float = 0.0
    cpu: float = 0.0  # server CPU seconds over the measured window (all moves' worth)
    cpu_moves: int = 0  # moves completed over that window
    # The load generator's own CPU seconds over the same window, and the moves (or echoes) in it:
    # its work per move differs (a Civitas move is three frames to read and apply, an echo one).
    client_cpu: float = 0.0
    client_moves: int = 0
    failures: dict[str, int] = field(default_factory=dict)  # each failed move's reason, counted


async def open_sockets(
    ws_base: str | list[str], games: list[tuple[str, list[dict]]], concurrency: int = 32
) -> list[list[SeatSocket]]:
    """Every seat's socket for every game (a list of bases spreads games over servers)."""
    bases = [ws_base] if isinstance(ws_base, str) else ws_base
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int, game_id: str, player: dict) -> SeatSocket:
        async with sem:
            base = bases[i % len(bases)]
            sock = SeatSocket(await connect(f"{base}/ws/games/{game_id}?token={player['token']}"))
            await asyncio.wait_for(sock.ready, 60)
            return sock

    return list(
        await asyncio.gather(
            *(asyncio.gather(*(one(i, g, p) for p in players)) for i, (g, players) in enumerate(games))
        )
    )


async def _legal(
    http: httpx.AsyncClient | None, url: str, game_id: str, player: dict, doc: dict[str, Any]
) -> dict[str, Any]:
    if doc["ruleset"] in ("benchgame", "testgame"):
        return bench_move(doc["view"])
    assert http is not None
    r = await http.get(
        f"{url}/api/games/{game_id}/legal-moves", headers={"Authorization": f"Bearer {player['token']}"}
    )
    return random.choice(r.json()["moves"])


async def drive_game(
    url: str,
    game_id: str,
    players: list[dict],
    socks: list[SeatSocket],
    interval: float,
    t_end: float,
    t_measure: float,
    stats: Stats,
    http: httpx.AsyncClient | None = None,
) -> None:
    """Play one game: a move every `interval` s (0: closed loop), timing ack and every seat's patch.

    Latency runs from the send; the next send is planned `interval` after the previous plan, or as
    soon as every seat has the previous patch if that is later (a player needs the new state).
    """
    planned = time.perf_counter() + (random.uniform(0, interval) if interval else 0)
    n = 0
    while True:
        doc = socks[0].doc
        if not doc["to_act"]:
            return
        seat = doc["to_act"][0]
        move = await _legal(http, url, game_id, players[seat], socks[seat].doc)
        now = time.perf_counter()
        if interval:
            if planned > now:
                await asyncio.sleep(planned - now)
        if time.perf_counter() > t_end:
            return
        version = socks[seat].doc["version"]
        move_id = f"{game_id}-{version}-{n}"
        n += 1
        ack = socks[seat].wait_ack(move_id)
        patches = [s.wait_version(version + 1) for s in socks]
        # Encoded before the clock starts, as the echo's frame is: the round trip is measured
        # from the send, not from the load generator's JSON encoding.
        frame = dumps({"type": "move", "version": version, "move": move, "id": move_id})
        sent = time.perf_counter()
        await socks[seat].ws.send(frame)
        try:
            t_ack = await asyncio.wait_for(ack, 30)
            t_patches = await asyncio.wait_for(asyncio.gather(*patches), 30)
        except (RuntimeError, asyncio.TimeoutError) as exc:
            stats.errors += 1
            reason = f"{type(exc).__name__}: {str(exc)[:80]}"
            stats.failures[reason] = stats.failures.get(reason, 0) + 1
            for s in socks:  # get back in step before the next move
                await s.ws.send('{"type":"sync","version":-1}')
            await asyncio.sleep(0.5)
            continue
        stats.moves += 1
        if sent >= t_measure:
            stats.measured += 1
            stats.first = stats.first or sent
            stats.last = max(stats.last, t_ack)
            stats.ack.append((t_ack - sent) * 1000)
            for t in t_patches:
                stats.patch.append((t - sent) * 1000)
                stats.after_ack.append((t - t_ack) * 1000)
        planned = max(planned + interval, time.perf_counter()) if interval else 0


async def drive_games(
    url: str | list[str],
    games: list[tuple[str, list[dict]]],
    socks: list[list[SeatSocket]],
    interval: float,
    duration: float,
    warmup: float,
    pids: list[int] | None = None,
) -> Stats:
    """Drive every game for `warmup + duration` seconds; latencies after the warm-up only.
    With `pids`, also the servers' CPU time per move over the measured window; always the load
    generator's own."""
    stats = Stats()
    urls = [url] if isinstance(url, str) else url
    start = time.perf_counter()

    async def cpu_window() -> None:
        await asyncio.sleep(warmup)
        servers = pids or []
        cpu0, moves0, mine0 = sum(map(cpu_seconds, servers)), stats.moves, time.process_time()
        await asyncio.sleep(duration)
        stats.client_cpu, stats.client_moves = time.process_time() - mine0, stats.moves - moves0
        if servers:
            stats.cpu = sum(map(cpu_seconds, servers)) - cpu0
            stats.cpu_moves = stats.client_moves

    async with httpx.AsyncClient(timeout=30) as http:
        await asyncio.gather(
            *(
                drive_game(
                    urls[i % len(urls)],
                    g,
                    p,
                    s,
                    interval,
                    start + warmup + duration,
                    start + warmup,
                    stats,
                    http,
                )
                for i, ((g, p), s) in enumerate(zip(games, socks))
            ),
            cpu_window(),
        )
    stats.resyncs = sum(s.resyncs for row in socks for s in row)
    return stats


async def drive_echo(
    ws_base: str, games: int, seats: int, interval: float, duration: float, warmup: float
) -> Stats:
    """The baseline: the same sockets and schedule, each 'move' a move-sized frame echoed back."""
    sem = asyncio.Semaphore(32)

    async def one() -> EchoSocket:
        async with sem:
            return EchoSocket(await connect(f"{ws_base}/echo"))

    socks = [list(await asyncio.gather(*(one() for _ in range(seats)))) for _ in range(games)]
    stats = Stats()
    start = time.perf_counter()
    t_measure, t_end = start + warmup, start + warmup + duration

    async def game(row: list[EchoSocket]) -> None:
        planned = time.perf_counter() + (random.uniform(0, interval) if interval else 0)
        n = 0
        while True:
            now = time.perf_counter()
            if interval and planned > now:
                await asyncio.sleep(planned - now)
            if time.perf_counter() > t_end:
                return
            sock = row[n % len(row)]
            n += 1
            fut = sock.expect()
            sent = time.perf_counter()
            await sock.ws.send(SAMPLE_MOVE)
            got = await asyncio.wait_for(fut, 30)
            stats.moves += 1
            if sent >= t_measure:
                stats.measured += 1
                stats.first = stats.first or sent
                stats.last = max(stats.last, got)
                stats.ack.append((got - sent) * 1000)
            planned = max(planned + interval, time.perf_counter()) if interval else 0

    async def cpu_window() -> None:
        await asyncio.sleep(warmup)
        mine0, moves0 = time.process_time(), stats.moves
        await asyncio.sleep(duration)
        stats.client_cpu, stats.client_moves = time.process_time() - mine0, stats.moves - moves0

    await asyncio.gather(*(game(row) for row in socks), cpu_window())
    await asyncio.gather(*(s.close() for row in socks for s in row))
    return stats


def cpu_per_move(stats: Stats) -> str:
    """Server CPU per move, as text."""
    if not stats.cpu_moves:
        return "n/a"
    return f"{stats.cpu / stats.cpu_moves * 1000:.2f} ms CPU/move"


def client_cpu_per_move(stats: Stats) -> str:
    """The load generator's CPU per move (or per echo), as text."""
    if not stats.client_moves:
        return "n/a"
    return f"{stats.client_cpu / stats.client_moves * 1000:.2f} ms CPU/move"


def rate(stats: Stats) -> float:
    """Measured moves per second."""
    span = stats.last - stats.first
    return stats.measured / span if span > 0 else 0.0


def _part(
    kind: str, target: Any, part: Any, interval: float, duration: float, warmup: float, barrier: Any, out: Any
) -> None:
    """One load-generator process (--clients N): its share of the games (or of the echo
    sockets), started together with the others at the barrier; its figures go to `out`."""

    async def go() -> Stats:
        if kind == "echo":
            start = asyncio.get_running_loop().run_in_executor(None, barrier.wait)
            await start
            return await drive_echo(target, part, 2, interval, duration, warmup)
        ws = [u.replace("http", "ws") for u in target]
        socks = await open_sockets(ws, part)
        await asyncio.get_running_loop().run_in_executor(None, barrier.wait)
        stats = await drive_games(target, part, socks, interval, duration, warmup)
        await asyncio.gather(*(s.close() for row in socks for s in row))
        return stats

    stats = run(go())
    out.put(
        (
            stats.ack,
            stats.patch,
            stats.after_ack,
            stats.measured,
            stats.first,
            stats.last,
            stats.errors,
            stats.resyncs,
            stats.client_cpu,
            stats.client_moves,
            stats.failures,
        )
    )


def in_processes(
    kind: str, target: Any, parts: list[Any], interval: float, duration: float, warmup: float, pids: list[int]
) -> Stats:
    """Run the load from len(parts) processes at once and merge their figures (server CPU
    per move over the same window, from the parent)."""
    ctx = multiprocessing.get_context("fork")
    barrier, out = ctx.Barrier(len(parts) + 1), ctx.Queue()
    procs = [
        ctx.Process(target=_part, args=(kind, target, part, interval, duration, warmup, barrier, out))
        for part in parts
    ]
    for proc in procs:
        proc.start()
    barrier.wait(timeout=600)
    time.sleep(warmup)
    cpu0 = sum(cpu_seconds(p) for p in pids)
    time.sleep(duration)
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    stats = Stats()
    for _ in procs:
        (
            ack,
            patch,
            after_ack,
            measured,
            first,
            last,
            errors,
            resyncs,
            client_cpu,
            client_moves,
            failures,
        ) = out.get(timeout=600)
        for reason, count in failures.items():
            stats.failures[reason] = stats.failures.get(reason, 0) + count
        stats.client_cpu += client_cpu
        stats.client_moves += client_moves
        stats.ack += ack
        stats.patch += patch
        stats.after_ack += after_ack
        stats.resyncs += resyncs
        stats.measured += measured
        stats.errors += errors
        stats.first = min(stats.first, first) if stats.first else first
        stats.last = max(stats.last, last)
    for proc in procs:
        proc.join()
    stats.cpu, stats.cpu_moves = cpu, stats.measured
    return stats
