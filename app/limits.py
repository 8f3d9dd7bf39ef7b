"""Rate limits and socket caps, applied before a request is parsed.

Rates are sliding windows (the `limits` library's sliding-window counter: no burst of twice the
rate at a window's edge), kept in Redis when the broker is Redis (every instance shares one
count) and in memory otherwise, or while Redis is away. Whom a rate counts: a signed-in request
(one that carries a token) is counted per token, that is per player, never per address, so a
school or a mobile carrier behind one address is not one budget; an anonymous request is counted
per address. Creating players is anonymous by nature (per address, generous enough for a class
signing in at once), and creating rooms is also counted per address, generously, because each
new guest may open rooms: without it the guests an address can make multiply the rooms it can
open. Over a limit the answer is 429 with `Retry-After`; a socket over its limit or cap is
accepted, told why in an error frame, and closed with code 4429.

Open sockets are capped per token (signed in) or per address (anonymous); a game's spectator
sockets have their own cap, checked by the game socket once it knows the socket holds no seat, so
spectators can never keep a seated player out.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
from dataclasses import dataclass
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qs

import orjson
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

log = logging.getLogger(__name__)

# The scope key under which a detached socket's session is left for the middlewares around the
# app (app/realtime/session.py sets it; Limits gives a socket's place back when the session ends,
# not when the app returns). Defined here, below the sockets, so the import graph has no cycle.
DETACHED = "civitas.detached"


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

    @property
    def item(self) -> RateLimitItem:
        """The `limits` library's form of this rate."""
        return RateLimitItemPerSecond(self.count, self.window)


class Limiter:
    """Sliding-window counts: in Redis (shared by every instance) when given a Redis URL, with
    a fallback to this process's memory while Redis is away; in memory otherwise.

    Two strategies: the default weighs the previous fixed window's count, which is cheap (two
    counters per key) but lets a burst straddling a window edge through; `exact` keeps every
    hit's time (a moving window), for low rates that promise "at most N in any T seconds"."""

    def __init__(self, redis_url: str | None = None) -> None:
        memory = MemoryStorage()
        self._memory = {False: SlidingWindowCounterRateLimiter(memory), True: MovingWindowRateLimiter(memory)}
        self._shared: dict[bool, Any] | None = None
        if redis_url:
            storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                key_prefix="civitas:rl",
                socket_connect_timeout=2,
            )
            self._shared = {
                False: SlidingWindowCounterRateLimiter(storage),
                True: MovingWindowRateLimiter(storage),
            }

    async def hit(self, key: str, rate: Rate, exact: bool = False) -> int:
        """Count one request; 0 if within the rate, else the seconds to wait before retrying."""
        limiter = (self._shared or self._memory)[exact]
        item = rate.item
        try:
            if await limiter.hit(item, key):
                return 0
            reset = (await limiter.get_window_stats(item, key)).reset_time
        except Exception:  # Redis away: count here until it is back (never fail open wide)
            log.warning("rate limit: redis unavailable, counting in memory")
            limiter = self._memory[exact]
            if await limiter.hit(item, key):
                return 0
            reset = (await limiter.get_window_stats(item, key)).reset_time
        return max(1, math.ceil(reset - time.time()))


# Take a socket's place under every key at once, or none: (1-based index of the first key at its
# cap) or 0. Each key is a sorted set of socket leases scored by expiry, so the places of an
# instance that died without giving them back free themselves when their leases run out.
_TAKE = """
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', ARGV[1])
  if redis.call('ZCARD', key) >= tonumber(ARGV[3 + i]) then return i end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, ARGV[2], ARGV[3])
  redis.call('EXPIRE', key, ARGV[4 + #KEYS])
end
return 0
"""


