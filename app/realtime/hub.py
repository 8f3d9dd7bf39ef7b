"""The hub: per game, the sockets of each seat and of spectators, and the patches they are owed.

Each audience (a seat, or the spectators) has one document per version, built from the ruleset's
*view* and diffed against that audience's previous document; the encoded patch is shared by all of
the audience's sockets and kept for a while so a client that missed some can `sync`.
Every socket has its own bounded send queue, so a slow reader never holds up the others.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import orjson
from sqlalchemy.exc import DBAPIError

from app.engine.diff import diff
from app.observability.metrics import DROPPED, PATCH_BYTES, PATCH_FRAMES, RESYNCS
from app.services.errors import ServiceError
from app.services.games import GameService, LiveGame, game_document
from app.realtime import eager
from app.realtime.transport import RAW_EXTENSION
from app.tasks import stop_tasks

log = logging.getLogger(__name__)
SEND_QUEUE = 256
# Spectator sockets written per turn of the loop: a game watched by a thousand sockets lets other
# games' moves through between chunks, instead of holding them ~15 ms behind its fan-out.
SPECTATOR_CHUNK = 64
# Heartbeat frames written per turn of the loop: at 1,000 games the heartbeat is 2,000 writes,
# which in one turn held every move arriving meanwhile (ack p99.9 52-76 ms; bench/RESULTS.md).
HEARTBEAT_CHUNK = 64


def encode(message: dict[str, Any]) -> str:
    """One wire frame (orjson; the stdlib for the rare integer beyond 64 bits)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:
        return json.dumps(message, separators=(",", ":"))


@dataclass
class Audience:
    """What one seat (or the spectators) has been sent: its document and recent patches."""

    seat: int | None
    version: int
    doc: dict[str, Any]
    patches: deque[tuple[int, str]] = field(default_factory=deque)  # (version, encoded frame)
    _snapshot: tuple[int, str] | None = None

    def advance(self, live: LiveGame, keep: int) -> None:
        """Build one patch per version up to the game's current version."""
        for version in range(self.version + 1, live.version + 1):
            state = live.state_at(version)
            if state is None:  # too far behind to build each step: start over from a snapshot
                self.reset(live)
                return
            doc = game_document(live, state, version, self.seat)
            frame = encode({"type": "patch", "version": version, "ops": diff(self.doc, doc)})
            PATCH_FRAMES.inc()
            self.patches.append((version, frame))
            while len(self.patches) > keep:
                self.patches.popleft()
            self.doc, self.version = doc, version

    def reset(self, live: LiveGame) -> None:
        """Jump to the current version; older patches are no longer available."""
        self.doc = game_document(live, live.state, live.version, self.seat)
        self.version = live.version
        self.patches.clear()
        self._snapshot = None  # the document may differ at the same version (a game ended)

    def frames_after(self, version: int) -> list[str] | None:
        """The patches that take a client from `version` to now, or None if they are gone."""
        if version == self.version:
            return []
        if version > self.version or not self.patches or self.patches[0][0] > version + 1:
            return None
        if version == self.version - 1:  # the usual case: one patch behind
            return [self.patches[-1][1]]
        return [frame for v, frame in self.patches if v > version]

    def snapshot(self) -> str:
        """A snapshot frame of the current document (encoded once per version, however many ask)."""
        if self._snapshot is None or self._snapshot[0] != self.version:
            self._snapshot = (self.version, encode({"type": "snapshot", "game": self.doc}))
        return self._snapshot[1]


