"""A small Prometheus registry: counters, gauges (or gauge callbacks) and histograms, rendered in
the text exposition format at /metrics. Updating one is a dict lookup and an addition, cheap
enough for every move and every frame."""

from __future__ import annotations

import bisect
import math
from typing import Callable, Iterable, TypeVar


def _labels(labels: tuple[tuple[str, str], ...]) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{k}="{_escape(v)}"' for k, v in labels)
    return "{" + inner + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _num(value: float) -> str:
    if value == math.inf:
        return "+Inf"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


class Counter:
    """A monotonically increasing count, optionally by one label set per child."""

    kind = "counter"

    def __init__(self, name: str, help_text: str) -> None:
        self.name, self.help = name, help_text
        self.values: dict[tuple[tuple[str, str], ...], float] = {}

    def inc(self, amount: float = 1, **labels: str) -> None:
        """Add `amount`."""
        key = tuple(sorted(labels.items())) if labels else ()
        self.values[key] = self.values.get(key, 0) + amount

    def samples(self) -> Iterable[str]:
        """Exposition lines."""
        for key, value in (self.values or {(): 0}).items():
            yield f"{self.name}{_labels(key)} {_num(value)}"


class Gauge:
    """A value that goes up and down, set directly or read from a callback at scrape time."""

    kind = "gauge"

    def __init__(
        self,
        name: str,
        help_text: str,
        read: Callable[[], dict[tuple[tuple[str, str], ...], float] | float] | None = None,
    ) -> None:
        self.name, self.help, self.read = name, help_text, read
        self.values: dict[tuple[tuple[str, str], ...], float] = {}

    def set(self, value: float, **labels: str) -> None:
        """Set the value."""
        self.values[tuple(sorted(labels.items()))] = value

    def inc(self, amount: float = 1, **labels: str) -> None:
        """Add `amount` (negative to lower it)."""
        key = tuple(sorted(labels.items()))
        self.values[key] = self.values.get(key, 0) + amount

    def samples(self) -> Iterable[str]:
        """Exposition lines."""
        values = self.values
        if self.read is not None:
            read = self.read()
            values = read if isinstance(read, dict) else {(): read}
        for key, value in (values or {(): 0}).items():
            yield f"{self.name}{_labels(key)} {_num(value)}"


class Histogram:
    """Observations counted into fixed buckets, with their sum and count."""

    kind = "histogram"

    def __init__(self, name: str, help_text: str, buckets: list[float]) -> None:
        self.name, self.help = name, help_text
        self.bounds = sorted(buckets)
        self.counts = [0] * (len(self.bounds) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        """Count one observation."""
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def samples(self) -> Iterable[str]:
        """Exposition lines (cumulative buckets)."""
        running = 0
        for bound, count in zip(self.bounds + [math.inf], self.counts):
            running += count
            yield f'{self.name}_bucket{{le="{_num(bound)}"}} {running}'
        yield f"{self.name}_sum {repr(self.sum)}"
        yield f"{self.name}_count {self.count}"


_M = TypeVar("_M", "Counter", "Gauge", "Histogram")  # Registry.add returns what it was given


class Registry:
    """Every metric of the process, rendered together."""

    def __init__(self) -> None:
        self.metrics: dict[str, Counter | Gauge | Histogram] = {}

    def add(self, metric: _M) -> _M:
        """Register a metric (replacing one of the same name) and return it."""
        self.metrics[metric.name] = metric
        return metric

    def render(self) -> str:
        """The text exposition format, version 0.0.4."""
        lines: list[str] = []
        for metric in self.metrics.values():
            lines.append(f"# HELP {metric.name} {metric.help}")
            lines.append(f"# TYPE {metric.name} {metric.kind}")
            lines.extend(metric.samples())
        return "\n".join(lines) + "\n"


LATENCY_BUCKETS = [0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

REGISTRY = Registry()
MOVES = REGISTRY.add(Counter("civitas_moves_total", "Moves stored by this process."))
MOVE_REFUSED = REGISTRY.add(Counter("civitas_moves_refused_total", "Moves refused, by error code."))
MOVE_SECONDS = REGISTRY.add(
    Histogram(
        "civitas_move_seconds",
        "Time from a move's arrival to its commit (checks, rules, database).",
        LATENCY_BUCKETS,
    )
)
PATCH_FRAMES = REGISTRY.add(
    Counter(
        "civitas_patch_frames_encoded_total",
        "Patch frames encoded: one per audience (a seat, or the spectators) per version.",
    )
)
PATCH_BYTES = REGISTRY.add(Counter("civitas_patch_bytes_total", "Bytes of patch frames queued to sockets."))
RESYNCS = REGISTRY.add(
    Counter("civitas_resyncs_total", "Snapshots sent to a socket that already had the game (it fell behind).")
)
DROPPED = REGISTRY.add(
    Counter("civitas_sockets_dropped_total", "Sockets closed because their send queue filled (slow readers).")
)
BROKER_LAG = REGISTRY.add(
    Histogram(
        "civitas_broker_lag_seconds",
        "Time from publishing an event to this process handling it.",
        LATENCY_BUCKETS,
    )
)
POOL_WAIT = REGISTRY.add(
    Histogram(
        "civitas_db_pool_wait_seconds",
        "Time spent waiting for a database connection from the pool.",
        LATENCY_BUCKETS,
    )
)
POOL_WAITS = REGISTRY.add(
    Counter("civitas_db_pool_waits_total", "Connection checkouts that had to wait (over 1 ms) for the pool.")
)
LOOP_LAG = REGISTRY.add(
    Histogram(
        "civitas_event_loop_lag_seconds",
        "How late the event loop ran a timer set every 50 ms: the longest any socket or request "
        "waited for the loop at that moment (within about 1 ms of timer granularity).",
        [0.0005, 0.001, 0.002, 0.003, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    )
)
BOT_DECISION_SECONDS = REGISTRY.add(
    Histogram(
        "civitas_bot_decision_seconds",
        "Time from asking the bot worker pool for a move to its answer (queue wait included).",
        LATENCY_BUCKETS,
    )
)
BOT_WORKER_STARTS = REGISTRY.add(
    Counter(
        "civitas_bot_worker_starts_total",
        "Bot worker processes started (a restart after a crash or a missed deadline counts too).",
    )
)
BOT_FALLBACKS = REGISTRY.add(
    Counter(
        "civitas_bot_fallbacks_total",
        "Bot moves played as a random legal move because the worker pool could not answer, by reason.",
    )
)
POOL_TIMEOUTS = REGISTRY.add(
    Counter(
        "civitas_db_pool_timeouts_total",
        "Connection checkouts that gave up waiting for the pool (the request failed).",
    )
)
POOL_NESTED = REGISTRY.add(
    Counter(
        "civitas_db_pool_nested_checkouts_total",
        "Connections checked out by a task that already held one (a deadlock risk; should stay 0).",
    )
)
