"""Behind the shipped nginx configuration a client cannot choose its own address (issue 33, item 1):
nginx sets X-Forwarded-For to the address that connected to it, and the replicas believe that
header from nginx's address only, so a forged one changes no per-address limit."""

from __future__ import annotations

import ipaddress
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
import yaml

from tests.support.nginx import Nginx, loopback_config, nginx_binary, replicas
from tests.support.server import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]
PROXY = "127.0.0.2"  # nginx's own address on loopback: it connects to the replicas from here
CLIENT, OTHER_CLIENT = "127.0.0.3", "127.0.0.4"


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _default(value: str) -> str:
    """A compose value `${NAME:-default}` as it resolves with NAME unset."""
    if value.startswith("${") and ":-" in value:
        return value[value.index(":-") + 2 : -1]
    return value


def _client(local_address: str, base_url: str) -> httpx.Client:
    """An HTTP client whose connections come from `local_address` (a loopback address)."""
    return httpx.Client(
        base_url=base_url, timeout=10, transport=httpx.HTTPTransport(local_address=local_address)
    )


def test_the_replicas_trust_forwarded_addresses_from_nginx_only():
    """docker-compose.yml gives nginx a fixed address, outside the range other containers get
    theirs from, and each replica believes X-Forwarded-For from that address alone (never "*");
    nginx sets the header to the connecting address instead of appending to the client's."""
    compose = _compose()
    services = compose["services"]
    lb = ipaddress.ip_address(_default(services["lb"]["networks"]["default"]["ipv4_address"]))
    (pool,) = compose["networks"]["default"]["ipam"]["config"]
    assert lb in ipaddress.ip_network(_default(pool["subnet"]))
    assert lb not in ipaddress.ip_network(_default(pool["ip_range"]))
    for name in replicas():
        env = services[name]["environment"]
        assert "FORWARDED_ALLOW_IPS" not in env  # uvicorn's own variable: one setting, not two
        assert _default(env["CIVITAS_FORWARDED_ALLOW_IPS"]) == str(lb), name
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "$proxy_add_x_forwarded_for" not in conf


class _Echo(BaseHTTPRequestHandler):
    """Notes the X-Forwarded-For of each request it is sent."""

    seen: list[str | None] = []

    def do_GET(self) -> None:
        self.seen.append(self.headers.get("X-Forwarded-For"))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


def test_nginx_sets_the_forwarded_address_and_drops_the_clients(tmp_path):
    """A request through deploy/nginx.conf carrying a forged X-Forwarded-For reaches the replica
    with exactly the client's real address in that header (appending would pass the forgery on)."""
    nginx_binary()
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    _Echo.seen = []
    port = free_port()
    ports = [upstream.server_address[1]] * len(replicas())
    try:
        with Nginx(loopback_config(tmp_path, ports, port), port) as nginx, _client(CLIENT, nginx.url) as http:
            for forged in ("203.0.113.7", "203.0.113.7, 198.51.100.1", "unknown"):
                assert http.get("/api/rulesets", headers={"X-Forwarded-For": forged}).status_code == 200
            assert http.get("/api/rulesets").status_code == 200
    finally:
        upstream.shutdown()
    assert _Echo.seen == [CLIENT] * 4


def _shipped_trust() -> str:
    """The replicas' trusted proxies as docker-compose.yml sets them, on loopback: nginx's fixed
    address becomes PROXY (where the test's nginx connects from); anything else is kept as is."""
    services = _compose()["services"]
    env = services[replicas()[0]]["environment"]
    trusted = _default(env.get("CIVITAS_FORWARDED_ALLOW_IPS") or env.get("FORWARDED_ALLOW_IPS"))
    lb = services["lb"].get("networks", {}).get("default", {}).get("ipv4_address")
    return PROXY if lb and trusted == _default(lb) else trusted


def _guest(http: httpx.Client, forged: str | None = None) -> int:
    headers = {"X-Forwarded-For": forged} if forged else {}
    return http.post("/api/players", json={"name": "Guest"}, headers=headers).status_code


@pytest.mark.multiprocess
def test_a_forged_forwarded_address_changes_no_limit(tmp_path):
    """The guest-creation limit behind the shipped nginx config, with the replica trusting the
    proxy's address as docker-compose.yml has it: each forged X-Forwarded-For still counts as the
    client's real address, so the limit bites; another real client, through the same nginx, has
    its own count (the header nginx sets is believed); and the same forgery sent straight to the
    replica, from an address that is not the proxy's, is ignored."""
    port = free_port()
    env = {
        "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}",
        "CIVITAS_LIMITS_SCALE": "1",
        "CIVITAS_RATE_PLAYERS": "5/86400",
        "CIVITAS_FORWARDED_ALLOW_IPS": _shipped_trust(),
    }
    nginx_binary()
    with ServerProcess(env) as app:
        conf = loopback_config(
            tmp_path, [app.port] * len(replicas()), port, http_extra=f"proxy_bind {PROXY};"
        )
        with Nginx(conf, port) as nginx, _client(CLIENT, nginx.url) as http:
            codes = [_guest(http, f"198.51.100.{i}") for i in range(8)]
            assert codes == [201] * 5 + [429] * 3, codes
            assert _guest(http) == 429
            with _client(OTHER_CLIENT, nginx.url) as other:
                assert _guest(other, "198.51.100.1") == 201
            with _client(CLIENT, app.url) as direct:
                assert _guest(direct, "192.0.2.99") == 429
