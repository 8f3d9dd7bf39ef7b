"""Run the shipped deploy/nginx.conf on loopback (the host's nginx binary), for the proxy tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def nginx_binary() -> str:
    """The nginx binary; without one the test is skipped, or fails in CI (which installs it)."""
    nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if nginx is None:
        # Like PostgreSQL and Redis: scripts/test.sh installs it where it may, and CI insists.
        if os.environ.get("CI"):
            pytest.fail("no nginx binary: scripts/test.sh installs Debian's nginx-light as root")
        pytest.skip("no nginx binary here (apt-get install nginx-light to run this check)")
    return nginx


def replicas() -> list[str]:
    """The app replicas docker-compose.yml runs (app1, app2, ...)."""
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return [name for name in services if name.startswith("app")]


def loopback_config(tmp_path: Path, upstream_ports: list[int], port: int = 80, http_extra: str = "") -> Path:
    """A main nginx config around deploy/nginx.conf, unchanged but for the replicas' names (each
    replaced by a loopback port, which nginx resolves at load time) and the listen port; files
    go to `tmp_path`. `http_extra` adds directives to the http block around the site."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for name, upstream in zip(replicas(), upstream_ports, strict=True):
        assert f"server {name}:8000" in site, name
        site = site.replace(f"server {name}:8000", f"server 127.0.0.1:{upstream}")
    site, listens = re.subn(r"listen 80;", f"listen 127.0.0.1:{port};", site)
    assert listens == 1, "deploy/nginx.conf must listen on port 80 once"
    site = site.replace("access_log /dev/stdout", f"access_log {tmp_path}/access.log")
    (tmp_path / "site.conf").write_text(site)
    conf = tmp_path / "nginx.conf"
    conf.write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\ndaemon off;\n"
        f"worker_processes 1;\nevents {{}}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}/body; "
        f"proxy_temp_path {tmp_path}/proxy; {http_extra} include {tmp_path}/site.conf; }}\n"
    )
    return conf


class Nginx:
    """nginx in the foreground with a config from `loopback_config`; stops on exit."""

    def __init__(self, conf: Path, port: int) -> None:
        self.conf, self.port = conf, port
        self.url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Nginx:
        self.proc = subprocess.Popen(
            [nginx_binary(), "-c", str(self.conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.proc.stderr.read().decode()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.__exit__()
        raise RuntimeError("nginx did not answer /healthz")

    def __exit__(self, *exc: object) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
