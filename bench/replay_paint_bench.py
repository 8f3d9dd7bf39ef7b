"""Replay paint time on the phone layout (issue 29): Chromium at 390x844 opens the replay of a
finished game per product ruleset (one person and bots, played through the REST API) and steps
back from the end with the ← key; each step's time runs from the key to the first frame painted
with the new version (the page's own `performance.now()` marks: the request, the renderer's
drawing and the paint). Figures only; nothing is asserted.

    .venv/bin/python bench/replay_paint_bench.py [--ruleset tiny-towns] [--steps 60]

`--before DIR` also serves another checkout (e.g. `git archive` of the commit before a change,
with this bench/ copied in) and measures both in one run, turn about, on the same games
(`--seed`: every game's seed on both servers). `--pause MS` waits between key presses (a
person's pace; 0: the next key as soon as the frame is painted).
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


def _measure(browser, url: str, ruleset: str, seats: int, steps_wanted: int, pause: float) -> str:
    """One finished game's replay stepped back from the end; its figures as a line."""
    person, game = _finished_game(url, ruleset, seats)
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    page.goto(url + "/")
    page.evaluate(
        "p => localStorage.setItem('civitas.player', JSON.stringify(p))",
        {k: person[k] for k in ("id", "name", "token")},
    )
    page.goto(f"{url}/games/{game}/replay")
    page.wait_for_function("window.civitasReplay && window.civitasReplay.ready", timeout=60000)
    last = page.evaluate("window.civitasReplay.version")
    page.evaluate("window.civitasReplay.paints.length = 0")
    steps = min(steps_wanted, last)
    for n in range(1, steps + 1):
        page.keyboard.press("ArrowLeft")
        page.wait_for_function(f"window.civitasReplay.paints.length >= {n}", timeout=30000)
        if pause:
            time.sleep(pause / 1000)
    paints = page.evaluate("window.civitasReplay.paints")
    parts = page.evaluate("window.civitasReplay.parts.slice(-%d)" % len(paints))
    context.close()
    fetch, draw = [p[0] for p in parts], [p[1] for p in parts]
    rest = [total - f - d for total, f, d in zip(paints, fetch, draw)]
    return (
        f"{ruleset:13} {seats}p {last:4} versions  {statistics.median(paints):6.1f} / "
        f"{pct(paints, 95):6.1f} / {max(paints):6.1f}  ({len(paints)} steps; p50 / p95: request "
        f"{statistics.median(fetch):.1f} / {pct(fetch, 95):.1f}, drawing {statistics.median(draw):.1f}"
        f" / {pct(draw, 95):.1f}, to the frame {statistics.median(rest):.1f} / {pct(rest, 95):.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--before", help="another checkout's directory, measured turn about")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--pause", type=float, default=0.0, help="ms between key presses")
    parser.add_argument("--rounds", type=int, default=1, help="times each ruleset is measured")
    args = parser.parse_args()
    from contextlib import ExitStack

    from playwright.sync_api import sync_playwright

    print("replay paint on the phone layout (390x844): ms from the key to the painted frame, p50 / p95 / max")
    with ExitStack() as stack:
        servers = {}
        for name, root in (("after", None), ("before", args.before)) if args.before else (("now", None),):
            db = stack.enter_context(sqlite_url())
            env = {"CIVITAS_DATABASE_URL": db, "CIVITAS_GAME_SEED": str(args.seed)}
            servers[name] = stack.enter_context(civitas(env, root=root))
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium") or "/usr/bin/chromium", args=ARGS, headless=True
        )
        for round_ in range(args.rounds):
            for ruleset in args.ruleset or PRODUCT:
                seats = max(2, args.seats) if ruleset != "suburbia" else args.seats
                order = list(servers.items())
                if round_ % 2:
                    order.reverse()
                for name, server in order:
                    line = _measure(browser, server.url, ruleset, seats, args.steps, args.pause)
                    print(f"{name:6} {line}", flush=True)
        browser.close()


if __name__ == "__main__":
    main()
