"""Load that behaves like users (issue 26): a lobby burst, and games whose clients read their
document and legal moves over REST before every move and send the move over the game's socket.

  # (a) lobby burst: 200 rooms from 40 hosts, 20 requests in flight, lobby reads among them
  .venv/bin/python bench/user_load_bench.py lobby
  # (b) 100 games, a move every 0.2 s per game, set up all at once / over 10 s
  .venv/bin/python bench/user_load_bench.py games --games 100 --setup all
  .venv/bin/python bench/user_load_bench.py games --games 100 --setup 10
  .venv/bin/python bench/user_load_bench.py games --games 1000 --interval 2 --setup all
  # (c) the same on PostgreSQL with 2 workers (two instances over Redis; sockets of a game on
  #     one instance or the other, REST reads on either, as behind a proxy without stickiness)
  .venv/bin/python bench/user_load_bench.py games --games 100 --workers 2 \\
      --postgres postgresql://postgres@127.0.0.1:5432/postgres --redis redis://127.0.0.1:6379/4
  # any of them against a running stack (nginx in front of the replicas, say): no local server
  .venv/bin/python bench/user_load_bench.py games --url http://127.0.0.1:8000 [--echo-url ws://host:port/echo]

A game makes one move every `--interval` s (of the seats asked to act, the next in turn): 100
games offer 500 moves and 1,000 REST reads a second. Each run prints: errors (non-2xx answers,
error frames, timeouts, closed sockets), pool timeouts and slow pool waits (from every server's
/metrics, before and after), move ack p50/p99 (send of the move frame to its ack) beside a bare
websocket echo measured in the same run (one echo block before the games and one after, one
socket per game on the games' schedule), REST read p50/p99, and the CPU the servers and the load
generator spent per move over the measured window (from /proc and the process's own clock).
Servers started here run with limits scaled up (one load generator on 127.0.0.1 is not the internet).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.clients import EchoSocket, SeatSocket, connect  # noqa: E402
from bench.lib.common import (
    civitas,
    echo_server,
    fresh_postgres,
    machine,
    pct,
    run,  # noqa: E402
    sqlite_url,
)

TIMEOUT = 10.0  # seconds a client waits for any one answer before it counts an error


@dataclass
class Tally:
    """What the clients saw."""

    ack: list[float] = field(default_factory=list)  # ms, move frame sent -> its ack
    rest: list[float] = field(default_factory=list)  # ms, each REST read
    writes: list[float] = field(default_factory=list)  # ms, each REST write (lobby burst, set-up)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    games_moving: set[str] = field(default_factory=set)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes `pids` have used (Linux /proc), or NaN if unknown."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def line(name: str, values: list[float]) -> str:
    return (
        f"{name} p50 {pct(values, 50):6.2f} ms  p99 {pct(values, 99):7.2f} ms  "
        f"max {max(values) if values else float('nan'):7.1f} ms  (n={len(values)})"
    )


# -- the servers' own view: /metrics --------------------------------------------------------------

_METRIC = re.compile(
    r"^(civitas_db_pool_(?:timeouts_total|nested_checkouts_total|wait_seconds_bucket"
    r'|wait_seconds_count))(?:\{le="([^"]+)"\})? (\S+)$',
    re.M,
)


async def pool_metrics(http: httpx.AsyncClient, urls: list[str]) -> dict[str, float]:
    """Pool timeouts, nested checkouts and waits over 10 ms / 100 ms / 1 s, summed over servers."""
    out = {"timeouts": 0.0, "nested": 0.0, "waits": 0.0, "over_10ms": 0.0, "over_100ms": 0.0, "over_1s": 0.0}
    for url in urls:
        try:
            text = (await http.get(f"{url}/metrics", timeout=TIMEOUT)).text
        except httpx.HTTPError:
            continue
        buckets: dict[str, float] = {}
        for name, le, value in _METRIC.findall(text):
            if name.endswith("timeouts_total"):
                out["timeouts"] += float(value)
            elif name.endswith("nested_checkouts_total"):
                out["nested"] += float(value)
            elif name.endswith("wait_seconds_count"):
                out["waits"] += float(value)
            else:
                buckets[le] = float(value)
        count = buckets.get("+Inf", 0.0)
        for key, le in (("over_10ms", "0.01"), ("over_100ms", "0.1"), ("over_1s", "1.0")):
            out[key] += count - buckets.get(le, count)
    return out


def pool_line(before: dict[str, float], after: dict[str, float]) -> str:
    d = {k: int(after[k] - before[k]) for k in after}
    return (
        f"pool: {d['timeouts']} timeouts, {d['nested']} nested checkouts; of {d['waits']} "
        f"checkouts {d['over_10ms']} waited > 10 ms, {d['over_100ms']} > 100 ms, "
        f"{d['over_1s']} > 1 s"
    )


# -- (a) the lobby burst ------------------------------------------------------------------------


async def lobby_burst(urls: list[str], rooms: int, hosts: int, in_flight: int) -> Tally:
    """`rooms` public rooms from `hosts` hosts, `in_flight` requests at once, a lobby read after
    every fourth creation."""
    tally = Tally()
    gate = asyncio.Semaphore(in_flight)
    async with httpx.AsyncClient(timeout=TIMEOUT, limits=httpx.Limits(max_connections=in_flight * 2)) as http:
        before = await pool_metrics(http, urls)
        players = [await _player(http, random.choice(urls), f"H{i}", tally) for i in range(hosts)]
        players = [p for p in players if p]

        async def create(i: int) -> None:
            host = players[i % len(players)]
            headers = {"Authorization": f"Bearer {host['token']}"}
            async with gate:
                await _timed(
                    http,
                    tally.writes,
                    tally,
                    "POST",
                    f"{random.choice(urls)}/api/rooms",
                    headers,
                    {"ruleset": "testgame", "seats": 2},
                )
            if i % 4 == 0:
                async with gate:
                    await _timed(
                        http, tally.rest, tally, "GET", f"{random.choice(urls)}/api/rooms", headers, None
                    )

        start = time.perf_counter()
        await asyncio.gather(*(create(i) for i in range(rooms)))
        took = time.perf_counter() - start
        after = await pool_metrics(http, urls)
    print(f"lobby burst: {rooms} rooms from {len(players)} hosts, {in_flight} in flight, {took:.1f} s")
    print("  " + line("room creation", tally.writes))
    print("  " + line("lobby read   ", tally.rest))
    print(f"  errors: {sum(tally.errors.values())} {tally.errors or ''}")
    print("  " + pool_line(before, after))
    return tally


async def _player(http: httpx.AsyncClient, url: str, name: str, tally: Tally) -> dict | None:
    try:
        r = await http.post(f"{url}/api/players", json={"name": name})
        if r.status_code == 201:
            return r.json()
        tally.error(f"player {r.status_code}")
    except httpx.HTTPError as exc:
        tally.error(f"player {type(exc).__name__}")
    return None


async def _timed(
    http: httpx.AsyncClient,
    into: list[float],
    tally: Tally,
    method: str,
    url: str,
    headers: dict[str, str],
    body: Any,
) -> httpx.Response | None:
    start = time.perf_counter()
    try:
        r = await http.request(method, url, headers=headers, json=body)
    except httpx.HTTPError as exc:
        tally.error(f"{method} {type(exc).__name__}")
        return None
    into.append((time.perf_counter() - start) * 1000)
    if r.status_code >= 300:
        tally.error(f"{method} {r.status_code}")
        return None
    return r


# -- (b), (c) games played the way clients play ---------------------------------------------------


async def setup_game(
    http: httpx.AsyncClient, urls: list[str], i: int, tally: Tally
) -> tuple[str, list[dict]] | None:
    """Two players, a room, a join and a start: one game."""
    url = urls[i % len(urls)]
    players = [await _player(http, url, f"G{i}s{s}", tally) for s in range(2)]
    if not all(players):
        return None
    h = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    room = await _timed(
        http, tally.writes, tally, "POST", f"{url}/api/rooms", h[0], {"ruleset": "benchgame", "seats": 2}
    )
    if room is None:
        return None
    room_id = room.json()["id"]
    if await _timed(http, tally.writes, tally, "POST", f"{url}/api/rooms/{room_id}/join", h[1], {}) is None:
        return None
    started = await _timed(http, tally.writes, tally, "POST", f"{url}/api/rooms/{room_id}/start", h[0], None)
    return (started.json()["game_id"], players) if started is not None else None


async def play(
    http: httpx.AsyncClient,
    urls: list[str],
    ws_urls: list[str],
    game_id: str,
    players: list[dict],
    i: int,
    interval: float,
    t_end: float,
    t_measure: float,
    tally: Tally,
) -> None:
    """One game's clients: open each seat's socket, then every `interval` s each seat asked to
    act reads its document and legal moves over REST and sends the first legal move over its
    socket, waiting for the ack."""
    socks: list[SeatSocket] = []
    try:
        for s, player in enumerate(players):
            base = ws_urls[(i + s) % len(ws_urls)]
            sock = SeatSocket(await connect(f"{base}/ws/games/{game_id}?token={player['token']}"))
            await asyncio.wait_for(sock.ready, TIMEOUT)
            socks.append(sock)
    except Exception as exc:  # noqa: BLE001 - a socket that never opened is an error to count
        tally.error(f"socket open {type(exc).__name__}")
        return
    headers = [{"Authorization": f"Bearer {p['token']}"} for p in players]
    planned = time.perf_counter() + random.uniform(0, interval)
    n = 0
    try:
        while planned < t_end:
            await asyncio.sleep(max(0.0, planned - time.perf_counter()))
            # The next round `interval` after this one's plan, or now if this one ran late (a
            # player who waited longer does not then make the missed moves in a burst).
            planned = max(planned + interval, time.perf_counter())
            measuring = time.perf_counter() >= t_measure
            # One move per game per round (a move every `interval` s per game, as issue 26 counts
            # it): of the seats asked to act, each round the next one in turn.
            asked = [
                s for s, sock in enumerate(socks) if sock.doc is not None and s in sock.doc.get("to_act", [])
            ]
            for seat in [asked[n % len(asked)]] if asked else []:
                sock = socks[seat]
                url = random.choice(urls)
                rest = tally.rest if measuring else []
                doc = await _timed(
                    http, rest, tally, "GET", f"{url}/api/games/{game_id}", headers[seat], None
                )
                legal = await _timed(
                    http, rest, tally, "GET", f"{url}/api/games/{game_id}/legal-moves", headers[seat], None
                )
                if doc is None or legal is None:
                    continue
                moves = legal.json()["moves"]
                if not moves:
                    continue  # moved on meanwhile (the other seat's move arrived first)
                n += 1
                move_id = f"{game_id}-{seat}-{n}"
                fut = sock.wait_ack(move_id)
                sent = time.perf_counter()
                await sock.ws.send(
                    '{"type":"move","version":%d,"move":%s,"id":"%s"}'
                    % (legal.json()["version"], _json(moves[0]), move_id)
                )
                try:
                    acked = await asyncio.wait_for(fut, TIMEOUT)
                except asyncio.TimeoutError:
                    tally.error("ack timeout")
                    continue
                except RuntimeError as exc:  # an error frame, or the socket closed
                    tally.error(f"move refused: {str(exc)[:60]}")
                    continue
                tally.moves += 1
                tally.games_moving.add(game_id)
                if measuring:
                    tally.ack.append((acked - sent) * 1000)
            for sock in socks:  # both seats see the new version before the next round
                if sock.doc is not None:
                    try:
                        await asyncio.wait_for(
                            sock.wait_version(max(s.doc["version"] for s in socks if s.doc)), TIMEOUT
                        )
                    except (asyncio.TimeoutError, RuntimeError):
                        tally.error("patch timeout")
    finally:
        for sock in socks:
            await sock.close()


def _json(value: Any) -> str:
    import orjson

    return orjson.dumps(value).decode()


async def games_run(
    pids: list[int],
    urls: list[str],
    ws_urls: list[str],
    games: int,
    interval: float,
    duration: float,
    warmup: float,
    setup: str,
    in_flight: int,
) -> Tally:
    """Set `games` games up (all at once, or spread over `setup` seconds, each starting to play as
    soon as it is set up) and play them until `duration` s after the last set-up began."""
    tally = Tally()
    limits = httpx.Limits(max_connections=max(64, in_flight * 4), max_keepalive_connections=256)
    async with httpx.AsyncClient(timeout=TIMEOUT, limits=limits) as http:
        before = await pool_metrics(http, urls)
        spread = 0.0 if setup == "all" else float(setup)
        start = time.perf_counter()
        t_measure = start + spread + warmup
        t_end = t_measure + duration
        gate = asyncio.Semaphore(in_flight)
        setup_times: list[float] = []

        async def one(i: int) -> None:
            if spread:
                await asyncio.sleep(spread * i / games)
            begun = time.perf_counter()
            async with gate:
                made = await setup_game(http, urls, i, tally)
            setup_times.append((time.perf_counter() - begun) * 1000)
            if made is not None:
                await play(http, urls, ws_urls, made[0], made[1], i, interval, t_end, t_measure, tally)

        cpu: dict[str, float] = {}

        async def window() -> None:
            # CPU seconds of the servers and of this load generator over the measured window
            # only (set-up and warm-up left out), with the moves acknowledged in it.
            await asyncio.sleep(max(0.0, t_measure - time.perf_counter()))
            cpu.update(server=-cpu_seconds(pids), client=-time.process_time(), moves=-len(tally.ack))
            await asyncio.sleep(max(0.0, t_end - time.perf_counter()))
            cpu["server"] += cpu_seconds(pids)
            cpu["client"] += time.process_time()
            cpu["moves"] += len(tally.ack)

        await asyncio.gather(window(), *(one(i) for i in range(games)))
        after = await pool_metrics(http, urls)
    print(
        f"  set-up ({'all at once' if not spread else f'over {spread:g} s'}, {in_flight} in flight): "
        + line("per game", setup_times)
    )
    print(f"  games that moved: {len(tally.games_moving)} of {games}; moves {tally.moves}")
    print("  " + line("move ack      ", tally.ack))
    print("  " + line("REST read     ", tally.rest))
    if pids and cpu.get("moves", 0) > 0:
        print(
            f"  CPU per move (with its two REST reads), measured window: server"
            f" {cpu['server'] / cpu['moves'] * 1000:.2f} ms ({cpu['server'] / duration:.0%} of a core),"
            f" load generator {cpu['client'] / cpu['moves'] * 1000:.2f} ms"
            f" ({cpu['client'] / duration:.0%} of a core)"
        )
    print(f"  errors: {sum(tally.errors.values())} {tally.errors or ''}")
    print("  " + pool_line(before, after))
    return tally


async def echo_block(
    echo_ws: str, clients: int, interval: float, duration: float, in_flight: int = 32
) -> list[float]:
    """The baseline: `clients` sockets on a bare echo, each sending a move-sized frame every
    `interval` s, round trips in ms."""
    sem = asyncio.Semaphore(in_flight)

    async def opened() -> EchoSocket:
        async with sem:
            return EchoSocket(await connect(echo_ws))

    socks = list(await asyncio.gather(*(opened() for _ in range(clients))))
    frame = '{"type":"move","version":123,"move":{"type":"bid","card":"K017"},"id":"g0-m123"}'
    times: list[float] = []
    t_end = time.perf_counter() + duration

    async def client(sock: EchoSocket) -> None:
        planned = time.perf_counter() + random.uniform(0, interval)
        while planned < t_end:
            await asyncio.sleep(max(0.0, planned - time.perf_counter()))
            planned = max(planned + interval, time.perf_counter())
            fut = sock.expect()
            sent = time.perf_counter()
            await sock.ws.send(frame)
            try:
                times.append((await asyncio.wait_for(fut, TIMEOUT) - sent) * 1000)
            except asyncio.TimeoutError:
                pass

    await asyncio.gather(*(client(s) for s in socks))
    for sock in socks:
        await sock.close()
    return times


# -- servers and main ---------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", choices=("lobby", "games"))
    ap.add_argument("--url", default="", help="drive this running stack instead of starting servers")
    ap.add_argument("--echo-url", default="", help="ws://.../echo baseline for --url (default: a local one)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.2, help="seconds between a game's moves")
    ap.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--setup", default="all", help='"all" at once, or the seconds to spread set-up over')
    ap.add_argument("--in-flight", type=int, default=20, help="set-up (and lobby) requests at once")
    ap.add_argument("--rooms", type=int, default=200)
    ap.add_argument("--hosts", type=int, default=40)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument(
        "--postgres", default="", help="a postgresql:// URL: run the servers on a fresh database there"
    )
    ap.add_argument("--redis", default="", help="the broker of several workers")
    ap.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra environment for the servers started here",
    )
    ap.add_argument("--root", default="", help="run the servers from another checkout (a before/after)")
    args = ap.parse_args()
    print(machine())
    with ExitStack() as stack:
        if args.url:
            urls = [u.rstrip("/") for u in args.url.split(",")]
            pids: list[int] = []  # not ours to read
            echo_ws = args.echo_url or stack.enter_context(echo_server()).ws + "/echo"
            label = f"against {args.url}"
        else:
            if args.workers > 1 and not (args.postgres and args.redis):
                raise SystemExit("--workers > 1 needs --postgres and --redis")
            db = (
                fresh_postgres(args.postgres, f"civitas_bench_{os.getpid()}")
                if args.postgres
                else stack.enter_context(sqlite_url())
            )
            env = {
                "CIVITAS_DATABASE_URL": db,
                "CIVITAS_HEARTBEAT_SECONDS": "15",
                **dict(kv.split("=", 1) for kv in args.server_env),
            }
            if args.redis:
                env["CIVITAS_BROKER_URL"] = args.redis
            root = args.root or None
            servers = [stack.enter_context(civitas(env, root=root))]
            for _ in range(args.workers - 1):  # the first migrated the database
                servers.append(
                    stack.enter_context(civitas({**env, "CIVITAS_MIGRATE_ON_START": "false"}, root=root))
                )
            urls = [s.url for s in servers]
            pids = [s.proc.pid for s in servers if s.proc is not None]
            echo_ws = stack.enter_context(echo_server()).ws + "/echo"
            label = (
                f"{args.workers} worker{'s' if args.workers > 1 else ''}, "
                f"{'PostgreSQL' if args.postgres else 'SQLite'}"
                + (f", code from {args.root}" if args.root else "")
            )
        ws_urls = [u.replace("http", "ws", 1) for u in urls]
        print(f"{args.scenario}: {label}")
        if args.scenario == "lobby":
            run(lobby_burst(urls, args.rooms, args.hosts, args.in_flight))
            return
        print(
            f"  {args.games} games, a move every {args.interval:g} s per game, {args.duration:g} s measured"
        )
        clients = args.games  # one echo socket per game, a frame every interval: the games' pace
        before = run(echo_block(echo_ws, clients, args.interval, max(5.0, args.duration / 2)))
        tally = run(
            games_run(
                pids,
                urls,
                ws_urls,
                args.games,
                args.interval,
                args.duration,
                args.warmup,
                args.setup,
                args.in_flight,
            )
        )
        after = run(echo_block(echo_ws, clients, args.interval, max(5.0, args.duration / 2)))
        echo = before + after
        print("  " + line("echo (same run)", echo))
        if tally.ack and echo:
            print(
                f"  ack / echo: p50 {pct(tally.ack, 50) / pct(echo, 50):.2f}x, "
                f"p99 {pct(tally.ack, 99) / pct(echo, 99):.2f}x"
            )
        print(f"  load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
