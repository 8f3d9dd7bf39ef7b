"""Run real server processes (uvicorn) for browser and multi-process tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.support.seeds import new_seed_file

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """`python -m app.main` with the given environment; stops on exit."""

    def __init__(
        self,
        env: dict[str, str],
        port: int | None = None,
        log_path: Path | None = None,
        module: str = "app.main",
    ) -> None:
        self.module = module  # tests.support.fault_server: the same server with a fault injected
        self.log_path = log_path  # the server's stderr (its logs) go there when given
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # The server notes its games' seeds for the test's failure report (tests/support/seeds.py);
        # CIVITAS_TEST_GAME_SEED fixes them here as it does for games started in-process.
        fixed = (
            {"CIVITAS_GAME_SEED": os.environ["CIVITAS_TEST_GAME_SEED"]}
            if os.environ.get("CIVITAS_TEST_GAME_SEED")
            else {}
        )
        self.env = {
            **os.environ,
            "CIVITAS_HOST": "127.0.0.1",
            "CIVITAS_PORT": str(self.port),
            "CIVITAS_EXTRA_RULESETS": "tests.support.testgame:TEST_GAME",
            "CIVITAS_LIMITS_SCALE": "1000",
            "CIVITAS_SEED_LOG": str(new_seed_file()),
            **fixed,
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> "ServerProcess":
        """Start and wait until it answers."""
        stderr = open(self.log_path, "ab") if self.log_path else subprocess.PIPE  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        if self.log_path:
            stderr.close()  # the child holds its own copy
        try:
            deadline = time.monotonic() + 120  # a loaded machine starts it slowly
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    logs = self.log_path.read_bytes() if self.log_path else self.proc.stderr.read()
                    raise RuntimeError(f"server exited: {logs.decode()[-2000:]}")
                try:
                    if httpx.get(f"{self.url}/api/rulesets", timeout=1).status_code == 200:
                        return self
                except httpx.HTTPError:
                    time.sleep(0.1)
            raise RuntimeError("server did not start")
        except BaseException:
            # Never leave a half-started server behind: it would keep using the test database
            # (its sweeps and bot watchdog hold locks that block the next test's TRUNCATE).
            self.stop()
            raise

    def stop(self) -> None:
        """Terminate (SIGTERM, then SIGKILL)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    def __enter__(self) -> "ServerProcess":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
