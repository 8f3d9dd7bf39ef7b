"""Rooms: create, list, view, join by id or invite code, leave, bot seats, start."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from app.api.deps import room_writing, writing, CurrentPlayer, OptionalPlayer, PlatformDep, SessionDep
from app.api.schemas import (
    error_responses,
    BotAdd,
    BotLevel,
    ChatLine,
    GameStarted,
    RematchStarted,
    RoomCreate,
    RoomJoin,
    RoomPublic,
    InviteCode,
)
from app.services import rooms as room_service
from app.services.clocks import set_pace
from app.services.errors import Refusal, ServiceError
from app.services.table import rematch as rematch_service

router = APIRouter(
    prefix="/api/rooms", tags=["rooms"], responses=error_responses(400, 401, 403, 404, 409, 413, 422)
)


@router.post("", status_code=201, response_model=RoomPublic, response_model_exclude_none=False)
async def create_room(
    body: RoomCreate, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """Open a room; the host sits in seat 0."""
    # One player's creations one at a time (this instance's lock, then the host's row for the
    # others): the open-rooms count and the insert it allows are atomic on every backend.
    async with platform.room_locks.hold(f"host:{player.id}"), writing(platform, session):
        await room_service.claim_host(session, player)
        await room_service.check_room_caps(
            session,
            player,
            open_rooms=int(platform.settings.open_rooms_per_player * platform.settings.limits_scale),
        )
        room = await room_service.create_room(
            session, player, body.ruleset, body.seats, body.private, body.options, body.undo
        )
        await set_pace(session, room.id, body.pace)
        doc = await room_service.room_document(session, room, player)
    # After the commit, holding no connection: the lobby's update reads with its own.
    await platform.announce_room(room.id)
    return doc


@router.get("", response_model=list[RoomPublic])
async def list_rooms(
    player: OptionalPlayer,
    platform: PlatformDep,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    """Public rooms waiting in the lobby, newest first, a page at a time (from memory)."""
    return platform.lobby.list(player.id if player else None, offset, limit)


@router.post("/by-code", response_model=RoomPublic)
async def room_by_code_in_body(body: InviteCode, session: SessionDep) -> dict[str, Any]:
    """The room an invite code opens, the code sent in the body (kept out of URLs and logs)."""
    return await room_by_code(body.invite_code, session)


@router.get("/by-code/{invite_code}", response_model=RoomPublic)
async def room_by_code(invite_code: str, session: SessionDep) -> dict[str, Any]:
    """The room an invite code opens (public or private), for joining by code or link."""
    room = await room_service.room_by_code(session, invite_code)
    doc = await room_service.room_document(session, room, None)
    doc["invite_code"] = room.invite_code
    return doc


@router.get("/{room_id}", response_model=RoomPublic)
async def get_room(
    room_id: str, session: SessionDep, player: OptionalPlayer, invite_code: str | None = None
) -> dict[str, Any]:
    """One room: a private one only to members or with its invite code."""
    room, seats = await room_service.visible_room(session, room_id, player, invite_code)
    return await room_service.room_document(session, room, player, seats)


@router.post("/{room_id}/join", response_model=RoomPublic)
async def join_room(
    room_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    platform: PlatformDep,
    body: RoomJoin | None = None,
) -> dict[str, Any]:
    """Take a seat (the first empty one unless `seat` is given)."""
    body = body or RoomJoin()
    async with room_writing(platform, session, room_id):
        room = await room_service.join_room(session, room_id, player, body.invite_code, body.seat)
        doc = await room_service.room_document(session, room, player)
    await platform.announce_room(room.id)
    return doc


@router.post("/{room_id}/leave", status_code=204)
async def leave_room(
    room_id: str, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> Response:
    """Leave the room; during a game a bot takes the seat over."""
    async with room_writing(platform, session, room_id):
        room, _deleted = await room_service.leave_room(session, room_id, player)
        playing = room.status == "playing"
        game_id = room.game_id
    await platform.announce_room(room_id)
    if playing and game_id:
        # Load the game first so the refresh cannot miss a copy that is being loaded right now.
        await platform.games.live(game_id)
        for refreshed in await platform.games.refresh_seats_of_room(room_id):
            await platform.hub.check_seats(refreshed)
        platform.bots.kick(game_id)
    return Response(status_code=204)


@router.post("/{room_id}/bots", response_model=RoomPublic)
async def add_bot(
    room_id: str,
    player: CurrentPlayer,
    session: SessionDep,
    platform: PlatformDep,
    body: BotAdd | None = None,
) -> dict[str, Any]:
    """The host seats a bot (in the first empty seat unless `seat` is given; at `level` easy,
    normal, hard or expert, else the default level, Normal)."""
    body = body or BotAdd()
    async with room_writing(platform, session, room_id):
        room = await room_service.add_bot(session, room_id, player, body.seat, body.level)
        doc = await room_service.room_document(session, room, player)
    await platform.announce_room(room.id)
    return doc


@router.put("/{room_id}/bots/{seat}", response_model=RoomPublic)
async def set_bot_level(
    room_id: str, seat: int, body: BotLevel, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """The host changes the level of a seat's bot."""
    async with room_writing(platform, session, room_id):
        room = await room_service.set_bot_level(session, room_id, player, seat, body.level)
        doc = await room_service.room_document(session, room, player)
    await platform.announce_room(room.id)
    return doc


