"""What the services need from the live side (sockets, lobby, broker), as protocols the composition
root (app/platform.py) fills: the services never import app.realtime."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Callable, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.services.clocks import Clocks
from app.services.games import GameService

# The process's turn to write (SQLite has one writer; PostgreSQL needs no turn).
WriteTurn = Callable[[], AbstractAsyncContextManager[Any]]


class TableEvents(Protocol):
    """Announcements a service makes when it changed a room or ended a game outside the rules:
    every instance's lobby, room and game sockets hear of them."""

    async def announce_room(self, room_id: str) -> None:
        """A room changed (seats, state, name): its lobby entry and watchers are updated."""

    async def game_ended(self, game_id: str) -> None:
        """A game ended outside the rules (cleanup): its sockets get the final document."""


class SeatPresence(Protocol):
    """The live table a seat's page reads: the games in memory, the seats' clocks (presence,
    held seats) and the database."""

    @property
    def games(self) -> GameService:
        """The games in memory."""

    @property
    def clocks(self) -> Clocks:
        """Seat clocks and presence."""

    @property
    def sessions(self) -> async_sessionmaker[AsyncSession]:
        """Database sessions."""
