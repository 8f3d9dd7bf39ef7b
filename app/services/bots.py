"""Bot seats: the server plays them, after a short delay so people can follow the game.

A seat's bot is the ruleset's own (`bot_move`) or, where a ruleset has none, a random legal move
(a level of app/engine/choosers.py). It is chosen off the event loop, in a worker process of
the bot pool (app/services/bot_pool.py), with a deadline; when the pool cannot answer in time,
or the choice is refused or raises, a random legal move is played instead, so a bot seat never
stalls a game and never holds up the sockets. Exactly one instance drives a game's bots at a time: it holds a lease
in the game's row (renewed while it plays, released when no bot seat is asked to act, and
running out on its own if the instance dies). A watchdog on every instance looks for games whose
bot seats are asked to act while nobody holds a live lease, and starts them again: after a
restart, after an instance died, or after any stall. An instance that stops cleanly releases its
leases and says so through the broker, so another instance drives those games at once instead of
at its next watchdog pass (after a crash, the lease running out is the path).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

from app.engine import choosers
from app.engine.errors import GameError
from app.engine.memo import Memo
from app.engine.rng import Rng
from app.engine.ruleset import Move, random_move
from app.observability.metrics import BOT_FALLBACKS
from app.services.bot_pool import BotPool, BotPoolError
from app.services.errors import ServiceError
from app.services.games import GameService, LiveGame
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

# After this many refused or failed moves in a row the bot plays a random legal move instead of
# the ruleset's choice; after GIVE_UP_AFTER it stops and leaves the game to the watchdog.
FALLBACK_AFTER = 1
GIVE_UP_AFTER = 6


def bot_request(live: LiveGame, seat: int, attempt: int) -> dict[str, Any]:
    """What a bot worker is told to decide: the game as JSON data, the bot's level (the seat's,
    when its bot names a level this server has, else the default: the ruleset's own bot; a
    random legal move after a refused choice) and a seed derived from the game's seed, the
    version and the seat (and the attempt, for the random one), so a decision is reproducible
    and the game's seed itself never leaves the server process."""
    if attempt < FALLBACK_AFTER:
        named = (live.seats.get(seat) or {}).get("bot")
        level = named if named in choosers.LEVELS else choosers.DEFAULT_LEVEL
        seed = Rng.from_seed(live.seed, "bot", live.version, seat)
    else:
        level, seed = "random", Rng.from_seed(live.seed, "bot-fallback", live.version, seat, attempt)
    return {
        "ruleset": live.ruleset.id,
        "players": live.players,
        "options": live.options,
        "state": live.state,
        "seat": seat,
        "level": level,
        "seed": seed.state,
        "budget": choosers.level(level).budget,
    }


def random_legal_move(live: LiveGame, seat: int, attempt: int) -> Move:
    """A random legal move, different per attempt: the fallback when the bot's choice fails."""
    rng = Rng.from_seed(live.seed, "bot-fallback", live.version, seat, attempt)
    return random_move(live.ruleset, live.state, seat, rng)


def due_bot_seats(live: LiveGame) -> list[int]:
    """Bot seats the rules ask to act now."""
    if live.finished:
        return []
    bots = set(live.bot_seats())
    return [s for s in live.ruleset.to_act(live.state) if s in bots]


