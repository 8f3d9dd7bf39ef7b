"""Servers, REST set-up, socket clients and statistics shared by the benchmarks."""

from __future__ import annotations

import asyncio
import json
import os
import platform as _platform
import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx

ROOT = Path(__file__).resolve().parents[2]
EXTRA_RULESETS = "tests.support.testgame:TEST_GAME,bench.lib.benchgame:BENCH_GAME"


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank), NaN for no values."""
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def summary(values: list[float]) -> str:
    """p50 / p99 / p99.9 / max in ms."""
    return (
        f"p50 {pct(values, 50):7.2f}  p99 {pct(values, 99):7.2f}  p99.9 {pct(values, 99.9):7.2f}"
        f"  max {max(values) if values else float('nan'):7.2f} ms  (n={len(values)})"
    )


def calibration_kernel(seconds: float = 0.3) -> float:
    """Ops/s of the PERF-RELIABILITY calibration kernel (copy a 64-element list, set one slot)."""
    base = list(range(64))
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for i in range(1000):
            c = base[:]
            c[i & 63] = i
        n += 1000
    return n / (time.perf_counter() - start)


def machine() -> str:
    """One line naming the machine and stack, for RESULTS.md."""
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import uvicorn
    import websockets

    return (
        f"{os.cpu_count()} CPU ({cpu}), Linux {_platform.release()}, Python {sys.version.split()[0]}, "
        f"uvicorn {uvicorn.__version__}, websockets {websockets.__version__}, "
        f"load {os.getloadavg()[0]:.1f}, kernel {calibration_kernel() / 1e6:.2f}M ops/s"
    )


def rss_kib(pid: int) -> int:
    """Resident memory of a process, KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (robust to a busy machine, unlike wall time)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pin(core: str | None) -> list[str]:
    return ["taskset", "-c", core] if core and shutil.which("taskset") else []