class Connection:
    """One socket: its seat, the version it has, and a bounded backlog of frames to send.

    A frame is written at once when nothing is waiting before it (uvicorn's sansio protocol hands
    it to the transport without suspending, so no task is needed); a send that does suspend, and
    the frames queued behind it, are finished by a short-lived flush task that exists only while
    there is a backlog, so an idle socket costs no task. Past SEND_QUEUE unsent frames the socket
    is closed (code 1013) and its client resyncs when it comes back, so a slow reader never holds
    up anyone else.
    """

    __slots__ = (
        "websocket",
        "game_id",
        "seat",
        "player_id",
        "version",
        "queue",
        "closed",
        "_flusher",
        "kind",
        "raw",
        "close_code",
    )

    def __init__(
        self, websocket: Any, game_id: str, seat: int | None, player_id: str | None, kind: str = "game"
    ) -> None:
        self.websocket = websocket
        self.game_id = game_id
        self.seat = seat
        self.player_id = player_id
        self.version = -1
        self.queue: deque[str] | None = None  # frames waiting behind a full transport (made when needed)
        self.closed = False
        self.close_code = 1013  # why a socket this side closed: fell behind, unless `end` says
        self._flusher: asyncio.Task[None] | None = None
        self.kind = kind
        # uvicorn's socket protocol, when it is Civitas's own (app/realtime/transport.py): frames
        # then go straight to the transport, framed once for all the sockets that get them.
        self.raw = (getattr(websocket, "scope", {}).get("extensions") or {}).get(RAW_EXTENSION)

    def send(self, frame: str) -> None:
        """Send or queue a frame; a socket too far behind is closed and will resync when it returns."""
        if self.closed:
            return
        if self._flusher is None and not self.queue:
            self._write_now(frame)
            return
        if self.queue is None:
            self.queue = deque()
        if len(self.queue) >= SEND_QUEUE:
            self.closed = True
            self.queue = None
            DROPPED.inc()
            log.info(
                "closing a socket that fell %d frames behind",
                SEND_QUEUE,
                extra={"game_id": self.game_id, "version": self.version},
            )
        else:
            self.queue.append(frame)
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    def _write_now(self, frame: str) -> None:
        """Start the send inline (a task per frame costs more than the write); if it suspends,
        a flush task finishes it before anything queued after it."""
        if self.raw is not None and self.raw.write_text(frame):
            return
        started = self.websocket.send_text(frame)
        try:
            pending = started.send(None)
        except StopIteration:
            return
        except Exception:  # the socket went away; its receive loop will notice
            self.closed = True
            return
        self._flusher = asyncio.get_running_loop().create_task(self._flush(started, pending))

    async def _flush(self, started: Any = None, pending: Any = None) -> None:
        try:
            if started is not None:
                await eager.finish(started, pending)
            while self.queue:
                await self.websocket.send_text(self.queue.popleft())
            if self.closed:
                await self.websocket.close(code=self.close_code)
        except Exception:  # the socket went away mid-send; its receive loop will notice
            self.closed = True
            self.queue = None
        finally:
            self._flusher = None
            if not self.queue:
                self.queue = None

    def end(self, frame: str, code: int) -> None:
        """Send a last frame, after whatever is queued before it, then close with `code`;
        nothing else is sent or handled after it (a session that ended, say)."""
        if self.closed:
            return
        self.send(frame)
        self.closed = True
        self.close_code = code
        if self._flusher is None:  # the frame went out at once: close now
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    def stop(self) -> None:
        """The socket is gone: drop its backlog and any flush in progress."""
        self.closed = True
        self.queue = None
        if self._flusher is not None:
            self._flusher.cancel()
            self._flusher = None


