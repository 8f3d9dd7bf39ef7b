"""What the socket endpoints need from the running platform, as a protocol: app/platform.py (the
composition root) fills it, and app.realtime never imports the root."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.limits import TokenFrames
from app.realtime.hub import Hub
from app.realtime.lobby import LobbyHub
from app.realtime.session import LiveSessions
from app.services.chat import ChatService
from app.services.clocks import Clocks
from app.services.games import GameService
from app.services.tokens import Tokens


class LivePlatform(Protocol):
    """The parts of the platform a game, lobby or room socket reads, and the two announcements
    it makes (a held seat taken back, a chat line)."""

    @property
    def settings(self) -> Settings:
        """The running settings."""

    @property
    def sessions(self) -> async_sessionmaker[AsyncSession]:
        """Database sessions."""

    @property
    def games(self) -> GameService:
        """The games in memory: moves, undo, logs."""

    @property
    def clocks(self) -> Clocks:
        """Seat clocks and presence."""

    @property
    def tokens(self) -> Tokens:
        """Token checks, and the sockets each token holds open."""

    @property
    def chat(self) -> ChatService:
        """Storing chat lines."""

    @property
    def hub(self) -> Hub:
        """This instance's game sockets."""

    @property
    def lobby(self) -> LobbyHub:
        """This instance's lobby and room sockets."""

    @property
    def live_sockets(self) -> LiveSessions:
        """Detached sockets, finished before the platform stops."""

    @property
    def token_frames(self) -> TokenFrames:
        """Frame budgets shared by a token's sockets."""

    async def seat_reclaimed(self, game_id: str, room_id: str) -> None:
        """A player took their held seat back: every instance reloads the seats."""

    async def announce_chat(self, room_id: str, game_id: str | None, message: dict[str, Any]) -> None:
        """Send a chat line to every instance's sockets of the room and its game."""
