"""What the game and room sockets add for the table: presence (which reclaims a held seat) and
chat frames in; kept apart from ws.py's move path. The chat so far is read over REST
(GET /api/rooms/{id}/chat), so a socket's first frames stay what the wire contract says."""

from __future__ import annotations

import logging
from typing import Any

from app.realtime.hub import Connection, encode
from app.realtime.ports import LivePlatform
from app.services.errors import Refusal, ServiceError

logger = logging.getLogger(__name__)  # not `log`: that name is the log frame handler below


async def joined(platform: LivePlatform, conn: Connection, room_id: str) -> None:
    """A socket is in: note its seat's presence (taking a held seat back)."""
    try:
        if conn.seat is not None and await platform.clocks.presence(conn.game_id, conn.seat, +1):
            await platform.seat_reclaimed(conn.game_id, room_id)
    except Exception:  # noqa: BLE001 - the table's extras must never stop a socket from playing
        logger.exception("table extras failed on join of %s", conn.game_id)


async def left(platform: LivePlatform, conn: Connection) -> None:
    """A socket is gone: its seat may now count as absent."""
    try:
        await platform.clocks.presence(conn.game_id, conn.seat, -1)
    except Exception:  # noqa: BLE001
        logger.exception("presence update failed on leave of %s", conn.game_id)


async def moved(platform: LivePlatform, conn: Connection, old: int | None, new: int | None) -> None:
    """A socket was moved from seat `old` to `new` (its seat changed hands): the old seat loses
    this socket's presence and the new one gains it (without taking a held seat back)."""
    try:
        await platform.clocks.presence(conn.game_id, old, -1)
        await platform.clocks.presence(conn.game_id, new, +1, reclaim=False)
    except Exception:  # noqa: BLE001
        logger.exception("presence update failed on a seat change in %s", conn.game_id)


async def beat(platform: LivePlatform, conns: list[Connection]) -> None:
    """These seats' sockets are still there (called with each heartbeat, one socket per seat):
    one write for all of them, not a transaction per seat."""
    try:
        await platform.clocks.seen([(c.game_id, c.seat) for c in conns if c.seat is not None])
    except Exception:  # noqa: BLE001
        logger.exception("presence update failed for %d seats", len(conns))


async def chat(
    platform: LivePlatform,
    conn: Connection,
    frame: dict[str, Any],
    room_id: str,
    game_id: str | None,
    name: str,
    spectator: bool,
) -> None:
    """A `chat` frame: store it and send it to everyone at the table; a ServiceError says what
    is wrong (ws.py answers it with an error frame carrying the frame's id)."""
    unknown = set(frame) - {"type", "text", "id"}
    if unknown:
        raise ServiceError(Refusal.INVALID, f"Unknown fields in a chat frame: {sorted(unknown)[:5]}.")
    message = await platform.chat.post(room_id, conn.player_id, name, spectator, frame.get("text"))
    await platform.announce_chat(room_id, game_id, message)


async def log(platform: LivePlatform, conn: Connection, frame: dict[str, Any]) -> None:
    """A `log` frame asks for the log entries after `after` (a seq, default 0), as this socket's
    seat may see them, each with its sentence in words (`text`): answered with one `log` frame."""
    after = frame.get("after", 0)
    if isinstance(after, bool) or not isinstance(after, int) or after < 0:
        conn.send(
            encode(
                {
                    "type": "error",
                    "id": frame.get("id") if isinstance(frame.get("id"), str) else None,
                    "status": 422,
                    "detail": "A log frame's 'after' must be a move number (0 or more).",
                }
            )
        )
        return
    body = await platform.games.log(conn.game_id, conn.seat)  # a ServiceError: ws.py answers it
    conn.send(
        encode(
            {
                "type": "log",
                "version": body["version"],
                "entries": [e for e in body["moves"] if e["seq"] > after],
                "events": body["events"],
            }
        )
    )
