"""Saturation throughput: games in a closed loop (each seat moves as soon as every seat has the
previous patch), against the same sockets echoing in a closed loop on a bare Starlette server.

Run:
  .venv/bin/python bench/throughput_bench.py                      # one worker, SQLite
  .venv/bin/python bench/throughput_bench.py --workers 1,2,3,4 --postgres postgresql://postgres@127.0.0.1:5432/postgres \
      --redis redis://127.0.0.1:6379/8                            # the curve by worker count
--clients N drives the games (and the echo) from N load-generator processes, nothing pinned: one
Python client process saturates before one server does.
With several workers each game's sockets all go to one worker (games partitioned by id, as
docs/SCALING.md proposes); --spread puts each seat on a different worker instead.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import contextlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import (  # noqa: E402
    civitas,
    echo_server,
    fresh_postgres,
    machine,
    new_games,
    pin_self,
    run,
    sqlite_url,
    summary,
)
from bench.lib.load import (  # noqa: E402
    cpu_per_move,
    drive_echo,
    drive_games,
    in_processes,
    open_sockets,
    rate,
)

FAST = {"CIVITAS_FRAMES_PER_SECOND": "100000", "CIVITAS_HEARTBEAT_SECONDS": "600"}


async def _subject(
    urls: list[str], games: int, duration: float, warmup: float, spread: bool, ruleset: str, pids: list[int]
):
    made = await new_games(urls[0], games, 2, ruleset)
    ws = [u.replace("http", "ws") for u in urls]
    if spread:  # seat k of every game on worker k
        socks = [
            list(
                await asyncio.gather(
                    *(open_sockets(ws[k % len(ws)], [(g, [p])]) for k, p in enumerate(players))
                )
            )
            for g, players in made
        ]
        socks = [[row[0][0] for row in pair] for pair in socks]
    else:
        socks = await open_sockets(ws, made)
    stats = await drive_games(urls, made, socks, 0, duration, warmup, pids)
    await asyncio.gather(*(s.close() for row in socks for s in row))
    return stats


def main() -> None:
    """Echo closed loop, then Civitas at each worker count; moves/s and the ratio to echo."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--duration", type=float, default=15)
    ap.add_argument("--warmup", type=float, default=3)
    ap.add_argument("--workers", default="1")
    ap.add_argument("--postgres", default="")
    ap.add_argument("--redis", default="")
    ap.add_argument("--spread", action="store_true")
    ap.add_argument("--ruleset", default="benchgame")
    ap.add_argument("--no-pin", action="store_true")
    ap.add_argument(
        "--clients", type=int, default=1, help="load-generator processes (more than one: nothing pinned)"
    )
    ap.add_argument("--compare", default="", help="also run the server from this checkout (before/after)")
    args = ap.parse_args()
    counts = [int(w) for w in args.workers.split(",")]
    multi = max(counts) > 1
    server_core, client_core = (None, None) if args.no_pin or multi or args.clients > 1 else ("0", "1")
    pin_self(client_core)
    print(f"machine: {machine()}")
    print(f"load: {args.games} games x 2 seats, closed loop, {args.duration}s after {args.warmup}s warm-up")
    with echo_server(server_core) as e:
        if args.clients > 1:
            shares = [len(range(i, args.games, args.clients)) for i in range(args.clients)]
            echo = in_processes("echo", e.ws, shares, 0, args.duration, args.warmup, [e.pid])
        else:
            echo = run(drive_echo(e.ws, args.games, 2, 0, args.duration, args.warmup))
    print(f"echo ({args.clients} client proc.) : {rate(echo):7.0f} msgs/s   {summary(echo.ack)}")
    for workers in counts:
        for root in [None] + ([args.compare] if args.compare else []):
            with sqlite_url() as sqlite, contextlib.ExitStack() as stack:
                db = (
                    fresh_postgres(args.postgres, f"civitas_bench_{os.getpid()}") if args.postgres else sqlite
                )
                env = {"CIVITAS_DATABASE_URL": db, **FAST}
                if args.redis:
                    env["CIVITAS_BROKER_URL"] = args.redis
                servers = [stack.enter_context(civitas(env, server_core, root=root))]
                for _ in range(workers - 1):  # migrations ran once, in the first
                    servers.append(
                        stack.enter_context(civitas({**env, "CIVITAS_MIGRATE_ON_START": "false"}, root=root))
                    )
                if args.clients > 1:
                    made = run(new_games(servers[0].url, args.games, 2, args.ruleset))
                    stats = in_processes(
                        "games",
                        [s.url for s in servers],
                        [made[i :: args.clients] for i in range(args.clients)],
                        0,
                        args.duration,
                        args.warmup,
                        [s.pid for s in servers],
                    )
                else:
                    stats = run(
                        _subject(
                            [s.url for s in servers],
                            args.games,
                            args.duration,
                            args.warmup,
                            args.spread,
                            args.ruleset,
                            [s.pid for s in servers],
                        )
                    )
            label = (
                f"{workers} worker{'s' if workers > 1 else ''} "
                f"{'PG' if args.postgres else 'SQLite'}{' ' + root if root else ''}"
            )
            print(
                f"{label:21s}: {rate(stats):7.0f} moves/s  {summary(stats.ack)}  "
                f"ratio to echo {rate(stats) / rate(echo):.2f}  {cpu_per_move(stats)}  ({stats.errors} errors)"
            )


if __name__ == "__main__":
    main()
