"""Guest identities."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Response

from app.api.deps import CurrentPlayer, PlatformDep, SessionDep, committing
from app.api.schemas import PlayerCreate, PlayerCreated, RoomPublic, error_responses
from app.services import rooms as room_service

router = APIRouter(prefix="/api/players", tags=["players"],
                   responses=error_responses(400, 401, 413, 422))


@router.post("", status_code=201, response_model=PlayerCreated)
async def create_player(body: PlayerCreate, session: SessionDep, platform: PlatformDep) -> dict:
    """Create a guest player; the token is shown only in this answer and expires at `expires_at`."""
    async with committing(session):
        player, token = await room_service.create_player(
            session, body.name.strip() or "Player", timedelta(hours=platform.settings.token_ttl_hours))
    return _identity(player, token)


@router.post("/me/token", response_model=PlayerCreated)
async def rotate_token(player: CurrentPlayer, session: SessionDep, platform: PlatformDep) -> dict:
    """A fresh token with a fresh expiry; the old one keeps working for a short grace only."""
    settings = platform.settings
    async with committing(session):
        token = await room_service.rotate_token(
            session, player, timedelta(hours=settings.token_ttl_hours),
            timedelta(seconds=settings.token_grace_seconds))
    return _identity(player, token)


@router.post("/me/logout", status_code=204)
async def logout(player: CurrentPlayer, session: SessionDep) -> Response:
    """Revoke the caller's token (and the one it replaced): it never works again."""
    async with committing(session):
        await room_service.revoke_tokens(session, player)
    return Response(status_code=204)


def _identity(player: Any, token: str) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "token": token,
            "expires_at": room_service.token_expiry(player).isoformat()}


@router.get("/me/rooms", response_model=list[RoomPublic])
async def my_rooms(player: CurrentPlayer, session: SessionDep) -> list[dict]:
    """The caller's rooms (hosted or seated), newest first, so a player can find their games."""
    return [await room_service.room_document(session, room, player)
            for room in await room_service.rooms_of(session, player)]
