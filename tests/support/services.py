"""The test Redis: where it is, whether it answers, and the mark for tests that need it (skipped,
and named in the run's closing "NOT RUN for want of Redis" line, only outside CI)."""

from __future__ import annotations

import functools
import os

import pytest

# In CI these services must be there: a missing one fails the run instead of skipping quietly.
IN_CI = bool(os.environ.get("CI"))
REDIS_URL = os.environ.get("CIVITAS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


@functools.cache
def redis_up() -> bool:
    """True if the test Redis answers a ping within a second."""
    try:
        import redis

        return bool(redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except Exception:
        return False


# Evaluated once, when a module using it is collected (a ping of at most a second).
needs_redis = pytest.mark.skipif(
    not IN_CI and not redis_up(), reason=f"needs a Redis at {REDIS_URL} (.ci/run starts one)"
)
