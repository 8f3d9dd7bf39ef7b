"""Games: the caller's document, legal moves, moves, the log, and the table around the game.

A private room's game answers 404, the same as a game that does not exist, to anyone who is not
seated in it and does not present the room's invite code (`?invite_code=`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import CurrentPlayer, OptionalPlayer, PlatformDep, SessionDep, room_writing
from app.api.schemas import (
    error_responses,
    GameDocument,
    GameLog,
    LegalMoves,
    MoveAccepted,
    MoveSubmit,
    ReplayDocument,
    ReplayIndex,
    TableInfo,
    UndoAccepted,
    UndoSubmit,
)
from app.services.errors import Refusal, ServiceError, not_found
from app.services.games import LiveGame, game_document
from app.services.replay import ALL, viewpoint
from app.services.table import table_info, take_offered_seat

router = APIRouter(
    prefix="/api/games", tags=["games"], responses=error_responses(400, 401, 403, 404, 409, 413, 422)
)


async def _visible(
    platform: Any, game_id: str, player: Any, invite_code: str | None = None, *, fresh: bool = False
) -> LiveGame:
    """The game, if the caller may see it (else the 404 of a game that does not exist)."""
    live = await platform.games.live(game_id, fresh=fresh)
    if not live.visible_to(player.id if player else None, invite_code):
        raise not_found("game")
    return live


@router.get("/{game_id}", response_model=GameDocument, response_model_exclude_unset=True)
async def get_game(
    game_id: str, platform: PlatformDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """The caller's game document (a spectator's without a seat)."""
    live = await _visible(platform, game_id, player, invite_code, fresh=True)
    seat = live.seat_of(player.id if player else None)
    return game_document(live, live.state, live.version, seat)


@router.get("/{game_id}/legal-moves", response_model=LegalMoves, response_model_exclude_none=True)
async def legal_moves(
    game_id: str, platform: PlatformDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """Every move the caller's seat may make now (none when it is not asked to act)."""
    live = await _visible(platform, game_id, player, invite_code, fresh=True)
    seat = live.seat_of(player.id if player else None)
    moves: list[dict[str, Any]] = []
    if seat is not None and not live.abandoned and seat in live.ruleset.to_act(live.state):
        moves = live.legal_moves(seat)
    answer: dict[str, Any] = {"version": live.version, "seat": seat, "moves": moves}
    undo = await platform.games.undo_allowance(live, seat)
    if undo is not None:
        answer["undo"] = undo
    return answer


@router.post("/{game_id}/moves", response_model=MoveAccepted)
async def submit_move(
    game_id: str, body: MoveSubmit, platform: PlatformDep, player: CurrentPlayer
) -> dict[str, int]:
    """Play a move for the caller's seat, made at `version`."""
    seat = await platform.games.seat_of(game_id, player.id)
    if seat is None:
        await _visible(platform, game_id, player)  # a private game's outsider: 404
        raise ServiceError(Refusal.SEAT_NOT_YOURS, "You do not hold a seat in this game.")
    version = await platform.games.submit(
        game_id, seat, body.version, body.move, body.id, player_id=player.id
    )
    return {"version": version}


@router.post("/{game_id}/undo", response_model=UndoAccepted)
async def take_back(
    game_id: str, body: UndoSubmit, platform: PlatformDep, player: CurrentPlayer
) -> dict[str, int]:
    """Take back the caller's last `moves` moves (made at `version`, the current one), where the
    table allows it, nobody else has acted since and none of them showed the caller anything
    hidden: a new log row and a new version; the moves' rows stay in the log."""
    seat = await platform.games.seat_of(game_id, player.id)
    if seat is None:
        await _visible(platform, game_id, player)  # a private game's outsider: 404
        raise ServiceError(Refusal.SEAT_NOT_YOURS, "You do not hold a seat in this game.")
    version = await platform.games.take_back(
        game_id, seat, body.version, body.moves, body.id, player_id=player.id
    )
    return {"version": version, "undone": body.moves}


