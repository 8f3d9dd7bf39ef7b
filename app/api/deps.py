"""Dependencies shared by the routers: the platform, a database session, the calling player."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Annotated, AsyncIterator

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Player
from app.services import rooms as room_service
from app.services.errors import ServiceError
from app.services.platform import Platform

_bearer = HTTPBearer(auto_error=False)


def get_platform(request: Request) -> Platform:
    """The app's platform."""
    return request.app.state.platform


PlatformDep = Annotated[Platform, Depends(get_platform)]


async def get_session(platform: PlatformDep) -> AsyncIterator[AsyncSession]:
    """One session per request; routes commit explicitly."""
    async with platform.sessions() as session:
        yield session


SessionDep = Annotated[AsyncSession, Depends(get_session)]


@asynccontextmanager
async def committing(session: AsyncSession) -> AsyncIterator[None]:
    """Commit what the block did, or roll all of it back if it raised (nothing half-stored)."""
    try:
        yield
    except BaseException:
        await session.rollback()
        raise
    await session.commit()


async def optional_player(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Player | None:
    """The caller if it sent a valid token; a token that matches nobody is an error, not anonymous."""
    if credentials is None:
        return None
    player = await room_service.player_by_token(session, credentials.credentials)
    if player is None:
        raise ServiceError(401, "That token does not belong to any player, or it has expired or "
                                "was revoked; create a player at /api/players.")
    return player


async def current_player(player: Annotated[Player | None, Depends(optional_player)]) -> Player:
    """The caller; 401 without a token."""
    if player is None:
        raise ServiceError(401, "This needs a player token: send 'Authorization: Bearer <token>'.")
    return player


OptionalPlayer = Annotated[Player | None, Depends(optional_player)]
CurrentPlayer = Annotated[Player, Depends(current_player)]


@asynccontextmanager
async def room_writing(platform: Platform, session: AsyncSession, room_id: str) -> AsyncIterator[None]:
    """One write to a room: this instance's lock for the room, then a committing transaction."""
    async with platform.room_locks.hold(room_id):
        try:
            async with committing(session):
                yield
        except IntegrityError:  # a seat constraint caught a write another instance raced in
            raise ServiceError(409, "The room changed while this request was handled; try again.") from None
