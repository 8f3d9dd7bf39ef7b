"""Players' pages: name, ratings per game, games played, win share, share of games finished (not
left or timed out), the last games with their replays; and each game's leaderboard.

A player's games are the ones they were seated in at the start (game_events 'seated'). Games of
private tables are listed only to the player themselves: to anyone else they do not exist.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Game, GameEvent, Player, PlayerRating, RatedGame, Room
from app.ratings import PROVISIONAL_GAMES
from app.services import history
from app.services.errors import not_found
from app.services.ratings import describe

# A seat its player did not see through: they left, or a bot took it when their time ran out or
# they stopped moving (a player merely away who came back is not counted).
_DROPPED = ("left", "timeout", "idle")


def _seated_games(player_id: str, viewer_id: str | None) -> Any:
    """A query of (game, seat, private) for the games the player sat down in, newest first."""
    query = (
        select(Game, GameEvent.seat, Room.private)
        .join(GameEvent, GameEvent.game_id == Game.id)
        .join(Room, Room.id == Game.room_id)
        .where(GameEvent.kind == "seated", GameEvent.player_id == player_id)
        .order_by(Game.created_at.desc(), Game.id)
    )
    if viewer_id != player_id:
        query = query.where(Room.private.is_(False))
    return query


async def _dropped(session: AsyncSession, seats: dict[str, int]) -> set[str]:
    """Of these games (game -> the player's seat), those whose seat the player left, or lost to a
    bot for running out of time or idling."""
    rows = await session.execute(
        select(GameEvent.game_id, GameEvent.seat, GameEvent.kind, GameEvent.reason).where(
            GameEvent.game_id.in_(list(seats)), GameEvent.kind.in_(("left", "held"))
        )
    )
    return {
        game_id
        for game_id, seat, kind, reason in rows
        if seat == seats[game_id] and (kind == "left" or reason in _DROPPED)
    }


async def profile(session: AsyncSession, player_id: str, viewer_id: str | None) -> dict[str, Any]:
    """The player's page as data."""
    player = await session.get(Player, player_id)
    if player is None or player.deleted_at is not None:
        raise not_found("player")
    games = (await session.execute(_seated_games(player_id, viewer_id))).all()
    ended = [(g, seat) for g, seat, _ in games if g.status in ("finished", "abandoned")]
    results = [(g, seat) for g, seat in ended if g.outcome and g.outcome.get("ranks")]
    dropped = await _dropped(session, {g.id: seat for g, seat in ended})
    # A game won by the bot that took over a seat its player left is not that player's win.
    wins = sum(1 for g, seat in results if _place(g, seat) == 1 and g.id not in dropped)
    ratings = (
        await session.execute(
            select(PlayerRating)
            .where(PlayerRating.player_id == player_id)
            .order_by(PlayerRating.ruleset, PlayerRating.pool)
        )
    ).scalars()
    return {
        "id": player.id,
        "name": player.name,
        "ratings": [{"ruleset": r.ruleset, "pool": r.pool, **describe(r)} for r in ratings],
        "games_played": len(ended),
        "games_in_progress": len(games) - len(ended),
        "wins": wins,
        "win_share": round(wins / len(results), 3) if results else None,
        "finished_share": (
            round(sum(g.id not in dropped for g, _ in ended) / len(ended), 3) if ended else None
        ),
        "provisional_games": PROVISIONAL_GAMES,
    }


def _place(game: Game, seat: int) -> int | None:
    ranks = (game.outcome or {}).get("ranks") or []
    return ranks[seat] if seat < len(ranks) else None


async def games_of(
    session: AsyncSession, player_id: str, viewer_id: str | None, offset: int = 0, limit: int = 20
) -> list[dict[str, Any]]:
    """The player's games, newest first: ruleset, status, their seat and place, who played, the
    rating change, and the replay's address."""
    player = await session.get(Player, player_id)
    if player is None or player.deleted_at is not None:
        raise not_found("player")
    rows = (await session.execute(_seated_games(player_id, viewer_id).offset(offset).limit(limit))).all()
    ids = [g.id for g, _, _ in rows]
    seated = (
        (
            await session.execute(
                select(GameEvent).where(GameEvent.game_id.in_(ids), GameEvent.kind == "seated")
            )
        )
        .scalars()
        .all()
    )
    names = await history.player_names(session, {e.player_id for e in seated})
    rated = {
        r.game_id: r
        for r in (await session.execute(select(RatedGame).where(RatedGame.game_id.in_(ids)))).scalars()
    }
    out = []
    for game, seat, _ in rows:
        line = [e for e in seated if e.game_id == game.id]
        change = rated[game.id].changes.get(player_id) if game.id in rated else None
        out.append(
            {
                "game_id": game.id,
                "ruleset": game.ruleset,
                "status": game.status,
                "started_at": game.created_at.isoformat(),
                "seat": seat,
                "place": _place(game, seat),
                "players": [
                    {
                        "seat": e.seat,
                        "name": history.label(e.seat, history.Holder(e.player_id, e.bot), names),
                        "player_id": e.player_id,
                    }
                    for e in sorted(line, key=lambda e: e.seat)
                ],
                "rating": (
                    {"pool": rated[game.id].pool, "before": change["before"], "after": change["after"]}
                    if change
                    else None
                ),
                "replay": f"/games/{game.id}/replay",
            }
        )
    return out


async def leaderboard(
    session: AsyncSession, ruleset: str, pool: str, limit: int = 100
) -> list[dict[str, Any]]:
    """A game's players by rating: settled ratings first, then provisional ones."""
    rows = (
        await session.execute(
            select(PlayerRating, Player.name)
            .join(Player, Player.id == PlayerRating.player_id)
            .where(PlayerRating.ruleset == ruleset, PlayerRating.pool == pool, Player.deleted_at.is_(None))
            .order_by(
                (PlayerRating.games < PROVISIONAL_GAMES), PlayerRating.mu.desc(), PlayerRating.player_id
            )
            .limit(limit)
        )
    ).all()
    return [
        {"place": n, "player_id": r.player_id, "name": name, **describe(r)}
        for n, (r, name) in enumerate(rows, start=1)
    ]
