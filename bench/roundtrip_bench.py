"""Move round trip under open-loop load, against a bare Starlette websocket echo on the same stack.

N games (2 seats each, every seat on its own socket) each make a move every INTERVAL seconds.
For every move: send -> ack on the mover's socket, send -> patch on every seat's socket, and
ack -> patch (how long after the ack each seat has the new version). The baseline runs the same
sockets and schedule against /echo of bench/lib/echo_app.py.

The servers stay up for the whole run and are measured in alternating blocks, echo first and
last: E C E C ... E (with --compare: E C1 C2 E C2 C1 E ...). Each block opens every socket,
warms up, measures, and closes them. A block's ratio is its ack p50 over the pooled p50 of the
echo blocks either side of it, so drift of the machine (other jobs, CPU frequency) hits both
sides; the median of the rounds' ratios is the figure to quote, with every block's absolute
figures printed as it ends.

Run (the issue's three points; the servers on core 0, this load generator on core 1):
  .venv/bin/python bench/roundtrip_bench.py --games 1 --interval 0.2
  .venv/bin/python bench/roundtrip_bench.py --games 100 --interval 0.2
  .venv/bin/python bench/roundtrip_bench.py --games 1000 --interval 2 --duration 30
Options: --rounds N (blocks per server, default 3), --clients N (N load-generator processes,
nothing pinned: they then share the servers' cores, and a Civitas move costs the load generator
two to three times an echo's CPU, so its contention lands on Civitas's side), --ruleset suburbia (a product game; legal moves fetched over REST between
moves), --postgres URL (PostgreSQL instead of a fresh SQLite file), --no-pin, --compare DIR
(another checkout's server in the same run).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import (  # noqa: E402
    civitas,
    echo_server,
    fresh_postgres,
    machine,
    new_games,
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
    drive_games,
    in_processes,
    open_sockets,
    rate,
)


def main() -> None:
    """Echo and Civitas in alternating blocks (E C E C ... E); each block's absolute figures, each
    round's ratio to the echo blocks either side of it, and the median ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.2)
    ap.add_argument("--duration", type=float, default=20, help="measured seconds per block")
    ap.add_argument("--warmup", type=float, default=3, help="unmeasured seconds before each block")
    ap.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="blocks per server, each between two echo blocks (drift hits both sides)",
    )
    ap.add_argument("--ruleset", default="benchgame")
    ap.add_argument("--postgres", default="")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument(
        "--clients", type=int, default=1, help="load-generator processes (more than one: nothing pinned)"
    )
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    ap.add_argument(
        "--profile",
        default="",
        help="py-spy flame graph of the server's first block to this file (.txt: collapsed stacks)",
    )
    ap.add_argument("--skip-echo", action="store_true", help="no baseline (profiling runs only)")
    args = ap.parse_args()
    server_core, client_core = (None, None) if args.no_pin or args.clients > 1 else ("0", "1")
    pin_self(client_core)
    print(f"machine: {machine()}")
    print(
        f"load: {args.games} games x 2 seats, a move every {args.interval}s per game "
        f"({args.games / args.interval:.0f} moves/s planned), {args.duration}s measured "
        f"after {args.warmup}s warm-up per block, {args.rounds} rounds; ruleset {args.ruleset}"
    )
    shares = [len(range(i, args.games, args.clients)) for i in range(args.clients)]
    roots = [None] + ([args.compare] if args.compare else [])
    with ExitStack() as stack:
        echo = None if args.skip_echo else stack.enter_context(echo_server(server_core))
        servers = []
        for root in roots:  # every server up and its games made before the first block
            sqlite = stack.enter_context(sqlite_url())
            db = (
                fresh_postgres(args.postgres, f"civitas_bench_{os.getpid()}_{len(servers)}")
                if args.postgres
                else sqlite
            )
            server = stack.enter_context(civitas({"CIVITAS_DATABASE_URL": db}, server_core, root=root))
            servers.append(
                (root or "this checkout", server, run(new_games(server.url, args.games, 2, args.ruleset)))
            )
        echoes: list[Stats] = []
        blocks: dict[str, list[Stats]] = {label: [] for label, _, _ in servers}

        def echo_block() -> None:
            if echo is None:
                return
            stats = echo_run(echo, args, shares)
            echoes.append(stats)
            print(
                f"  {'echo':14} : {summary(stats.ack)}  {rate(stats):.0f} msgs/s, load generator "
                f"{client_cpu_per_move(stats)}  [{time.strftime('%H:%M:%S')}, load "
                f"{os.getloadavg()[0]:.1f}]",
                flush=True,
            )

        echo_block()
        for n in range(args.rounds):
            # The servers' order flips every round, so neither always sits next to the same echo.
            for label, server, games in servers if n % 2 == 0 else servers[::-1]:
                profile = args.profile if n == 0 and label == "this checkout" else ""
                stats = subject_run(server, games, args, profile)
                blocks[label].append(stats)
                print(
                    f"  {label:14} : {summary(stats.ack)}  {rate(stats):.0f} moves/s, "
                    f"{stats.errors} errors, {stats.resyncs} resyncs, server {cpu_per_move(stats)}"
                    f", load generator {client_cpu_per_move(stats)}",
                    flush=True,
                )
                for reason, count in sorted(stats.failures.items(), key=lambda kv: -kv[1])[:5]:
                    print(f"      {count} failed: {reason}", flush=True)
            echo_block()
    if echo is None:
        return
    print(
        f"echo, all blocks: {summary(merged(echoes).ack)}, load generator "
        f"{client_cpu_per_move(merged(echoes))}"
    )
    for label, runs in blocks.items():
        stats = merged(runs)
        # Round n's blocks sit between echo blocks n and n + 1.
        ratios = [pct(s.ack, 50) / pct(echoes[n].ack + echoes[n + 1].ack, 50) for n, s in enumerate(runs)]
        print(f"--- server: {label} (all {len(runs)} blocks)")
        print(
            f"move ack     : {summary(stats.ack)}  {stats.errors} errors, {stats.resyncs} "
            f"resyncs, server {cpu_per_move(stats)}, load generator {client_cpu_per_move(stats)}"
        )
        print(f"patch (all)  : {summary(stats.patch)}")
        print(f"ack -> patch : p50 {pct(stats.after_ack, 50):.2f}  p99 {pct(stats.after_ack, 99):.2f} ms")
        print(
            f"ratio to echo: p50 per round {' '.join(f'{r:.2f}' for r in ratios)}x, "
            f"median {statistics.median(ratios):.2f}x; all blocks pooled: p50 "
            f"{pct(stats.ack, 50) / pct(merged(echoes).ack, 50):.2f}x, p99 "
            f"{pct(stats.ack, 99) / pct(merged(echoes).ack, 99):.2f}x  "
            f"(targets: p50 <= 2x, p99 <= 10 ms)"
        )