class SharedSocketCaps:
    """Open sockets per IP, per token and per game across every instance, counted in Redis as
    leases (renewed while the socket is open); in memory on this instance when Redis is away."""

    LEASE = 90.0  # seconds: an instance that dies frees its sockets' places within this

    def __init__(self, local: "SocketCaps", redis: Any) -> None:
        self.local = local
        self.caps = local.caps
        self._redis = redis
        self._script: Any = redis.register_script(_TAKE)
        self.leases: dict[str, list[tuple[str, str]]] = {}  # socket id -> its keys (in Redis)
        self._renewer: asyncio.Task[None] | None = None

    @staticmethod
    def _key(key: tuple[str, str]) -> str:
        return f"civitas:sockets:{key[0]}:{key[1]}"

    async def take(self, socket_id: str, keys: list[tuple[str, str]]) -> tuple[str | None, bool]:
        """(the cap this socket would break, or None; whether its place is held in Redis)."""
        now = time.time()
        try:
            over = await self._script(
                keys=[self._key(k) for k in keys],
                args=[
                    now,
                    now + self.LEASE,
                    socket_id,
                    *[self.caps[kind] for kind, _ in keys],
                    int(self.LEASE * 2),
                ],
            )
        except Exception:  # Redis away: count on this instance until it is back
            log.warning("socket caps: redis unavailable, counting on this instance")
            return self.local.take(keys), False
        if over:
            return keys[int(over) - 1][0], True
        self.leases[socket_id] = keys
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew())
        return None, True

    async def give_back(self, socket_id: str, keys: list[tuple[str, str]], shared: bool) -> None:
        """A socket closed: free its place where it was taken."""
        if not shared:
            self.local.give_back(keys)
            return
        self.leases.pop(socket_id, None)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zrem(self._key(key), socket_id)
                await pipe.execute()
        except Exception:  # its lease runs out on its own
            log.warning("socket caps: could not give a place back to redis")

    async def _renew(self) -> None:
        """Extend the leases of this instance's open sockets while there are any."""
        while self.leases:
            await asyncio.sleep(self.LEASE / 3)
            expiry = time.time() + self.LEASE
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for socket_id, keys in list(self.leases.items()):
                        for key in keys:
                            pipe.zadd(self._key(key), {socket_id: expiry}, xx=True)
                            pipe.expire(self._key(key), int(self.LEASE * 2))
                    await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("socket caps: could not renew leases in redis")

    def stop(self) -> None:
        """Stop renewing (the app is shutting down)."""
        if self._renewer is not None:
            self._renewer.cancel()


class SocketCaps:
    """Open sockets per address (anonymous), per token (signed in) and spectators per game, on
    this instance."""

    def __init__(self, per_ip: int, per_token: int, spectators: int) -> None:
        self.caps = {"ip": per_ip, "token": per_token, "spectators": spectators}
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


SCOPE_KEY = "civitas.limits"  # where a socket endpoint finds the limits (the spectator cap)
CAP_NAMES = {"ip": "address", "token": "player's token", "spectators": "game's spectators"}


