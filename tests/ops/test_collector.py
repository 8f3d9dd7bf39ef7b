"""The collector schedule (app/collector.py): long-lived objects frozen out of full collections,
cycles among them still reclaimed at the next thaw, full-collection pauses in /metrics."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from app.collector import FULL_PAUSES, Collector


class Node:
    """A cycle-forming object that a weak reference can watch."""

    def __init__(self) -> None:
        self.other: Node | None = None


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


@pytest.fixture
def thawed():
    """Every test leaves the process's collector as it found it: nothing frozen by the test."""
    yield
    gc.unfreeze()


def _tracked(obj: object) -> bool:
    return any(o is obj for o in gc.get_objects())


def test_a_freeze_takes_live_objects_out_of_the_collectors_reach(thawed):
    """After a freeze, an object alive before it is no longer in any generation a collection walks."""
    kept = Node()
    assert _tracked(kept)
    before = gc.get_freeze_count()
    Collector(10, 600).freeze()
    assert gc.get_freeze_count() > before
    assert not _tracked(kept)


def test_a_frozen_cycle_is_reclaimed_at_the_thaw_not_before(thawed):
    """A cycle that dies while frozen survives full collections, and the thaw reclaims it."""
    collector = Collector(10, 600)
    held = Node()
    held.other = Node()
    held.other.other = held
    watch = weakref.ref(held)
    collector.freeze()
    del held  # the cycle dies while frozen
    gc.collect()
    assert watch() is not None  # frozen: the full collection did not look at it
    collector.thaw()
    assert watch() is None
    assert collector.thaws == 1


def test_young_cycles_are_collected_before_a_freeze(thawed):
    """Garbage cycles that are already dead when a freeze comes are collected first, not frozen
    (they would otherwise wait for the thaw)."""
    watch = _cycle()
    Collector(10, 600).freeze()
    assert watch() is None


def test_frozen_objects_are_still_freed_by_reference_counting(thawed):
    """A frozen object that is not in a cycle goes as soon as its last reference does."""
    kept = Node()
    watch = weakref.ref(kept)
    Collector(10, 600).freeze()
    del kept
    assert watch() is None


def test_the_schedule_freezes_each_tick_and_thaws_once_per_thaw_period(thawed, monkeypatch):
    """Ticks 10 s apart with a 30 s thaw period: the first tick freezes and starts the period,
    the tick at 30 s thaws, the others freeze; a thaw period of 0 never thaws."""
    calls: list[str] = []
    collector = Collector(10, 30)
    monkeypatch.setattr(collector, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(collector, "thaw", lambda: calls.append("thaw"))
    for now in (100, 110, 120, 130, 140, 160):
        collector.tick(now)
    assert calls == ["freeze", "freeze", "freeze", "thaw", "freeze", "thaw"]

    never = Collector(10, 0)
    calls.clear()
    monkeypatch.setattr(never, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(never, "thaw", lambda: calls.append("thaw"))
    for now in (0, 1000, 100000):
        never.tick(now)
    assert calls == ["freeze"] * 3


def test_full_collection_pauses_are_counted_in_metrics(client, thawed):
    """A running platform times every full collection into civitas_gc_full_pause_seconds and
    reports what is frozen in civitas_gc_frozen_objects."""
    before = FULL_PAUSES.count
    gc.collect()
    assert FULL_PAUSES.count == before + 1
    Collector(10, 600).freeze()
    text = client.get("/metrics").text
    assert "civitas_gc_full_pause_seconds_count" in text
    frozen = [line for line in text.splitlines() if line.startswith("civitas_gc_frozen_objects ")]
    reported = float(frozen[0].split()[1])
    # frozen objects still die by reference counting, so the count moves a little meanwhile
    assert reported > 1000 and abs(reported - gc.get_freeze_count()) <= 0.01 * reported


def test_stop_ends_the_schedule(thawed):
    """A started collector runs its loop until stopped, and stopping it twice is harmless."""

    async def run() -> None:
        collector = Collector(0.001, 0)
        await collector.start()
        task = collector._task
        assert task is not None and not task.done()
        await collector.stop()
        assert task.done() and collector._task is None
        await collector.stop()

    asyncio.run(run())
