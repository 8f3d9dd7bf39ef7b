"""The notification outbox's sender: an instance sends at once the rows it wrote (it wakes its
sender), and retries when they are due; now and then (and when it starts) it also looks for rows
left by an instance that stopped. It claims each with a guarded UPDATE that also sets a lease, sends it, and marks
it sent. A row whose sender died is claimed again once its lease ran out, so a restart loses
none; a claim succeeds for one instance only, so two instances never both send a row (a sender
that dies after sending and before marking may send that one row again: at least once)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import OutboxRow
from app.services.clocks import now
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

BATCH = 100


class Undeliverable(Exception):
    """The channel cannot reach this player at all (no address, subscription gone): no retry."""


# (session, row) -> None; raises Undeliverable, or anything else for a retry later.
Sender = Callable[[AsyncSession, OutboxRow], Awaitable[None]]


def _due(moment: Any) -> Any:
    return or_(
        and_(OutboxRow.status == "pending", OutboxRow.not_before <= moment),
        and_(OutboxRow.status == "sending", OutboxRow.lease_until < moment),
    )


class Outbox:
    """Claims and sends due notifications through one sender per channel."""

    def __init__(
        self,
        sessions: Any,
        instance: str,
        senders: dict[str, Sender],
        every: float,
        lease_seconds: float,
        attempts: int,
        write_turn: Callable[[], Any],
    ) -> None:
        self.sessions = sessions
        self.instance = instance
        self.senders = senders
        self.every = every
        self.lease = timedelta(seconds=lease_seconds)
        self.attempts = attempts
        self.write_turn = write_turn
        self._wake = asyncio.Event()
        self._next_retry: float | None = None  # loop time of the earliest retry this instance set
        self._task: asyncio.Task[None] | None = None
        self._sending = asyncio.Semaphore(16)

    def wake(self) -> None:
        """Look for due rows now (this instance just wrote some)."""
        self._wake.set()

    async def claim(self) -> list[int]:
        """Claim up to BATCH due rows for this instance; returns their ids."""
        moment = now()
        async with self.sessions() as session:
            ids = list(
                (
                    await session.execute(
                        select(OutboxRow.id).where(_due(moment)).order_by(OutboxRow.id).limit(BATCH)
                    )
                ).scalars()
            )
        if not ids:
            return []
        claimed = []
        async with self.write_turn(), self.sessions() as session:
            for row_id in ids:
                result = await session.execute(
                    update(OutboxRow)
                    .where(OutboxRow.id == row_id, _due(moment))
                    .values(
                        status="sending",
                        claimed_by=self.instance,
                        lease_until=moment + self.lease,
                        attempts=OutboxRow.attempts + 1,
                    )
                    .execution_options(synchronize_session=False)
                )
                if result.rowcount == 1:
                    claimed.append(row_id)
            await session.commit()
        return claimed

    async def run_once(self) -> int:
        """Claim and send what is due; returns how many were sent."""
        total = 0
        while True:
            claimed = await self.claim()
            if not claimed:
                return total
            results = await asyncio.gather(*(self._send(row_id) for row_id in claimed))
            total += sum(results)
            if len(claimed) < BATCH:
                return total

    async def _send(self, row_id: int) -> bool:
        async with self._sending, self.sessions() as session:
            row = await session.get(OutboxRow, row_id)
            if row is None or row.claimed_by != self.instance:
                return False
            sender = self.senders.get(row.channel)
            try:
                if sender is None:
                    raise Undeliverable(f"no sender for channel {row.channel}")
                await sender(session, row)
            except Undeliverable as exc:
                await self._finish(row_id, "failed", str(exc))
                return False
            except Exception as exc:  # noqa: BLE001 - any failure is retried later
                log.warning("notification %s (%s) failed: %s", row_id, row.channel, type(exc).__name__)
                retry = row.attempts < self.attempts
                wait = min(3600, 2**row.attempts)
                await self._finish(
                    row_id,
                    "pending" if retry else "failed",
                    type(exc).__name__,
                    timedelta(seconds=wait) if retry else None,
                )
                if retry:
                    due = asyncio.get_running_loop().time() + wait
                    self._next_retry = min(self._next_retry or due, due)
                return False
        return await self._finish(row_id, "sent", None)

    async def _finish(
        self, row_id: int, status: str, error: str | None, retry_in: timedelta | None = None
    ) -> bool:
        """Record how sending went, if this instance still holds the claim."""
        moment = now()
        values: dict[str, Any] = {
            "status": status,
            "error": error[:200] if error else None,
            "lease_until": None,
        }
        if status == "sent":
            values["sent_at"] = moment
        if retry_in is not None:
            values["not_before"] = moment + retry_in
        async with self.write_turn(), self.sessions() as session:
            result = await session.execute(
                update(OutboxRow)
                .where(
                    OutboxRow.id == row_id,
                    OutboxRow.claimed_by == self.instance,
                    OutboxRow.status == "sending",
                )
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            await session.commit()
        return result.rowcount == 1

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            # No query while idle: woken by a write here, a retry coming due, or the full look.
            timeout = self.every
            if self._next_retry is not None:
                timeout = max(0.0, min(timeout, self._next_retry - loop.time()))
            try:
                await asyncio.wait_for(self._wake.wait(), timeout)
            except TimeoutError:
                pass
            self._wake.clear()
            if self._next_retry is not None and self._next_retry <= loop.time():
                self._next_retry = None
            try:
                await self.run_once()
            except Exception:
                log.warning("notification sending failed", exc_info=True)

    async def start(self) -> None:
        """Send now and then in the background (not at all when `every` is 0)."""
        if self.every > 0 and self._task is None:
            self._wake.set()  # the first look at once: rows a stopped instance left
            self._task = asyncio.create_task(self._loop())

    async def stop(self) -> None:
        """Stop sending (a claimed row left unsent is claimed again after its lease)."""
        task, self._task = self._task, None
        await stop_tasks([task])
