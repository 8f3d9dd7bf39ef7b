"""Websocket endpoints: a game's live document and moves; the lobby's and a room's live updates."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket

from sqlalchemy.exc import DBAPIError

from app.engine.errors import GameError
from app.limits import SCOPE_KEY as LIMITS_KEY, TokenBucket
from app.realtime import table_socket
from app.realtime.hub import Connection, encode
from app.realtime.session import serve
from app.realtime.ports import LivePlatform
from app.refusals import STATUS
from app.services import rooms as room_service
from app.services.errors import DATABASE_DOWN, Refusal, ServiceError, not_found

logger = logging.getLogger(__name__)
router = APIRouter()


TOO_MANY_FRAMES = "socket/too_many_frames"  # the error frame's code (wire contract extension)
MOVE_FIELDS = frozenset({"type", "version", "move", "id"})  # what a move frame may hold
UNDO_FIELDS = frozenset({"type", "version", "moves", "id"})  # what an undo frame may hold


def error_frame(exc: GameError | ServiceError, frame_id: Any) -> dict[str, Any]:
    """The error frame answering a frame (`frame_id`, or None) refused by a game check or a
    service: nothing was stored. Its status is the refusal's on REST too (app/refusals.py); a
    game check's frame also carries its `code` (and the game's `version` where the error has one)."""
    frame: dict[str, Any] = {
        "type": "error",
        "id": frame_id,
        "status": STATUS[exc.code],
        "detail": exc.detail,
    }
    if isinstance(exc, GameError):
        frame["code"] = exc.code.value
        if exc.version is not None:
            frame["version"] = exc.version
    return frame


def _frame_id(frame: dict[str, Any]) -> str | None:
    """A frame's own id when it is text, for the answer to carry."""
    frame_id = frame.get("id")
    return frame_id if isinstance(frame_id, str) else None


class FrameGate:
    """A socket's frame budget and its player's (shared by all of that token's sockets on this
    instance), checked before parsing: over either, an error frame with code
    `socket/too_many_frames`; a sustained flood, the door (close 1008)."""

    def __init__(self, platform: LivePlatform, player_id: str | None, now: float) -> None:
        settings = platform.settings
        self.own = TokenBucket(settings.frames_per_second, now)
        self.frames = platform.token_frames
        self.player_id = player_id
        self.shared = self.frames.join(player_id, now) if player_id else None

    def admit(self, now: float) -> str | None:
        """None to go on; "close" to close the socket; else the error frame to send."""
        if not self.own.take(now):
            if self.own.refused > 4 * self.own.capacity:
                return "close"
            return self._error(
                f"Too many frames on this socket (at most {self.own.rate:g} a second); slow down."
            )
        if self.shared is not None and not self.shared.take(now):
            if self.shared.flooding():
                return "close"
            return self._error(
                f"Too many frames from your sockets together (at most "
                f"{self.shared.rate:g} a second); slow down."
            )
        return None

    @staticmethod
    def _error(detail: str) -> str:
        return encode(
            {
                "type": "error",
                "id": None,
                "status": 429,
                "detail": detail,
                "code": TOO_MANY_FRAMES,
                "retry_after": 1,
            }
        )

    async def refuse(self, conn: Connection, verdict: str) -> bool:
        """Answer a frame that `admit` refused: an error frame (True: read on), or after a flood
        the door (close 1008; False: stop)."""
        if verdict == "close":
            await conn.websocket.close(code=1008)
            return False
        conn.send(verdict)
        return True

    def close(self) -> None:
        """The socket is gone."""
        if self.shared is not None and self.player_id:
            self.frames.leave(self.player_id)
            self.shared = None


async def _refuse(websocket: WebSocket, status: int, detail: str, code: int) -> None:
    await websocket.send_text(encode({"type": "error", "id": None, "status": status, "detail": detail}))
    await websocket.close(code=code)


def _credentials(websocket: WebSocket, token: str | None) -> tuple[str | None, str | None]:
    """The socket's token and the subprotocol to answer with. Clients send the token as the
    subprotocol `bearer.<token>` beside `civitas`, which keeps it out of URLs and access logs;
    `?token=` still works for older clients (deprecated; logs redact it)."""
    offered = list(websocket.scope.get("subprotocols") or [])
    bearer = next((p[len("bearer.") :] for p in offered if p.startswith("bearer.")), None)
    return bearer or token, "civitas" if "civitas" in offered else None


async def _accept(websocket: WebSocket, token: str | None) -> tuple[bool, Any]:
    """Accept the socket and find its player (from the token cache): (True, None) for a
    spectator without a token; a token that matches nobody (or expired, or revoked) is refused
    with an error frame and close code 4401."""
    token, subprotocol = _credentials(websocket, token)
    await websocket.accept(subprotocol=subprotocol)
    if not token:
        return True, None
    player = await websocket.app.state.platform.tokens.authenticate(token)
    if player is None:
        await _refuse(
            websocket,
            401,
            "That token does not belong to any player, or it has expired or was revoked.",
            4401,
        )
        return False, None
    return True, player


