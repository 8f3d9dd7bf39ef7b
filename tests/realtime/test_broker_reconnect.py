"""The Redis broker's reconnect loop: every lost subscription is closed before a new one opens
(no leaked connections), and an ended subscription backs off instead of spinning."""

from __future__ import annotations

import asyncio

from app.realtime import broker as broker_module
from app.realtime.broker import RedisBroker


class FakePubSub:
    """A subscription whose connection drops after delivering its messages."""

    def __init__(self, log: list[str], messages: list[dict]) -> None:
        self.log, self.messages, self.subscribed = log, messages, False
        log.append("open")

    async def subscribe(self, channel: str) -> None:
        self.subscribed = True

    async def listen(self):
        for message in self.messages:
            yield message
        raise ConnectionError("connection lost")

    async def aclose(self) -> None:
        self.log.append("close")


class FakeRedis:
    def __init__(self) -> None:
        self.log: list[str] = []
        self.opened = 0

    def pubsub(self) -> FakePubSub:
        self.opened += 1
        payload = b'{"type": "game", "n": %d}' % self.opened
        return FakePubSub(self.log, [{"type": "message", "data": payload}])

    async def aclose(self) -> None:
        self.log.append("redis closed")


def test_a_reconnect_closes_the_old_subscription_before_opening_a_new_one(monkeypatch):
    """Broker: after four lost connections exactly one subscription is open, and every event
    delivered before each loss reached the handler."""
    real_sleep = asyncio.sleep
    monkeypatch.setattr(broker_module.asyncio, "sleep", lambda delay: real_sleep(0))

    async def scenario():
        broker = RedisBroker.__new__(RedisBroker)
        broker._redis, broker._task, broker._pubsub = FakeRedis(), None, None
        seen = []

        async def handler(event):
            seen.append(event["n"])

        await broker.start(handler)
        while len(seen) < 5:
            await real_sleep(0)
        await broker.stop()
        await real_sleep(0)
        return broker._redis.log, seen

    log, seen = asyncio.run(scenario())
    assert seen[:5] == [1, 2, 3, 4, 5]
    opened, closed = log.count("open"), log.count("close")
    assert opened - closed == 0 and log[-1] == "redis closed"  # stop closed the last one too
    assert log[:4] == ["open", "close", "open", "close"]
