"""create_app(): routers, static files, templates, error handlers and the platform's lifespan."""

from __future__ import annotations

import asyncio
import gc
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import AsyncIterator

import orjson
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import rulesets as _product_rulesets  # noqa: F401  (registers the product's rulesets)
from app.api import accounts, errors, games, health, me, pages, players, rooms, rulesets
from app.config import ROOT, Settings, get_settings, sync_url
from app.engine import compiled, registry
from app.observability.logs import log_config
from app.realtime import ws
from app.realtime.routes import SocketRoutes
from app.limits import Limits
from app.security import SecurityHeaders, install_log_redaction
from app.platform import Platform

log = logging.getLogger(__name__)


def migrate(database_url: str) -> None:
    """Bring the database schema to Alembic's head."""
    from alembic import command
    from alembic.config import Config

    if database_url.startswith("sqlite") and ":///" in database_url:
        path = Path(database_url.split(":///", 1)[1])
        if str(path) not in ("", ":memory:"):
            (path if path.is_absolute() else ROOT / path).parent.mkdir(parents=True, exist_ok=True)
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", sync_url(database_url))
    command.upgrade(config, "head")


def load_extra_rulesets(spec: str) -> None:
    """Register rulesets from modules named in CIVITAS_EXTRA_RULESETS (tests use a test game)."""
    registry.load(spec)


class BodyLimit:
    """Refuse, before anything is parsed: request bodies over a size limit (413, chunked ones
    too), and NUL characters in a path (404) or a body (422), which PostgreSQL cannot store."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if "\x00" in scope.get("path", ""):
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 4404})
            return await _answer(send, 404, "There is nothing at this address.")
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            return await self._refuse(send)
        seen, tail, refusal = 0, b"", None

        async def limited() -> Message:
            nonlocal seen, tail, refusal
            message = await receive()
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                refusal = 413
                raise _Refused()
            if b"\x00" in chunk or b"\\u0000" in tail + chunk:
                refusal = 422
                raise _Refused()
            tail = chunk[-5:]
            return message

        async def guarded(message: Message) -> None:
            if refusal is None:  # the app's own answer to a body it could not read is dropped
                await send(message)

        try:
            await self.app(scope, limited, guarded)
        except _Refused:
            pass
        if refusal == 413:
            await self._refuse(send)
        elif refusal == 422:
            await _answer(send, 422, "Text may not contain NUL characters (\\u0000).")

    async def _refuse(self, send: Send) -> None:
        await _answer(send, 413, "The request body is larger than %d bytes." % self.limit)


async def _answer(send: Send, status: int, detail: str) -> None:
    body = orjson.dumps({"detail": detail})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _Refused(Exception):
    pass


def create_app(settings: Settings | None = None) -> FastAPI:
    """The Civitas ASGI app for the given (or environment) settings."""
    settings = settings or get_settings()
    load_extra_rulesets(settings.extra_rulesets)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await asyncio.to_thread(migrate, settings.database_url)
        install_log_redaction()  # again: uvicorn configures its loggers after create_app
        platform = Platform(settings)
        app.state.platform = platform
        await platform.start()
        rules = compiled.status()
        log.info(
            "rules: %d modules compiled (scripts/compile_rules.py), %d with a stale build",
            len(rules["compiled"]),
            len(rules["stale"]),
        )
        # Start-up objects (modules, rulesets, catalogues) live as long as the process: keep them
        # out of the collector's generations so full collections only walk what games allocate.
        gc.collect()
        gc.freeze()
        try:
            yield
        finally:
            await platform.stop()

    app = FastAPI(
        title="Civitas",
        version="1",
        lifespan=lifespan,
        description="An online table for city-building board games (wire contract v1).",
    )
    errors.install(app)
    # `me` before `players`: /api/players/me/games is My games, not /api/players/{id}/games.
    for module in (me, players, accounts, rulesets, rooms, games, pages, health):
        app.include_router(module.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=str(ROOT / "static")), name="static")
    app.add_middleware(SocketRoutes)  # innermost: the limits and checks above still apply
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(Limits, settings=settings)
    app.add_middleware(SecurityHeaders)
    install_log_redaction()
    return app


def ws_protocol(name: str, frame_seconds: float = 10.0) -> type[asyncio.Protocol] | str:
    """The websocket protocol uvicorn serves with: "lean" is ours (closing a socket whose frame
    is not whole `frame_seconds` after it began), any other name is uvicorn's."""
    if name == "lean":
        from app.realtime.transport import LeanWebSocketProtocol

        return type("LeanWebSocketProtocol", (LeanWebSocketProtocol,), {"frame_seconds": frame_seconds})
    return name


def main() -> None:
    """Serve with uvicorn on CIVITAS_HOST:CIVITAS_PORT; `python -m app.main migrate` only migrates
    (the one-shot job of a deployment with several replicas, which then skip it at start)."""
    import sys

    import uvicorn

    settings = get_settings()
    if sys.argv[1:] == ["migrate"]:
        migrate(settings.database_url)
        return
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        ws=ws_protocol(settings.ws_protocol, settings.ws_frame_seconds),
        ws_max_size=settings.max_frame_bytes * 2,
        ws_per_message_deflate=False,
        log_config=log_config(settings.log_level, settings.log_format),
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )


if __name__ == "__main__":
    main()
