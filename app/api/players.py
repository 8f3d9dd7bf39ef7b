"""Guest identities."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CurrentPlayer, SessionDep, committing
from app.api.schemas import PlayerCreate, PlayerCreated, RoomPublic, error_responses
from app.services import rooms as room_service

router = APIRouter(prefix="/api/players", tags=["players"],
                   responses=error_responses(400, 401, 413, 422))


@router.post("", status_code=201, response_model=PlayerCreated)
async def create_player(body: PlayerCreate, session: SessionDep) -> dict:
    """Create a guest player; the token is shown only in this answer."""
    async with committing(session):
        player, token = await room_service.create_player(session, body.name.strip() or "Player")
    return {"id": player.id, "name": player.name, "token": token}


@router.get("/me/rooms", response_model=list[RoomPublic])
async def my_rooms(player: CurrentPlayer, session: SessionDep) -> list[dict]:
    """The caller's rooms (hosted or seated), newest first, so a player can find their games."""
    return [await room_service.room_document(session, room, player)
            for room in await room_service.rooms_of(session, player)]
