"""Platform figures: diff cost vs jsonpatch, websocket move round trip under load, memory per game.

Run: .venv/bin/python bench/platform_bench.py [--rooms 20] [--moves 20]
Prints figures only; nothing here is asserted by the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx  # noqa: E402
import jsonpatch  # noqa: E402
import websockets  # noqa: E402

from app.engine.diff import diff  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402
from tests.support.testgame import TEST_GAME, TestGameOptions  # noqa: E402


def pct(values: list[float], p: float) -> float:
    """The p-th percentile."""
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def bench_diff(rounds: int = 2000) -> None:
    """Per-move document diff: our differ vs jsonpatch.make_patch on the same view pairs."""
    state = TEST_GAME.setup(4, TestGameOptions(rounds=8), 1)
    pairs = []
    while TEST_GAME.to_act(state) and len(pairs) < 60:
        seat = TEST_GAME.to_act(state)[0]
        new = TEST_GAME.apply(state, seat, TEST_GAME.legal_moves(state, seat)[0])
        pairs.append((TEST_GAME.view(state, 0), TEST_GAME.view(new, 0)))
        state = new
    for name, fn in (
        ("civitas diff", diff),
        ("jsonpatch.make_patch", lambda a, b: jsonpatch.make_patch(a, b).patch),
    ):
        start = time.perf_counter()
        for i in range(rounds):
            a, b = pairs[i % len(pairs)]
            fn(a, b)
        per = (time.perf_counter() - start) / rounds * 1e6
        print(f"  {name:22s} {per:8.1f} µs per view diff")


async def _new_game(url: str, http: httpx.AsyncClient) -> tuple[str, str]:
    """A started one-seat test game: (game id, token)."""
    a = (await http.post(f"{url}/api/players", json={"name": "A"})).json()
    h = {"Authorization": f"Bearer {a['token']}"}
    room = (
        await http.post(
            f"{url}/api/rooms", headers=h, json={"ruleset": "testgame", "seats": 1, "options": {"rounds": 8}}
        )
    ).json()
    game = (await http.post(f"{url}/api/rooms/{room['id']}/start", headers=h)).json()["game_id"]
    return game, a["token"]


async def _play(url: str, game: str, token: str, moves: int, rtts: list[float]) -> None:
    """Send moves on the game's socket one after another, timing send -> ack."""
    async with websockets.connect(f"{url.replace('http', 'ws')}/ws/games/{game}?token={token}") as ws:
        doc = json.loads(await ws.recv())["game"]
        for i in range(moves):
            view = doc["view"]
            if view["phase"] == "over":
                break
            move = (
                {"type": "bid", "card": view["hand"][0] if view["hand"] else "K000"}
                if view["phase"] == "bid"
                else {"type": "draw"}
            )
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "version": doc["version"], "move": move, "id": str(i)}))
            acked = patched = False
            while not (acked and patched):
                frame = json.loads(await ws.recv())
                if frame["type"] == "ack":
                    rtts.append((time.perf_counter() - t0) * 1000)
                    acked = True
                elif frame["type"] == "patch":
                    doc = jsonpatch.apply_patch(doc, frame["ops"], in_place=True)
                    patched = True
                elif frame["type"] == "error":
                    raise RuntimeError(frame)


async def bench_ws(url: str, rooms: int, moves: int) -> None:
    """Concurrent rooms (set up first), each one seat sending moves as fast as acks come back."""
    rtts: list[float] = []
    async with httpx.AsyncClient(timeout=30) as http:
        games = await asyncio.gather(*(_new_game(url, http) for _ in range(rooms)))
    start = time.perf_counter()
    await asyncio.gather(*(_play(url, game, token, moves, rtts) for game, token in games))
    elapsed = time.perf_counter() - start
    print(f"  {rooms} rooms, {len(rtts)} moves in {elapsed:.2f}s = {len(rtts) / elapsed:.0f} moves/s")
    print(
        f"  move round trip (send -> ack): p50 {statistics.median(rtts):.2f} ms, "
        f"p99 {pct(rtts, 99):.2f} ms, p99.9 {pct(rtts, 99.9):.2f} ms"
    )


def rss_kib(pid: int) -> int:
    """Resident memory of a process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    return 0


async def bench_memory(server: ServerProcess, games: int) -> None:
    """RSS growth per started (and loaded) game with no sockets open."""
    async with httpx.AsyncClient(timeout=30) as http:
        a = (await http.post(f"{server.url}/api/players", json={"name": "M"})).json()
        h = {"Authorization": f"Bearer {a['token']}"}
        before = rss_kib(server.proc.pid)
        for _ in range(games):
            room = (
                await http.post(
                    f"{server.url}/api/rooms", headers=h, json={"ruleset": "testgame", "seats": 1}
                )
            ).json()
            game = (await http.post(f"{server.url}/api/rooms/{room['id']}/start", headers=h)).json()
            await http.get(f"{server.url}/api/games/{game['game_id']}", headers=h)
        after = rss_kib(server.proc.pid)
    print(f"  {games} loaded games: +{after - before} KiB RSS = {(after - before) / games:.1f} KiB per game")


def main() -> None:
    """Run every platform benchmark and print the figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print("diff (test game, seat view):")
    bench_diff()
    with tempfile.TemporaryDirectory() as tmp:
        env = {"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{tmp}/bench.db", "CIVITAS_BOT_DELAY_MS": "0"}
        with ServerProcess(env) as server:
            print(f"websocket moves (SQLite WAL, one server process, pid {server.proc.pid}):")
            asyncio.run(bench_ws(server.url, args.rooms, args.moves))
            print("memory:")
            asyncio.run(bench_memory(server, args.games))
    if os.environ.get("CIVITAS_BENCH_POSTGRES_URL"):
        with ServerProcess({"CIVITAS_DATABASE_URL": os.environ["CIVITAS_BENCH_POSTGRES_URL"]}) as server:
            print("websocket moves (PostgreSQL):")
            asyncio.run(bench_ws(server.url, args.rooms, args.moves))


if __name__ == "__main__":
    main()
