"""Memory per idle game and per idle connection (RSS growth of the server process), against the
bare Starlette server's RSS growth per idle connection.

Run: .venv/bin/python bench/memory_bench.py [--games 1000] [--connections 1000]
Games are started over REST and loaded (GET the document), then left idle; connections are seat
sockets on those games, left idle after their snapshot. Baselines: the bare echo server on
uvicorn's default websocket protocol and on Civitas's (CIVITAS_WS=lean); `--transports` also
measures uvicorn's other protocols and permessage-deflate, and Civitas itself on uvicorn's own
websockets-sansio protocol (CIVITAS_WS_PROTOCOL=websockets-sansio: sockets served through ASGI,
not detached) beside its own; `--compare DIR` runs another checkout's server too (before/after in
one run).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402

from bench.lib.clients import connect  # noqa: E402
from bench.lib.common import (  # noqa: E402
    civitas,
    echo_server,
    machine,
    new_games,
    pin_self,
    rss_kib,
    run,
    sqlite_url,
)
from bench.lib.load import open_sockets  # noqa: E402


async def _settle(pid: int) -> int:
    await asyncio.sleep(1.5)
    return rss_kib(pid)


async def echo_per_connection(server, n: int, deflate: bool = False) -> float:
    """KiB of RSS per idle /echo socket (`deflate`: the client offers permessage-deflate)."""
    import websockets

    before = await _settle(server.pid)
    if deflate:
        socks = [await websockets.connect(f"{server.ws}/echo", ping_interval=None) for _ in range(n)]
    else:
        socks = [await connect(f"{server.ws}/echo") for _ in range(n)]
    after = await _settle(server.pid)
    await asyncio.gather(*(s.close() for s in socks))
    return (after - before) / n


async def civitas_figures(server, made: list, connections: int) -> tuple[float, float]:
    """(KiB per idle loaded game, KiB per idle seat socket) on a freshly started server."""
    games = len(made) - 20
    warm, made_first = made[:20], made[20:]
    async with httpx.AsyncClient(timeout=30) as http:  # warm caches, pools and code paths
        for g, _players in warm:
            await http.get(f"{server.url}/api/games/{g}")
    socks = await open_sockets(server.ws, warm[:5])
    await asyncio.gather(*(s.close() for row in socks for s in row))
    before = await _settle(server.pid)
    # the games are in the database; load each into memory as a reader would
    async with httpx.AsyncClient(timeout=30) as http:
        for g, _players in made_first:
            await http.get(f"{server.url}/api/games/{g}")
    loaded = await _settle(server.pid)
    per_game = (loaded - before) / games
    pairs = (connections + 1) // 2
    socks = await open_sockets(server.ws, made_first[:pairs])
    after = await _settle(server.pid)
    per_conn = (after - loaded) / (2 * pairs)
    await asyncio.gather(*(s.close() for row in socks for s in row))
    return per_game, per_conn


def main() -> None:
    """Print KiB per idle game and per idle connection, with the baseline's per connection."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--connections", type=int, default=1000)
    ap.add_argument("--ruleset", default="benchgame")
    ap.add_argument(
        "--transports",
        action="store_true",
        help="also the bare echo on wsproto, legacy websockets and with deflate",
    )
    ap.add_argument("--compare", default="", help="also run the server from this checkout")
    args = ap.parse_args()
    pin_self("1")
    print(f"machine: {machine()}")
    kinds = [("auto", False), ("lean", False)]
    if args.transports:
        kinds += [("wsproto", False), ("websockets", False), ("auto+deflate", True)]
    bases = {}
    for kind, deflate in kinds:
        os.environ["CIVITAS_WS"] = kind.split("+")[0]
        os.environ["CIVITAS_WS_DEFLATE"] = "1" if deflate else "0"
        try:
            with echo_server("0") as e:
                bases[kind] = run(echo_per_connection(e, args.connections, deflate))
        except Exception as exc:  # e.g. wsproto not installed
            print(f"baseline {kind}: not measured ({exc.__class__.__name__}: {exc})")
        print(
            f"baseline: {bases.get(kind, float('nan')):6.1f} KiB per idle echo socket, "
            f"bare Starlette on uvicorn ws={kind}",
            flush=True,
        )
    os.environ.pop("CIVITAS_WS", None)
    os.environ.pop("CIVITAS_WS_DEFLATE", None)
    base = bases["auto"]
    runs = (
        [(None, "lean")]
        + ([(None, "websockets-sansio")] if args.transports else [])
        + ([(args.compare, "lean")] if args.compare else [])
    )
    for root, protocol in runs:
        env = {"CIVITAS_WS_PROTOCOL": protocol}
        with sqlite_url() as db:
            with civitas({"CIVITAS_DATABASE_URL": db, **env}, "0", root=root) as server:
                made = run(new_games(server.url, args.games + 20, 2, args.ruleset))
            # a fresh process: the games are only in the database until they are read
            with civitas({"CIVITAS_DATABASE_URL": db, **env}, "0", root=root) as server:
                per_game, per_conn = run(civitas_figures(server, made, args.connections))
        label = f"civitas {root or 'this tree'} (ws {protocol})"
        print(f"{label}: {per_game:6.1f} KiB per idle loaded {args.ruleset} game ({args.games} games)")
        print(
            f"{label}: {per_conn:6.1f} KiB per idle game socket ({args.connections} sockets), "
            f"ratio to the bare default echo {per_conn / base:.2f}x  (target: <= 16 KiB each)",
            flush=True,
        )


if __name__ == "__main__":
    main()