@router.delete("/{room_id}/bots/{seat}", response_model=RoomPublic)
async def remove_bot(
    room_id: str, seat: int, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """The host takes a bot out of a seat."""
    async with room_writing(platform, session, room_id):
        room = await room_service.remove_bot(session, room_id, player, seat)
        doc = await room_service.room_document(session, room, player)
    await platform.announce_room(room.id)
    return doc


@router.post("/{room_id}/start", response_model=GameStarted)
async def start_game(
    room_id: str, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, str]:
    """The host starts the game once every seat is filled."""
    async with room_writing(platform, session, room_id):
        room, seats = await room_service.host_room(session, room_id, player)
        empty = [s.seat for s in seats if not s.player_id and not s.bot]
        if empty:
            raise ServiceError(
                Refusal.ROOM_SEATS_EMPTY, f"Seats {empty} are empty; fill them with players or bots first."
            )
        if any(s.bot for s in seats):
            await room_service.claim_host(session, player)  # one start at a time per host
            await room_service.check_room_caps(
                session,
                player,
                bot_games=int(platform.settings.bot_games_per_player * platform.settings.limits_scale),
            )
        game = await platform.games.create(session, room, len(seats), seats)
        room.status = "playing"
        room.game_id = game.id
    platform.games.adopt(game.id)  # committed: the copy made at creation is the live one
    await platform.announce_room(room.id)
    platform.bots.kick(game.id)
    await platform.clocks.on_move(game.id)
    await platform.notices.game_started(game.id)
    return {"game_id": game.id}


@router.post("/{room_id}/rematch", response_model=RematchStarted)
async def rematch(
    room_id: str, player: CurrentPlayer, session: SessionDep, platform: PlatformDep
) -> dict[str, Any]:
    """Ask for (or accept) a rematch of a finished game: same ruleset, options, pace and seats;
    bots accept at once, and the game starts when every player of the old table has accepted."""
    async with room_writing(platform, session, room_id):
        new_room, game = await rematch_service(session, room_id, player.id, platform.games)
        new_room_id, game_id = new_room.id, game.id if game else None
    await platform.announce_room(new_room_id)
    if game_id:
        platform.bots.kick(game_id)
        await platform.clocks.on_move(game_id)
        await platform.notices.game_started(game_id)
    return {"room_id": new_room_id, "game_id": game_id}


@router.get("/{room_id}/chat", response_model=list[ChatLine])
async def room_chat(
    room_id: str,
    session: SessionDep,
    platform: PlatformDep,
    player: OptionalPlayer,
    invite_code: str | None = None,
) -> list[dict[str, Any]]:
    """The room's last chat lines (its lobby and its games), oldest first; new ones come over the
    room's and the game's sockets as `chat` frames."""
    await room_service.visible_room(session, room_id, player, invite_code)
    return await platform.chat.history(room_id, session)  # the request's connection, not a second
