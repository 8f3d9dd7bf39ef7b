"""Bot decisions off the event loop: worker processes fed JSON, with a deadline per decision.

Each worker is `python -m app.bot_worker` (one request line in, one answer line out; see that
module), started when the first decision is asked for and started again when it dies. A
decision waits in one queue for a free worker (at most `queue_seconds`), then has `deadline`
seconds to come back; a worker that misses it is killed and replaced (its half-made decision
is worthless, and it may be stuck for good). Whoever asked gets a `BotPoolError` saying which
of these went wrong and plays a fallback move (app/services/bots.py). The pool knows nothing of
levels or rules: what a request means is app/engine/choosers.py's business, in the worker.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.observability.metrics import BOT_DECISION_SECONDS, BOT_WORKER_STARTS
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

ANSWER_LIMIT = 16 * 1024 * 1024  # the longest answer line read from a worker
START_SECONDS = 60.0  # a worker not ready this long after its start is killed and started again


class BotPoolError(Exception):
    """A decision the pool could not deliver: `reason` is "deadline" (the worker did not answer
    in time), "crash" (it died), "error" (the chooser raised), "busy" (no worker was free in
    time) or "closed" (the pool is stopping)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


@dataclass(slots=True)
class Decision:
    """A worker's answer: the move, which process chose it and how long it thought."""

    move: Any
    pid: int
    seconds: float


@dataclass(eq=False)
class _Job:
    id: int
    line: bytes
    deadline: float
    future: asyncio.Future[Decision]
    queued: float = field(default_factory=time.monotonic)


