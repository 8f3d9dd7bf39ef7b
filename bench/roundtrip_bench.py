"""Move round trip under open-loop load, against a bare Starlette websocket echo on the same stack.

N games (2 seats each, every seat on its own socket) each make a move every INTERVAL seconds.
For every move: send -> ack on the mover's socket, send -> patch on every seat's socket, and
ack -> patch (how long after the ack each seat has the new version). The baseline runs the same
sockets and schedule against /echo of bench/lib/echo_app.py, before and after the subject.

Run (the issue's three points; the server on core 0, this load generator on core 1):
  .venv/bin/python bench/roundtrip_bench.py --games 1 --interval 0.2
  .venv/bin/python bench/roundtrip_bench.py --games 100 --interval 0.2
  .venv/bin/python bench/roundtrip_bench.py --games 1000 --interval 2 --duration 30
Options: --clients N (N load-generator processes, nothing pinned), --ruleset suburbia (a product game; legal moves fetched over REST between moves),
--postgres URL (PostgreSQL instead of a fresh SQLite file), --no-pin.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import (  # noqa: E402
    civitas, echo_server, fresh_postgres, machine, new_games, pct, pin_self, run, sqlite_url,
    summary)
from bench.lib.load import (  # noqa: E402
    cpu_per_move, drive_echo, drive_games, in_processes, open_sockets, rate)


def main() -> None:
    """Echo, Civitas, echo again; print absolute figures and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.2)
    ap.add_argument("--duration", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=3)
    ap.add_argument("--ruleset", default="benchgame")
    ap.add_argument("--postgres", default="")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument("--clients", type=int, default=1,
                    help="load-generator processes (more than one: nothing pinned)")
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    ap.add_argument("--profile", default="", help="py-spy flame graph of the server to this file (.txt: collapsed stacks)")
    ap.add_argument("--skip-echo", action="store_true", help="no baseline (profiling runs only)")
    args = ap.parse_args()
    server_core, client_core = (None, None) if args.no_pin or args.clients > 1 else ("0", "1")
    pin_self(client_core)
    print(f"machine: {machine()}")
    print(f"load: {args.games} games x 2 seats, a move every {args.interval}s per game "
          f"({args.games / args.interval:.0f} moves/s planned), {args.duration}s measured "
          f"after {args.warmup}s warm-up; ruleset {args.ruleset}")
    shares = [len(range(i, args.games, args.clients)) for i in range(args.clients)]

    def echo_run(e):
        if args.clients > 1:
            return in_processes("echo", e.ws, shares, args.interval, args.duration, args.warmup, [e.pid])
        return run(drive_echo(e.ws, args.games, 2, args.interval, args.duration, args.warmup))

    echo = []
    if not args.skip_echo:
        with echo_server(server_core) as e:
            echo.append(echo_run(e))
    results = []
    for root in [None] + ([args.compare] if args.compare else []):
        with sqlite_url() as sqlite:
            db = fresh_postgres(args.postgres, f"civitas_bench_{os.getpid()}") if args.postgres else sqlite
            with civitas({"CIVITAS_DATABASE_URL": db}, server_core, root=root) as server:
                if args.clients > 1:
                    made = run(new_games(server.url, args.games, 2, args.ruleset))
                    results.append((root or "this checkout", in_processes(
                        "games", [server.url], [made[i::args.clients] for i in range(args.clients)],
                        args.interval, args.duration, args.warmup, [server.pid])))
                    continue

                async def subject():
                    games = await new_games(server.url, args.games, 2, args.ruleset)
                    socks = await open_sockets(server.ws, games)
                    spy = None
                    if args.profile and root is None:
                        spy = subprocess.Popen(["py-spy", "record", "-p", str(server.pid), "-o",
                                                args.profile, "-d", str(int(args.duration + args.warmup)),
                                                "-r", "200", "--nonblocking"]
                                               + (["--format", "raw"] if args.profile.endswith(".txt") else []),
                                               stdout=subprocess.DEVNULL)
                    stats = await drive_games(server.url, games, socks, args.interval, args.duration,
                                              args.warmup, [server.pid])
                    await asyncio.gather(*(s.close() for row in socks for s in row))
                    if spy is not None:
                        spy.wait()
                    return stats
                results.append((root or "this checkout", run(subject())))
    stats = results[0][1]
    if args.skip_echo:
        print(f"move ack     : {summary(stats.ack)}  {rate(stats):.0f} moves/s")
        return
    with echo_server(server_core) as e:
        echo.append(echo_run(e))
    base = echo[0].ack + echo[1].ack
    print(f"echo before  : {summary(echo[0].ack)}  {rate(echo[0]):.0f} msgs/s")
    print(f"echo after   : {summary(echo[1].ack)}  {rate(echo[1]):.0f} msgs/s")
    for label, stats in results:
        print(f"--- server: {label}")
        print(f"move ack     : {summary(stats.ack)}  {rate(stats):.0f} moves/s, "
              f"{stats.errors} errors, {stats.resyncs} resyncs, server {cpu_per_move(stats)}")
        print(f"patch (all)  : {summary(stats.patch)}")
        print(f"ack -> patch : p50 {pct(stats.after_ack, 50):.2f}  p99 {pct(stats.after_ack, 99):.2f} ms")
        print(f"ratio to echo: p50 {pct(stats.ack, 50) / pct(base, 50):.2f}x, "
              f"p99 {pct(stats.ack, 99) / pct(base, 99):.2f}x  (targets: p50 <= 2x, p99 <= 10 ms)")


if __name__ == "__main__":
    main()
