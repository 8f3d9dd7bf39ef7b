"""Run the docker-compose stack (PostgreSQL, Redis, a one-shot migrate job, two replicas, nginx)
for real and check it end to end through nginx; prints PASS/FAIL per check, exits 1 on any FAIL.

    .venv/bin/python scripts/compose_smoke.py --offline   # stand-in bases (deploy/offline/)
    .venv/bin/python scripts/compose_smoke.py             # official images from Docker Hub

Needs a Docker engine, docker-compose (v1, or COMPOSE="docker compose") and the repository's venv
(httpx, websockets, jsonpatch); it is not part of `make test`. --offline uses the images
deploy/offline/build-images.sh builds. The stack runs as project `civitas-smoke` with nginx on
--port (8000) and is taken down with its volume at the end (--keep leaves it running).
Checks: nginx answers /healthz and /readyz; the migrate job ran once and exited 0, and PostgreSQL's
statement log shows the migration's advisory lock taken once, by no replica; replicas run with
CIVITAS_MIGRATE_ON_START=false, are healthy (their health check is /readyz) and run as a non-root
uid; nginx's log shows requests answered by both replicas; a game created over REST with two seats
(on different replicas) and a spectator on websockets through nginx, where one seat's move reaches
every socket as a patch; with app1 stopped, nginx still serves /readyz, a new game and a seat's
reconnection from app2; guests created with forged X-Forwarded-For headers still meet the
per-address limit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import time
import traceback
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import websockets
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # app.config, for the limits the stack runs with
MIGRATION_LOCK = "pg_advisory_lock(727274)"  # taken by migrations/env.py before it migrates
SERVICES = ("postgres", "redis", "migrate", "app1", "app2", "lb")


class Report:
    """PASS/FAIL lines as the checks run, and the count of failures."""

    def __init__(self) -> None:
        self.results: list[tuple[str, bool, str]] = []

    def record(self, name: str, ok: bool, detail: str = "") -> bool:
        """Print and keep one check's result."""
        self.results.append((name, ok, detail))
        print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f": {detail}" if detail else ""), flush=True)
        return ok

    @contextmanager
    def check(self, name: str) -> Iterator[list[str]]:
        """A check whose body appends details; an exception (or AssertionError) makes it FAIL."""
        details: list[str] = []
        try:
            yield details
        except Exception as exc:  # noqa: BLE001 - every failure is reported, then the run goes on
            message = str(exc) or type(exc).__name__
            if not isinstance(exc, AssertionError):
                message = f"{type(exc).__name__}: {message}"
            self.record(name, False, "; ".join(details + [message]))
        else:
            self.record(name, True, "; ".join(details))

    @property
    def failed(self) -> int:
        """How many checks failed."""
        return sum(1 for _, ok, _ in self.results if not ok)


