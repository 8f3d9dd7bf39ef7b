"""My games: a player's games with their state for them (your turn, waiting, finished), your
turn first (soonest deadline first), then waiting, then finished (newest first)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, Player, Room, RoomPace, Seat, SeatClock
from app.engine import registry
from app.services.clocks import aware, pace_json
from app.services.rooms import seat_label

STATES = ("your_turn", "waiting", "finished")
LIMIT = 200


def _state(game: Game, seat: Seat) -> str:
    if game.status != "active":
        return "finished"
    # A held seat's turn is its bot's to play, not the player's.
    return "your_turn" if seat.seat in (game.to_act or []) and not seat.bot else "waiting"


async def my_games(session: AsyncSession, player_id: str, state: str | None) -> list[dict[str, Any]]:
    """The player's games (at most LIMIT, newest first before sorting), optionally one state."""
    rows = (
        await session.execute(
            select(Game, Seat, RoomPace)
            .join(Room, Room.game_id == Game.id)
            .join(Seat, (Seat.room_id == Room.id) & (Seat.player_id == player_id))
            .outerjoin(RoomPace, RoomPace.room_id == Room.id)
            .order_by(Game.created_at.desc())
            .limit(LIMIT)
        )
    ).all()
    games = [(game, seat, pace, _state(game, seat)) for game, seat, pace in rows]
    games = [g for g in games if state is None or g[3] == state]
    if not games:
        return []
    ids = [g[0].id for g in games]
    clocks = {
        (c.game_id, c.seat): c
        for c in (await session.execute(select(SeatClock).where(SeatClock.game_id.in_(ids)))).scalars()
    }
    names: dict[str, dict[int, str]] = {}
    for room_id, number, bot, name in (
        await session.execute(
            select(Seat.room_id, Seat.seat, Seat.bot, Player.name)
            .outerjoin(Player, Player.id == Seat.player_id)
            .where(Seat.room_id.in_({g[0].room_id for g in games}))
        )
    ).all():
        names.setdefault(room_id, {})[number] = seat_label(number, name, bot)
    out = []
    for game, seat, pace, mine in games:
        clock = clocks.get((game.id, seat.seat))
        deadline = aware(clock.deadline) if clock is not None else None
        ruleset = registry.get(game.ruleset)
        seated = names.get(game.room_id, {})
        out.append(
            {
                "game_id": game.id,
                "room_id": game.room_id,
                "ruleset": game.ruleset,
                "ruleset_name": getattr(ruleset, "name", game.ruleset),
                "state": mine,
                "status": game.status,
                "seat": seat.seat,
                "version": game.version,
                "players": [seated[n] for n in sorted(seated)],
                "to_act": [seated.get(n, f"Seat {n + 1}") for n in (game.to_act or [])]
                if game.status == "active"
                else [],
                "pace": pace_json(pace),
                "deadline": deadline.isoformat() if deadline else None,
                "held": bool(clock is not None and clock.held and seat.bot),
                "created_at": aware(game.created_at).isoformat() if game.created_at else None,
            }
        )
    order = {s: i for i, s in enumerate(STATES)}
    out.sort(
        key=lambda g: (order[str(g["state"])], g["deadline"] or "~" if g["state"] == "your_turn" else "")
    )
    return out
