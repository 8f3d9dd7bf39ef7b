"""The event loop's lag: how late it runs a timer, sampled all the time into a histogram.

Anything that holds the loop (a slow rule, a synchronous database call, a big JSON encode)
delays every socket and request of the instance by as long; a timer set every INTERVAL seconds
fires that much late, and /metrics shows it as `civitas_event_loop_lag_seconds`.
"""

from __future__ import annotations

import asyncio

from app.observability.metrics import LOOP_LAG
from app.tasks import stop_tasks

INTERVAL = 0.05  # seconds between samples: 20 a second, a few microseconds of work each


class LoopLag:
    """Samples the running loop's lag into LOOP_LAG while started."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Begin sampling on the running loop."""
        self._task = asyncio.create_task(self._sample(), name="loop-lag")

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time() + self.interval
            await asyncio.sleep(self.interval)
            LOOP_LAG.observe(max(0.0, loop.time() - asked))

    async def stop(self) -> None:
        """Stop sampling."""
        await stop_tasks([self._task])