class Stack:
    """The compose project: docker-compose and docker commands, containers by service."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.project = args.project
        self.docker = shlex.split(args.docker)
        self.compose_cmd = shlex.split(args.compose) + ["-p", self.project]
        env_file = args.env_file or (str(ROOT / "deploy/offline/images.env") if args.offline else None)
        if env_file:
            self.compose_cmd += ["--env-file", env_file]
        self.env = dict(os.environ, CIVITAS_LB_PORT=str(args.port))
        self.base = f"http://127.0.0.1:{args.port}"

    def run(self, cmd: list[str], check: bool = True, timeout: float = 900, stderr: bool = True) -> str:
        """Run a command in the repository; its output (stdout, then stderr unless told not)."""
        done = subprocess.run(
            cmd,
            check=False,
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and done.returncode != 0:
            out = done.stdout + done.stderr
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}:\n{out[-3000:]}")
        return done.stdout + (done.stderr if stderr else "")

    def compose(self, *args: str, check: bool = True, stderr: bool = True, timeout: float = 900) -> str:
        """A docker-compose command on this project."""
        return self.run(self.compose_cmd + list(args), check=check, stderr=stderr, timeout=timeout)

    def build(self) -> str:
        """Build the app image; its name. A first build compiles the rules (minutes, many more
        on a busy machine); an interrupted client would leave Docker's build running on, so it
        is waited for (an hour at the most)."""
        self.compose("build", timeout=3600)
        return yaml.safe_load(self.compose("config", stderr=False))["services"]["app1"]["image"]

    def down(self) -> None:
        """Take the project down with its volume; fail if any of its containers is left."""
        self.compose("down", "-v", "--remove-orphans")
        left = [c for s in SERVICES for c in self.containers(s)]
        assert not left, f"containers left: {left}"

    def containers(self, service: str) -> list[str]:
        """Ids of the service's containers, running or not."""
        out = self.run(
            self.docker
            + [
                "ps",
                "-a",
                "-q",
                "--no-trunc",
                "--filter",
                f"label=com.docker.compose.project={self.project}",
                "--filter",
                f"label=com.docker.compose.service={service}",
            ]
        )
        return out.split()

    def container(self, service: str) -> str:
        """The service's one container."""
        ids = self.containers(service)
        assert len(ids) == 1, f"{service}: {len(ids)} containers"
        return ids[0]

    def inspect(self, service: str) -> dict[str, Any]:
        """`docker inspect` of the service's container."""
        return json.loads(self.run(self.docker + ["inspect", self.container(service)]))[0]

    def health(self, service: str) -> str:
        """The service's health status (or its state when it has no health check)."""
        state = self.inspect(service)["State"]
        return state.get("Health", {}).get("Status") or state["Status"]

    def ip(self, service: str) -> str:
        """The container's address on the project network."""
        networks = self.inspect(service)["NetworkSettings"]["Networks"]
        return next(iter(networks.values()))["IPAddress"]

    def exec(self, service: str, *cmd: str) -> str:
        """Run a command in the service's container."""
        return self.run(self.docker + ["exec", self.container(service), *cmd])

    def logs(self, service: str) -> str:
        """The service's container output."""
        return self.run(self.docker + ["logs", self.container(service)])

    def game_sockets(self, service: str) -> int:
        """Open game websockets on a replica, from its /metrics (read inside its container)."""
        text = self.exec(
            service,
            "python",
            "-c",
            "import urllib.request; print(urllib.request."
            "urlopen('http://127.0.0.1:8000/metrics', timeout=5).read().decode())",
        )
        match = re.search(r'^civitas_open_sockets\{kind="game"\} (\S+)$', text, re.MULTILINE)
        assert match, f"no civitas_open_sockets gauge in {service}'s /metrics"
        return int(float(match.group(1)))

    def wait_healthy(self, services: list[str], timeout: float) -> None:
        """Poll until every service is healthy; a failed or exited one stops the wait."""
        deadline = time.monotonic() + timeout
        while True:
            states = {s: self.health(s) for s in services}
            if all(state == "healthy" for state in states.values()):
                return
            bad = {s: v for s, v in states.items() if v in ("unhealthy", "exited", "dead")}
            if bad or time.monotonic() > deadline:
                raise RuntimeError(f"not healthy: {states}")
            time.sleep(1)

    def psql(self, sql: str, db: str = "civitas") -> str:
        """One statement through psql inside the postgres container (trusted local socket)."""
        return self.exec("postgres", "psql", "-U", "postgres", "-d", db, "-Atc", sql).strip()


def pg_time(line: str) -> datetime:
    """The timestamp PostgreSQL's log_line_prefix (%m) starts a line with."""
    match = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) UTC", line)
    assert match, f"no timestamp in {line!r}"
    return datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)


