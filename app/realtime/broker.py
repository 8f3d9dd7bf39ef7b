"""The broker: carries small events ("game G reached version V", "lobby changed") between instances.

`memory://` delivers inside this process; `redis://...` uses Redis pub/sub so every instance hears
every event. Delivery is at-most-once: receivers treat an event as a hint and read the truth from
the database (and clients resync on a gap), so a lost message delays an update, never corrupts one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Awaitable, Callable, Protocol

from app.tasks import stop_tasks

log = logging.getLogger(__name__)
Handler = Callable[[dict[str, Any]], Awaitable[None]]
CHANNEL = "civitas:events"
# A local event (never published): the Redis subscription is back after an outage, so events
# published while it was away never arrived; receivers catch up from the database.
RESUBSCRIBED = "resubscribed"


class Broker(Protocol):
    """Publish an event to every instance (this one included); handlers receive each event."""

    shared: bool  # whether other processes hear this broker's events

    async def start(self, handler: Handler) -> None: ...
    async def ready(self) -> bool: ...
    async def publish(self, event: dict[str, Any]) -> None: ...
    async def stop(self) -> None: ...


class MemoryBroker:
    """In-process delivery, in order, on a background task so publishers never run handlers inline."""

    shared = False  # only this process hears its events

    def __init__(self) -> None:
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    async def start(self, handler: Handler) -> None:
        """Begin delivering published events to `handler`."""

        async def pump() -> None:
            while True:
                event = await self._queue.get()
                try:
                    await handler(event)
                except Exception:  # a failing handler must not stop delivery of later events
                    log.exception("broker handler failed for %s", event.get("type"))

        self._task = asyncio.create_task(pump())

    async def ready(self) -> bool:
        """Always ready: it lives in this process."""
        return True

    async def publish(self, event: dict[str, Any]) -> None:
        """Queue an event for delivery."""
        self._queue.put_nowait(event)

    async def stop(self) -> None:
        """Stop delivering (and wait until the delivery task has ended)."""
        await stop_tasks([self._task])


class RedisBroker:
    """Redis pub/sub on one channel; reconnects with backoff if Redis goes away.

    Publishing never waits for Redis: events queue (bounded) and one task sends them in order,
    several per round trip when they pile up, so a move's ack does not wait for the broker.
    """

    shared = True
    QUEUE = 10_000
    _sender: "asyncio.Task[None] | None" = None  # class defaults: __init__ sets the real ones
    _outbox: "list[bytes] | tuple[()]" = ()
    _sending = False

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._pubsub: Any = None  # the current subscription (replaced on each reconnect)
        self._outbox: list[bytes] = []
        self._wake = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._sending = False  # a batch taken from the outbox is on its way to Redis

    async def start(self, handler: Handler) -> None:
        """Subscribe (before returning, so no event published after start is missed) and listen."""
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(CHANNEL)

        async def listen(pubsub: Any) -> None:
            delay = 0.2
            confirmed = 0  # subscription confirmations seen: every one after the first is a return
            while True:
                try:
                    if not pubsub.subscribed:
                        await pubsub.subscribe(CHANNEL)
                    async for message in pubsub.listen():
                        delay = 0.2
                        if message.get("type") == "subscribe":
                            confirmed += 1
                            if confirmed > 1:  # events published meanwhile were lost: say so
                                log.warning("redis broker subscribed again after an outage")
                                try:
                                    await handler({"type": RESUBSCRIBED})
                                except Exception:
                                    log.exception("broker resubscription handler failed")
                            continue
                        if message.get("type") != "message":
                            continue
                        try:
                            await handler(json.loads(message["data"]))
                        except Exception:
                            log.exception("broker handler failed")
                    # listen() ends without an error when nothing is subscribed: never spin on it.
                    raise ConnectionError("the redis subscription ended")
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("redis broker connection lost; retrying in %.1fs", delay)
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 5.0)
                    await _close(pubsub)  # its connection is not reused: give it back
                    pubsub = self._pubsub = self._redis.pubsub()

        self._pubsub = pubsub
        self._task = asyncio.create_task(listen(pubsub))

    async def ready(self) -> bool:
        """Redis answers a ping (within a second)."""
        try:
            return bool(await asyncio.wait_for(self._redis.ping(), 1))
        except Exception:
            return False

    async def publish(self, event: dict[str, Any]) -> None:
        """Queue an event for every subscribed instance; a Redis outage is logged, not raised
        (events are hints: receivers read the truth from the database)."""
        if len(self._outbox) >= self.QUEUE:
            log.warning("redis broker outbox full; dropping %s", event.get("type"))
            return
        self._outbox.append(json.dumps(event).encode())  # type: ignore[union-attr]  # a list once built; the class's () serves a partly built broker's stop()
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send())
        self._wake.set()

    async def _send(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch, self._outbox = self._outbox, []
                self._sending = True
                try:
                    for attempt in (1, 2):  # a pooled connection dead since an outage fails once
                        try:
                            await self._publish(batch)
                            break
                        except asyncio.CancelledError:
                            raise
                        except Exception:
                            if attempt == 2:
                                log.warning("could not publish %d events to redis", len(batch))
                finally:
                    self._sending = False

    async def _publish(self, batch: list[bytes]) -> None:
        if len(batch) == 1:
            await self._redis.publish(CHANNEL, batch[0])
        else:
            async with self._redis.pipeline(transaction=False) as pipe:
                for data in batch:
                    pipe.publish(CHANNEL, data)
                await pipe.execute()

    async def stop(self) -> None:
        """Send what is queued (briefly), unsubscribe and close."""
        if self._sender is not None and (self._outbox or self._sending):
            self._wake.set()
            # Until the last batch has reached Redis, not only left the outbox (an instance's
            # last words, e.g. the bot leases it released, must not be cut off mid-send).
            for _ in range(100):
                if not self._outbox and not self._sending:
                    break
                await asyncio.sleep(0.01)
        await stop_tasks([self._task, self._sender])
        if self._pubsub is not None:
            await _close(self._pubsub)
        await self._redis.aclose()


async def _close(pubsub: Any) -> None:
    """Close a pub/sub and its connection, ignoring errors from a connection already gone."""
    try:
        await pubsub.aclose()
    except Exception:
        log.debug("closing a dead redis pub/sub failed", exc_info=True)


def make_broker(url: str) -> Broker:
    """The broker named by CIVITAS_BROKER_URL."""
    if url.startswith("memory://"):
        return MemoryBroker()
    if url.startswith(("redis://", "rediss://")):
        return RedisBroker(url)
    raise ValueError(f"unsupported broker URL scheme: {url.split('://')[0]}")
