"""Guest identities and their sessions (tokens): create, rotate, log out."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Query, Request, Response

from app.api.deps import CurrentPlayer, OptionalPlayer, PlatformDep, SessionDep, writing
from app.api.schemas import (
    PlayerCreate,
    PlayerCreated,
    PlayerProfile,
    ProfileGame,
    RoomPublic,
    error_responses,
)
from app.services import profiles
from app.services import rooms as room_service
from app.services.accounts import device_label
from app.services.errors import Refusal, ServiceError
from app.services.tokens import Identity, new_player

router = APIRouter(prefix="/api/players", tags=["players"], responses=error_responses(400, 401, 413, 422))


@router.post("", status_code=201, response_model=PlayerCreated)
async def create_player(
    body: PlayerCreate, request: Request, session: SessionDep, platform: PlatformDep
) -> dict:
    """Create a guest player; the token is shown only in this answer and expires at `expires_at`."""
    async with writing(platform, session):
        identity, token = await new_player(
            session,
            body.name.strip() or "Player",
            timedelta(hours=platform.settings.token_ttl_hours),
            device_label(request.headers.get("user-agent")),
        )
    platform.tokens.remember(identity)
    return _identity(identity, token)


@router.post("/me/token", response_model=PlayerCreated)
async def rotate_token(player: CurrentPlayer, session: SessionDep, platform: PlatformDep) -> dict:
    """A fresh token with a fresh expiry; the old one keeps working for a short grace only (its
    sockets are closed when the grace ends). Only the newest token may ask."""
    settings = platform.settings
    grace = timedelta(seconds=settings.token_grace_seconds)
    async with writing(platform, session):
        identity, token, grace_until = await platform.tokens.rotate(
            session, player, timedelta(hours=settings.token_ttl_hours), grace
        )
    await platform.tokens.ended([player.token_hash], until=grace_until)
    platform.tokens.remember(identity)
    return _identity(identity, token)


@router.post("/me/logout", status_code=204)
async def logout(player: CurrentPlayer, session: SessionDep, platform: PlatformDep) -> Response:
    """Sign this device out: its token (and the one it replaced) never works again, and every
    socket opened with either is closed, on every instance. Other devices stay signed in."""
    async with writing(platform, session):
        ended = await platform.tokens.revoke(session, player)
    await platform.tokens.ended(ended)
    return Response(status_code=204)


def _identity(identity: Identity, token: str) -> dict[str, Any]:
    return {
        "id": identity.id,
        "name": identity.name,
        "token": token,
        "expires_at": identity.valid_until.isoformat(),
    }


@router.get("/me/rooms", response_model=list[RoomPublic])
async def my_rooms(player: CurrentPlayer, session: SessionDep) -> list[dict]:
    """The caller's rooms (hosted or seated), newest first, so a player can find their games."""
    return [
        await room_service.room_document(session, room, player)
        for room in await room_service.rooms_of(session, player)
    ]


def _who(player_id: str, player: Identity | None) -> str:
    """`me` stands for the caller."""
    if player_id != "me":
        return player_id
    if player is None:
        raise ServiceError(Refusal.AUTH_REQUIRED, "Sign in to see your own page (send your token).")
    return player.id


@router.get("/{player_id}", response_model=PlayerProfile)
async def player_profile(player_id: str, session: SessionDep, player: OptionalPlayer) -> dict:
    """A player's page: name, ratings per game, games played, win share, share finished."""
    viewer = player.id if player else None
    return await profiles.profile(session, _who(player_id, player), viewer)


@router.get("/{player_id}/games", response_model=list[ProfileGame])
async def player_games(
    player_id: str,
    session: SessionDep,
    player: OptionalPlayer,
    offset: int = Query(0, ge=0),
    limit: int = Query(20, ge=1, le=100),
) -> list:
    """A player's games, newest first, with their place, rating change and replay address
    (games of private tables only to the player themselves)."""
    viewer = player.id if player else None
    return await profiles.games_of(session, _who(player_id, player), viewer, offset, limit)