def docker_time(text: str) -> datetime:
    """A `docker inspect` timestamp (RFC 3339 with nanoseconds) to the microsecond."""
    match = re.fullmatch(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?Z", text)
    assert match, f"unexpected timestamp {text!r}"
    micro = int((match.group(2) or "0")[:6].ljust(6, "0"))
    return datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S").replace(microsecond=micro, tzinfo=UTC)


def upstreams(lb_log: str, marker: str, ips: dict[str, str]) -> list[str]:
    """For each request in nginx's access log holding `marker`: the replica that answered it."""
    names = {ip: name for name, ip in ips.items()}
    return [names.get(tried[-1].rsplit(":", 1)[0], tried[-1]) for tried in tries(lb_log, marker)]


def tries(lb_log: str, marker: str) -> list[list[str]]:
    """For each access-log line holding `marker`: the upstream addresses nginx tried, in order
    (error-log lines, which quote the request too, are left out)."""
    found = []
    for line in lb_log.splitlines():
        match = re.search(r" upstream=(\S.*?) rt=", line)
        if marker in line and match:
            found.append([part.strip() for part in match.group(1).split(",")])
    return found


async def next_frame(ws: Any, kind: str, seen: list[str], timeout: float = 10) -> dict[str, Any]:
    """The socket's next frame of this type; the types of frames passed over go into `seen`."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        frame = json.loads(await asyncio.wait_for(ws.recv(), max(left, 0.01)))
        if frame["type"] == kind:
            return frame
        seen.append(frame["type"])


async def new_game(http: httpx.AsyncClient, ruleset: str) -> tuple[str, list[dict[str, Any]]]:
    """Two players, a room of theirs and its game, over REST; (game id, [player, player])."""
    players = []
    for name in ("Ann", "Bo"):
        response = await http.post("/api/players", json={"name": f"{name} smoke"})
        assert response.status_code == 201, f"POST /api/players: {response.status_code} {response.text}"
        players.append(response.json())
    ha, hb = ({"Authorization": f"Bearer {p['token']}"} for p in players)
    response = await http.post("/api/rooms", headers=ha, json={"ruleset": ruleset, "seats": 2})
    assert response.status_code == 201, f"POST /api/rooms: {response.status_code} {response.text}"
    room = response.json()["id"]
    response = await http.post(f"/api/rooms/{room}/join", headers=hb, json={})
    assert response.status_code == 200, f"join: {response.status_code} {response.text}"
    response = await http.post(f"/api/rooms/{room}/start", headers=ha)
    assert response.status_code == 200, f"start: {response.status_code} {response.text}"
    return response.json()["game_id"], players


def connect(base: str, game_id: str, token: str | None) -> Any:
    """A game socket through nginx; a token goes as the `bearer.<token>` subprotocol."""
    protocols = ["civitas"] + ([f"bearer.{token}"] if token else [])
    return websockets.connect(
        f"{base.replace('http', 'ws', 1)}/ws/games/{game_id}",
        subprotocols=protocols,
        max_size=2**22,
    )


async def where(stack: Stack, before: dict[str, int]) -> str:
    """The replica whose open game sockets grew by one since `before` (which is then updated)."""
    for _ in range(20):
        now = {s: await asyncio.to_thread(stack.game_sockets, s) for s in before}
        grown = [s for s in now if now[s] > before[s]]
        if grown:
            before.update(now)
            return grown[0]
        await asyncio.sleep(0.1)
    raise AssertionError(f"no replica counts the new socket: {now}")


async def gone(stack: Stack, counts: dict[str, int], replica: str) -> None:
    """Wait until a closed socket no longer counts on its replica (and update `counts`)."""
    for _ in range(50):
        now = await asyncio.to_thread(stack.game_sockets, replica)
        if now < counts[replica]:
            counts[replica] = now
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{replica} still counts a closed socket")


async def play(stack: Stack, report: Report, ruleset: str) -> dict[str, Any]:
    """A game through nginx: seats on two replicas and a spectator all get one move's patch."""
    result: dict[str, Any] = {}
    async with httpx.AsyncClient(base_url=stack.base, timeout=10) as http:
        with report.check("game created over REST through nginx") as details:
            game_id, players = await new_game(http, ruleset)
            details.append(f"{ruleset} game {game_id}, players {players[0]['id']} and {players[1]['id']}")
        if report.results[-1][1] is False:
            return result
        tokens = [p["token"] for p in players] + [None]
        counts = {s: await asyncio.to_thread(stack.game_sockets, s) for s in ("app1", "app2")}
        sockets: list[Any] = []
        docs: list[dict[str, Any]] = []
        placed: list[str] = []
        reconnects = 0
        with report.check("two seats and a spectator on websockets through nginx") as details:
            for i, token in enumerate(tokens):
                for attempt in range(4):
                    ws = await connect(stack.base, game_id, token)
                    assert ws.subprotocol == "civitas", f"subprotocol answered: {ws.subprotocol!r}"
                    snapshot = await next_frame(ws, "snapshot", [])
                    replica = await where(stack, counts)
                    # Seat 1 belongs on the other replica than seat 0: reconnect (round robin).
                    if i != 1 or replica != placed[0] or attempt == 3:
                        break
                    await ws.close()
                    await gone(stack, counts, replica)
                    reconnects += 1
                sockets.append(ws)
                docs.append(snapshot["game"])
                placed.append(replica)
            details.append(
                f"seat 0 on {placed[0]}, seat 1 on {placed[1]}, spectator on {placed[2]} "
                f"(subprotocol civitas, snapshot version {docs[0]['version']}; seat 1 "
                f"reconnected {reconnects} time(s) to reach the other replica)"
            )
        if len(sockets) < 3:
            return result
        report.record(
            "the two seats are on different replicas",
            placed[0] != placed[1],
            f"seat 0 on {placed[0]}, seat 1 on {placed[1]}",
        )
        with report.check("a move over one seat's socket reaches every socket as a patch") as details:
            seat = docs[0]["to_act"][0]
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            legal = (await http.get(f"/api/games/{game_id}/legal-moves", headers=headers)).json()
            move = legal["moves"][0]
            await sockets[seat].send(
                json.dumps({"type": "move", "version": legal["version"], "move": move, "id": "smoke-1"})
            )
            for i, ws in enumerate(sockets):
                seen: list[str] = []
                patch = await next_frame(ws, "patch", seen)
                assert patch["version"] == legal["version"] + 1, patch
                docs[i] = jsonpatch.apply_patch(docs[i], patch["ops"])
                auth = {"Authorization": f"Bearer {tokens[i]}"} if tokens[i] else {}
                fetched = (await http.get(f"/api/games/{game_id}", headers=auth)).json()
                assert fetched == docs[i], f"socket {i}: patched snapshot differs from GET /api/games"
            who = ["seat 0", "seat 1", "spectator"]
            details.append(
                f"seat {seat} ({placed[seat]}) played {json.dumps(move)}; "
                + ", ".join(f"{who[i]} on {placed[i]} got version {docs[i]['version']}" for i in range(3))
                + "; each patched snapshot equals GET /api/games/{id}"
            )
            if placed[0] != placed[1]:
                details.append("the move crossed replicas through Redis pub/sub")
        for ws in sockets:
            await ws.close()
        result.update(game_id=game_id, tokens=tokens, placed=placed, version=docs[0]["version"])
    return result


async def after_stop(
    stack: Stack, report: Report, ruleset: str, game: dict[str, Any], ips: dict[str, str]
) -> None:
    """With app1 stopped: /readyz, a new game and a seat's reconnection all through nginx."""
    marker = f"after-stop-{uuid.uuid4().hex[:8]}"
    async with httpx.AsyncClient(base_url=stack.base, timeout=10) as http:
        with report.check("nginx serves /readyz with app1 stopped") as details:
            codes, slowest = [], 0.0
            for _ in range(10):
                t0 = time.monotonic()
                codes.append((await http.get(f"/readyz?{marker}")).status_code)
                slowest = max(slowest, time.monotonic() - t0)
            assert codes == [200] * 10, f"status codes {codes}"
            lb_log = stack.logs("lb")
            served = upstreams(lb_log, marker, ips)
            retried = sum(1 for tried in tries(lb_log, marker) if len(tried) > 1)
            details.append(
                f"10 of 10 answered 200, by {sorted(set(served))}; {retried} tried app1 "
                f"first; slowest {slowest:.2f} s"
            )
            assert set(served) == {"app2"}, f"answered by {served}"
        with report.check("a new game with app1 stopped") as details:
            game_id, players = await new_game(http, ruleset)
            auth = {"Authorization": f"Bearer {players[0]['token']}"}
            response = await http.get(f"/api/games/{game_id}", headers=auth)
            assert response.status_code == 200 and response.json()["status"] == "active", response.text
            details.append(f"game {game_id} created, joined, started and read back")
        if game.get("placed"):
            seat = game["placed"].index("app1") if "app1" in game["placed"][:2] else 0
            with report.check("a seat reconnects through nginx and gets the game from app2") as details:
                async with connect(stack.base, game["game_id"], game["tokens"][seat]) as ws:
                    snapshot = await next_frame(ws, "snapshot", [])
                    assert snapshot["game"]["version"] == game["version"], snapshot["game"]["version"]
                    assert snapshot["game"]["seat"] == seat, snapshot["game"].get("seat")
                details.append(
                    f"seat {seat} (was on {game['placed'][seat]}) got snapshot version {game['version']}"
                )


def forged_headers(stack: Stack, report: Report) -> None:
    """Guests created through nginx, each request with another forged X-Forwarded-For: the
    replicas count them all as the one real address, so the guest limit (app/config.py's
    rate_players, which the compose file leaves at its default) still bites."""
    from app.config import Settings

    limit = int(Settings.model_fields["rate_players"].default.split("/")[0])
    with report.check("a forged X-Forwarded-For changes no limit (guest creation)") as details:
        codes = []
        with httpx.Client(base_url=stack.base, timeout=10) as http:
            for i in range(limit + 20):
                response = http.post(
                    "/api/players",
                    json={"name": "Forger"},
                    headers={"X-Forwarded-For": f"198.51.{i // 250}.{i % 250}"},
                )
                codes.append(response.status_code)
                if len(codes) >= 5 and codes[-5:] == [429] * 5:
                    break
        created = codes.count(201)
        lb_line = next(
            (
                line
                for line in reversed(stack.logs("lb").splitlines())
                if "POST /api/players" in line and " upstream=" in line
            ),
            "",
        )
        details.append(
            f"{created} created, then {len(codes) - created} refused (429) of {len(codes)} "
            f"requests with {len(codes)} different forged addresses (limit {limit} a minute per "
            f"address); nginx saw them from {lb_line.split(' ', 1)[0] or '?'}"
        )
        assert 0 < created <= limit and codes == [201] * created + [429] * (len(codes) - created), codes


def checks(stack: Stack, report: Report, args: argparse.Namespace) -> None:
    """Every check on a running stack."""
    ips = {s: stack.ip(s) for s in ("app1", "app2")}
    with report.check("nginx answers /healthz itself") as details:
        response = httpx.get(f"{stack.base}/healthz", timeout=5)
        assert response.status_code == 200 and response.text.strip() == "ok", response.text
        details.append(f"200 {response.text.strip()!r}, server {response.headers.get('server')}")
    with report.check("/readyz through nginx") as details:
        response = httpx.get(f"{stack.base}/readyz", timeout=5)
        assert response.status_code == 200, f"{response.status_code} {response.text}"
        details.append(f"200 {response.text.strip()}")
    with report.check("the migrate job ran once and exited 0") as details:
        ids = stack.containers("migrate")
        assert len(ids) == 1, f"{len(ids)} migrate containers"
        state = stack.inspect("migrate")
        details.append(
            f"one container, status {state['State']['Status']}, exit code "
            f"{state['State']['ExitCode']}, restarts {state['RestartCount']}"
        )
        assert state["State"]["Status"] == "exited" and state["State"]["ExitCode"] == 0
        assert state["RestartCount"] == 0
    with report.check("the schema is at Alembic's head, one alembic_version row") as details:
        from alembic.config import Config
        from alembic.script import ScriptDirectory

        head = ScriptDirectory.from_config(Config(str(ROOT / "alembic.ini"))).get_current_head()
        rows = stack.psql("SELECT version_num FROM alembic_version").split()
        details.append(f"alembic_version: {rows}, head {head}")
        assert rows == [head]
    with report.check("only the migrate job migrated (PostgreSQL's statement log)") as details:
        # Container addresses are reused (a replica may get the exited job's), so the proof is
        # the time: one lock in the whole log, taken while the job ran, before either replica.
        lines = [line for line in stack.logs("postgres").splitlines() if MIGRATION_LOCK in line]
        taken = [pg_time(line) for line in lines]
        job = stack.inspect("migrate")["State"]
        window = (docker_time(job["StartedAt"]), docker_time(job["FinishedAt"]))
        replicas = {s: docker_time(stack.inspect(s)["State"]["StartedAt"]) for s in ("app1", "app2")}
        details.append(
            f"{MIGRATION_LOCK} taken {len(lines)} time(s), at "
            f"{[t.strftime('%H:%M:%S.%f')[:-3] for t in taken]}; migrate ran "
            f"{window[0].strftime('%H:%M:%S.%f')[:-3]}-{window[1].strftime('%H:%M:%S.%f')[:-3]}; "
            + ", ".join(f"{s} started {t.strftime('%H:%M:%S.%f')[:-3]}" for s, t in replicas.items())
        )
        assert len(taken) == 1
        assert window[0] <= taken[0] <= window[1] < min(replicas.values())
    for service in ("app1", "app2"):
        with report.check(f"{service}: CIVITAS_MIGRATE_ON_START=false, healthy, non-root") as details:
            info = stack.inspect(service)
            assert "CIVITAS_MIGRATE_ON_START=false" in info["Config"]["Env"]
            health = info["State"]["Health"]
            uid = stack.exec(service, "id", "-u").strip()
            details.append(
                f"health {health['Status']} (last check exit "
                f"{health['Log'][-1]['ExitCode'] if health['Log'] else '-'}), "
                f"uid {uid}, user {info['Config']['User']!r}"
            )
            assert health["Status"] == "healthy" and uid != "0"
    for service in ("app1", "app2"):
        with report.check(f"{service} runs the compiled rules (its start-up log)") as details:
            line = next((line for line in stack.logs(service).splitlines() if "modules compiled" in line), "")
            found = re.search(r"rules: (\d+) modules compiled .*?, (\d+) with a stale build", line)
            details.append(line.strip()[-120:] if line else "no 'rules:' line in the log")
            assert found and int(found.group(1)) > 0 and found.group(2) == "0"
    with report.check("nginx spreads requests over both replicas") as details:
        marker = f"spread-{uuid.uuid4().hex[:8]}"
        with httpx.Client(base_url=stack.base, timeout=5) as http:
            codes = [http.get(f"/readyz?{marker}").status_code for _ in range(20)]
        assert codes == [200] * 20, f"status codes {codes}"
        for _ in range(10):  # Docker's log may not hold the last lines yet
            served = upstreams(stack.logs("lb"), marker, ips)
            if len(served) == 20:
                break
            time.sleep(0.5)
        counts = {s: served.count(s) for s in ("app1", "app2")}
        details.append(
            f"20 GET /readyz answered by app1 {counts['app1']}, app2 {counts['app2']} "
            f"(nginx access log, upstream=)"
        )
        assert counts["app1"] and counts["app2"] and sum(counts.values()) == 20
    game = asyncio.run(play(stack, report, args.ruleset))
    with report.check("docker-compose stop app1") as details:
        stack.compose("stop", "app1")
        state = stack.inspect("app1")["State"]
        details.append(f"app1 {state['Status']}, app2 {stack.health('app2')}")
        assert not state["Running"]
    asyncio.run(after_stop(stack, report, args.ruleset, game, ips))
    forged_headers(stack, report)  # last: it spends the address's guest allowance


def stack_arguments(parser: argparse.ArgumentParser, port: int, project: str) -> None:
    """The options naming the stack (images, port, project, commands), for Stack."""
    parser.add_argument(
        "--offline",
        action="store_true",
        help="use deploy/offline/images.env (stand-in base images)",
    )
    parser.add_argument("--env-file", help="a docker-compose --env-file naming the base images")
    parser.add_argument("--port", type=int, default=port, help="nginx's port on this machine")
    parser.add_argument("--project", default=project)
    parser.add_argument("--compose", default=os.environ.get("COMPOSE", "docker-compose"))
    parser.add_argument("--docker", default=os.environ.get("DOCKER", "docker"))
    parser.add_argument("--keep", action="store_true", help="leave the stack running")


def main() -> int:
    """Build, start, check and take down the stack; 0 when every check passed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    stack_arguments(parser, 8000, "civitas-smoke")
    parser.add_argument("--ruleset", default="fortuna")
    args = parser.parse_args()
    stack = Stack(args)
    report = Report()
    started = False
    try:
        with report.check("build the app image") as details:
            t0 = time.monotonic()
            name = stack.build()
            size = json.loads(stack.run(stack.docker + ["image", "inspect", name]))[0]["Size"]
            details.append(f"{name}, {size / 1e6:.0f} MB, {time.monotonic() - t0:.0f} s")
        if report.failed:
            return 1
        started = True
        with report.check("PostgreSQL and Redis healthy; statement logging on") as details:
            t0 = time.monotonic()
            stack.compose("up", "-d", "postgres", "redis")
            stack.wait_healthy(["postgres", "redis"], 120)
            # Every statement with its client's address, so the log shows who migrated.
            stack.exec(
                "postgres",
                "psql",
                "-U",
                "postgres",
                "-c",
                "ALTER SYSTEM SET log_statement = 'all'",
                "-c",
                "ALTER SYSTEM SET log_line_prefix = '%m [%p] host=%h '",
                "-c",
                "SELECT pg_reload_conf()",
            )
            details.append(f"{time.monotonic() - t0:.1f} s")
        with report.check("docker-compose up -d: every service up, lb healthy") as details:
            t0 = time.monotonic()
            stack.compose("up", "-d")
            stack.wait_healthy(["app1", "app2", "lb"], 180)
            details.append(f"{time.monotonic() - t0:.1f} s")
        if report.failed:
            print(stack.compose("ps", check=False), stack.compose("logs", "--tail", "30", check=False))
            return 1
        checks(stack, report, args)
    except Exception:  # noqa: BLE001 - a broken harness is a failure too, never a pass
        report.record("smoke run", False, traceback.format_exc())
    finally:
        if started and not args.keep:
            take_down(stack, report)
    return summary(report)


def take_down(stack: Stack, report: Report) -> None:
    """`docker-compose down -v` as a check of its own."""
    with report.check("docker-compose down -v") as details:
        stack.down()
        details.append("no container or volume of the project left")


def summary(report: Report) -> int:
    """Print the count of checks and failures; the exit code."""
    print(f"\n{len(report.results)} checks, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
