"""Rate limits and socket caps, applied before a request is parsed.

Rates are fixed windows counted per client IP and per bearer token (its SHA-256, so no database
lookup is needed before refusing): in memory, or in Redis when the broker is Redis, so every
instance shares one count. Over a limit the answer is 429 with `Retry-After`; a socket over its
limit or cap is accepted, told why in an error frame, and closed with code 4429.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Rate:
    """At most `count` requests per `window` seconds."""

    count: int
    window: int

    @classmethod
    def parse(cls, text: str, scale: float = 1.0) -> "Rate":
        """'30/60' means 30 per 60 seconds; `scale` multiplies the count (tests and benches)."""
        count, _, window = text.partition("/")
        return cls(max(1, int(int(count) * scale)), max(1, int(window or 60)))


class Counter:
    """Fixed-window counts in this process, or in Redis (shared) with a fallback to memory."""

    def __init__(self, redis_url: str | None = None) -> None:
        self._memory: dict[str, tuple[int, int]] = {}
        self._redis: Any = None
        if redis_url:
            import redis.asyncio as redis

            self._redis = redis.from_url(redis_url)

    async def hit(self, key: str, rate: Rate) -> int:
        """Count one request; 0 if within the rate, else the seconds until the window ends."""
        now = time.time()
        window = int(now // rate.window)
        retry = int((window + 1) * rate.window - now) + 1
        if self._redis is not None:
            try:
                name = f"civitas:rl:{key}:{window}"
                async with self._redis.pipeline(transaction=True) as pipe:
                    count, _ = await pipe.incr(name).expire(name, rate.window + 1).execute()
                return retry if count > rate.count else 0
            except Exception:  # Redis away: count here until it is back (never fail open wide)
                log.warning("rate limit counter: redis unavailable, counting in memory")
        start, count = self._memory.get(key, (window, 0))
        count = count + 1 if start == window else 1
        self._memory[key] = (window, count)
        if len(self._memory) > 100_000:  # forget finished windows
            self._memory = {k: v for k, v in self._memory.items() if v[0] == window}
        return retry if count > rate.count else 0

    async def close(self) -> None:
        """Close the Redis connection, if any."""
        if self._redis is not None:
            await self._redis.aclose()


class SocketCaps:
    """Open sockets per IP, per token and per game on this instance."""

    def __init__(self, per_ip: int, per_token: int, per_game: int) -> None:
        self.caps = {"ip": per_ip, "token": per_token, "game": per_game}
        self.open: dict[tuple[str, str], int] = {}

    def take(self, keys: list[tuple[str, str]]) -> str | None:
        """Count a new socket under each key, or name the cap it would break (counting nothing)."""
        for kind, ident in keys:
            if self.open.get((kind, ident), 0) >= self.caps[kind]:
                return kind
        for key in keys:
            self.open[key] = self.open.get(key, 0) + 1
        return None

    def give_back(self, keys: list[tuple[str, str]]) -> None:
        """A socket closed."""
        for key in keys:
            left = self.open.get(key, 0) - 1
            if left > 0:
                self.open[key] = left
            else:
                self.open.pop(key, None)


def _token(scope: Scope) -> str | None:
    """The bearer token of a request or socket (header, subprotocol, or ?token=), hashed."""
    token = None
    for name, value in scope.get("headers") or []:
        if name == b"authorization" and value[:7].lower() == b"bearer ":
            token = value[7:].decode("latin-1").strip()
        elif name == b"sec-websocket-protocol":
            for part in value.decode("latin-1").split(","):
                if part.strip().startswith("bearer."):
                    token = part.strip()[7:]
    if token is None and scope.get("query_string"):
        values = parse_qs(scope["query_string"].decode("latin-1")).get("token")
        token = values[0] if values else None
    return hashlib.sha256(token.encode()).hexdigest()[:32] if token else None


def classify(scope: Scope) -> str | None:
    """Which rate a request counts against, from its method and path alone."""
    path = scope.get("path", "")
    if scope["type"] == "websocket":
        return "sockets"
    method = scope.get("method", "GET")
    if method == "POST" and path == "/api/players":
        return "players"
    if method == "POST" and path == "/api/rooms":
        return "rooms"
    if method == "GET" and path in ("/api/rooms", "/api/rooms/"):
        return "lobby"
    if method == "POST" and path.startswith("/api/games/") and path.endswith("/moves"):
        return "moves"
    return None


class Limits:
    """The ASGI middleware: rates per IP and per token, socket caps; refusals before parsing."""

    def __init__(self, app: ASGIApp, settings: Any) -> None:
        self.app = app
        scale = settings.limits_scale
        self.enabled = settings.limits_enabled
        self.rates = {name: Rate.parse(getattr(settings, f"rate_{name}"), scale)
                      for name in ("players", "rooms", "lobby", "moves", "sockets")}
        redis_url = settings.broker_url if settings.broker_url.startswith(("redis://", "rediss://")) \
            else None
        self.counter = Counter(redis_url)
        self.sockets = SocketCaps(int(settings.sockets_per_ip * scale),
                                  int(settings.sockets_per_token * scale),
                                  int(settings.sockets_per_game * scale))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or not self.enabled:
            return await self.app(scope, receive, send)
        kind = classify(scope)
        if kind is None:
            return await self.app(scope, receive, send)
        ip = (scope.get("client") or ("?", 0))[0]
        token = _token(scope)
        rate = self.rates[kind]
        retry = await self.counter.hit(f"{kind}:ip:{ip}", rate)
        if not retry and token:
            retry = await self.counter.hit(f"{kind}:token:{token}", rate)
        if retry:
            return await self._refuse(scope, receive, send, retry,
                                      f"Too many requests of this kind ({rate.count} per "
                                      f"{rate.window} s); retry in {retry} s.")
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        keys = [("ip", ip)] + ([("token", token)] if token else [])
        if scope["path"].startswith("/ws/games/"):
            keys.append(("game", scope["path"][len("/ws/games/"):]))
        over = self.sockets.take(keys)
        if over is not None:
            return await self._refuse(scope, receive, send, 30,
                                      f"Too many open sockets for this {over}; close one first.")
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets.give_back(keys)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, retry: int, detail: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": orjson.dumps(
                {"type": "error", "id": None, "status": 429, "detail": detail,
                 "retry_after": retry}).decode()})
            await send({"type": "websocket.close", "code": 4429})
            return
        body = orjson.dumps({"detail": detail})
        await send({"type": "http.response.start", "status": 429, "headers": [
            (b"content-type", b"application/json"), (b"retry-after", str(retry).encode()),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
