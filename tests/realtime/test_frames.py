"""What a socket tells a client about its frames: why a frame was refused, and a flood budget
that refills with time."""

from __future__ import annotations

from app.limits import TokenBucket
from app.realtime.ws import _parse


def test_a_deeply_nested_frame_and_broken_json_get_their_own_reasons():
    """Nesting past the parser's limit says so; text that is not JSON says that instead."""
    deep = '{"type": "move", "move": ' + "[" * 2000 + "]" * 2000 + "}"
    assert _parse(deep, 100_000) == (None, "The frame nests too deeply.")
    assert _parse('{"type": "move", ', 100_000) == (None, "The frame is not valid JSON.")
    assert _parse('{"type": "ping"}', 100_000) == ({"type": "ping"}, None)


def test_the_frame_budget_refills_with_time():
    """A burst spends the budget (twice the rate); after a second's wait, `rate` more frames pass."""
    bucket = TokenBucket(rate=5, now=100.0)
    assert [bucket.take(100.0) for _ in range(11)] == [True] * 10 + [False]
    assert bucket.refused == 1
    assert [bucket.take(101.0) for _ in range(6)] == [True] * 5 + [False]
    # Waiting longer than it takes to fill up never gives more than the full budget.
    assert [bucket.take(1000.0) for _ in range(11)] == [True] * 10 + [False]
