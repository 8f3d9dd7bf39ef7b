"""Stand-ins for the outside world of notifications: a Web Push service that decrypts what it is
sent (aes128gcm, RFC 8291) with a subscriber's keys, a webhook receiver, and VAPID keys."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from tests.support.server import free_port


def b64url(data: bytes) -> str:
    """Unpadded base64url, as browsers give subscription keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_keys() -> tuple[str, str]:
    """(private key PEM, public key base64url): a VAPID pair for the server's settings."""
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return pem, b64url(public)


class _Recorder(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, handler: type, decrypt: Any) -> None:
        super().__init__(("127.0.0.1", free_port()), handler)
        self.received: list[dict[str, Any]] = []
        self.decrypt = decrypt
        self.lock = threading.Lock()


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        entry = {"path": self.path, "headers": dict(self.headers), "body": body}
        try:
            entry["json"] = json.loads(self.server.decrypt(self.path, body, self.headers))
        except Exception as exc:  # noqa: BLE001 - a bad body is recorded, and the test fails on it
            entry["error"] = repr(exc)
        with self.server.lock:
            self.server.received.append(entry)
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


class _Server:
    def __init__(self, decrypt: Any) -> None:
        self.http = _Recorder(_Handler, decrypt)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"

    @property
    def received(self) -> list[dict[str, Any]]:
        with self.http.lock:
            return list(self.http.received)

    def wait_for(self, count: int = 1, timeout: float = 10.0) -> list[dict[str, Any]]:
        """Block until `count` requests arrived (fail after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            assert time.monotonic() < deadline, f"expected {count} requests, got {len(self.received)}"
            time.sleep(0.02)
        return self.received

    def __enter__(self) -> Self:
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.http.shutdown()
        self.http.server_close()


class WebhookServer(_Server):
    """Keeps every JSON body POSTed to it."""

    def __init__(self) -> None:
        super().__init__(lambda path, body, headers: body)


class PushService(_Server):
    """A push service with one subscriber per path: `subscribe(name)` gives the subscription a
    browser would send (endpoint and keys); what arrives is decrypted with that subscriber's
    private key and auth secret, as the browser would."""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        super().__init__(self._decrypt)

    def subscribe(self, name: str) -> dict[str, Any]:
        key, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
        self.keys[f"/push/{name}"] = (key, auth)
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": f"{self.url}/push/{name}",
            "keys": {"p256dh": b64url(public), "auth": b64url(auth)},
        }

    def _decrypt(self, path: str, body: bytes, headers: Any) -> bytes:
        import http_ece

        assert headers.get("Content-Encoding") == "aes128gcm", headers
        assert headers.get("Authorization", "").startswith("vapid t="), "no VAPID signature"
        key, auth = self.keys[path]
        return http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
