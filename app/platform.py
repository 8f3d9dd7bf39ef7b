"""The composition root: database, move store, broker, hubs, lobby, sessions, bots and clocks, wired
together once (the services never import the sockets; this module fills their protocols)."""

from __future__ import annotations

import logging
import secrets
from contextlib import AbstractAsyncContextManager
import time
from typing import Any

from sqlalchemy.exc import IntegrityError

from app.collector import Collector
from app.config import Settings
from app.db.models import utcnow
from app.db.session import make_engine, make_sessionmaker
from app.limits import Limiter, Rate, TokenFrames
from app.observability.metrics import BROKER_LAG, REGISTRY, Gauge
from app.realtime.broker import RESUBSCRIBED, make_broker
from app.realtime.chat import deliver as deliver_chat
from app.realtime import table_socket
from app.realtime.hub import Connection, Hub, encode
from app.realtime.lobby import LobbyHub
from app.realtime.session import LiveSessions
from app.observability.loop_lag import LoopLag
from app.services.accounts import Accounts
from app.services.bot_pool import BotPool, default_size
from app.services.bots import BotRunner
from app.services import chat as chat_service
from app.services.rating_queue import RatingQueue
from app.services.chat import ChatService
from app.services.clocks import Clocks
from app.services.channels import email_sender, push_sender, webhook_sender
from app.services.cleanup import Cleanup
from app.services.notices import GameNotices
from app.services.notify import Notifier
from app.services.outbox import Outbox
from app.services import vacation
from app.services.games import GameService
from app.services.mail import make_mailer
from app.services.replay import Replays
from app.services.rooms import RoomLocks, leave_room, room_ids_of
from app.services import tokens as token_service
from app.services.errors import ServiceError
from app.services.tokens import Identity, Tokens

log = logging.getLogger(__name__)


