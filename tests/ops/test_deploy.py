"""The scale-out deployment files: migrations run once, replicas are health-checked, the image is
slim and unprivileged. (Docker itself is not available to the test suite; this checks the files.)"""

from __future__ import annotations

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