def session_ender(conn: Connection) -> Any:
    """What ends this socket when its token's session ends (app/services/tokens.py): an error
    frame saying why, nothing more handled or sent, then the close code."""

    def end(code: int, sentence: str) -> None:
        conn.end(
            encode({"type": "error", "id": None, "status": 401, "code": "token/ended", "detail": sentence}),
            code,
        )

    return end


def _parse(text: str | None, limit: int) -> tuple[dict[str, Any] | None, str | None]:
    if text is None:
        return None, "Frames must be text holding a JSON object."
    if len(text) > limit:
        return None, f"Frames may be at most {limit} bytes."
    if "\x00" in text or "\\u0000" in text:
        return None, "Text may not contain NUL characters (\\u0000)."
    try:
        message = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        if "depth" in str(exc):
            return None, "The frame nests too deeply."
        return None, "The frame is not valid JSON."
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, "A frame must be a JSON object with a string 'type'."
    return message, None


@router.websocket("/ws/games/{game_id}")
async def game_socket(
    websocket: WebSocket, game_id: str, token: str | None = None, invite_code: str | None = None
) -> None:
    """Snapshot on connect, then patches; takes move, sync and ping frames. A private room's
    game takes only its seated players and whoever presents the invite code."""
    platform: LivePlatform = websocket.app.state.platform
    settings = platform.settings
    ok, player = await _accept(websocket, token)
    if not ok:
        return
    try:
        live = await platform.games.live(game_id)
        if not live.visible_to(player.id if player else None, invite_code):
            raise not_found("game")
    except ServiceError as exc:
        return await _refuse(websocket, STATUS[exc.code], exc.detail, 4404)
    conn = Connection(
        websocket, game_id, live.seat_of(player.id if player else None), player.id if player else None
    )
    spectating = None  # gives back this socket's place among the game's spectators
    limits = websocket.scope.get(LIMITS_KEY)
    if conn.seat is None and limits is not None:
        spectating = await limits.take_spectator(game_id)
        if spectating is None:
            return await _refuse(
                websocket, 429, "This game has as many spectators as it can take; try again later.", 4429
            )
    name = player.name if player else ""
    token_hash = player.token_hash if player else None
    del player  # an idle socket keeps a few strings, not the identity
    room_id = live.room_id
    del live  # the game's copy may be evicted and reloaded while the socket stays open
    loop = asyncio.get_running_loop()
    gate = FrameGate(platform, conn.player_id, loop.time())

    async def handle(text: str | None) -> bool:
        if conn.closed:  # its session ended (or it fell too far behind): nothing more is handled
            return False
        refused = gate.admit(loop.time())  # checked inline: every frame passes here
        if refused is not None:
            return await gate.refuse(conn, refused)
        frame, problem = _parse(text, settings.max_frame_bytes)
        if frame is None:
            conn.send(encode({"type": "error", "id": None, "status": 400, "detail": problem}))
        elif frame["type"] == "log":
            try:
                await table_socket.log(platform, conn, frame)
            except ServiceError as exc:
                conn.send(encode(error_frame(exc, None)))
        elif frame["type"] == "chat":
            try:
                await table_socket.chat(platform, conn, frame, room_id, game_id, name, conn.seat is None)
            except ServiceError as exc:
                conn.send(encode(error_frame(exc, _frame_id(frame))))
        else:
            await _handle(conn, frame, platform)
        return not conn.closed

    async def finish() -> None:
        gate.close()
        if token_hash is not None:
            platform.tokens.detach(token_hash, conn)
        platform.hub.leave(conn)
        conn.stop()
        await table_socket.left(platform, conn)
        if spectating is not None:
            await spectating()

    if token_hash is not None:
        platform.tokens.attach(token_hash, conn, session_ender(conn))
    try:
        # Presence first: a held seat is taken back before the snapshot goes out, so the table
        # the page reads after its snapshot already shows the seat as its player's again.
        await table_socket.joined(platform, conn, room_id)
        await platform.hub.join(conn)
    except BaseException:
        await asyncio.shield(finish())
        raise
    await serve(websocket, conn, platform.live_sockets, handle, finish)


