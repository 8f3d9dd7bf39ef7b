"""The server's move path without the network: GameService.submit (checks, apply, one SQLite or
PostgreSQL transaction, broker publish, hub patches for one connected seat), per move.

Run: .venv/bin/python bench/move_path_bench.py [--games 30] [--postgres URL]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.config import Settings  # noqa: E402
from app.db.models import Player, Room, Seat  # noqa: E402
from app.engine import registry  # noqa: E402
from app.main import migrate  # noqa: E402
from app.platform import Platform  # noqa: E402
from tests.support.testgame import TEST_GAME  # noqa: E402

registry.register(TEST_GAME)


async def _new_game(platform: Platform, n: int) -> str:
    async with platform.sessions() as session:
        session.add(Player(id=f"p{n}", name="x"))
        session.add(
            Room(
                id=f"r{n}",
                ruleset="testgame",
                options={"rounds": 8},
                private=False,
                invite_code=f"c{n}",
                host_id=f"p{n}",
                status="lobby",
            )
        )
        session.add(Seat(room_id=f"r{n}", seat=0, player_id=f"p{n}"))
        await session.flush()
        game = await platform.games.create(session, await session.get(Room, f"r{n}"), 1)
        await session.commit()
        return game.id


async def run(url: str, games: int) -> list[float]:
    """Per-move wall times (ms) over `games` one-seat games played to the end."""
    migrate(url)
    platform = Platform(Settings(database_url=url, bot_delay_ms=0))
    await platform.start()
    times: list[float] = []
    for n in range(games):
        game_id = await _new_game(platform, n)
        live = await platform.games.live(game_id)
        i = 0
        while live.ruleset.to_act(live.state):
            move = live.ruleset.legal_moves(live.state, 0)[0]
            t0 = time.perf_counter()
            await platform.games.submit(game_id, 0, live.version, move, f"m{i}")
            times.append((time.perf_counter() - t0) * 1000)
            i += 1
    await platform.stop()
    return times


def main() -> None:
    """Print p50/p99 per-move cost and moves per second."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--postgres", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        targets = [("SQLite", f"sqlite+aiosqlite:///{tmp}/bench.db")]
        if args.postgres:
            targets.append(("PostgreSQL", args.postgres))
        for name, url in targets:
            times = sorted(asyncio.run(run(url, args.games)))
            print(
                f"{name}: {len(times)} moves, p50 {statistics.median(times):.2f} ms, "
                f"p99 {times[int(len(times) * 0.99)]:.2f} ms, {1000 / statistics.mean(times):.0f} moves/s"
            )


if __name__ == "__main__":
    main()
