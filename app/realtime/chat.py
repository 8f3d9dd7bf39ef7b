"""Chat delivery: a stored chat line goes to this instance's sockets of the room and its game."""

from __future__ import annotations

from typing import Any

from app.realtime.hub import encode
from app.realtime.ports import LivePlatform


def deliver(platform: LivePlatform, event: dict[str, Any]) -> int:
    """Send one `chat` frame to the room's watchers and the game's sockets; returns how many."""
    frame = encode({"type": "chat", "message": event["message"]})
    targets = set(platform.lobby.rooms.get(str(event.get("room_id")), ()))
    game_id = event.get("game_id")
    if game_id:
        channel = platform.hub.channels.get(str(game_id))
        if channel is not None:
            targets |= set(channel.connections)
    for conn in targets:
        conn.send(frame)
    return len(targets)