def encode(request: dict[str, Any]) -> bytes:
    """A request as the JSON line a worker reads (app.bot_worker.parse reads it back). States
    are JSON data, which orjson writes fastest as they are; a dict with keys other than strings
    is written with them as strings (as a stored snapshot has them); a state with an integer
    beyond 64 bits is written by the stdlib, marked with a leading "S" so that the worker reads
    it with the stdlib too (orjson would read such an integer back as a float)."""
    try:
        return orjson.dumps(request)
    except TypeError:
        pass
    try:
        return orjson.dumps(request, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return b"S" + json.dumps(request, separators=(",", ":")).encode()


def default_size(cores: int | None = None) -> int:
    """Workers for this machine: one per core this process may use, less one left to the event
    loop (so bots at full tilt never take every core from the sockets), and at least one."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, cores - 1)


class BotPool:
    """A fixed number of bot worker processes sharing one queue of decisions. A decision's
    `queue_seconds` count only while some worker is up: the first ones may also wait for the
    workers to start (START_SECONDS at most)."""

    def __init__(self, size: int, rulesets: str = "", queue_seconds: float = 10.0) -> None:
        self.size = size
        self.rulesets = rulesets  # CIVITAS_EXTRA_RULESETS: the workers register them too
        self.queue_seconds = queue_seconds
        self._queue: asyncio.Queue[_Job] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._procs: dict[int, asyncio.subprocess.Process] = {}  # slot -> its live worker
        self._ready: set[int] = set()  # slots whose worker has started and not failed since
        self._ids = itertools.count(1)
        self._closed = False

    def pids(self) -> list[int]:
        """The process ids of the workers running now."""
        return [p.pid for p in self._procs.values() if p.returncode is None]

    async def choose(self, request: dict[str, Any], deadline: float) -> Decision:
        """Have a worker answer `request` (JSON data); raises BotPoolError if none can in time:
        `queue_seconds` to be taken by a worker, then `deadline` seconds to answer."""
        if self._closed:
            raise BotPoolError("closed")
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._tasks = [
                asyncio.create_task(self._serve(slot), name=f"bot-worker-{slot}") for slot in range(self.size)
            ]
        job_id = next(self._ids)
        line = encode({**request, "id": job_id}) + b"\n"
        job = _Job(job_id, line, deadline, asyncio.get_running_loop().create_future())
        self._queue.put_nowait(job)
        start = time.perf_counter()
        # Waiting for a worker to start is not waiting for a busy one: with none ready yet (the
        # first decisions, or every worker being replaced) the start-up is allowed on top.
        starting = 0.0 if self._ready else START_SECONDS
        try:
            decision = await asyncio.wait_for(
                asyncio.shield(job.future), self.queue_seconds + deadline + starting
            )
        except TimeoutError:
            raise BotPoolError(
                "busy", f"no worker answered within {self.queue_seconds:g} s plus the {deadline:g} s deadline"
            ) from None
        finally:
            if not job.future.done():  # given up on: a worker that takes it later skips it
                job.future.cancel()
        BOT_DECISION_SECONDS.observe(time.perf_counter() - start)
        return decision

    async def _serve(self, slot: int) -> None:
        """One worker slot: keep a worker process running and feed it jobs, one at a time.
        (Cancelled by aclose, which stops the processes: nothing here awaits on the way out.)"""
        assert self._queue is not None
        proc: asyncio.subprocess.Process | None = None
        starts, ready = 0, 0.0
        while True:
            if proc is None:
                proc = await self._start(slot, starts)
                starts += 1
                if proc is None:
                    continue
                starts, ready = 0, time.monotonic()
                self._ready.add(slot)
            job = await self._queue.get()
            if job.future.done():
                continue
            if time.monotonic() - max(job.queued, ready) > self.queue_seconds:
                # Waited that long while this worker was up (and busy with others' decisions).
                job.future.set_exception(BotPoolError("busy", "waited too long for a worker"))
                continue
            proc = await self._run(proc, job)
            if proc is None:
                self._procs.pop(slot, None)
                self._ready.discard(slot)

    async def _start(self, slot: int, failures: int) -> asyncio.subprocess.Process | None:
        """Start a worker and wait until it is ready; None (after a pause that grows with each
        failure in a row) if it died or hung on the way."""
        if failures:
            await asyncio.sleep(min(0.25 * 2**failures, 30.0))
        BOT_WORKER_STARTS.inc()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "app.bot_worker",
                self.rulesets,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                limit=ANSWER_LIMIT,
            )
        except OSError as exc:  # out of processes or file descriptors: try again later
            log.error("could not start a bot worker (%s); trying again", exc)
            return None
        self._procs[slot] = proc
        try:
            assert proc.stdout is not None
            ready = await asyncio.wait_for(proc.stdout.readline(), START_SECONDS)
            if orjson.loads(ready).get("ready") == proc.pid:
                return proc
        except (TimeoutError, orjson.JSONDecodeError, AttributeError):
            pass
        log.error("bot worker %s did not start (exit status %s); trying again", proc.pid, proc.returncode)
        await _stop(proc)
        self._procs.pop(slot, None)
        return None

    async def _run(self, proc: asyncio.subprocess.Process, job: _Job) -> asyncio.subprocess.Process | None:
        """Send one job to the worker and settle its future; the worker, or None once it is
        gone (killed for missing the deadline, or died)."""
        failure: BotPoolError | None = None
        try:
            answer = await asyncio.wait_for(_exchange(proc, job.line), job.deadline)
        except TimeoutError:
            failure = BotPoolError("deadline", f"worker {proc.pid} took over {job.deadline:g} s")
        except (ConnectionError, ValueError) as exc:  # a broken pipe, a line past the limit
            failure = BotPoolError("crash", f"worker {proc.pid}: {type(exc).__name__}")
        else:
            if answer is None:
                await proc.wait()
                failure = BotPoolError("crash", f"worker {proc.pid} exited ({proc.returncode})")
            elif not isinstance(answer, dict) or answer.get("id") != job.id:
                failure = BotPoolError("crash", f"worker {proc.pid} answered out of turn")
            elif "error" in answer:
                _settle(job, BotPoolError("error", str(answer["error"])))
                return proc
            else:
                _settle(job, Decision(answer.get("move"), proc.pid, float(answer.get("seconds", 0.0))))
                return proc
        _settle(job, failure)
        await _stop(proc, kill=True)  # stuck or broken: whatever it was doing is worthless
        return None

    async def aclose(self) -> None:
        """Stop the workers (each is told by its stdin closing, and killed if it lingers); any
        decision still waiting fails with "closed"."""
        self._closed = True
        await stop_tasks(self._tasks)
        procs, self._procs = list(self._procs.values()), {}
        await asyncio.gather(*(_stop(proc) for proc in procs))
        if self._queue is not None:
            while not self._queue.empty():
                _settle(self._queue.get_nowait(), BotPoolError("closed"))


async def _exchange(proc: asyncio.subprocess.Process, line: bytes) -> Any:
    """Send one request line and read the answer line: its JSON, or None if the worker is gone."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(line)
    await proc.stdin.drain()
    answer = await proc.stdout.readline()
    return orjson.loads(answer) if answer else None


def _settle(job: _Job, outcome: Decision | BotPoolError) -> None:
    """Hand the job's outcome to whoever still waits for it."""
    if job.future.done():
        return
    if isinstance(outcome, BotPoolError):
        job.future.set_exception(outcome)
    else:
        job.future.set_result(outcome)


async def _stop(proc: asyncio.subprocess.Process, kill: bool = False) -> None:
    """End a worker: close its stdin (it exits at once when idle), kill it if it lingers (at
    once with `kill`)."""
    if proc.returncode is None and not kill:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            await asyncio.wait_for(asyncio.shield(proc.wait()), 0.5)
        except (TimeoutError, ConnectionError):
            pass
    if proc.returncode is None:
        try:
            proc.kill()
        except ProcessLookupError:  # it ended on its own meanwhile
            pass
    await proc.wait()