class Limits:
    """The ASGI middleware: rates per token or per address, socket caps; refusals before parsing."""

    def __init__(self, app: ASGIApp, settings: Any) -> None:
        self.app = app
        scale = settings.limits_scale
        self.enabled = settings.limits_enabled
        self.rates = {
            name: Rate.parse(getattr(settings, f"rate_{name}"), scale)
            for name in ("players", "rooms", "lobby", "moves", "sockets")
        }
        self.rooms_per_address = Rate.parse(settings.rate_rooms_per_address, scale)
        redis_url = settings.broker_url if settings.broker_url.startswith(("redis://", "rediss://")) else None
        self.limiter = Limiter(redis_url)
        self.sockets = SocketCaps(
            int(settings.sockets_per_ip * scale),
            int(settings.sockets_per_token * scale),
            int(settings.spectators_per_game * scale),
        )
        self.shared: SharedSocketCaps | None = None
        self._redis: Any = None
        if redis_url:
            import redis.asyncio as redis

            self._redis = redis.from_url(redis_url)
            self.shared = SharedSocketCaps(self.sockets, self._redis)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            return await self.app(scope, self._on_shutdown(receive), send)
        if scope["type"] not in ("http", "websocket") or not self.enabled:
            return await self.app(scope, receive, send)
        kind = classify(scope)
        if kind is None:
            return await self.app(scope, receive, send)
        ip = (scope.get("client") or ("?", 0))[0]
        token = _token(scope)
        retry, rate = await self._hit(kind, ip, token)
        if retry:
            return await self._refuse(
                scope,
                receive,
                send,
                retry,
                f"Too many requests of this kind ({rate.count} per {rate.window} s); retry in {retry} s.",
            )
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        keys = [("token", token)] if token else [("ip", ip)]
        over, give_back = await self.take(keys)
        if over is not None:
            return await self._refuse(
                scope,
                receive,
                send,
                30,
                f"Too many open sockets for this {CAP_NAMES[over]}; close one first.",
            )
        scope[SCOPE_KEY] = self
        try:
            await self.app(scope, receive, send)
        finally:
            session = scope.get(DETACHED)
            if session is not None and not session.finished:
                session.closers.append(give_back)  # the socket outlives the app: on its end
            else:
                await give_back()

    async def _hit(self, kind: str, ip: str, token: str | None) -> tuple[int, Rate]:
        """Count a request against its rate: per token when signed in, else per address (players
        always per address; rooms per token and, more generously, per address too)."""
        rate = self.rates[kind]
        if kind == "players" or not token:
            return await self.limiter.hit(f"{kind}:ip:{ip}", rate), rate
        retry = await self.limiter.hit(f"{kind}:token:{token}", rate)
        if not retry and kind == "rooms":
            # Exact (a moving window): the cheap sliding count weighs the last window's rooms
            # down at its edge and let a fourth of "3 a minute" through (seen in CI); rooms are
            # made seldom enough that keeping each one's time costs nothing to speak of.
            wait = await self.limiter.hit(f"rooms:ip:{ip}", self.rooms_per_address, exact=True)
            return wait, self.rooms_per_address
        return retry, rate

    async def take(self, keys: list[tuple[str, str]]) -> tuple[str | None, Callable[[], Awaitable[None]]]:
        """Take a socket's place under these keys on every instance (Redis) or this one: (the
        cap it would break, or None; what gives the place back)."""
        if self.shared is not None:
            socket_id = secrets.token_hex(8)
            over, in_redis = await self.shared.take(socket_id, keys)
        else:
            over, in_redis = self.sockets.take(keys), False

        async def give_back() -> None:
            if self.shared is not None:
                await self.shared.give_back(socket_id, keys, in_redis)
            else:
                self.sockets.give_back(keys)

        return over, give_back

    async def take_spectator(self, game_id: str) -> Callable[[], Awaitable[None]] | None:
        """A place among a game's spectators (what gives it back), or None when they are full.
        Seated players never take one: spectators cannot keep them out."""
        if not self.enabled:
            return _nothing
        over, give_back = await self.take([("spectators", game_id)])
        return None if over is not None else give_back

    def _on_shutdown(self, receive: Receive) -> Receive:
        """The lifespan's receive, noting shutdown: stop renewing socket leases then."""

        async def wrapped() -> Any:
            message = await receive()
            if message.get("type") == "lifespan.shutdown" and self.shared is not None:
                self.shared.stop()
            return message

        return wrapped

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, retry: int, detail: str) -> None:
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send(
                {
                    "type": "websocket.send",
                    "text": orjson.dumps(
                        {"type": "error", "id": None, "status": 429, "detail": detail, "retry_after": retry}
                    ).decode(),
                }
            )
            await send({"type": "websocket.close", "code": 4429})
            return
        body = orjson.dumps({"detail": detail})
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"retry-after", str(retry).encode()),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


async def _nothing() -> None:
    return None


class TokenBucket:
    """A frame budget checked before parsing: `rate` frames a second, bursts of twice that;
    refusals are counted so that floods get an error, then the door."""

    def __init__(self, rate: float, now: float) -> None:
        self.rate, self.capacity = rate, 2 * rate
        self.tokens, self.stamp = self.capacity, now
        self.refused = 0

    def take(self, now: float) -> bool:
        """Spend one token if there is one; else count a refusal."""
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self._refuse(now)
        return False

    def _refuse(self, now: float) -> None:
        self.refused += 1


class FrameBudget(TokenBucket):
    """Frames per second for one token, shared by all of that token's sockets on this instance:
    a token bucket whose refusals count over the last 10 seconds only, so a flood spread over
    many sockets is refused, and past a limit closed, like one on a single socket."""

    WINDOW = 10.0

    def __init__(self, rate: float, now: float) -> None:
        super().__init__(rate, now)
        self.users = 0
        self.window = now

    def _refuse(self, now: float) -> None:
        if now - self.window > self.WINDOW:
            self.window, self.refused = now, 0
        self.refused += 1

    def flooding(self) -> bool:
        """Refused so often lately that the socket should be closed (policy violation)."""
        return self.refused > 4 * self.capacity


class TokenFrames:
    """Every token's frame budget on this instance (a budget lives while the token has sockets)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.budgets: dict[str, FrameBudget] = {}

    def join(self, token_key: str, now: float) -> FrameBudget:
        """The token's budget, for one more socket."""
        budget = self.budgets.get(token_key)
        if budget is None:
            budget = self.budgets[token_key] = FrameBudget(self.rate, now)
        budget.users += 1
        return budget

    def leave(self, token_key: str) -> None:
        """One of the token's sockets closed."""
        budget = self.budgets.get(token_key)
        if budget is not None:
            budget.users -= 1
            if budget.users <= 0:
                del self.budgets[token_key]
