"""Stopping background tasks for good: cancel, and wait until each one has really ended."""

from __future__ import annotations

import asyncio
import logging
from typing import Iterable

log = logging.getLogger(__name__)


async def stop_tasks(tasks: Iterable[asyncio.Task | None], timeout: float = 5.0) -> list[asyncio.Task]:
    """Cancel the tasks and wait until they have ended; returns those still running after
    `timeout` seconds (logged). A task whose cancellation was lost (a library that turned the
    CancelledError into another error, which a `while True` loop then caught and carried on
    from) is cancelled again every tenth of a second: a stopped service never leaves a loop
    running, which would otherwise keep its event loop from ever closing."""
    current = asyncio.current_task()
    pending = {t for t in tasks if t is not None and t is not current and not t.done()}
    if not pending:
        return []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while pending:
        for task in pending:
            task.cancel()
        left = deadline - loop.time()
        if left <= 0:
            break
        _done, pending = await asyncio.wait(pending, timeout=min(0.1, left))
    for task in pending:
        log.error("task %r still running %.1f s after being cancelled", task.get_name(), timeout)
    return list(pending)
