"""Replay step cost on the server (issue 29): one finished game per product ruleset, played with
random legal moves through the REST API on a fresh SQLite database, then replay requests timed:
stepping forward one version at a time from the first, stepping back from the last, and random
jumps, each from a random viewpoint (a seat, the spectator's, everything revealed).

Two figures per case: the request through the app in process (Starlette's TestClient: routing,
authentication, the rebuild and the view, JSON; no socket) and the service's part alone
(`Replays.state_at` + `Replays.document`). Each order starts as the replay page does, with the
index (`GET /api/games/{id}/replay`, its time printed apart). `--clock cpu` times in this
process's CPU time (a loaded machine's wall clock measures its scheduler). Figures only; nothing
is asserted.

    .venv/bin/python bench/replay_bench.py [--ruleset suburbia] [--players 4] [--steps 300] [--clock cpu]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PRODUCT = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _play(client, ruleset: str, players: int, rng: random.Random) -> tuple[str, list[dict]]:
    """A finished game of random legal moves; returns (game id, the players)."""
    people = []
    for i in range(players):
        body = client.post("/api/players", json={"name": f"P{i}"}).json()
        body["headers"] = {"Authorization": f"Bearer {body['token']}"}
        people.append(body)
    room = client.post(
        "/api/rooms",
        headers=people[0]["headers"],
        json={"ruleset": ruleset, "seats": players, "private": False, "options": {}},
    ).json()
    for p in people[1:]:
        client.post(f"/api/rooms/{room['id']}/join", headers=p["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=people[0]["headers"]).json()["game_id"]
    while client.get(f"/api/games/{game_id}").json()["status"] == "active":
        for p in people:
            options = client.get(f"/api/games/{game_id}/legal-moves", headers=p["headers"]).json()
            if options["moves"]:
                client.post(
                    f"/api/games/{game_id}/moves",
                    headers=p["headers"],
                    json={"version": options["version"], "move": rng.choice(options["moves"])},
                )
    return game_id, people


def _orders(last: int, steps: int, rng: random.Random) -> dict[str, list[int]]:
    return {
        "forward": list(range(min(last, steps) + 1)),
        "backward": list(range(last, max(-1, last - steps - 1), -1)),
        "jumps": [rng.randrange(last + 1) for _ in range(steps)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append", help="a ruleset id (default: every product game)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

    from fastapi.testclient import TestClient

    import app.rulesets  # noqa: F401  (registers the product rulesets)
    from app.config import Settings
    from app.engine import registry
    from app.main import create_app
    from app.services.replay import viewpoint

    rng = random.Random(args.seed)
    print(
        f"replay bench: {args.players} players (fewer where a game allows fewer), "
        f"{args.steps} steps per order; p50 / p95 / p99 in ms of {args.clock} time"
    )
    for ruleset_id in args.ruleset or PRODUCT:
        ruleset = registry.get(ruleset_id)
        players = max(ruleset.min_players, min(args.players, ruleset.max_players))
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                database_url=f"sqlite+aiosqlite:///{tmp}/bench.db",
                bot_delay_ms=0,
                limits_scale=1000,
                gc_freeze_seconds=0,
                bot_workers=0,
                game_seed=args.seed,  # the same game in every run (before and after a change)
            )
            with TestClient(create_app(settings)) as client:
                game_id, _ = _play(client, ruleset_id, players, rng)
                platform = client.app.state.platform
                live = client.portal.call(platform.games.live, game_id)
                last = live.version
                seats = [str(s) for s in range(players)] + ["spectator", "all"]
                for order, versions in _orders(last, args.steps, rng).items():
                    platform.replays.forget(game_id)
                    requests, service = [], []
                    start = clock()
                    assert client.get(f"/api/games/{game_id}/replay").status_code == 200
                    index_ms = (clock() - start) * 1000
                    for version in versions:
                        seat = rng.choice(seats)
                        start = clock()
                        r = client.get(f"/api/games/{game_id}/replay/{version}", params={"seat": seat})
                        requests.append((clock() - start) * 1000)
                        assert r.status_code == 200, r.text
                    platform.replays.forget(game_id)
                    client.portal.call(platform.replays.index, live, last)
                    for version in versions:
                        shown = viewpoint(live, None, rng.choice(seats))

                        async def step(version=version, shown=shown, platform=platform, live=live) -> float:
                            start = clock()
                            state = await platform.replays.state_at(live, version)
                            platform.replays.document(live, state, version, shown)
                            return (clock() - start) * 1000

                        service.append(client.portal.call(step))
                    print(
                        f"{ruleset_id:13} {players}p {last:4} versions {order:8} "
                        f"request {statistics.median(requests):6.2f} / {_percentile(requests, 0.95):6.2f} / "
                        f"{_percentile(requests, 0.99):6.2f}   service {statistics.median(service):6.2f} / "
                        f"{_percentile(service, 0.95):6.2f} / {_percentile(service, 0.99):6.2f}"
                        f"   index {index_ms:6.1f}"
                    )


if __name__ == "__main__":
    main()
