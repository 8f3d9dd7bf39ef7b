"""The suite's own guards (tests/conftest.py): a task deaf to cancellation fails fast, by name."""

from __future__ import annotations

import asyncio

import pytest

from tests import conftest


def test_a_task_that_ignores_cancellation_fails_the_loop_naming_it(monkeypatch):
    """asyncio.run() ends with an error that names the stuck task and where it waits, within
    the grace period, instead of waiting for it forever."""
    monkeypatch.setattr(conftest, "CANCEL_GRACE_SECONDS", 0.2)
    release = None

    async def stubborn() -> None:
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if release is not None and release.is_set():
                    raise

    async def main() -> None:
        nonlocal release
        release = asyncio.Event()
        asyncio.get_running_loop().create_task(stubborn(), name="stubborn-task")
        await asyncio.sleep(0)

    with pytest.raises(conftest.TasksIgnoredCancellation) as caught:
        asyncio.run(main())
    assert "stubborn-task" in str(caught.value) and "stubborn" in str(caught.value)
    assert asyncio.events._get_running_loop() is None


def test_tasks_that_end_when_cancelled_pass_quietly():
    """The bounded cancellation still waits for well-behaved tasks' cleanup."""
    cleaned = []

    async def polite() -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            await asyncio.sleep(0.01)
            cleaned.append(True)

    async def main() -> None:
        asyncio.get_running_loop().create_task(polite())
        await asyncio.sleep(0)

    asyncio.run(main())
    assert cleaned == [True]
