"""Games: the caller's document, legal moves, moves, and the log."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.deps import CurrentPlayer, OptionalPlayer, PlatformDep
from app.api.schemas import (error_responses, GameDocument, GameLog, LegalMoves, MoveAccepted,
                             MoveSubmit, TableInfo)
from app.services.errors import ServiceError
from app.services.games import game_document
from app.services.table import table_info

router = APIRouter(prefix="/api/games", tags=["games"],
                   responses=error_responses(400, 401, 403, 404, 409, 413, 422))


@router.get("/{game_id}", response_model=GameDocument, response_model_exclude_unset=True)
async def get_game(game_id: str, platform: PlatformDep, player: OptionalPlayer) -> dict[str, Any]:
    """The caller's game document (a spectator's without a seat)."""
    live = await platform.games.live(game_id, fresh=True)
    seat = live.seat_of(player.id if player else None)
    return game_document(live, live.state, live.version, seat)


@router.get("/{game_id}/legal-moves", response_model=LegalMoves)
async def legal_moves(game_id: str, platform: PlatformDep, player: OptionalPlayer) -> dict[str, Any]:
    """Every move the caller's seat may make now (none when it is not asked to act)."""
    live = await platform.games.live(game_id, fresh=True)
    seat = live.seat_of(player.id if player else None)
    moves: list[dict[str, Any]] = []
    if seat is not None and not live.abandoned and seat in live.ruleset.to_act(live.state):
        moves = live.ruleset.legal_moves(live.state, seat)
    return {"version": live.version, "seat": seat, "moves": moves}


@router.post("/{game_id}/moves", response_model=MoveAccepted)
async def submit_move(game_id: str, body: MoveSubmit, platform: PlatformDep,
                      player: CurrentPlayer) -> dict[str, int]:
    """Play a move for the caller's seat, made at `version`."""
    seat = await platform.games.seat_of(game_id, player.id)
    if seat is None:
        raise ServiceError(403, "You do not hold a seat in this game.")
    version = await platform.games.submit(game_id, seat, body.version, body.move, body.id,
                                          player_id=player.id)
    return {"version": version}


@router.get("/{game_id}/log", response_model=GameLog, response_model_exclude_none=True)
async def game_log(game_id: str, platform: PlatformDep, player: OptionalPlayer) -> dict[str, Any]:
    """The moves as the caller may see them; after the end, every move and the seed."""
    live = await platform.games.live(game_id)
    return await platform.games.log(game_id, live.seat_of(player.id if player else None))


@router.get("/{game_id}/table", response_model=TableInfo)
async def game_table(game_id: str, platform: PlatformDep) -> dict[str, Any]:
    """Who sits where (names, bots, presence, held seats), the clocks and the rematch, if any."""
    return await table_info(platform, game_id)


@router.post("/{game_id}/reclaim", response_model=TableInfo)
async def reclaim_seat(game_id: str, platform: PlatformDep, player: CurrentPlayer) -> dict[str, Any]:
    """The caller is back: a seat a bot held for them (clock ran out, or away too long) is theirs
    again. Opening the game's socket does the same."""
    live = await platform.games.live(game_id)
    seat = live.seat_of(player.id)
    if seat is None:
        raise ServiceError(403, "You do not hold a seat in this game.")
    if await platform.clocks.reclaim(game_id, seat):
        await platform.seat_reclaimed(game_id, live.room_id)
    return await table_info(platform, game_id)
