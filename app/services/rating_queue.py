"""Ratings kept up to date off the moves' path: each finished game is queued, and one background
task per instance folds the queued games in, one at a time.

A game is read (its moves and seats) outside the writer's turn; only the short write of its
ratings takes the turn that SQLite's moves share. A game that ended before one already folded in
(its last move's instance was slow to say so) makes its ruleset fold again: every finished game
of the ruleset read in transactions of their own, outside the turn, then only the rows that
changed written in one short transaction (app/services/ratings.py, `refold`). Either way the
stored ratings end as `python -m app.cli ratings rebuild` would leave them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlalchemy.orm import Session

from app.db.models import RatedGame
from app.ratings import GameResult
from app.services import ratings as rating_service
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

REFOLD_TRIES = 5  # a ruleset whose games keep finishing while it is read: give up, log, retry later


class RatingQueue:
    """The finished games waiting to be folded into the ratings, and the task that folds them."""

    def __init__(
        self, sessions: async_sessionmaker, turn: Callable[[], AbstractAsyncContextManager[Any]]
    ) -> None:
        self.sessions = sessions
        self.turn = turn  # the writer's turn (SQLite's one writer; no wait on PostgreSQL)
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None

    def post(self, game_id: str) -> None:
        """Queue a game that has just ended; returns at once."""
        self._queue.put_nowait(game_id)

    def start(self) -> None:
        """Start the task: it first queues the games that ended while no instance could rate them."""
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop the task (a game left in the queue is caught up at the next start)."""
        await stop_tasks([self._task])

    async def _run(self) -> None:
        try:
            async with self.sessions() as session:
                for game_id in await session.run_sync(rating_service.unseen):
                    self.post(game_id)
        except Exception:  # noqa: BLE001 - `python -m app.cli ratings rebuild` catches up too
            log.exception("catching up the ratings failed")
        while True:
            game_id = await self._queue.get()
            try:
                await self.rate(game_id)
            except Exception:  # noqa: BLE001 - the game is stored; its rating can be rebuilt
                log.exception("rating a finished game failed", extra={"game_id": game_id})
            finally:
                self._queue.task_done()

    async def rate(self, game_id: str) -> str:
        """Fold one finished game in: 'rated', 'unrated', 'known' or 'rebuilt' (its ruleset
        folded again because it ended before a game already folded in)."""

        def read(session: Session) -> tuple[bool, GameResult | None]:
            known = session.get(RatedGame, game_id) is not None
            return known, None if known else rating_service.game_result(session, game_id)

        async with self.sessions() as session:
            known, result = await session.run_sync(read)
        if known:
            return "known"
        async with self.turn(), self.sessions() as session:
            done = await session.run_sync(
                lambda s: rating_service.record_result(s, game_id, result, rebuild_late=False)
            )
        if done != "late" or result is None:
            return done
        for _ in range(REFOLD_TRIES):
            async with self.sessions() as session:
                folded = await session.run_sync(rating_service.refold, result.ruleset)
            async with self.turn(), self.sessions() as session:
                if await session.run_sync(rating_service.store_refold, folded):
                    return "rebuilt"
        raise RuntimeError(f"the games of {result.ruleset} kept finishing while they were folded again")
