"""The Redis broker's reconnect loop: every lost subscription is closed before a new one opens
(no leaked connections), an ended subscription backs off instead of spinning, the backoff grows
while Redis stays away and starts over once a message gets through, and a failing handler never
stops delivery."""

from __future__ import annotations

import asyncio

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
