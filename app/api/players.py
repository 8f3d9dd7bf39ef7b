"""Guest identities."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import committing, SessionDep
from app.api.schemas import error_responses, PlayerCreate, PlayerCreated
from app.services import rooms as room_service

router = APIRouter(prefix="/api/players", tags=["players"], responses=error_responses(400, 413, 422))


@router.post("", status_code=201, response_model=PlayerCreated)
async def create_player(body: PlayerCreate, session: SessionDep) -> dict:
    """Create a guest player; the token is shown only in this answer."""
    async with committing(session):
        player, token = await room_service.create_player(session, body.name.strip() or "Player")
    return {"id": player.id, "name": player.name, "token": token}
