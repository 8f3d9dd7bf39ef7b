"""The compose stack under load, faults and a rolling deploy; PASS/FAIL per check, exit 1 on a FAIL.

make deploy-test runs it after scripts/compose_smoke.py: one compose stack, nginx in front of two
replicas, 100 games played through nginx by scripts/deploy_load.py while things break.

    .venv/bin/python scripts/deploy_test.py --offline [--games 100] [--port 18601] [--keep]

The replicas run the app image plus the rolling-deploy game (deploy/rolling/: the test game as
"rollgame", version 1 in the image civitas:roll-v1, version 2 with `upgrade_state` in
civitas:roll-v2), with every limit raised (CIVITAS_LIMITS_SCALE) since all the load comes from
one address. In order, with the same games throughout:
1. steady load with a lobby burst beside it: moves/s, ack p50/p99 through nginx, 0 errors, the
   game sockets on both replicas, every game consistent;
2. `docker kill` of the replica holding sockets: its seats reconnect through nginx to the other
   (reconnect time), no acknowledged move lost; then it is started again;
3. the same with the PostgreSQL container, then with the Redis container;
4. a rolling deploy: app1, then app2, replaced by the version-2 image (`docker-compose up -d
   --no-deps`, each healthy before the next) while the games go on; every game then stored under
   version 2, and after each replica restarts in turn every game still loads and plays on;
5. `docker-compose down -v`.
After each step the load stops and every game is checked (scripts/deploy_load.py, `Load.check`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compose_smoke import ROOT, Report, Stack, stack_arguments, summary, take_down, upstreams
from deploy_load import Load, lobby_burst


def build_rolling_images(stack: Stack, base: str) -> list[str]:
    """civitas:roll-v1 and civitas:roll-v2 from the app image `base` and deploy/rolling/."""
    tags = []
    with tempfile.TemporaryDirectory(prefix="civitas-rolling-") as context:
        package = Path(context) / "civitas_rollgame"
        package.mkdir()
        shutil.copy(ROOT / "deploy/rolling/rollgame.py", package)
        shutil.copy(ROOT / "tests/support/testgame.py", package)
        (package / "__init__.py").write_text("")
        for version in ("1", "2"):
            tag = f"civitas:roll-v{version}"
            stack.run(
                stack.docker
                + [
                    "build",
                    "-q",
                    "-f",
                    str(ROOT / "deploy/rolling/Dockerfile"),
                    "--build-arg",
                    f"BASE={base}",
                    "--build-arg",
                    f"ROLLGAME_VERSION={version}",
                    "-t",
                    tag,
                    context,
                ]
            )
            tags.append(tag)
    return tags


def keep_logs(stack: Stack, folder: str | None, step: str) -> None:
    """Write the replicas' and nginx's output to `folder`/<step>-<service>.log: a replica
    replaced by the rolling deploy takes its log with it, and a failure's cause (CPU starvation,
    a pool timeout) is read there."""
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for service in ("app1", "app2", "lb"):
        try:
            text = stack.logs(service)
        except (AssertionError, RuntimeError) as exc:  # a container being recreated
            text = f"no log: {exc}\n"
        (Path(folder) / f"{step}-{service}.log").write_text(text)


def on_replicas(stack: Stack) -> dict[str, int]:
    """Open game sockets per running replica (its /metrics)."""
    counts = {}
    for service in ("app1", "app2"):
        if stack.inspect(service)["State"]["Running"]:
            counts[service] = stack.game_sockets(service)
    return counts


async def wait_for(what: str, predicate: Any, timeout: float) -> None:
    """Poll `predicate()` (in a thread) until true, or fail naming `what`."""
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(predicate):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        await asyncio.sleep(0.5)


def healthy(stack: Stack, *services: str) -> bool:
    """Every service healthy (False instead of raising while one is being recreated)."""
    try:
        return all(stack.health(s) == "healthy" for s in services)
    except (AssertionError, RuntimeError, KeyError):
        return False


async def phase(
    report: Report, load: Load, name: str, seconds: float, action: Any = None, after: float = 0.0
) -> dict[str, Any]:
    """Play for `seconds`; `action` (a coroutine function) runs `after` seconds in; then stop
    and check every game. The check PASSes with 0 errors and no problem found."""
    result: dict[str, Any] = {}
    with report.check(name) as details:
        load.figures = type(load.figures)()
        load.resume()
        t0 = time.monotonic()
        try:
            if action is not None:
                await asyncio.sleep(after)
                result["action"] = await action()
            left = seconds - (time.monotonic() - t0)
            if left > 0:
                await asyncio.sleep(left)
        finally:  # a failed action too: the next step starts from settled games
            await load.stop()
        elapsed = time.monotonic() - t0
        problems = await load.check()
        result["load"] = load.figures.summary(elapsed)
        details.append(json.dumps(result))
        assert not load.figures.errors, f"{len(load.figures.errors)} errors"
        assert not problems, "; ".join(problems[:5])
    return result


async def run(stack: Stack, report: Report, args: argparse.Namespace) -> dict[str, Any]:
    """Every step on the running stack; the figures by step."""
    figures: dict[str, Any] = {}
    load = Load(stack.base, "rollgame", think=args.think)
    try:
        with report.check(f"{args.games} games started through nginx, every seat on a socket") as details:
            t0 = time.monotonic()
            await load.start(args.games)
            await load.stop()  # started playing: pause until the steady step measures
            spread = await asyncio.to_thread(on_replicas, stack)
            details.append(f"{time.monotonic() - t0:.1f} s; game sockets {spread}")
            assert sum(spread.values()) == 2 * args.games and min(spread.values()) > 0, spread

        async def burst() -> dict[str, Any]:
            return await lobby_burst(stack.base, args.lobby, args.rooms)

        steady = await phase(
            report,
            load,
            f"steady load, lobby burst beside it ({args.games} games): 0 errors, every game consistent",
            args.duration,
            burst,
            2.0,
        )
        figures["steady"] = steady
        await asyncio.to_thread(keep_logs, stack, args.logs, "1-steady")
        with report.check("nginx spread the REST reads over both replicas") as details:
            ips = {s: stack.ip(s) for s in ("app1", "app2")}
            served = upstreams(await asyncio.to_thread(stack.logs, "lb"), "/legal-moves", ips)
            counts = {s: served.count(s) for s in ips}
            details.append(f"GET legal-moves answered by {counts} (nginx's access log)")
            assert min(counts.values()) > 0.3 * len(served), counts
        with report.check("the lobby burst: every lobby socket got its snapshot and the patches") as details:
            lobby = steady.get("action") or {"problems": ["the steady step did not finish"]}
            details.append(json.dumps(lobby))
            assert not lobby["problems"], lobby["problems"]

        spread = await asyncio.to_thread(on_replicas, stack)
        victim = max(spread, key=spread.get)

        async def kill_replica() -> dict[str, Any]:
            t0 = time.monotonic()
            stack.run(stack.docker + ["kill", stack.container(victim)])
            # Its sockets drop at once; every seat must be back on the other replica.
            await wait_for(
                f"{victim}'s {spread[victim]} seats back on a socket",
                lambda: (
                    len(load.figures.reconnects) >= spread[victim]
                    and not any(s.ws is None for g in load.games for s in g.seats)
                ),
                90,
            )
            back = time.monotonic() - t0
            on_other = await asyncio.to_thread(on_replicas, stack)
            await asyncio.sleep(3)  # the survivor carries everything for a while
            if not stack.inspect(victim)["State"]["Running"]:
                stack.run(stack.docker + ["start", stack.container(victim)])
            await wait_for(f"{victim} healthy again", lambda: healthy(stack, victim), 240)
            return {
                "killed": victim,
                "sockets_before": spread,
                "all_back_s": round(back, 2),
                "sockets_after": on_other,
                "restarted_in_s": round(time.monotonic() - t0, 1),
            }

        figures["kill_replica"] = await phase(
            report,
            load,
            f"docker kill {victim} mid-load: its seats reconnect through nginx, no acknowledged move lost",
            args.fault_seconds,
            kill_replica,
            5.0,
        )
        await asyncio.to_thread(keep_logs, stack, args.logs, "2-kill-replica")
        with report.check(f"{victim}'s seats reconnected to the other replica") as details:
            done = figures["kill_replica"]
            details.append(
                f"{done['load']['reconnects']} reconnects, p50 "
                f"{done['load']['reconnect_p50_s']} s, max "
                f"{done['load']['reconnect_max_s']} s; sockets after "
                f"{done['action']['sockets_after']}"
            )
            assert done["load"]["reconnects"] >= spread[victim], done["load"]
            assert (
                set(done["action"]["sockets_after"]) == {"app1", "app2"} - {victim}
                or done["action"]["sockets_after"].get(victim, 0) == 0
            )

        for service in ("postgres", "redis"):

            async def restart(service: str = service) -> dict[str, Any]:
                t0 = time.monotonic()
                stack.run(stack.docker + ["kill", stack.container(service)])
                await asyncio.sleep(2)
                stack.run(stack.docker + ["start", stack.container(service)])
                await wait_for(f"{service} healthy", lambda: healthy(stack, service), 120)
                await wait_for("both replicas ready", lambda: healthy(stack, "app1", "app2"), 120)
                return {"killed": service, "back_in_s": round(time.monotonic() - t0, 1)}

            figures[f"kill_{service}"] = await phase(
                report,
                load,
                f"docker kill + start of {service} mid-load: the games go on, no acknowledged move lost",
                args.fault_seconds,
                restart,
                5.0,
            )
            await asyncio.to_thread(keep_logs, stack, args.logs, f"3-kill-{service}")

        async def rolling() -> dict[str, Any]:
            steps = {}
            for service in ("app1", "app2"):
                t0 = time.monotonic()
                stack.env["CIVITAS_IMAGE"] = "civitas:roll-v2"
                stack.compose("up", "-d", "--no-deps", service)
                await wait_for(
                    f"{service} healthy on the new image", lambda s=service: healthy(stack, s), 240
                )
                image = stack.inspect(service)["Config"]["Image"]
                steps[service] = {"image": image, "replaced_in_s": round(time.monotonic() - t0, 1)}
                await asyncio.sleep(3)
            return steps

        figures["rolling"] = await phase(
            report,
            load,
            "rolling deploy to rules version 2 (app1, then app2) while the games "
            "go on: no game stranded, no move lost",
            args.fault_seconds + 20,
            rolling,
            5.0,
        )
        await asyncio.to_thread(keep_logs, stack, args.logs, "4-rolling")
        with report.check("every game is stored under rules version 2 (upgrade_state ran)") as details:
            rows = stack.psql(
                "SELECT ruleset_version, count(*) FROM games WHERE ruleset = "
                "'rollgame' AND status = 'active' GROUP BY 1 ORDER BY 1"
            )
            details.append(f"rollgame games by ruleset_version: {rows.splitlines()}")
            assert rows.splitlines() == [f"2|{args.games}"], rows

        async def restart_each() -> dict[str, Any]:
            # One after the other, like the deploy: the second's games load afresh on the first.
            steps = {}
            for service in ("app1", "app2"):
                t0 = time.monotonic()
                stack.compose("restart", service)
                await wait_for(f"{service} healthy", lambda s=service: healthy(stack, s), 240)
                steps[service] = {"restarted_in_s": round(time.monotonic() - t0, 1)}
            return steps

        figures["after_deploy"] = await phase(
            report,
            load,
            "after each replica restarts on version 2, every game loads afresh and plays on",
            args.fault_seconds,
            restart_each,
            2.0,
        )
        await asyncio.to_thread(keep_logs, stack, args.logs, "5-after-deploy")
    finally:
        await load.close()
    return figures


def main() -> int:
    """Build, start, run every step, take down; 0 when every check passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    stack_arguments(parser, 18601, "civitas-deploy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of steady load")
    parser.add_argument("--fault-seconds", type=float, default=25.0, help="seconds of load around each fault")
    # Not a closed loop: players think. docs/SCALING.md plans for a move every 10 s per game (and
    # calls that pessimistic); 2 s per seat is several times that. On this shared 2-core machine
    # a saturated stack answers in tens of seconds, and the figures would measure the queue.
    parser.add_argument("--think", type=float, default=2.0, help="seconds between a seat's moves")
    parser.add_argument("--lobby", type=int, default=100, help="lobby sockets in the burst")
    parser.add_argument("--rooms", type=int, default=20, help="rooms opened in the burst")
    parser.add_argument("--figures", help="write the figures as JSON to this file")
    parser.add_argument("--logs", help="keep the replicas' and nginx's logs after each step in this folder")
    args = parser.parse_args()
    stack = Stack(args)
    report = Report()
    started = False
    try:
        with report.check("build the app image and the rolling-deploy images") as details:
            t0 = time.monotonic()
            app_image = stack.build()
            tags = build_rolling_images(stack, app_image)
            details.append(f"{app_image} -> {', '.join(tags)}, {time.monotonic() - t0:.0f} s")
        if report.failed:
            return 1
        stack.env.update(CIVITAS_IMAGE="civitas:roll-v1", CIVITAS_LIMITS_SCALE="1000")
        started = True
        with report.check("docker-compose up -d on civitas:roll-v1: every service healthy") as details:
            t0 = time.monotonic()
            stack.compose("up", "-d")
            stack.wait_healthy(["app1", "app2", "lb"], 240)
            details.append(f"{time.monotonic() - t0:.1f} s")
        if report.failed:
            print(stack.compose("ps", check=False), stack.compose("logs", "--tail", "30", check=False))
            return 1
        figures = asyncio.run(run(stack, report, args))
        if args.figures:
            Path(args.figures).write_text(json.dumps(figures, indent=1))
    except Exception:  # noqa: BLE001 - a broken harness is a failure too, never a pass
        report.record("deploy run", False, traceback.format_exc())
    finally:
        if started and report.failed:
            logs = stack.compose("logs", "--tail", "40", "app1", "app2", check=False)
            print("\n--- the replicas' last log lines ---\n" + logs[-6000:])
        if started and not args.keep:
            take_down(stack, report)
    return summary(report)


if __name__ == "__main__":
    sys.exit(main())
