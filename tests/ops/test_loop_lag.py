"""The event loop's lag on /metrics (app/observability/loop_lag.py): something that holds the
loop shows as a late timer, and a running server reports the histogram."""

from __future__ import annotations

import asyncio
import time

from app.observability.loop_lag import LoopLag
from app.observability.metrics import LOOP_LAG
from tests.support.wait import wait_for


def test_a_loop_held_by_blocking_work_shows_as_lag():
    """Work that blocks the loop for 60 ms (as a bot move or an inline commit used to) makes the
    next sample at least 40 ms late: a lower bound, which a slow machine only raises."""
    above_25ms = LOOP_LAG.bounds.index(0.025) + 1  # buckets above 25 ms

    async def scenario():
        lag = LoopLag(interval=0.01)
        await lag.start()
        await asyncio.sleep(0.03)
        before = sum(LOOP_LAG.counts[above_25ms:])
        time.sleep(0.06)  # noqa: ASYNC251 - holding the loop is what this test does
        await asyncio.sleep(0.03)
        await lag.stop()
        return before, sum(LOOP_LAG.counts[above_25ms:])

    before, after = asyncio.run(scenario())
    assert after > before


def test_a_running_server_reports_its_loop_lag(client):
    """/metrics carries the histogram, sampled while the server runs."""

    def sampled():
        text = client.get("/metrics").text
        line = next(x for x in text.splitlines() if x.startswith("civitas_event_loop_lag_seconds_count"))
        return float(line.split()[1]) > 0

    assert wait_for(sampled, timeout=10)