@router.get("/{game_id}/log", response_model=GameLog, response_model_exclude_none=True)
async def game_log(
    game_id: str, platform: PlatformDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """The moves as the caller may see them; after the end, every move and the seed."""
    live = await _visible(platform, game_id, player, invite_code)
    return await platform.games.log(game_id, live.seat_of(player.id if player else None))


@router.get("/{game_id}/table", response_model=TableInfo)
async def game_table(
    game_id: str, platform: PlatformDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """Who sits where (names, bots, presence, held seats), the clocks and, for the game's own
    players, its rematch."""
    await _visible(platform, game_id, player, invite_code)
    return await table_info(platform, game_id, player.id if player else None)


@router.post("/{game_id}/reclaim", response_model=TableInfo)
async def reclaim_seat(game_id: str, platform: PlatformDep, player: CurrentPlayer) -> dict[str, Any]:
    """The caller is back: a seat a bot held for them (clock ran out, or away too long) is theirs
    again. Opening the game's socket does the same."""
    live = await _visible(platform, game_id, player)
    seat = live.seat_of(player.id)
    if seat is None:
        raise ServiceError(Refusal.SEAT_NOT_YOURS, "You do not hold a seat in this game.")
    if await platform.clocks.reclaim(game_id, seat):
        await platform.seat_reclaimed(game_id, live.room_id)
    return await table_info(platform, game_id, player.id)


@router.post("/{game_id}/seats/{seat}/take", response_model=TableInfo)
async def take_seat(
    game_id: str,
    seat: int,
    platform: PlatformDep,
    player: CurrentPlayer,
    session: SessionDep,
    invite_code: str | None = None,
) -> dict[str, Any]:
    """Take a seat offered to others after its player's time ran out (a turn pace's 'offer'
    timeout policy); the caller must not sit at this table already (a private table's seat
    needs its invite code)."""
    live = await _visible(platform, game_id, player, invite_code)
    async with room_writing(platform, session, live.room_id):
        room_id = await take_offered_seat(session, game_id, seat, player.id)
    await platform.seat_reclaimed(game_id, room_id)
    await platform.clocks.on_move(game_id)
    return await table_info(platform, game_id, player.id)


@router.get("/{game_id}/replay", response_model=ReplayIndex)
async def replay_index(
    game_id: str, platform: PlatformDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """Where the game's turns and rounds begin and its scoring moments, up to now."""
    live = await _visible(platform, game_id, player, invite_code, fresh=True)
    seat = live.seat_of(player.id if player else None)
    viewpoints: list[int | str | None] = [*range(live.players), None, ALL] if live.finished else [seat]
    return {
        "game_id": live.id,
        "ruleset": live.ruleset.id,
        "players": live.players,
        "version": live.version,
        "finished": live.finished,
        "seed_hash": live.seed_hash,
        "seat": seat,
        "viewpoints": viewpoints,
        **await platform.replays.index(live, live.version),
    }


@router.get("/{game_id}/replay/{version}", response_model=ReplayDocument, response_model_exclude_unset=True)
async def replay_version(
    game_id: str,
    version: int,
    platform: PlatformDep,
    player: OptionalPlayer,
    seat: str | None = None,
    invite_code: str | None = None,
) -> dict[str, Any]:
    """The game document at `version` from a viewpoint: during the game the caller's own seat
    (a spectator's view without one); after the end any seat (`?seat=2`), the spectator's
    (`?seat=spectator`) or everything revealed (`?seat=all`)."""
    live = await _visible(platform, game_id, player, invite_code, fresh=True)
    shown = viewpoint(live, live.seat_of(player.id if player else None), seat)
    if not 0 <= version <= live.version:
        raise ServiceError(Refusal.VERSION_UNKNOWN, f"This game has versions 0 to {live.version}.")
    state = await platform.replays.state_at(live, version)
    return platform.replays.document(live, state, version, shown)
