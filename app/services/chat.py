"""Chat: text lines stored with the room (its lobby and its games), sent over the sockets already
open. Text only, at most MAX_CHARS characters, control characters removed (browsers show it as
text, never as markup); each player may send at most RATE messages per WINDOW seconds."""

from __future__ import annotations

import unicodedata
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any, Awaitable, Callable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import ChatMessage, Player
from app.services.errors import Refusal, ServiceError

MAX_CHARS = 300
RATE, WINDOW = 5, 10
HISTORY = 100


def clean(text: Any) -> str:
    """The message as stored, or a 422 saying what is wrong with it."""
    if not isinstance(text, str):
        raise ServiceError(Refusal.INVALID, "A chat message must be text.")
    text = "".join(ch for ch in text if ch in "\n" or unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise ServiceError(Refusal.INVALID, "A chat message cannot be empty.")
    if len(text) > MAX_CHARS:
        raise ServiceError(Refusal.INVALID, f"A chat message may be at most {MAX_CHARS} characters.")
    return text


def message_json(m: ChatMessage, name: str | None = None) -> dict[str, Any]:
    """One message as the wire shows it, under its player's name now (`name`; a rename or a
    deleted account shows on old lines too), else the name it was sent under."""
    return {
        "id": m.id,
        "name": name or m.name,
        "text": m.text,
        "spectator": m.spectator,
        "time": m.created_at.isoformat() if m.created_at else None,
    }


class ChatService:
    """Stores messages; `allow(player_id)` counts one message against the player's chat rate
    (RATE per WINDOW seconds, shared by every instance when the platform's limits are) and
    answers 0, or the seconds to wait."""

    def __init__(
        self,
        sessions: async_sessionmaker,
        allow: Callable[[str], Awaitable[int]],
        write_turn: Callable[[], AbstractAsyncContextManager[Any]] = nullcontext,
    ) -> None:
        self.sessions = sessions
        self.allow = allow
        self.write_turn = write_turn  # SQLite's one writer's turn (GameService.write_turn)
        # Called with (room_id, player_id, message) once a line is stored (notifications).
        self.listeners: list[Callable[[str, str | None, dict[str, Any]], Awaitable[None]]] = []

    async def post(
        self, room_id: str, player_id: str | None, name: str, spectator: bool, text: Any
    ) -> dict[str, Any]:
        """Store one message; returns it as the wire shows it."""
        if player_id is None:
            raise ServiceError(Refusal.AUTH_REQUIRED, "Choose a name (a player token) to chat.")
        body = clean(text)
        wait = await self.allow(player_id)
        if wait:
            raise ServiceError(
                Refusal.RATE_LIMITED,
                f"You may send {RATE} messages every {WINDOW:g} seconds; wait {wait} s.",
                retry_after=wait,
            )
        async with self.write_turn(), self.sessions() as session:
            # The name from its one place (a socket opened before a rename knows the old one).
            name = (await session.execute(select(Player.name).where(Player.id == player_id))).scalar() or name
            message = ChatMessage(
                room_id=room_id, player_id=player_id, name=name[:40], spectator=spectator, text=body
            )
            session.add(message)
            await session.commit()
            line = message_json(message)
        for listener in self.listeners:
            await listener(room_id, player_id, line)
        return line

    async def history(self, room_id: str, session: AsyncSession) -> list[dict[str, Any]]:
        """The room's last messages, oldest first (read in the caller's session: a request
        never holds one connection while it waits for another)."""
        rows = (
            await session.execute(
                select(ChatMessage, Player.name)
                .outerjoin(Player, Player.id == ChatMessage.player_id)
                .where(ChatMessage.room_id == room_id)
                .order_by(ChatMessage.id.desc())
                .limit(HISTORY)
            )
        ).all()
        return [message_json(m, name) for m, name in reversed(rows)]
