"""Event-loop lag while bot games play flat out: bots in worker processes against bots on the loop.

N games whose every seat is a bot (a host opens the room with bots, starts it and leaves; a bot
takes the host's seat) play at CIVITAS_BOT_DELAY_MS=0; a game that ends is replaced, so N play
all the time. Over the measured window the bench reads the server's /metrics before and after:
`civitas_event_loop_lag_seconds` (how late the loop ran a 50 ms timer: what any socket or request
would have waited), moves stored, bot decisions and fallbacks. Percentiles come from the
histogram's buckets (the bound of the bucket the percentile falls in).

Both modes run in one invocation, in alternating blocks (workers, on the loop, workers, ...),
each block a fresh server on a fresh SQLite file: "on the loop" is the same code with CIVITAS_BOT_WORKERS=0, which
chooses every bot move in the event loop, as every server did before the worker pool.

Run: .venv/bin/python bench/bot_loop_bench.py --games 50 --duration 30
Options: --rulesets suburbia,tiny-towns,... (games cycle through them), --rounds N, --only workers.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import re
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import civitas, machine, sqlite_url  # noqa: E402

PRODUCT = "suburbia,tiny-towns,city-council,fortuna,fortune-city"
_SAMPLE = re.compile(r"^(\w+)(?:\{([^}]*)\})? (\S+)$")


def scrape(text: str) -> dict[tuple[str, str], float]:
    """Every sample of a /metrics page: (name, labels) -> value."""
    out = {}
    for line in text.splitlines():
        m = _SAMPLE.match(line)
        if m:
            out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


def histogram(before: dict, after: dict, name: str) -> list[tuple[float, float]]:
    """(upper bound, observations in this window up to it), cumulative, from two scrapes."""
    rows = []
    for (metric, labels), value in after.items():
        if metric == f"{name}_bucket":
            bound = labels.split('"')[1]
            rows.append(
                (math.inf if bound == "+Inf" else float(bound), value - before.get((metric, labels), 0.0))
            )
    return sorted(rows)


def quantile(rows: list[tuple[float, float]], q: float) -> float:
    """The upper bound of the bucket holding the q-quantile (inf past the last bound)."""
    total = rows[-1][1] if rows else 0
    for bound, count in rows:
        if total and count >= q * total:
            return bound
    return math.nan


def delta(before: dict, after: dict, name: str, labels: str = "") -> float:
    """How much a counter grew over the window."""
    return after.get((name, labels), 0.0) - before.get((name, labels), 0.0)


async def bot_game(http: httpx.AsyncClient, url: str, ruleset: str, seats: int, n: int) -> str:
    """A started game of `seats` bots (the host opens it with bots, starts it and leaves);
    returns its room's id."""
    r = await http.post(f"{url}/api/players", json={"name": f"Host{n}"})
    r.raise_for_status()
    h = {"Authorization": f"Bearer {r.json()['token']}"}
    r = await http.post(
        f"{url}/api/rooms", headers=h, json={"ruleset": ruleset, "seats": seats, "options": {}}
    )
    r.raise_for_status()
    room = r.json()["id"]
    for _ in range(seats - 1):
        (await http.post(f"{url}/api/rooms/{room}/bots", headers=h, json={})).raise_for_status()
    r = await http.post(f"{url}/api/rooms/{room}/start", headers=h)
    r.raise_for_status()
    (await http.post(f"{url}/api/rooms/{room}/leave", headers=h)).raise_for_status()
    return room


async def block(
    url: str, games: int, rulesets: list[str], warmup: float, duration: float
) -> dict[str, float]:
    """Keep `games` bot games playing; the window's figures."""
    names = itertools.cycle(rulesets)
    counter = itertools.count()
    # Connections idle past uvicorn's keep-alive (5 s) are closed by it: never reuse one that old.
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(keepalive_expiry=2)) as http:
        gate = asyncio.Semaphore(8)  # set up 8 at a time (room creation holds pooled connections)

        async def one() -> str:
            async with gate:
                return await bot_game(http, url, next(names), 2, next(counter))

        async def read(address: str) -> httpx.Response:
            async with gate:
                return await http.get(address)

        running = list(await asyncio.gather(*(one() for _ in range(games))))
        replaced = 0

        async def keep_up(until: float) -> None:
            nonlocal replaced
            while time.monotonic() < until:
                await asyncio.sleep(1.0)
                # Rooms, not games: a room's document is a row, a game's is a view to build.
                docs = await asyncio.gather(*(read(f"{url}/api/rooms/{r}") for r in running))
                for i, d in enumerate(docs):
                    if d.json().get("status") == "finished":
                        running[i] = await bot_game(http, url, next(names), 2, next(counter))
                        replaced += 1

        await keep_up(time.monotonic() + warmup)
        before = scrape((await http.get(f"{url}/metrics")).text)
        start = time.monotonic()
        await keep_up(start + duration)
        after = scrape((await http.get(f"{url}/metrics")).text)
        seconds = time.monotonic() - start
    lag = histogram(before, after, "civitas_event_loop_lag_seconds")
    decisions = histogram(before, after, "civitas_bot_decision_seconds")
    fallbacks = sum(v - before.get(k, 0.0) for k, v in after.items() if k[0] == "civitas_bot_fallbacks_total")
    return {
        "moves/s": delta(before, after, "civitas_moves_total") / seconds,
        "lag samples": lag[-1][1] if lag else 0,
        "lag p50 ms": quantile(lag, 0.5) * 1000,
        "lag p99 ms": quantile(lag, 0.99) * 1000,
        "lag max ms": max((b for b, c in _per_bucket(lag) if c), default=math.nan) * 1000,
        "decision p99 ms": quantile(decisions, 0.99) * 1000 if decisions else math.nan,
        "fallbacks": fallbacks,
        "games replaced": replaced,
    }


def _per_bucket(rows: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Cumulative rows as counts per bucket."""
    out, last = [], 0.0
    for bound, count in rows:
        out.append((bound, count - last))
        last = count
    return out


def main() -> None:
    """Alternating blocks of the two modes; each block's figures as it ends."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--duration", type=float, default=30)
    ap.add_argument("--warmup", type=float, default=5)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--rulesets", default=PRODUCT)
    ap.add_argument("--only", choices=["workers", "loop"], default="")
    args = ap.parse_args()
    print(f"machine: {machine()}")
    print(
        f"{args.games} all-bot games (2 seats, rulesets {args.rulesets}) at bot delay 0, "
        f"{args.duration:g} s measured after {args.warmup:g} s per block"
    )
    modes = {"workers": {}, "loop": {"CIVITAS_BOT_WORKERS": "0"}}
    order = [m for m in modes if not args.only or m == args.only]
    for round_no in range(args.rounds):
        for mode in order:  # a fresh server per block: the other's games must not play meanwhile
            with sqlite_url() as url, civitas({"CIVITAS_DATABASE_URL": url, **modes[mode]}) as server:
                figures = asyncio.run(
                    block(server.url, args.games, args.rulesets.split(","), args.warmup, args.duration)
                )
            shown = "  ".join(
                f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in figures.items()
            )
            where = "in workers" if mode == "workers" else "on the loop"
            print(f"round {round_no + 1} bots {where}: {shown}", flush=True)


if __name__ == "__main__":
    main()