def echo_run(echo: Any, args: argparse.Namespace, shares: list[int]) -> Stats:
    """One block of the baseline: the same sockets and schedule against /echo."""
    if args.clients > 1:
        return in_processes("echo", echo.ws, shares, args.interval, args.duration, args.warmup, [echo.pid])
    return run(drive_echo(echo.ws, args.games, 2, args.interval, args.duration, args.warmup))


def subject_run(
    server: Any, games: list[tuple[str, list[dict]]], args: argparse.Namespace, profile: str
) -> Stats:
    """One block of Civitas: every seat's socket opened, the games driven, the sockets closed."""
    if args.clients > 1:
        return in_processes(
            "games",
            [server.url],
            [games[i :: args.clients] for i in range(args.clients)],
            args.interval,
            args.duration,
            args.warmup,
            [server.pid],
        )

    async def block() -> Stats:
        socks = await open_sockets(server.ws, games)
        spy = None
        if profile:
            spy = subprocess.Popen(
                [
                    "py-spy",
                    "record",
                    "-p",
                    str(server.pid),
                    "-o",
                    profile,
                    "-d",
                    str(int(args.duration + args.warmup)),
                    "-r",
                    "200",
                    "--nonblocking",
                ]
                + (["--format", "raw"] if profile.endswith(".txt") else []),
                stdout=subprocess.DEVNULL,
            )
        stats = await drive_games(
            server.url, games, socks, args.interval, args.duration, args.warmup, [server.pid]
        )
        await asyncio.gather(*(s.close() for row in socks for s in row))
        if spy is not None:
            spy.wait()
        return stats

    return run(block())


def merged(runs: list[Stats]) -> Stats:
    """Several blocks' figures as one (latencies pooled; CPU and moves summed)."""
    out = Stats()
    for s in runs:
        out.ack += s.ack
        out.patch += s.patch
        out.after_ack += s.after_ack
        out.measured += s.measured
        out.errors += s.errors
        out.resyncs += s.resyncs
        out.cpu += s.cpu
        out.cpu_moves += s.cpu_moves
        out.client_cpu += s.client_cpu
        out.client_moves += s.client_moves
    return out


if __name__ == "__main__":
    main()