class Proc:
    """A server process on a loopback port; stops on exit."""

    def __init__(
        self,
        args: list[str],
        env: dict[str, str],
        port: int,
        ready_path: str,
        core: str | None = None,
        root: Path = ROOT,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}"
        self.args, self.env, self.ready_path, self.core, self.root = args, env, ready_path, core, root
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "Proc":
        """Start and wait until it answers (websocket-only servers: until the port accepts)."""
        import tempfile

        self.log = tempfile.NamedTemporaryFile(prefix="civitas-bench-", suffix=".log", delete=False)
        self.proc = subprocess.Popen(
            _pin(self.core) + self.args,
            cwd=self.root,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {Path(self.log.name).read_text()[-3000:]}")
            try:
                if self.ready_path:
                    if httpx.get(self.url + self.ready_path, timeout=1).status_code == 200:
                        return self
                else:
                    with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                        return self
            except (httpx.HTTPError, OSError):
                time.sleep(0.1)
        self.proc.kill()  # never leave a half-started server behind
        self.proc.wait()
        raise RuntimeError("server did not start")

    @property
    def pid(self) -> int:
        """The server's pid."""
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> None:
        """SIGTERM, then SIGKILL; print the tail of the server's log if it logged errors."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc:
            text = Path(self.log.name).read_text(errors="replace")
            if "Traceback" in text or "ERROR" in text or os.environ.get("BENCH_KEEP_LOG"):
                print(f"  [server log {self.log.name}, tail]\n" + text[-1500:], file=sys.stderr)
            else:
                os.unlink(self.log.name)

    def __enter__(self) -> "Proc":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def civitas(
    env: dict[str, str], core: str | None = None, port: int | None = None, root: str | Path | None = None
) -> Proc:
    """A Civitas server (python -m app.main) with the bench game registered; `root` runs another
    checkout's code (e.g. the commit before a change, for a before/after in one run)."""
    port = port or free_port()
    root = Path(root) if root else ROOT
    if root != ROOT and not (root / "bench" / "lib" / "benchgame.py").exists():
        raise SystemExit(f"{root} has no bench/lib/benchgame.py; copy bench/ into it first")
    full = {
        **os.environ,
        "CIVITAS_HOST": "127.0.0.1",
        "CIVITAS_PORT": str(port),
        "CIVITAS_EXTRA_RULESETS": EXTRA_RULESETS,
        "CIVITAS_BOT_DELAY_MS": "0",
        "CIVITAS_LOG_LEVEL": "warning",
        # the per-IP limits are for the internet, not for one load generator on 127.0.0.1
        "CIVITAS_LIMITS_SCALE": "100000",
        # and the socket frame budgets (not scaled by it) are for people, not a closed loop
        "CIVITAS_FRAMES_PER_SECOND": "1000000",
        "CIVITAS_FRAMES_PER_TOKEN_SECOND": "1000000",
        # the benches close every socket between blocks (other servers measure meanwhile):
        # past the grace a bot would take the seats, and its moves would mix into the next
        # block (seen at 1,000 games with --compare: a 100 s gap, 96 errors, 1.7 ms CPU/move)
        "CIVITAS_ABSENCE_GRACE_SECONDS": "86400",
        **env,
    }
    return Proc([sys.executable, "-m", "app.main"], full, port, "/api/rulesets", core, root)


def echo_server(core: str | None = None) -> Proc:
    """The bare Starlette baseline server."""
    port = free_port()
    return Proc([sys.executable, "-m", "bench.lib.echo_app", str(port)], dict(os.environ), port, "", core)


@contextmanager
def sqlite_url() -> Iterator[str]:
    """A fresh SQLite database file for one run."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        yield f"sqlite+aiosqlite:///{tmp}/bench.db"


def fresh_postgres(base: str, name: str) -> str:
    """Drop and create database `name` on the server of `base` (a postgresql:// URL)."""
    import psycopg

    plain = base.replace("postgresql+psycopg://", "postgresql://")
    root = plain.rsplit("/", 1)[0]
    with psycopg.connect(root + "/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')
    return root + "/" + name


async def new_players(http: httpx.AsyncClient, url: str, n: int, prefix: str = "P") -> list[dict]:
    """`n` guest players (id, name, token)."""
    sem = asyncio.Semaphore(16)

    async def one(i: int) -> dict:
        async with sem:
            r = await http.post(f"{url}/api/players", json={"name": f"{prefix}{i}"})
            r.raise_for_status()
            return r.json()

    return list(await asyncio.gather(*(one(i) for i in range(n))))


async def new_game(
    http: httpx.AsyncClient, url: str, players: list[dict], ruleset: str, options: dict | None = None
) -> str:
    """A started game with one seat per player; returns its id."""
    h = {"Authorization": f"Bearer {players[0]['token']}"}
    r = await http.post(
        f"{url}/api/rooms",
        headers=h,
        json={"ruleset": ruleset, "seats": len(players), "options": options or {}},
    )
    r.raise_for_status()
    room = r.json()
    for p in players[1:]:
        r = await http.post(
            f"{url}/api/rooms/{room['id']}/join", headers={"Authorization": f"Bearer {p['token']}"}, json={}
        )
        r.raise_for_status()
    r = await http.post(f"{url}/api/rooms/{room['id']}/start", headers=h)
    r.raise_for_status()
    return r.json()["game_id"]


async def new_games(
    url: str, count: int, seats: int, ruleset: str, options: dict | None = None, concurrency: int = 8
) -> list[tuple[str, list[dict]]]:
    """`count` started games, each with its own players: [(game id, players)]."""
    async with httpx.AsyncClient(timeout=60) as http:
        players = await new_players(http, url, count * seats)
        sem = asyncio.Semaphore(concurrency)

        async def one(i: int) -> tuple[str, list[dict]]:
            mine = players[i * seats : (i + 1) * seats]
            async with sem:
                return await new_game(http, url, mine, ruleset, options), mine

        return list(await asyncio.gather(*(one(i) for i in range(count))))


def dumps(message: dict[str, Any]) -> str:
    """A compact JSON frame."""
    return json.dumps(message, separators=(",", ":"))


def run(coro: Any) -> Any:
    """asyncio.run on uvloop when installed (the server runs on it too)."""
    try:
        import uvloop

        return uvloop.run(coro)
    except ImportError:
        return asyncio.run(coro)


def pin_self(core: str | None) -> None:
    """Keep this (load generator) process on one core, away from the server's."""
    if core is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {int(c) for c in core.split(",")})
