"""The scale-out deployment files: migrations run once, replicas are health-checked, the image is
slim and unprivileged. (Docker itself is not available to the test suite; this checks the files.)"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_migrations_run_once_in_their_own_service():
    """A one-shot migrate service runs `app.main migrate`; every app replica waits for it to
    finish and does not migrate itself."""
    services = _compose()["services"]
    assert services["migrate"]["command"] == ["python", "-m", "app.main", "migrate"]
    assert services["migrate"]["restart"] == "no"
    replicas = [name for name in services if name.startswith("app")]
    assert len(replicas) >= 2
    for name in replicas:
        app = services[name]
        assert app["environment"]["CIVITAS_MIGRATE_ON_START"] == "false"
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert "/readyz" in " ".join(app["healthcheck"]["test"])


def test_the_balancer_knows_every_replica():
    """nginx's upstream lists each app replica and passes websocket upgrades through."""
    services = _compose()["services"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for name in (n for n in services if n.startswith("app")):
        assert f"server {name}:8000" in conf
    assert "proxy_set_header Upgrade $http_upgrade" in conf


def test_the_image_is_slim_and_unprivileged():
    """The runtime stage starts from a slim base and switches to a non-root user."""
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    froms = [line for line in lines if line.startswith("FROM ")]
    assert froms[-1].split()[1].endswith("-slim")
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any("healthz" in line for line in lines)


def test_health_checks_and_websocket_proxying():
    """The balancer answers /healthz itself and is health-checked on it; nginx speaks HTTP/1.1 to
    the replicas and passes both upgrade headers, so /ws/ sockets survive the proxy."""
    services = _compose()["services"]
    assert "/healthz" in " ".join(services["lb"]["healthcheck"]["test"])
    assert all(services["lb"]["depends_on"][name]["condition"] == "service_healthy"
               for name in services if name.startswith("app"))
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "location = /healthz" in conf
    assert "proxy_http_version 1.1" in conf
    assert "proxy_set_header Connection $connection_upgrade" in conf
    assert "proxy_read_timeout" in conf  # longer than the 15 s heartbeat, or idle sockets drop


def test_nginx_accepts_the_config(tmp_path):
    """`nginx -t` on deploy/nginx.conf inside a minimal main config (replica names replaced by
    loopback addresses, which nginx must resolve at load time). Needs an nginx binary."""
    import shutil
    import subprocess

    import pytest

    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
    if nginx is None:
        # Like PostgreSQL and Redis: scripts/test.sh installs it where it may, and CI insists.
        if os.environ.get("CI"):
            pytest.fail("no nginx binary: scripts/test.sh installs Debian's nginx-light as root")
        pytest.skip("no nginx binary here (apt-get install nginx-light to run this check)")
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for i, name in enumerate(n for n in _compose()["services"] if n.startswith("app")):
        site = site.replace(f"server {name}:8000", f"server 127.0.0.1:{18001 + i}")
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{ access_log off; client_body_temp_path {tmp_path}; include {tmp_path}/site.conf; }}\n")
    result = subprocess.run([nginx, "-t", "-c", str(tmp_path / "nginx.conf")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
