"""Dependencies shared by the routers: the platform, a database session, the calling player."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from typing import Annotated, AsyncIterator

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.services.errors import Refusal, ServiceError
from app.platform import Platform
from app.services.tokens import Identity

log = logging.getLogger(__name__)

_bearer = HTTPBearer(auto_error=False)


def get_platform(request: Request) -> Platform:
    """The app's platform."""
    return request.app.state.platform


PlatformDep = Annotated[Platform, Depends(get_platform)]


async def get_session(platform: PlatformDep) -> AsyncIterator[AsyncSession]:
    """One session per request; routes commit explicitly. It is closed as soon as the route
    returns (before the answer goes out, so its connection is back in the pool at once), and a
    close that fails (the database restarted under an idle session) is logged in one line: the
    answer is already decided, and raising there would print "response already started"."""
    session = platform.sessions()
    try:
        yield session
    finally:
        try:
            await session.close()
        except Exception as exc:  # noqa: BLE001 - nothing was left to commit; the pool drops it
            log.warning("closing a request's database session failed: %s", type(exc).__name__)


SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


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
    platform: PlatformDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Identity | None:
    """The caller if it sent a valid token (from the token cache: no database read, and no
    connection held while the route waits); a token that matches nobody is an error, not
    anonymous."""
    if credentials is None:
        return None
    player = await platform.tokens.authenticate(credentials.credentials)
    if player is None:
        raise ServiceError(
            Refusal.TOKEN_EXPIRED,
            "That token does not belong to any player, or it has expired or "
            "was revoked; create a player at /api/players.",
        )
    return player


async def current_player(player: Annotated[Identity | None, Depends(optional_player)]) -> Identity:
    """The caller; 401 without a token."""
    if player is None:
        raise ServiceError(
            Refusal.AUTH_REQUIRED, "This needs a player token: send 'Authorization: Bearer <token>'."
        )
    return player


OptionalPlayer = Annotated[Identity | None, Depends(optional_player)]
CurrentPlayer = Annotated[Identity, Depends(current_player)]


@asynccontextmanager
async def writing(platform: Platform, session: AsyncSession) -> AsyncIterator[None]:
    """A committing transaction that writes: on SQLite it first waits its turn for the one
    writer in this process (holding no connection while it waits), instead of taking a
    connection and then sleeping in SQLite's busy handler while other writers finish."""
    async with platform.write_turn(), committing(session):
        yield


@asynccontextmanager
async def room_writing(platform: Platform, session: AsyncSession, room_id: str) -> AsyncIterator[None]:
    """One write to a room: this instance's lock for the room, then a committing transaction."""
    async with platform.room_locks.hold(room_id):
        try:
            async with writing(platform, session):
                yield
        except IntegrityError:  # a seat constraint caught a write another instance raced in
            raise ServiceError(
                Refusal.ROOM_CHANGED, "The room changed while this request was handled; try again."
            ) from None
