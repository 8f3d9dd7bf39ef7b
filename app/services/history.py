"""A game's history as it happened: who held each seat for each move, and the seat events (taken
at the start, left, held by a bot for an absent player, taken back), named when read.

Moves store the seat's holder (player id and bot) from their own transaction; events store the
holder after them. Names come from the players table at read time (one place: a rename reaches
every past line), never from who holds the seat now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, GameEvent, Player, Seat
from app.engine.choosers import PLAYABLE

FORMER_PLAYER = "Former player"  # a player id with no row left (a deleted account)

# What each event says, `{name}` being the seat's player.
_EVENT_WORDS = {
    ("left", None): "{name} left the game; a bot plays the seat from now on.",
    ("held", "timeout"): "{name}'s time ran out; a bot plays the seat until they return.",
    ("held", "away"): "{name} is away; a bot plays the seat until they return.",
    ("held", "idle"): "{name} did not move for a long time; a bot plays the seat until they return.",
    ("returned", None): "{name} is back and plays the seat again.",
    ("held", "skip"): "{name}'s time ran out; a bot plays this turn for them.",
    ("left", "timeout"): "{name}'s time ran out; the seat is offered to other players and a bot "
    "plays it meanwhile.",
    ("took", None): "{name} took the seat offered to other players.",
}


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds a seat: a player alone, a bot holding a player's seat, or a bot alone."""

    player_id: str | None
    bot: str | None

    @property
    def kind(self) -> str:
        """'player', 'held' (a bot plays for the player) or 'bot'."""
        if self.bot is None:
            return "player"
        return "held" if self.player_id else "bot"


def seat_label(seat: int, player_name: str | None, bot: str | None) -> str:
    """The one display name of a seat everywhere (room, game, log): the player's name, else
    'Bot N' for a bot ('Bot N (Hard)' for one seated at a chosen level), else 'Seat N' (N
    counted from 1)."""
    if player_name:
        return player_name
    if not bot:
        return f"Seat {seat + 1}"
    return f"Bot {seat + 1} ({PLAYABLE[bot]})" if bot in PLAYABLE else f"{bot} {seat + 1}"


def label(seat: int, holder: Holder | None, names: dict[str, str]) -> str:
    """The one display name of a seat's holder in the history: the player's name, 'Bot for Ann'
    while a bot holds Ann's seat, 'Bot N' for a bot seat, 'Seat N' when nobody is known."""
    if holder is None or (holder.player_id is None and holder.bot is None):
        return f"Seat {seat + 1}"
    name = names.get(holder.player_id, FORMER_PLAYER) if holder.player_id else None
    if holder.bot is None:
        return name or f"Seat {seat + 1}"
    if name is None:
        return seat_label(seat, None, holder.bot)
    return f"{PLAYABLE[holder.bot]} bot for {name}" if holder.bot in PLAYABLE else f"Bot for {name}"


def actor(holder: Holder | None, names: dict[str, str]) -> dict[str, Any] | None:
    """A log entry's `actor`: kind, the player (id and name) whose seat it is, and the bot."""
    if holder is None or (holder.player_id is None and holder.bot is None):
        return None
    player = (
        {"id": holder.player_id, "name": names.get(holder.player_id, FORMER_PLAYER)}
        if holder.player_id
        else None
    )
    return {"kind": holder.kind, "player": player, "bot": holder.bot}


def event_text(kind: str, reason: str | None, player_name: str) -> str:
    """An event's sentence in words."""
    words = _EVENT_WORDS.get((kind, reason)) or _EVENT_WORDS.get((kind, None))
    return (words or "{name}: " + kind).format(name=player_name)


async def player_names(session: AsyncSession, ids: Iterable[str | None]) -> dict[str, str]:
    """Display names of players by id (the one place names are read from)."""
    wanted = {i for i in ids if i}
    if not wanted:
        return {}
    rows = await session.execute(
        select(Player.id, Player.name, Player.deleted_at).where(Player.id.in_(wanted))
    )
    # A deleted account's games keep a neutral name.
    return {row.id: FORMER_PLAYER if row.deleted_at else row.name for row in rows}


def record(
    session: AsyncSession,
    game_id: str,
    version: int,
    seat: int,
    kind: str,
    holder: Holder,
    reason: str | None = None,
) -> None:
    """Add a seat event to the caller's transaction."""
    session.add(
        GameEvent(
            game_id=game_id,
            version=version,
            seat=seat,
            kind=kind,
            reason=reason,
            player_id=holder.player_id,
            bot=holder.bot,
        )
    )


def record_seated(session: AsyncSession, game: Game, seats: Iterable[Seat]) -> None:
    """Who sits where when a game starts (inside the transaction that creates it)."""
    for s in seats:
        record(session, game.id, 0, s.seat, "seated", Holder(s.player_id, s.bot))


async def record_change(
    session: AsyncSession,
    game_id: str,
    room_id: str,
    seat: int,
    kind: str,
    reason: str | None = None,
    version: int | None = None,
) -> None:
    """Record a seat's change (after the caller changed it in this transaction) at the game's
    version: its holder is read back from the seat."""
    if version is None:
        version = await session.scalar(select(Game.version).where(Game.id == game_id)) or 0
    await session.flush()
    row = (
        await session.execute(
            select(Seat.player_id, Seat.bot).where(Seat.room_id == room_id, Seat.seat == seat)
        )
    ).first()
    holder = Holder(row.player_id, row.bot) if row is not None else Holder(None, None)
    if kind == "left":
        holder = Holder(None, holder.bot)
    record(session, game_id, version, seat, kind, holder, reason)


@dataclass
class Seating:
    """A game's seat events in order, to say who held each seat at any version."""

    events: list[GameEvent]

    def at(self, version: int) -> dict[int, Holder]:
        """The holder of each seat once every event up to `version` has happened."""
        seats: dict[int, Holder] = {}
        for event in self.events:
            if event.version > version:
                break
            seats[event.seat] = Holder(event.player_id, event.bot)
        return seats

    def player_ids(self) -> set[str]:
        """Every player who ever held a seat."""
        return {e.player_id for e in self.events if e.player_id}


async def seating(session: AsyncSession, game_id: str) -> Seating:
    """A game's seat events, oldest first."""
    rows = (
        await session.execute(
            select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.version, GameEvent.id)
        )
    ).scalars()
    return Seating(list(rows))


def event_entries(seats: Seating, names: dict[str, str]) -> list[dict[str, Any]]:
    """The log's `events`: every seat change after the start, in words, placed by `version`
    (it happened after the move of that number)."""
    entries = []
    before: dict[int, Holder] = {}
    for e in seats.events:
        previous = before.get(e.seat)
        before[e.seat] = Holder(e.player_id, e.bot)
        if e.kind == "seated":
            continue
        # The player whose seat it is: still on the event, or (after a leave) the one who held it.
        player_id = e.player_id or (previous.player_id if previous else None)
        name = names.get(player_id, FORMER_PLAYER) if player_id else f"Seat {e.seat + 1}"
        entries.append(
            {
                "version": e.version,
                "seat": e.seat,
                "kind": e.kind,
                "reason": e.reason,
                "player": {"id": player_id, "name": name} if player_id else None,
                "text": event_text(e.kind, e.reason, name),
                "time": e.created_at.isoformat() if e.created_at else None,
            }
        )
    return entries
