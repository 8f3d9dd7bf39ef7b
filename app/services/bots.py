"""Bot seats: the server plays them, after a short delay so people can follow the game.

A seat's bot is the ruleset's own (`bot_move`) or, where a ruleset has none, a random legal move.
One task per game on the instance that saw the last move; racing instances are safe because the
move path refuses a second move for the same version.
"""

from __future__ import annotations

import asyncio
import logging

from app.engine.errors import GameError
from app.engine.rng import Rng
from app.engine.ruleset import Move
from app.services.errors import ServiceError
from app.services.games import GameService, LiveGame

log = logging.getLogger(__name__)


def choose_bot_move(live: LiveGame, seat: int) -> Move:
    """The move a bot seat makes now; deterministic per (game, version, seat)."""
    rng = Rng.from_seed(live.seed, "bot", live.version, seat)
    move = live.ruleset.bot_move(live.state, seat, rng) if hasattr(live.ruleset, "bot_move") else None
    if move is None:
        move = rng.choice(live.ruleset.legal_moves(live.state, seat))
    return move


class BotRunner:
    """Plays every bot seat that is asked to act, one move at a time."""

    def __init__(self, games: GameService, delay_ms: int) -> None:
        self.games = games
        self.delay = delay_ms / 1000
        self._tasks: dict[str, asyncio.Task[None]] = {}
        games.listeners.append(self._on_move)

    async def _on_move(self, game_id: str, version: int) -> None:
        self.kick(game_id)

    def kick(self, game_id: str) -> None:
        """Make sure a task is playing this game's bot seats, if any are to act."""
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))

    async def _run(self, game_id: str) -> None:
        try:
            await self._play(game_id)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _play(self, game_id: str) -> None:
        failures = 0
        while failures < 5:
            try:
                live = await self.games.live(game_id)
            except ServiceError:
                return
            bots = set(live.bot_seats())
            seats = [s for s in live.ruleset.to_act(live.state) if s in bots]
            if not seats or live.finished:
                return
            await asyncio.sleep(self.delay)
            if live.ruleset.to_act(live.state) and seats[0] in live.ruleset.to_act(live.state):
                try:
                    await self.games.submit(game_id, seats[0], live.version,
                                            choose_bot_move(live, seats[0]))
                    failures = 0
                except (GameError, ServiceError) as exc:
                    # Another instance or player moved first; look again (bounded, never a spin).
                    failures += 1
                    log.info("bot move in %s refused: %s", game_id, exc)
                    await self.games.live(game_id, fresh=True)
                except Exception:
                    failures += 1
                    log.exception("bot move in %s failed", game_id)

    async def resume_all(self) -> None:
        """After a restart, give every active game's bot seats a chance to move."""
        for game_id in await self.games.games_with_bots():
            self.kick(game_id)

    async def stop(self) -> None:
        """Cancel running bot tasks."""
        for task in self._tasks.values():
            task.cancel()
