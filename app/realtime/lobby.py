"""The lobby as an in-memory projection, and the live lobby and room sockets.

Every instance keeps the public rooms waiting in the lobby in memory, updated once per room
change (three queries for a batch of changed rooms, however many viewers there are) and shared
by every viewer: `GET /api/rooms` and `/ws/lobby` read it without touching the database. Lobby
sockets get the first page as one snapshot frame on connect, then one `rooms_patch` frame per
change (RFC 6902 ops against the previous page, the same frame is sent to every socket).

Room events have their own path: a coalescing queue drained by this hub's own task, apart from
the broker loop that carries game patches, so a burst of room changes never delays a move. A
lobby patch goes out to its sockets a chunk at a time, letting the loop serve moves in between:
writing one frame to a thousand sockets at once held every move behind it for ~15 ms.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Awaitable, Callable

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.engine.diff import diff
from app.realtime.hub import Connection, encode
from app.services import rooms as room_service
from app.services.rooms import RoomEntry
from app.tasks import stop_tasks

log = logging.getLogger(__name__)

FANOUT_CHUNK = 64  # lobby sockets written per turn of the loop (a move waits one chunk at most)


class LobbyHub:
    """The lobby projection, lobby sockets, and room sockets (by room id)."""

    def __init__(
        self, sessions: async_sessionmaker, page_size: int = 50, resync_seconds: float = 60.0
    ) -> None:
        self.sessions = sessions
        self.page_size = page_size
        self.resync_seconds = resync_seconds
        self.entries: dict[str, RoomEntry] = {}  # public rooms waiting in the lobby
        self.order: list[str] = []  # newest first
        self.version = 0
        self.page: list[dict[str, Any]] = []  # the first page, as every lobby socket has it
        self.lobby: set[Connection] = set()
        self.rooms: dict[str, set[Connection]] = {}
        # Hooks run for every changed room on the room path (the platform refreshes seats there).
        self.room_listeners: list[Callable[[str], Awaitable[None]]] = []
        self._pending: set[str] = set()
        self._wake = asyncio.Event()
        self._apply_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        # Lobby patches not yet written to every socket, each with the sockets it is for (those
        # open when it was made: a socket opened later has it in its snapshot already).
        self._outbox: deque[tuple[str, list[Connection]]] = deque()
        self._sender: asyncio.Task[None] | None = None

    # -- the projection ------------------------------------------------------------------------

    async def start(self) -> None:
        """Build the projection from the database, then start the room path's worker."""
        await self.rebuild()
        self._tasks = [asyncio.create_task(self._worker())]
        if self.resync_seconds > 0:
            self._tasks.append(asyncio.create_task(self._resync()))

    async def stop(self) -> None:
        """Stop the worker, the resync and the sender (and wait until they have ended)."""
        await stop_tasks(self._tasks + ([self._sender] if self._sender is not None else []))

    async def rebuild(self) -> None:
        """Load every public lobby room afresh (at start, and now and then in case events were lost)."""
        async with self._apply_lock:
            async with self.sessions() as session:
                entries = await room_service.room_entries(session)
            self.entries = entries
            self._reorder()
            self._publish_page()

    async def apply(self, room_ids: list[str]) -> None:
        """Reload these rooms from the database and update the projection and their sockets."""
        async with self._apply_lock:  # the last reload to run read the latest commit
            async with self.sessions() as session:
                fresh = await room_service.room_entries(session, list(room_ids))
            changed = False
            for room_id in room_ids:
                entry = fresh.get(room_id)
                if entry is not None and entry.listed:
                    changed |= self.entries.get(room_id) is None or self.entries[room_id].doc != entry.doc
                    self.entries[room_id] = entry
                elif self.entries.pop(room_id, None) is not None:
                    changed = True
                self._send_room(room_id, entry)
            if changed:
                self._reorder()
                self._publish_page()
        for room_id in room_ids:
            for listener in self.room_listeners:
                try:
                    await listener(room_id)
                except Exception:  # one failing hook must not stop the room path
                    log.exception("room listener failed for %s", room_id)

    def post(self, room_id: str) -> None:
        """Queue a room change heard from the broker; repeated changes of one room coalesce."""
        self._pending.add(room_id)
        self._wake.set()

    async def _worker(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = list(self._pending), set()
            if not batch:
                continue
            try:
                await self.apply(batch)
            except Exception:
                log.exception("lobby update failed; rebuilding on the next resync")

    async def _resync(self) -> None:
        while True:
            await asyncio.sleep(self.resync_seconds)
            try:
                await self.rebuild()
            except Exception:
                log.warning("lobby resync failed; keeping the current projection")

    def _reorder(self) -> None:
        self.order = sorted(self.entries, key=lambda i: (_stamp(self.entries[i].created_at), i), reverse=True)

    def _publish_page(self) -> None:
        self._publish([self.entries[i].doc for i in self.order[: self.page_size]])

    def _publish(self, page: list[dict[str, Any]]) -> None:
        """Make `page` the lobby's first page, and queue its patch to every lobby socket open now."""
        ops = diff(self.page, page)
        self.page = page
        if not ops:
            return
        self.version += 1
        frame = encode({"type": "rooms_patch", "version": self.version, "ops": ops, "total": len(self.order)})
        self._outbox.append((frame, list(self.lobby)))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._send_out())

    async def _send_out(self) -> None:
        """Write queued lobby patches in order, FANOUT_CHUNK sockets per turn of the loop."""
        while self._outbox:
            frame, conns = self._outbox.popleft()
            for start in range(0, len(conns), FANOUT_CHUNK):
                if start:
                    await asyncio.sleep(0)
                for conn in conns[start : start + FANOUT_CHUNK]:
                    conn.send(frame)

    # -- reading -------------------------------------------------------------------------------

    def list(self, viewer_id: str | None, offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """A page of public lobby rooms, newest first (members also see their invite code)."""
        limit = self.page_size if limit is None else limit
        return [self.entries[i].document(viewer_id) for i in self.order[offset : offset + limit]]

    def snapshot_frame(self) -> str:
        """The lobby's first page as one frame, with the version later patches build on."""
        return encode(
            {"type": "rooms", "version": self.version, "rooms": self.page, "total": len(self.order)}
        )

    async def room_frame(self, room_id: str, viewer_id: str | None) -> str:
        """One room as its viewer may see it (a deleted room says so)."""
        async with self.sessions() as session:
            entry = (await room_service.room_entries(session, [room_id])).get(room_id)
        return _room_frame(entry, viewer_id)

    # -- sockets -------------------------------------------------------------------------------

    def watch_room(self, room_id: str, conn: Connection) -> None:
        """Register a room socket."""
        self.rooms.setdefault(room_id, set()).add(conn)

    def unwatch_room(self, room_id: str, conn: Connection) -> None:
        """Forget a room socket; a room nobody watches is forgotten too."""
        group = self.rooms.get(room_id)
        if group is not None:
            group.discard(conn)
            if not group:
                del self.rooms[room_id]

    def _send_room(self, room_id: str, entry: RoomEntry | None) -> None:
        frames: dict[bool, str] = {}
        for conn in list(self.rooms.get(room_id, ())):
            member = entry is not None and conn.player_id in entry.members
            if member not in frames:
                frames[member] = _room_frame(entry, conn.player_id if member else None)
            conn.send(frames[member])


def _room_frame(entry: RoomEntry | None, viewer_id: str | None) -> str:
    return encode({"type": "room", "room": entry.document(viewer_id) if entry else None})


def _stamp(value: Any) -> float:
    """Sortable creation time (SQLite hands back naive datetimes, PostgreSQL aware ones)."""
    try:
        return value.timestamp()
    except AttributeError:
        return 0.0
