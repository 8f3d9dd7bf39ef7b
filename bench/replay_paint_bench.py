"""Replay paint time on the phone layout (issue 29): Chromium at 390x844 opens the replay of a
finished game per product ruleset (one person and bots, played through the REST API) and steps
back from the end with the ← key; each step's time runs from the key to the first frame painted
with the new version (the page's own `performance.now()` marks: the request, the renderer's
drawing and the paint). Figures only; nothing is asserted.

    .venv/bin/python bench/replay_paint_bench.py [--ruleset tiny-towns] [--steps 60]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.lib.common import civitas, pct, sqlite_url  # noqa: E402

PRODUCT = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def _finished_game(url: str, ruleset: str, seats: int) -> tuple[dict, str]:
    """One person and bots play a game to the end; returns (the person, the game id)."""
    person = httpx.post(f"{url}/api/players", json={"name": "Ann"}).json()
    headers = {"Authorization": f"Bearer {person['token']}"}
    room = httpx.post(
        f"{url}/api/rooms",
        headers=headers,
        json={"ruleset": ruleset, "seats": seats, "private": False, "options": {}},
    ).json()
    for _ in range(seats - 1):
        httpx.post(f"{url}/api/rooms/{room['id']}/bots", headers=headers, json={"level": "easy"})
    game = httpx.post(f"{url}/api/rooms/{room['id']}/start", headers=headers).json()["game_id"]
    while httpx.get(f"{url}/api/games/{game}").json()["status"] == "active":
        legal = httpx.get(f"{url}/api/games/{game}/legal-moves", headers=headers).json()
        if legal["moves"]:
            httpx.post(
                f"{url}/api/games/{game}/moves",
                headers=headers,
                json={"version": legal["version"], "move": legal["moves"][0]},
            )
        else:
            time.sleep(0.02)
    return person, game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print("replay paint on the phone layout (390x844): ms from the key to the painted frame, p50 / p95 / max")
    with sqlite_url() as db, civitas({"CIVITAS_DATABASE_URL": db}) as server, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS, headless=True
        )
        for ruleset in args.ruleset or PRODUCT:
            seats = max(2, args.seats) if ruleset != "suburbia" else args.seats
            person, game = _finished_game(server.url, ruleset, seats)
            context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
            page = context.new_page()
            page.goto(server.url + "/")
            page.evaluate(
                "p => localStorage.setItem('civitas.player', JSON.stringify(p))",
                {k: person[k] for k in ("id", "name", "token")},
            )
            page.goto(f"{server.url}/games/{game}/replay")
            page.wait_for_function("window.civitasReplay && window.civitasReplay.ready", timeout=60000)
            last = page.evaluate("window.civitasReplay.version")
            page.evaluate("window.civitasReplay.paints.length = 0")
            steps = min(args.steps, last)
            for n in range(1, steps + 1):
                page.keyboard.press("ArrowLeft")
                page.wait_for_function(f"window.civitasReplay.paints.length >= {n}", timeout=30000)
            paints = page.evaluate("window.civitasReplay.paints")
            parts = page.evaluate("window.civitasReplay.parts.slice(-%d)" % len(paints))
            fetch, draw = [p[0] for p in parts], [p[1] for p in parts]
            print(
                f"{ruleset:13} {seats}p {last:4} versions  {statistics.median(paints):6.1f} / "
                f"{pct(paints, 95):6.1f} / {max(paints):6.1f}  ({len(paints)} steps; request p50 "
                f"{statistics.median(fetch):.1f}, drawing p50 {statistics.median(draw):.1f})"
            )
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
