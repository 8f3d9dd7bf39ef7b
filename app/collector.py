"""Keeps the garbage collector's pauses short: long-lived objects are frozen out of its reach now
and then, and let back in rarely, so that cycles among them are still reclaimed.

Why: CPython's full collection walks every tracked object. A server holding 1,000 live games and
2,000 sockets tracks a quarter of a million of them, and each full collection stopped the event
loop for 150-250 ms on this machine (bench/RESULTS.md, "Collector"): every move in flight waited.
Games, sockets and their documents live for minutes and die by reference counting, which a
frozen object still does; only garbage *cycles* among frozen objects wait for the next thaw.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from typing import Any

from app.observability.metrics import REGISTRY, Gauge, Histogram

log = logging.getLogger(__name__)

PAUSE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]
FULL_PAUSES = REGISTRY.add(
    Histogram(
        "civitas_gc_full_pause_seconds",
        "Full (oldest-generation) garbage collections: how long each stopped the process.",
        PAUSE_BUCKETS,
    )
)
REGISTRY.add(
    Gauge(
        "civitas_gc_frozen_objects",
        "Objects frozen out of the garbage collector's reach (until the next thaw).",
        gc.get_freeze_count,
    )
)


class _PauseTimer:
    """A gc callback timing full collections (one per process, however many platforms run)."""

    def __init__(self) -> None:
        self.started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self.started = time.perf_counter()
        elif self.started:
            FULL_PAUSES.observe(time.perf_counter() - self.started)
            self.started = 0.0


_TIMER = _PauseTimer()


class Collector:
    """Every `freeze_seconds`, the young generations are collected and every object that is still
    alive is frozen; every `thaw_seconds`, everything is unfrozen, collected once in full (one
    long pause, instead of one every few seconds), and frozen again. 0 turns either off."""

    def __init__(self, freeze_seconds: float, thaw_seconds: float) -> None:
        self.freeze_seconds = freeze_seconds
        self.thaw_seconds = thaw_seconds
        self.next_thaw = 0.0
        self.freezes = 0
        self.thaws = 0
        self._task: asyncio.Task[None] | None = None

    def freeze(self) -> None:
        """Collect the young generations (short-lived cycles), then freeze what is left."""
        gc.collect(1)
        gc.freeze()
        self.freezes += 1

    def thaw(self) -> None:
        """Let every frozen object back in, collect in full (cycles that died while frozen are
        reclaimed here), and freeze the survivors again."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.thaws += 1

    def tick(self, now: float) -> None:
        """One turn of the schedule at time `now`: a thaw when one is due, else a freeze."""
        if self.thaw_seconds > 0 and now >= self.next_thaw:
            if self.next_thaw:
                self.thaw()
            else:
                self.freeze()
            self.next_thaw = now + self.thaw_seconds
            return
        self.freeze()

    async def start(self) -> None:
        """Time full collections and, if freezing is on, run the schedule."""
        if _TIMER not in gc.callbacks:
            gc.callbacks.append(_TIMER)
        if self.freeze_seconds > 0 and self._task is None:
            self._task = asyncio.create_task(self._loop())

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.freeze_seconds)
            try:
                self.tick(loop.time())
            except Exception:  # noqa: BLE001 - the collector must never take the server down
                log.exception("collector tick failed")

    async def stop(self) -> None:
        """Stop the schedule (what is frozen stays frozen; reference counting still frees it)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
