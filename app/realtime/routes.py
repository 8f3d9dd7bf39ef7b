"""The live sockets' routes, served as plain ASGI beside the framework's HTTP routing.

A websocket stays open for hours, and every coroutine frame, exit stack and exception-handler
closure on its call stack lives as long as it does. FastAPI's routing of a websocket (exception
middleware, exit stacks, dependency solving, the route's wrappers) kept ~10 KiB per idle socket
alive; this router matches the three socket paths itself and calls the same endpoints with a bare
Starlette `WebSocket`. It sits inside the outer middlewares (security headers, limits, body
limit), so socket rates and caps apply as before. Anything else goes on to the framework.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

from starlette.datastructures import QueryParams
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.realtime import ws

Endpoint = Callable[..., Awaitable[None]]


def match(path: str) -> tuple[Endpoint, dict[str, str | None]] | None:
    """The endpoint and path parameters for a socket path, or None (not a live socket's path)."""
    if path == "/ws/lobby":
        return ws.lobby_socket, {}
    for prefix, endpoint, name in (
        ("/ws/games/", ws.game_socket, "game_id"),
        ("/ws/rooms/", ws.room_socket, "room_id"),
    ):
        if path.startswith(prefix):
            rest = path[len(prefix) :]
            if rest and "/" not in rest:
                return endpoint, {name: rest}
            return None
    return None


class SocketRoutes:
    """ASGI middleware: /ws/lobby, /ws/games/{id} and /ws/rooms/{id} without the framework's
    per-request machinery; query parameters `token` and `invite_code` as the endpoints take them."""

    QUERY = {
        ws.game_socket: ("token", "invite_code"),
        ws.room_socket: ("token", "invite_code"),
        ws.lobby_socket: (),
    }

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = self._arguments(scope) if scope["type"] == "websocket" else None
        if found is None:
            return await self.app(scope, receive, send)
        # only the endpoint and its few strings stay in this frame for the socket's life
        await found[0](WebSocket(scope, receive, send), **found[1])

    def _arguments(self, scope: Scope) -> tuple[Endpoint, dict[str, Any]] | None:
        found = match(scope["path"])
        if found is None:
            return None
        endpoint, kwargs = found
        names = self.QUERY[endpoint]
        if names:
            query = QueryParams(scope.get("query_string", b""))
            kwargs.update((name, query.get(name)) for name in names)
        return endpoint, kwargs