class Platform:
    """Everything a request handler needs, built from the settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(
            settings.database_url,
            settings.sqlite_synchronous,
            settings.db_pool_size,
            settings.db_max_overflow,
            settings.db_pool_timeout,
        )
        self.sessions = make_sessionmaker(self.engine)
        self.tokens = Tokens(self.sessions, settings.token_cache_seconds)
        self.games = GameService(
            self.sessions,
            settings.snapshot_every,
            settings.max_live_games,
            settings.game_seed,
            settings.live_games_max_bytes,
            settings.sqlite_synchronous,
        )
        self.broker = make_broker(settings.broker_url)
        if self.broker.shared:
            self.tokens.publish = self._publish_tokens
        self.replays = Replays(self.sessions, settings.snapshot_every)
        self.hub = Hub(self.games, settings.patch_history, settings.heartbeat_seconds)
        self.games.seed_log = settings.seed_log
        self.room_locks = RoomLocks()
        self.token_frames = TokenFrames(settings.frames_per_token_second)
        self.instance = secrets.token_hex(6)  # tells this instance's own events apart
        self.lobby = LobbyHub(self.sessions, settings.lobby_page_size, settings.lobby_resync_seconds)
        self.lobby.room_listeners.append(self._seats_changed)
        workers = default_size() if settings.bot_workers == "auto" else settings.bot_workers
        self.bot_pool = (
            BotPool(workers, settings.extra_rulesets, settings.bot_queue_seconds) if workers > 0 else None
        )
        self.bots = BotRunner(
            self.games,
            settings.bot_delay_ms,
            settings.bot_lease_seconds,
            settings.bot_watchdog_seconds,
            self.bot_pool,
            settings.bot_deadline_seconds,
        )
        self.loop_lag = LoopLag()
        self.games.listeners.append(self._announce_game)
        self.limiter = Limiter(settings.broker_url if self.broker.shared else None)
        chat_rate = Rate(chat_service.RATE, chat_service.WINDOW)
        # Exact counts: the chat promises "at most RATE in any WINDOW seconds" (a low rate).
        self.chat = ChatService(
            self.sessions,
            lambda player_id: self.limiter.hit(f"chat:{player_id}", chat_rate, exact=True),
            self.games.write_turn,
        )
        self.mailer = make_mailer(settings)
        self.accounts = Accounts(
            settings, self.sessions, self.tokens, self.limiter, self.mailer, self.write_turn
        )
        self.accounts.renamed.append(self._player_renamed)
        self.accounts.deleted.append(self._player_deleted)
        self.clocks = Clocks(
            self.sessions,
            settings.absence_grace_seconds,
            settings.heartbeat_seconds,
            settings.clock_sweep_seconds,
            self.games.write_turn,
        )
        self.games.listeners.append(self.clocks.on_move)
        self.ratings = RatingQueue(self.sessions, self.write_turn)
        self.games.listeners.append(self._rate)
        self.clocks.on_hold.append(self._seat_held)
        self.clocks.on_release.append(self.seat_reclaimed)
        self.clocks.vacation_until = vacation.until
        self.outbox = Outbox(
            self.sessions,
            self.instance,
            {"push": push_sender(settings), "email": email_sender(self.mailer), "webhook": webhook_sender()},
            settings.notify_seconds,
            settings.notify_lease_seconds,
            settings.notify_attempts,
            self.games.write_turn,
        )
        self.notifier = Notifier(
            self.sessions,
            self.engine.dialect.name,
            self.games.write_turn,
            self.clocks.connected,
            settings.public_url,
            self.outbox.wake,
        )
        self.notices = GameNotices(self.notifier, self.games, self.sessions)
        self.games.listeners.append(self.notices.after_move)
        self.chat.listeners.append(self.notices.chat_line)
        self.clocks.on_warn.append(self.notices.deadline)
        self.hub.beat_listeners.append(self._beat)
        self.hub.seat_listeners.append(self._seat_moved)
        self.cleanup = Cleanup(
            settings, self.sessions, self.write_turn, self.clocks, self.accounts, self.room_locks, self
        )
        self.collector = Collector(settings.gc_freeze_seconds, settings.gc_thaw_seconds)
        self.live_sockets = LiveSessions()  # detached sockets, finished before anything stops
        self._register_gauges()

    def write_turn(self) -> AbstractAsyncContextManager[Any]:
        """This process's turn to write, shared with the moves (SQLite has one writer), or no
        wait at all (PostgreSQL's row locks need no turn)."""
        return self.games.write_turn()

    async def _rate(self, game_id: str, version: int) -> None:
        """A move that ended a game (stored by this instance): queue the game for the ratings,
        which fold it in off the moves' path (app/services/rating_queue.py)."""
        live = self.games.loaded(game_id)
        if live is None or version != live.version or not live.finished:
            return
        self.ratings.post(game_id)

    async def _seat_held(self, game_id: str, room_id: str) -> None:
        """A bot now plays a held seat: every instance reloads the seats; this one runs the bot."""
        await self.games.refresh_seats_of_room(room_id)
        self.bots.kick(game_id)
        await self.announce_room(room_id)

    async def seat_reclaimed(self, game_id: str, room_id: str) -> None:
        """A player took their held seat back: every instance reloads the seats."""
        await self.games.refresh_seats_of_room(room_id)
        await self.announce_room(room_id)

    async def announce_chat(self, room_id: str, game_id: str | None, message: dict[str, Any]) -> None:
        """Send a chat line to every instance's sockets of the room and its game."""
        await self.broker.publish(
            {"type": "chat", "room_id": room_id, "game_id": game_id, "message": message}
        )

    async def _publish_tokens(self, event: dict[str, Any]) -> None:
        await self.broker.publish({**event, "origin": self.instance, "t": time.time()})

    async def _beat(self, conns: list[Connection]) -> None:
        """Once per heartbeat: sockets whose token no longer works are ended, and the seats that
        still have a socket here keep their presence fresh."""
        await self.tokens.recheck()
        await table_socket.beat(self, conns)

    async def _seat_moved(self, conn: Connection, old: int | None, new: int | None) -> None:
        """A socket here moved seats (its seat changed hands): move its presence with it. A
        private game's player who lost their seat is no longer one of its viewers: the socket
        is told so and closed (reconnecting with the invite code makes them a spectator)."""
        await table_socket.moved(self, conn, old, new)
        live = self.games.loaded(conn.game_id)
        if new is None and live is not None and not live.visible_to(conn.player_id):
            conn.end(
                encode(
                    {
                        "type": "error",
                        "id": None,
                        "status": 404,
                        "detail": "You no longer hold a seat at this private table.",
                    }
                ),
                4404,
            )

    def _register_gauges(self) -> None:
        """Gauges read at scrape time from this platform's hubs and games."""
        REGISTRY.add(
            Gauge(
                "civitas_open_sockets",
                "Open websockets on this instance, by kind.",
                lambda: {
                    (("kind", "game"),): self.hub.socket_count(),
                    (("kind", "lobby"),): len(self.lobby.lobby),
                    (("kind", "room"),): sum(map(len, self.lobby.rooms.values())),
                },
            )
        )
        REGISTRY.add(
            Gauge("civitas_live_games", "Games held in memory by this instance.", self.games.loaded_count)
        )
        REGISTRY.add(
            Gauge(
                "civitas_lobby_sockets", "Lobby sockets open on this instance.", lambda: len(self.lobby.lobby)
            )
        )
        REGISTRY.add(
            Gauge(
                "civitas_lobby_rooms", "Public rooms waiting in the lobby.", lambda: len(self.lobby.entries)
            )
        )

    async def _announce_game(self, game_id: str, version: int) -> None:
        # This instance's sockets hear of the move at once; the others through the broker.
        self.hub.post(game_id, version)
        if self.broker.shared:
            await self.broker.publish(
                {
                    "type": "game",
                    "game_id": game_id,
                    "version": version,
                    "origin": self.instance,
                    "t": time.time(),
                }
            )

    async def announce_room(self, room_id: str) -> None:
        """A room changed: update this instance's lobby now (so the caller's next read sees it),
        then tell the other instances."""
        await self.lobby.apply([room_id])
        await self.broker.publish(
            {"type": "room", "room_id": room_id, "origin": self.instance, "t": time.time()}
        )

    async def game_ended(self, game_id: str) -> None:
        """A game ended outside the rules (cleanup): this instance's sockets get the final
        document now, the other instances drop their copy and do the same."""
        self.games.forget(game_id)
        await self.hub.ended(game_id)
        if self.broker.shared:
            await self.broker.publish(
                {"type": "ended", "game_id": game_id, "origin": self.instance, "t": time.time()}
            )

    async def _player_deleted(self, player_id: str) -> None:
        """A deleted account leaves the rooms still in their lobby, so its seats (and the host's
        role) free up; its seats in games keep their neutral name."""
        async with self.sessions() as session:
            lobby = await room_ids_of(session, player_id, ("lobby",))
        leaver = Identity(player_id, "", "", utcnow(), False)  # leave_room reads only the id
        for room_id in lobby:
            try:
                async with self.room_locks.hold(room_id), self.write_turn(), self.sessions() as session:
                    await leave_room(session, room_id, leaver)
                    await session.commit()
            except (ServiceError, IntegrityError):  # started or changed meanwhile: leave it be
                log.info("a deleted player's room %s changed meanwhile; left as it is", room_id)
                continue
            await self.announce_room(room_id)

    async def _player_renamed(self, player_id: str) -> None:
        """A player's name changed (or its account was deleted): its rooms show the new one."""
        async with self.sessions() as session:
            room_ids = await room_ids_of(session, player_id)
        for room_id in room_ids:
            await self.announce_room(room_id)

    async def _seats_changed(self, room_id: str) -> None:
        """A room changed: re-read its game's seats, and move sockets whose seat changed hands."""
        for game_id in await self.games.refresh_seats_of_room(room_id):
            await self.hub.check_seats(game_id)

    async def _on_event(self, event: dict[str, Any]) -> None:
        if isinstance(event.get("t"), (int, float)):
            BROKER_LAG.observe(max(0.0, time.time() - event["t"]))
        if event.get("type") == "game":
            game_id = str(event["game_id"])
            if self.bots.holds(game_id):  # a move made elsewhere may be this driver's cue
                self.bots.kick(game_id)
            if event.get("origin") != self.instance:
                self.hub.post(game_id, int(event["version"]))
        elif event.get("type") == "bots" and event.get("origin") != self.instance:
            # An instance stopped cleanly and released these games' bot leases: take them over
            # now (the lease decides which instance drives; the others find it taken and stop).
            for game_id in event.get("games") or []:
                self.bots.kick(str(game_id))
        elif event.get("type") == token_service.EVENT and event.get("origin") != self.instance:
            self.tokens.on_event(event)
        elif event.get("type") == RESUBSCRIBED:
            # Back after a broker outage: moves and room changes made elsewhere meanwhile were
            # never heard of here (sessions that ended too: the token cache starts over); catch
            # this instance's sockets up from the database.
            self.tokens.clear()
            await self.hub.resync()
            await self.lobby.rebuild()
            for room_id in list(self.lobby.rooms):
                self.lobby.post(room_id)
        elif event.get("type") == "ended" and event.get("origin") != self.instance:
            self.games.forget(str(event["game_id"]))
            await self.hub.ended(str(event["game_id"]))
        elif event.get("type") == "chat":
            deliver_chat(self, event)
        elif event.get("type") == "room" and event.get("origin") != self.instance:
            # Room events take their own path (the lobby's queue), never this game-patch loop.
            self.lobby.post(str(event["room_id"]))

    async def start(self) -> None:
        """Connect the broker, resume bot seats of games in progress and watch for stalled ones."""
        await self.loop_lag.start()
        await self.lobby.start()
        await self.hub.start()
        await self.broker.start(self._on_event)
        await self.bots.start()
        await self.clocks.start()
        await self.cleanup.start()
        await self.outbox.start()
        await self.collector.start()
        self.ratings.start()

    async def stop(self) -> None:
        """Stop background work and close connections."""
        await self.live_sockets.stop()
        await self.ratings.stop()
        await self.accounts.drain()
        released = await self.bots.stop()
        if released and self.broker.shared:
            await self.broker.publish(
                {"type": "bots", "games": released, "origin": self.instance, "t": time.time()}
            )
        if self.bot_pool is not None:
            await self.bot_pool.aclose()
        await self.collector.stop()
        await self.cleanup.stop()
        await self.outbox.stop()
        await self.clocks.stop()
        await self.lobby.stop()
        await self.hub.stop()
        await self.broker.stop()
        await self.games.aclose()
        await self.engine.dispose()
        await self.loop_lag.stop()
