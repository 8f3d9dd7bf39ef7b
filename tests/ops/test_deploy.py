"""The scale-out deployment files: migrations run once, replicas are health-checked, the image is
slim and unprivileged. (Docker itself is not available to the test suite; this checks the files.)"""

from __future__ import annotations

import ipaddress
import re
from pathlib import Path

import yaml

from tests.support.nginx import loopback_config, nginx_binary, replicas

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


def _resolve(image: str, defaults: dict[str, str]) -> str:
    """An image reference with ${NAME} / ${NAME:-default} / $NAME expanded from `defaults`."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(3)
        if name in defaults:
            return defaults[name]
        if match.group(2) is not None:
            return match.group(2)
        raise AssertionError(f"{name} has no default in {image!r}")

    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)", value, image)


def test_the_image_is_slim_and_unprivileged():
    """The runtime stage starts from a slim base (through its ARG's default, as a plain
    `docker build` resolves it) and switches to a non-root user."""
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines()]
    first_from = next(i for i, line in enumerate(lines) if line.startswith("FROM "))
    # Only ARGs declared before the first FROM may be used in a FROM line.
    args = dict(
        line.split()[1].split("=", 1)
        for line in lines[:first_from]
        if line.startswith("ARG ") and "=" in line
    )
    froms = [line for line in lines if line.startswith("FROM ")]
    runtime = _resolve(froms[-1].split()[1], args)
    assert runtime.startswith("python:3.11") and runtime.endswith("-slim"), runtime
    users = [line.split()[1] for line in lines if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert any("healthz" in line for line in lines)


def test_the_rules_are_compiled_in_the_build_stage_only():
    """The build stage installs the compiler and runs scripts/compile_rules.py; the runtime stage
    copies the compiled modules and installs nothing (no compiler reaches the image)."""
    text = (ROOT / "Dockerfile").read_text()
    build, runtime = re.split(r"^FROM .*$", text, flags=re.M)[1:]
    assert "gcc" in build and "scripts/compile_rules.py" in build
    assert "COPY --from=build /build/.compiled ./.compiled" in runtime
    assert "gcc" not in runtime and "apt-get" not in runtime and "pip install" not in runtime
    assert ".compiled" in (ROOT / ".dockerignore").read_text().split()  # never the host's build


def test_base_images_default_to_the_official_ones():
    """Every image the compose file names (and the Python image it builds on) defaults to the
    official image when no --env-file swaps in stand-ins; deploy/offline/images.env names only
    civitas-offline/* stand-ins, never an official name."""
    compose = _compose()
    services = compose["services"]
    official = {"postgres": "postgres:15", "redis": "redis:7", "lb": "nginx:1.27"}
    for name, image in official.items():
        assert _resolve(services[name]["image"], {}) == image
    for name in (n for n in services if n.startswith("app") or n == "migrate"):
        assert _resolve(services[name]["build"]["args"]["PYTHON_IMAGE"], {}) == "python:3.11-slim"
    offline = dict(
        line.split("=", 1)
        for line in (ROOT / "deploy" / "offline" / "images.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert {"PYTHON_IMAGE", "POSTGRES_IMAGE", "REDIS_IMAGE", "NGINX_IMAGE"} <= set(offline)
    for key in ("PYTHON_IMAGE", "POSTGRES_IMAGE", "REDIS_IMAGE", "NGINX_IMAGE"):
        assert offline[key].startswith("civitas-offline/"), (key, offline[key])
    pairs = (("postgres", "POSTGRES_IMAGE"), ("redis", "REDIS_IMAGE"), ("lb", "NGINX_IMAGE"))
    for name, key in pairs:
        assert _resolve(services[name]["image"], offline) == offline[key]
    python = services["app1"]["build"]["args"]["PYTHON_IMAGE"]
    assert _resolve(python, offline) == offline["PYTHON_IMAGE"]


def test_health_checks_and_websocket_proxying():
    """The balancer answers /healthz itself and is health-checked on it; nginx speaks HTTP/1.1 to
    the replicas and passes both upgrade headers, so /ws/ sockets survive the proxy."""
    services = _compose()["services"]
    assert "/healthz" in " ".join(services["lb"]["healthcheck"]["test"])
    assert all(
        services["lb"]["depends_on"][name]["condition"] == "service_healthy"
        for name in services
        if name.startswith("app")
    )
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "location = /healthz" in conf
    assert "proxy_http_version 1.1" in conf
    assert "proxy_set_header Connection $connection_upgrade" in conf
    assert "proxy_read_timeout" in conf  # longer than the 15 s heartbeat, or idle sockets drop
    # A stopped container's address does not refuse connections, it drops them: without a short
    # connect timeout each request sent to it waits 60 s before nginx tries the next replica.
    connect = re.search(r"proxy_connect_timeout\s+(\d+)s;", conf)
    assert connect and int(connect.group(1)) <= 5
    assert "timeout" in re.search(r"proxy_next_upstream ([^;]*);", conf).group(1)


def test_nginx_accepts_the_config(tmp_path):
    """`nginx -t` on deploy/nginx.conf inside a minimal main config (replica names replaced by
    loopback addresses, which nginx must resolve at load time). Needs an nginx binary."""
    import subprocess

    ports = [18001 + i for i in range(len(replicas()))]
    conf = loopback_config(tmp_path, ports)
    result = subprocess.run([nginx_binary(), "-t", "-c", str(conf)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_the_replicas_and_nginx_keep_fixed_addresses():
    """nginx resolves app1, app2 ... once, at its start: a replica restarted or replaced (a
    rolling deploy) must come back at the same address, so each replica and nginx have a fixed
    one, all different, inside the compose network's subnet and outside the range Docker hands
    out to the other containers."""
    compose = _compose()
    (pool,) = compose["networks"]["default"]["ipam"]["config"]
    subnet = ipaddress.ip_network(_resolve(pool["subnet"], {}))
    dynamic = ipaddress.ip_network(_resolve(pool["ip_range"], {}))
    fixed = [
        ipaddress.ip_address(_resolve(compose["services"][name]["networks"]["default"]["ipv4_address"], {}))
        for name in replicas() + ["lb"]
    ]
    assert len(set(fixed)) == len(fixed)
    assert all(address in subnet and address not in dynamic for address in fixed), fixed


def test_nginx_closes_idle_replica_connections_before_uvicorn_does():
    """An idle upstream connection must be closed by nginx before the replica closes it (uvicorn's
    keep-alive timeout, 5 s by default and not changed by app/main.py), or nginx may send a request
    down a connection being closed and answer 502 to a POST it cannot retry elsewhere."""
    import inspect

    import uvicorn

    from app import main

    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    upstream = re.search(r"upstream civitas \{(.*?)\}", conf, re.S).group(1)
    nginx_idle = re.search(r"keepalive_timeout\s+(\d+)s;", upstream)
    uvicorn_idle = inspect.signature(uvicorn.Config).parameters["timeout_keep_alive"].default
    assert "timeout_keep_alive" not in inspect.getsource(main)
    assert nginx_idle and int(nginx_idle.group(1)) < uvicorn_idle, (nginx_idle, uvicorn_idle)


def test_mailpit_catches_mail_only_when_asked_for():
    """Mailpit (SMTP 1025, web UI 8025) is in the "mail" profile: a plain `up` never pulls its
    image; the replicas mail it only when CIVITAS_SMTP_HOST says so (else their log)."""
    services = _compose()["services"]
    mailpit = services["mailpit"]
    assert mailpit["profiles"] == ["mail"]
    assert _resolve(mailpit["image"], {}).startswith("axllent/mailpit")
    assert any(str(p).endswith(":8025") for p in mailpit["ports"])
    env = services["app1"]["environment"]
    assert _resolve(env["CIVITAS_SMTP_HOST"], {}) == "" and env["CIVITAS_SMTP_PORT"].endswith("1025}")