async def _handle(conn: Connection, frame: dict[str, Any], platform: LivePlatform) -> None:
    kind = frame["type"]
    move_id = frame.get("id")
    if move_id is not None and not (isinstance(move_id, str) and len(move_id) <= 80):
        conn.send(
            encode(
                {
                    "type": "error",
                    "id": None,
                    "status": 422,
                    "detail": "A frame id must be a string of at most 80 characters.",
                }
            )
        )
        return
    if kind in ("move", "undo"):
        if conn.seat is None:
            conn.send(
                encode(
                    {
                        "type": "error",
                        "id": move_id,
                        "status": 403,
                        "detail": "Spectators cannot move; join with a seat's token.",
                    }
                )
            )
            return
        unknown = frame.keys() - (MOVE_FIELDS if kind == "move" else UNDO_FIELDS)
        if unknown:
            conn.send(
                encode(
                    {
                        "type": "error",
                        "id": move_id,
                        "status": 422,
                        "detail": f"Unknown fields in {'a move' if kind == 'move' else 'an undo'} "
                        f"frame: {sorted(unknown)[:5]}.",
                    }
                )
            )
            return
        acked: list[int] = []

        def ack(version: int) -> None:  # as soon as the move is stored (GameService.submit)
            conn.send(encode({"type": "ack", "id": move_id, "version": version}))
            acked.append(version)

        # An undo frame takes back the seat's last `moves` moves (GameService.take_back); the
        # others see its version's patch like any move's.
        store = platform.games.submit if kind == "move" else platform.games.take_back
        try:
            await store(
                conn.game_id,
                conn.seat,
                frame.get("version"),
                frame.get("move") if kind == "move" else frame.get("moves", 1),
                move_id,
                player_id=conn.player_id,
                on_stored=ack,
            )
        except (GameError, ServiceError, DBAPIError) as exc:
            if not acked:
                await _refused(conn, move_id, exc, platform)
                return
            # Stored and acked: what failed came after the commit (a listener). The ack stands
            # and the patches still go out (the hub is told first).
            logger.exception("after move %d of %s was stored", acked[0], conn.game_id)
        platform.hub.deliver_now(conn.game_id)  # every seat's patch leaves with the ack
    elif kind == "sync":
        await platform.hub.sync(conn, frame.get("version"))
    elif kind == "ping":
        conn.send(encode({"type": "pong"}))
    else:
        conn.send(
            encode(
                {
                    "type": "error",
                    "id": move_id,
                    "status": 400,
                    "detail": f"Unknown frame type {str(kind)[:40]!r}; use move, undo, sync, ping, chat or log.",
                }
            )
        )


async def _refused(conn: Connection, move_id: Any, exc: Exception, platform: LivePlatform) -> None:
    """Tell a socket why its move was not stored (nothing was)."""
    if isinstance(exc, (GameError, ServiceError)):
        conn.send(encode(error_frame(exc, move_id)))
        if isinstance(exc, ServiceError) and exc.code is Refusal.SEAT_NOT_YOURS:
            # The seat changed hands: this socket now sees what its player may see.
            await platform.hub.check_seats(conn.game_id)
    else:  # the database could not be reached
        conn.send(encode({"type": "error", "id": move_id, "status": 503, "detail": DATABASE_DOWN}))


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The public rooms, sent on connect and whenever a room changes."""
    await _watch(websocket, None)


@router.websocket("/ws/rooms/{room_id}")
async def room_socket(
    websocket: WebSocket, room_id: str, token: str | None = None, invite_code: str | None = None
) -> None:
    """One room, sent on connect and whenever it changes (private rooms: members or code)."""
    await _watch(websocket, room_id, token, invite_code)


async def _watch(
    websocket: WebSocket, room_id: str | None, token: str | None = None, invite_code: str | None = None
) -> None:
    platform: LivePlatform = websocket.app.state.platform
    lobby = platform.lobby
    ok, player = await _accept(websocket, token)
    if not ok:
        return
    if room_id is not None:
        async with platform.sessions() as session:
            try:
                await room_service.visible_room(session, room_id, player, invite_code)
            except ServiceError as exc:
                return await _refuse(websocket, STATUS[exc.code], exc.detail, 4404)
    conn = Connection(
        websocket, room_id or "", None, player.id if player else None, "lobby" if room_id is None else "room"
    )
    player_id, player_name = (player.id, player.name) if player is not None else (None, "")
    token_hash = player.token_hash if player is not None else None
    del player
    loop = asyncio.get_running_loop()
    gate = FrameGate(platform, conn.player_id, loop.time())

    async def handle(text: str | None) -> bool:
        if conn.closed:
            return False
        refused = gate.admit(loop.time())
        if refused is not None:
            return await gate.refuse(conn, refused)
        if room_id is not None and player_id is not None:
            frame, _problem = _parse(text, platform.settings.max_frame_bytes)
            if frame is not None and frame["type"] == "chat":
                async with platform.sessions() as session:
                    seated = any(
                        s.player_id == player_id for s in await room_service.seats_of(session, room_id)
                    )
                try:
                    await table_socket.chat(platform, conn, frame, room_id, None, player_name, not seated)
                except ServiceError as exc:
                    conn.send(encode(error_frame(exc, _frame_id(frame))))
        return True

    async def finish() -> None:
        gate.close()
        if token_hash is not None:
            platform.tokens.detach(token_hash, conn)
        if room_id is None:
            lobby.lobby.discard(conn)
        else:
            lobby.unwatch_room(room_id, conn)
        conn.stop()

    if token_hash is not None:
        platform.tokens.attach(token_hash, conn, session_ender(conn))
    try:
        if room_id is None:
            lobby.lobby.add(conn)
            conn.send(lobby.snapshot_frame())  # from memory: a lobby socket costs no query
        else:
            lobby.watch_room(room_id, conn)
            conn.send(await lobby.room_frame(room_id, conn.player_id))
    except BaseException:
        await asyncio.shield(finish())
        raise
    await serve(websocket, conn, platform.live_sockets, handle, finish)
