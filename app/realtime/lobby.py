"""Live lobby and room pages: sockets that get the public room list, or one room, on every change."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.db.models import Room
from app.realtime.hub import Connection, encode
from app.services import rooms as room_service


class LobbyHub:
    """Lobby sockets (room_id None) and room sockets, refreshed when a room changes."""

    def __init__(self, sessions: async_sessionmaker) -> None:
        self.sessions = sessions
        self.lobby: set[Connection] = set()
        self.rooms: dict[str, set[Connection]] = {}
        self._lock = asyncio.Lock()

    async def lobby_frame(self) -> str:
        """The public rooms, as one frame."""
        async with self.sessions() as session:
            rooms = await room_service.public_rooms(session)
            docs = [await room_service.room_document(session, r, None) for r in rooms]
        return encode({"type": "rooms", "rooms": docs})

    async def room_frame(self, room_id: str, player: Any) -> str:
        """One room as its viewer may see it (a deleted room says so)."""
        async with self.sessions() as session:
            room = await session.get(Room, room_id)
            if room is None:
                return encode({"type": "room", "room": None})
            return encode({"type": "room",
                           "room": await room_service.room_document(session, room, player)})

    async def on_room(self, room_id: str) -> None:
        """A room changed: refresh its sockets and the lobby's."""
        async with self._lock:
            if self.lobby:
                frame = await self.lobby_frame()
                for conn in list(self.lobby):
                    conn.send(frame)
            for conn in list(self.rooms.get(room_id, ())):
                conn.send(await self.room_frame(room_id, conn.player_id and _Viewer(conn.player_id)))


class _Viewer:
    """The minimum of a Player that room_document needs to decide membership."""

    def __init__(self, player_id: str) -> None:
        self.id = player_id