@dataclass
class Channel:
    """One game's sockets on this instance."""

    connections: set[Connection] = field(default_factory=set)
    audiences: dict[int | None, Audience] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Hub:
    """Routes new versions to sockets; one per instance."""

    def __init__(self, games: GameService, keep: int = 64, heartbeat_seconds: float = 15.0) -> None:
        self.games = games
        self.keep = keep
        self.heartbeat_seconds = heartbeat_seconds
        self.channels: dict[str, Channel] = {}
        # Called on each heartbeat with one socket per (game, seat) that has any (presence).
        self.beat_listeners: list[Callable[[list[Connection]], Awaitable[None]]] = []
        # Called with (socket, old seat, new seat) when check_seats moves a socket (presence).
        self.seat_listeners: list[Callable[[Connection, int | None, int | None], Awaitable[None]]] = []
        self._pending: dict[str, int] = {}
        self._wake = asyncio.Event()
        self._kick_due = False
        self._tasks: list[asyncio.Task[None]] = []
        self._later: set[asyncio.Task[None]] = set()  # spectator chunks still to write

    async def start(self) -> None:
        """Start delivering this instance's own moves, and the heartbeat."""
        self._tasks = [asyncio.create_task(self._pump()), asyncio.create_task(self._heartbeats())]

    async def stop(self) -> None:
        """Stop the hub's tasks, and wait until they have ended: a heartbeat cut short must close
        its session before the engine is disposed."""
        await stop_tasks([*self._tasks, *self._later])

    def post(self, game_id: str, version: int) -> None:
        """A move was stored here: deliver its patches on the hub's task, right after the caller
        has queued its ack (and without waiting for the broker's round trip)."""
        if version > self._pending.get(game_id, -1):
            self._pending[game_id] = version
        if not self._kick_due:
            # Wake the hub's task on the next turn of the loop, and only if the move's socket
            # has not delivered the patches itself by then (deliver_now): no idle wake per move.
            self._kick_due = True
            asyncio.get_running_loop().call_soon(self._kick)

    def _kick(self) -> None:
        self._kick_due = False
        if self._pending:
            self._wake.set()

    def deliver_now(self, game_id: str) -> None:
        """Queue a just-stored move's patches to this instance's sockets of the game at once (the
        mover's socket has just queued its ack), so every seat's patch leaves in the same turn of
        the loop as the ack instead of waiting for the hub's task. Falls back to that task when
        the game's copy is not yet at the posted version."""
        version = self._pending.get(game_id)
        channel = self.channels.get(game_id)
        if version is None or channel is None or channel.lock.locked():
            return
        live = self.games.loaded(game_id)
        if live is None or live.version < version:
            return
        del self._pending[game_id]
        self._push(channel, live)

    async def _pump(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, {}
            for game_id, version in batch.items():
                try:
                    await self.on_version(game_id, version)
                except Exception:  # one game's failure must not stop the others' patches
                    log.exception(
                        "delivering a version failed", extra={"game_id": game_id, "version": version}
                    )

    async def _heartbeats(self) -> None:
        """Now and then tell every socket its game's version (one frame per game), so a client that
        lost a patch notices even when the game is idle."""
        while True:
            await asyncio.sleep(self.heartbeat_seconds)
            await self.beat()

    async def beat(self) -> None:
        """One heartbeat: every game's stored version in one query per few hundred games (not
        one per game), patches for any game a missed broker event left behind, one heartbeat
        frame per game, then one presence call for every seat that has a socket here."""
        try:
            stored = await self.games.versions(list(self.channels))
        except DBAPIError:
            stored = {}  # the database is away: skip the checks rather than report a guess
        written = 0
        for game_id, channel in list(self.channels.items()):
            if written >= HEARTBEAT_CHUNK:  # a turn of the loop for the moves that came meanwhile
                written = 0
                await asyncio.sleep(0)
            version = stored.get(game_id)
            if version is None:
                continue
            live = self.games.loaded(game_id)
            if (
                live is None
                or live.version < version
                or any(a.version < version for a in channel.audiences.values())
            ):
                try:
                    await self.on_version(game_id, version)
                except (DBAPIError, ServiceError):
                    continue
                live = self.games.loaded(game_id)
            frame = encode(
                {
                    "type": "heartbeat",
                    "version": max(version, live.version if live else 0),
                    "every": self.heartbeat_seconds,
                }
            )
            for conn in list(channel.connections):
                conn.send(frame)
            written += len(channel.connections)
        seated = list(
            {
                (c.game_id, c.seat): c
                for channel in list(self.channels.values())
                for c in channel.connections
                if c.seat is not None
            }.values()
        )
        for listener in self.beat_listeners:
            try:
                await listener(seated)
            except Exception:  # presence is an extra: never stop the heartbeat
                log.exception("heartbeat listener failed")

    async def resync(self) -> None:
        """After a broker outage: every game with sockets here that is behind the database gets
        its missed patches now (one read per game), not at the next heartbeat."""
        for game_id, channel in list(self.channels.items()):
            try:
                live = await self.games.live(game_id, fresh=True)
            except (DBAPIError, ServiceError):
                continue  # the database is away too: the heartbeat will try again
            if any(a.version < live.version for a in channel.audiences.values()):
                self.post(game_id, live.version)

    def socket_count(self) -> int:
        """Game sockets open on this instance."""
        return sum(len(channel.connections) for channel in self.channels.values())

    def _audience(self, channel: Channel, live: LiveGame, seat: int | None) -> Audience:
        audience = channel.audiences.get(seat)
        if audience is None:
            audience = Audience(seat, live.version, game_document(live, live.state, live.version, seat))
            channel.audiences[seat] = audience
        else:
            audience.advance(live, self.keep)
        return audience

    async def join(self, conn: Connection) -> None:
        """Register a socket and send it a snapshot."""
        live = await self.games.live(conn.game_id, fresh=True)
        while True:
            channel = self.channels.setdefault(conn.game_id, Channel())
            async with channel.lock:
                if self.channels.get(conn.game_id) is not channel:
                    continue  # the last socket left while we waited: use the new channel
                audience = self._audience(channel, live, conn.seat)
                channel.connections.add(conn)
                conn.version = audience.version
                conn.send(audience.snapshot())
                return

    async def check_seats(self, game_id: str) -> None:
        """Move every socket whose player no longer holds its seat to the seat it holds now (a
        spectator's, usually: a bot took it over), with a fresh snapshot: a socket never keeps
        receiving the private view of a seat that changed hands."""
        channel = self.channels.get(game_id)
        if channel is None:
            return
        live = await self.games.live(game_id)
        moved: list[tuple[Connection, int | None, int | None]] = []
        async with channel.lock:
            for conn in list(channel.connections):
                now = live.seat_of(conn.player_id)
                if now == conn.seat:
                    continue
                old, conn.seat = conn.seat, now
                moved.append((conn, old, now))
                if not any(c.seat == old for c in channel.connections):
                    channel.audiences.pop(old, None)
                audience = self._audience(channel, live, now)
                conn.version = audience.version
                conn.send(audience.snapshot())
        # Outside the lock: the listeners write to the database (the old seat's presence count
        # drops, the new one's rises), and a socket's leave then counts against its new seat.
        for conn, old, now in moved:
            for listener in self.seat_listeners:
                try:
                    await listener(conn, old, now)
                except Exception:  # presence is an extra: never stop moving sockets
                    log.exception("seat listener failed", extra={"game_id": game_id})

    def leave(self, conn: Connection) -> None:
        """Forget a socket; a game with no sockets left is forgotten too."""
        channel = self.channels.get(conn.game_id)
        if channel is None:
            return
        channel.connections.discard(conn)
        if not any(c.seat == conn.seat for c in channel.connections):
            channel.audiences.pop(conn.seat, None)
        if not channel.connections:
            self.channels.pop(conn.game_id, None)

    async def on_version(self, game_id: str, version: int) -> None:
        """A game reached `version` (here or on another instance): push patches to its sockets."""
        channel = self.channels.get(game_id)
        if channel is None:
            return
        live = await self.games.live(game_id)
        if live.version < version:
            live = await self.games.live(game_id, fresh=True)
        async with channel.lock:
            self._push(channel, live)

    def _push(self, channel: Channel, live: LiveGame) -> None:
        """Bring every audience of a channel to the game's version (one encoded patch per audience)
        and queue what each socket is owed. Synchronous: no other task runs in between."""
        for seat in list(channel.audiences):
            self._audience(channel, live, seat)
        # Players first: with a thousand spectators, the seats' patches would otherwise wait
        # behind however many spectator sockets the set happens to list before them.
        seats: list[Connection] = []
        watchers: list[Connection] = []
        for conn in channel.connections:
            (watchers if conn.seat is None else seats).append(conn)
        for conn in seats + watchers[:SPECTATOR_CHUNK]:
            self._deliver(channel.audiences[conn.seat], conn, conn.version)
        if len(watchers) > SPECTATOR_CHUNK:
            task = asyncio.get_running_loop().create_task(
                self._deliver_later(channel, watchers[SPECTATOR_CHUNK:])
            )
            self._later.add(task)
            task.add_done_callback(self._later.discard)

    async def _deliver_later(self, channel: Channel, watchers: list[Connection]) -> None:
        """Bring these spectators to the spectators' version, SPECTATOR_CHUNK per turn of the
        loop. A later push may have caught some up meanwhile: they are skipped (a socket's frames
        always follow its own version, so nothing is sent twice or out of order)."""
        for start in range(0, len(watchers), SPECTATOR_CHUNK):
            await asyncio.sleep(0)
            audience = channel.audiences.get(None)
            if audience is None:
                return
            for conn in watchers[start : start + SPECTATOR_CHUNK]:
                if conn.version < audience.version and conn in channel.connections:
                    self._deliver(audience, conn, conn.version)

    @staticmethod
    def _deliver(audience: Audience, conn: Connection, after: Any) -> None:
        """Send a socket what takes it from version `after` to the audience's: patches or a snapshot."""
        valid = isinstance(after, int) and not isinstance(after, bool)
        frames = audience.frames_after(after) if valid else None
        if frames is None:
            if conn.version >= 0:
                RESYNCS.inc()
            conn.send(audience.snapshot())
        else:
            for frame in frames:
                PATCH_BYTES.inc(len(frame))
                conn.send(frame)
        conn.version = audience.version

    async def ended(self, game_id: str) -> None:
        """A game ended outside the rules (abandoned) at its current version: every socket of it
        gets a fresh snapshot (no patch can carry a change without a new version)."""
        channel = self.channels.get(game_id)
        if channel is None:
            return
        live = await self.games.live(game_id, fresh=True)
        async with channel.lock:
            for audience in channel.audiences.values():
                audience.reset(live)
            for conn in list(channel.connections):
                audience = channel.audiences.get(conn.seat) or self._audience(channel, live, conn.seat)
                conn.version = audience.version
                conn.send(audience.snapshot())

    async def sync(self, conn: Connection, version: Any) -> None:
        """A client asks for everything after `version`: the patches if kept, else a snapshot."""
        live = await self.games.live(conn.game_id, fresh=True)
        channel = self.channels.get(conn.game_id)
        if channel is None or conn not in channel.connections:
            await self.join(conn)  # not registered (any more): start it over with a snapshot
            return
        async with channel.lock:
            self._deliver(self._audience(channel, live, conn.seat), conn, version)
