"""The Redis broker's reconnect loop: every lost subscription is closed before a new one opens
(no leaked connections), an ended subscription backs off instead of spinning, the backoff grows
while Redis stays away and starts over once a message gets through, and a failing handler never
stops delivery."""

from __future__ import annotations

import asyncio
import json

from app.realtime import broker as broker_module
from app.realtime.broker import RedisBroker

DEAD = {2, 3}  # these subscriptions drop before delivering anything
REFUSED = {5}  # this one cannot even subscribe


class FakePubSub:
    """A subscription that confirms, delivers its messages, then loses its connection."""

    def __init__(self, redis: "FakeRedis", n: int) -> None:
        self.redis, self.n, self.subscribed = redis, n, False
        redis.log.append("open")

    async def subscribe(self, channel: str) -> None:
        if self.n in REFUSED:
            raise ConnectionError("redis is away")
        self.subscribed = True

    async def listen(self):
        if self.n in DEAD:
            raise ConnectionError("connection lost")
        yield {"type": "subscribe", "data": 1}  # confirmations are not events
        yield {"type": "message", "data": b'{"type": "game", "n": %d}' % self.n}
        raise ConnectionError("connection lost")

    async def aclose(self) -> None:
        self.redis.log.append("close")


class FakeRedis:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.opened = 0

    def pubsub(self) -> FakePubSub:
        self.opened += 1
        return FakePubSub(self, self.opened)

    async def aclose(self) -> None:
        self.log.append("redis closed")


def test_a_reconnect_closes_the_old_subscription_and_backs_off(monkeypatch):
    """Broker: after many lost connections exactly one subscription is open (then none after
    stop); delays double while nothing gets through (0.2, 0.4, 0.8, also when a subscribe is
    refused) and start over at 0.2 after a delivered message; an event whose handler fails does
    not stop the next ones."""
    real_sleep = asyncio.sleep
    delays: list[float] = []

    async def fake_sleep(delay):
        delays.append(delay)
        await real_sleep(0)

    monkeypatch.setattr(broker_module.asyncio, "sleep", fake_sleep)

    async def scenario():
        broker = RedisBroker.__new__(RedisBroker)
        broker._redis, broker._task, broker._pubsub = FakeRedis(), None, None
        seen = []

        async def handler(event):
            seen.append(event["n"])
            if event["n"] == 4:
                raise RuntimeError("a broken handler")

        await broker.start(handler)
        while len(seen) < 4:
            await real_sleep(0)
        await broker.stop()
        await real_sleep(0)
        return broker._redis.log, seen

    log, seen = asyncio.run(scenario())
    assert seen[:4] == [1, 4, 6, 7]  # 2 and 3 dropped, 5 never subscribed, 4's failure is logged
    assert delays[:6] == [0.2, 0.4, 0.8, 0.2, 0.4, 0.2]
    assert log.count("open") == log.count("close") and log[-1] == "redis closed"
    assert log[:4] == ["open", "close", "open", "close"]


class _SlowPublisher(FakeRedis):
    """Publishing takes a few event-loop turns, as a round trip to Redis does."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[bytes] = []

    async def publish(self, channel: str, data: bytes) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        self.published.append(data)

    def pipeline(self, transaction: bool):
        redis = self

        class Pipe:
            def __init__(self) -> None:
                self.queued: list[bytes] = []

            async def __aenter__(self):
                return self

            async def __aexit__(self, *exc) -> None:
                return None

            def publish(self, channel: str, data: bytes) -> None:
                self.queued.append(data)

            async def execute(self) -> None:
                await asyncio.sleep(0)
                redis.published.extend(self.queued)

        return Pipe()


def test_stop_sends_the_events_still_queued_first():
    """Events published just before shutdown still reach Redis, in order, before the broker
    closes (other instances would otherwise miss the last moves' hints)."""

    async def scenario():
        broker = RedisBroker.__new__(RedisBroker)
        broker._redis, broker._task, broker._pubsub = _SlowPublisher(), None, None
        broker._outbox, broker._wake, broker._sender = [], asyncio.Event(), None
        for n in range(5):
            await broker.publish({"type": "game", "n": n})
        await broker.stop()
        return broker._redis

    redis = asyncio.run(scenario())
    assert [json.loads(d)["n"] for d in redis.published] == [0, 1, 2, 3, 4]
    assert redis.log[-1] == "redis closed"
