"""The running platform: database sessions, games, bots, broker and hubs, wired together once."""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from app.collector import Collector
from app.config import Settings
from app.db.session import make_engine, make_sessionmaker
from app.limits import TokenFrames
from app.observability.metrics import BROKER_LAG, REGISTRY, Gauge
from app.realtime.broker import RESUBSCRIBED, make_broker
from app.realtime.chat import deliver as deliver_chat
from app.realtime.hub import Hub
from app.realtime.lobby import LobbyHub
from app.realtime.session import LiveSessions
from app.observability.loop_lag import LoopLag
from app.services.bot_pool import BotPool, default_size
from app.services.bots import BotRunner
from app.services.chat import ChatService
from app.services.clocks import Clocks
from app.services.cleanup import Cleanup
from app.services.games import GameService
from app.services.rooms import RoomLocks

log = logging.getLogger(__name__)


class Platform:
    """Everything a request handler needs, built from the settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engine = make_engine(settings.database_url, settings.sqlite_synchronous)
        self.sessions = make_sessionmaker(self.engine)
        self.games = GameService(self.sessions, settings.snapshot_every, settings.max_live_games,
                                 settings.game_seed, settings.live_games_max_bytes,
                                 settings.sqlite_synchronous)
        self.broker = make_broker(settings.broker_url)
        self.hub = Hub(self.games, settings.patch_history, settings.heartbeat_seconds)
        self.games.seed_log = settings.seed_log
        self.room_locks = RoomLocks()
        self.token_frames = TokenFrames(settings.frames_per_token_second)
        self.cleanup = Cleanup(self)
        self.instance = secrets.token_hex(6)  # tells this instance's own events apart
        self.lobby = LobbyHub(self.sessions, settings.lobby_page_size, settings.lobby_resync_seconds)
        self.lobby.room_listeners.append(self._seats_changed)
        workers = default_size() if settings.bot_workers == "auto" else settings.bot_workers
        self.bot_pool = (BotPool(workers, settings.extra_rulesets, settings.bot_queue_seconds)
                         if workers > 0 else None)
        self.bots = BotRunner(self.games, settings.bot_delay_ms, settings.bot_lease_seconds,
                              settings.bot_watchdog_seconds, self.bot_pool,
                              settings.bot_deadline_seconds)
        self.loop_lag = LoopLag()
        self.games.listeners.append(self._announce_game)
        self.chat = ChatService(self.sessions)
        self.clocks = Clocks(self.sessions, settings.absence_grace_seconds,
                             settings.heartbeat_seconds, settings.clock_sweep_seconds)
        self.games.listeners.append(self.clocks.on_move)
        self.clocks.on_hold.append(self._seat_held)
        self.hub.beat_listeners.append(self._beat)
        self.hub.seat_listeners.append(self._seat_moved)
        self.collector = Collector(settings.gc_freeze_seconds, settings.gc_thaw_seconds)
        self.live_sockets = LiveSessions()  # detached sockets, finished before anything stops
        self._register_gauges()

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
        await self.broker.publish({"type": "chat", "room_id": room_id, "game_id": game_id,
                                   "message": message})

    async def _beat(self, conns: list[Any]) -> None:
        """These seats still have a socket here (once per heartbeat): keep their presence fresh."""
        from app.realtime import table_socket

        await table_socket.beat(self, conns)

    async def _seat_moved(self, conn: Any, old: int | None, new: int | None) -> None:
        """A socket here moved seats (its seat changed hands): move its presence with it."""
        from app.realtime import table_socket

        await table_socket.moved(self, conn, old, new)

    def _register_gauges(self) -> None:
        """Gauges read at scrape time from this platform's hubs and games."""
        REGISTRY.add(Gauge("civitas_open_sockets", "Open websockets on this instance, by kind.",
                           lambda: {(("kind", "game"),): self.hub.socket_count(),
                                    (("kind", "lobby"),): len(self.lobby.lobby),
                                    (("kind", "room"),): sum(map(len, self.lobby.rooms.values()))}))
        REGISTRY.add(Gauge("civitas_live_games", "Games held in memory by this instance.",
                           self.games.loaded_count))
        REGISTRY.add(Gauge("civitas_lobby_sockets", "Lobby sockets open on this instance.",
                           lambda: len(self.lobby.lobby)))
        REGISTRY.add(Gauge("civitas_lobby_rooms", "Public rooms waiting in the lobby.",
                           lambda: len(self.lobby.entries)))

    async def _announce_game(self, game_id: str, version: int) -> None:
        # This instance's sockets hear of the move at once; the others through the broker.
        self.hub.post(game_id, version)
        if self.broker.shared:
            await self.broker.publish({"type": "game", "game_id": game_id, "version": version,
                                       "origin": self.instance, "t": time.time()})

    async def announce_room(self, room_id: str) -> None:
        """A room changed: update this instance's lobby now (so the caller's next read sees it),
        then tell the other instances."""
        await self.lobby.apply([room_id])
        await self.broker.publish({"type": "room", "room_id": room_id, "origin": self.instance,
                                   "t": time.time()})

    async def game_ended(self, game_id: str) -> None:
        """A game ended outside the rules (cleanup): this instance's sockets get the final
        document now, the other instances drop their copy and do the same."""
        self.games.forget(game_id)
        await self.hub.ended(game_id)
        if self.broker.shared:
            await self.broker.publish({"type": "ended", "game_id": game_id,
                                       "origin": self.instance, "t": time.time()})

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
        elif event.get("type") == RESUBSCRIBED:
            # Back after a broker outage: moves and room changes made elsewhere meanwhile were
            # never heard of here; catch this instance's sockets up from the database.
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
        await self.collector.start()

    async def stop(self) -> None:
        """Stop background work and close connections."""
        await self.live_sockets.stop()
        released = await self.bots.stop()
        if released and self.broker.shared:
            await self.broker.publish({"type": "bots", "games": released, "origin": self.instance,
                                       "t": time.time()})
        if self.bot_pool is not None:
            await self.bot_pool.aclose()
        await self.collector.stop()
        await self.cleanup.stop()
        await self.clocks.stop()
        await self.lobby.stop()
        await self.hub.stop()
        await self.broker.stop()
        await self.games.aclose()
        await self.engine.dispose()
        await self.loop_lag.stop()