class BotRunner:
    """Plays every bot seat that is asked to act, one move at a time, one task per game."""

    def __init__(
        self,
        games: GameService,
        delay_ms: int,
        lease_seconds: float = 15.0,
        watchdog_seconds: float = 3.0,
        pool: BotPool | None = None,
        deadline_seconds: float = 2.0,
    ) -> None:
        self.games = games
        # Where bots decide: the worker pool, or (None: tests that patch a ruleset's bot in this
        # process) right here on the event loop.
        self.pool = pool
        self.deadline_seconds = deadline_seconds  # beyond the level's own thinking time
        self.delay = delay_ms / 1000
        self.lease_seconds = lease_seconds
        self.watchdog_seconds = watchdog_seconds
        self.owner = secrets.token_hex(8)  # this instance, as a lease holder
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()  # kicked while its task was running: look again
        self._leases: dict[str, float] = {}  # game -> monotonic time to renew its lease
        self._watchdog: asyncio.Task[None] | None = None
        self._stopped = False
        games.listeners.append(self._on_move)

    async def _on_move(self, game_id: str, version: int) -> None:
        live = self.games.loaded(game_id)
        if live is not None and not live.bot_seats():
            return  # no bot seat: no task per move
        self.kick(game_id)

    def kick(self, game_id: str) -> None:
        """Make sure a task is playing this game's bot seats, if any are to act. A kick that
        arrives while the task runs makes it look again before it stops (a seat may have just
        passed to a bot after the task decided there was nothing to do)."""
        if self._stopped:  # shutting down: a late kick (a clock, a broker event) starts nothing
            return
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.create_task(self._run(game_id))
        else:
            self._again.add(game_id)

    def holds(self, game_id: str) -> bool:
        """Whether this instance is driving the game's bots now."""
        return game_id in self._leases

    async def _run(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                try:
                    await self._play(game_id)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("bot driver for %s failed; the watchdog restarts it", game_id)
                    self._again.discard(game_id)
                if game_id in self._again:
                    continue
                await self._release(game_id)
                if game_id not in self._again:  # nothing can slip in between here and the end
                    break
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _release(self, game_id: str) -> None:
        if self._leases.pop(game_id, None) is None:
            return
        try:
            await self.games.release_bots([game_id], self.owner)
        except Exception:  # the lease runs out by itself
            log.warning("could not release the bot lease of %s", game_id)

    async def _hold(self, game_id: str) -> bool:
        """Take or renew this game's lease when due; False if another instance drives it."""
        now = time.monotonic()
        if self._leases.get(game_id, 0.0) > now:
            return True
        if not await self.games.lease_bots(game_id, self.owner, self.lease_seconds):
            self._leases.pop(game_id, None)
            return False
        self._leases[game_id] = now + self.lease_seconds / 2
        return True

    async def _play(self, game_id: str) -> None:
        failures = 0
        while True:
            try:
                live = await self.games.live(game_id, fresh=failures > 0)
            except ServiceError:
                return
            seats = due_bot_seats(live)
            if not seats or not await self._hold(game_id):
                return
            await asyncio.sleep(self.delay)
            if due_bot_seats(live) != seats:
                continue  # the game moved on during the delay: look again
            seat, version = seats[0], live.version
            try:
                move = await self._decide(live, seat, failures)
                if live.version != version:
                    continue  # the game moved on while the bot thought: look again
                await self.games.submit(game_id, seat, version, move)
                failures = 0
            except (GameError, ServiceError) as exc:
                # Another instance or player may have moved first; or the bot's choice is not
                # legal: look again, and fall back to a random legal move (bounded, never a spin).
                failures += 1
                log.warning("bot move for seat %s in %s refused: %s", seat, game_id, exc)
            except Exception:
                failures += 1
                log.exception("bot move for seat %s in %s failed", seat, game_id)
                await asyncio.sleep(min(0.1 * 2**failures, 2.0))  # e.g. the database is away
            if failures >= GIVE_UP_AFTER:
                log.error(
                    "bot seat %s in %s failed %d times in a row; the watchdog retries later",
                    seat,
                    game_id,
                    failures,
                )
                return

    async def _decide(self, live: LiveGame, seat: int, attempt: int) -> Move:
        """The bot's move, chosen by a pool worker; a random legal move (chosen here) when the
        pool cannot answer in time."""
        request = bot_request(live, seat, attempt)
        if self.pool is None:
            level = choosers.level(request["level"])
            with Memo():  # the decision's own: a search must not crowd out the game's view parts
                return level.chooser(live.ruleset, live.state, seat, request["seed"], level.budget)
        try:
            decision = await self.pool.choose(request, request["budget"] + self.deadline_seconds)
        except BotPoolError as exc:
            BOT_FALLBACKS.inc(reason=exc.reason)
            log.warning(
                "bot decision for seat %s in %s failed (%s); playing a random legal move", seat, live.id, exc
            )
            return random_legal_move(live, seat, attempt)
        return decision.move

    async def start(self) -> None:
        """Resume bot seats of games in progress now, then keep watching for stalled ones."""
        await self.check()
        self._watchdog = asyncio.create_task(self._watch())

    async def check(self) -> list[str]:
        """One watchdog pass: kick every game whose bot seats are asked to act while nobody
        drives them; returns the games kicked."""
        stalled = [
            g
            for g in await self.games.games_waiting_on_bots(self.owner)
            if g not in self._tasks or self._tasks[g].done()
        ]
        for game_id in stalled:
            self.kick(game_id)
        return stalled

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.watchdog_seconds)
            try:
                await self.check()
            except Exception:  # the database may be away for a while; try again next time
                log.warning("bot watchdog pass failed", exc_info=True)

    async def stop(self) -> list[str]:
        """Cancel the watchdog and running bot tasks (waiting until they have ended), and give up
        this instance's leases; returns the games whose lease was released (another instance may
        drive them at once)."""
        self._stopped = True
        await stop_tasks([self._watchdog, *self._tasks.values()])
        held, self._leases = list(self._leases), {}
        try:
            await self.games.release_bots(held, self.owner)
        except Exception:
            log.warning("could not release bot leases at shutdown; they run out by themselves")
            return []
        return held
