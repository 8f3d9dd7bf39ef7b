"""Exception handlers: every refusal is JSON {"detail": "<sentence>"} with the right status; the
HTTP status of a domain error is its code's in app/refusals.py (STATUS)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, DBAPIError, TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.engine.errors import GameError
from app.refusals import STATUS
from app.services.errors import DATABASE_DOWN, ServiceError


def validation_sentence(errors: list[dict[str, Any]]) -> tuple[int, str]:
    """A status and one readable sentence for pydantic's error list."""
    first = errors[0]
    if first.get("type") == "json_invalid":
        return 400, "The request body is not valid JSON."
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    where = ".".join(loc)
    if first.get("type") == "missing" and not where:
        return 422, "The request needs a JSON body."
    if first.get("type") == "extra_forbidden":
        return 422, f"Unknown field {where!r}; see /openapi.json for the fields this takes."
    if first.get("type") == "missing":
        return 422, f"Field {where!r} is required."
    message = str(first.get("msg", "is not valid")).rstrip(".")
    return 422, f"Field {where!r} is not valid: {message}." if where else f"{message}."


SERVER_BUSY = "The server is too busy to answer right now; nothing was stored, so retry shortly."


def install(app: FastAPI) -> None:
    """Register the handlers on an app."""

    @app.exception_handler(ServiceError)
    async def _service(_: Request, exc: ServiceError) -> JSONResponse:
        headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
        return JSONResponse(
            {"detail": exc.detail, **exc.extra}, status_code=STATUS[exc.code], headers=headers
        )

    @app.exception_handler(GameError)
    async def _game(_: Request, exc: GameError) -> JSONResponse:
        body: dict[str, Any] = {"detail": exc.detail, "code": exc.code.value}
        if exc.version is not None:
            body["version"] = exc.version
        return JSONResponse(body, status_code=STATUS[exc.code])

    @app.exception_handler(DataError)
    async def _bad_value(_: Request, exc: DataError) -> JSONResponse:
        # A value the database refuses (e.g. text PostgreSQL cannot store) is bad input, not an
        # outage: nothing was stored, and retrying would not help.
        return JSONResponse({"detail": "The request holds a value that cannot be stored."}, status_code=422)

    @app.exception_handler(DBAPIError)
    async def _database(_: Request, exc: DBAPIError) -> JSONResponse:
        # Never a false acknowledgement: the transaction did not commit. Moves carry client ids,
        # so a retry is safe even if the commit happened just before the connection broke.
        return JSONResponse({"detail": DATABASE_DOWN}, status_code=503)

    @app.exception_handler(PoolTimeout)
    async def _busy(_: Request, exc: PoolTimeout) -> JSONResponse:
        # Every database connection stayed busy for the pool's whole timeout: nothing was done.
        return JSONResponse({"detail": SERVER_BUSY}, status_code=503, headers={"Retry-After": "1"})

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        status, detail = validation_sentence(list(exc.errors()))
        return JSONResponse({"detail": detail}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail if isinstance(exc.detail, str) else "The request was refused."
        if exc.status_code == 404 and detail == "Not Found":
            detail = "There is nothing at this address."
        elif exc.status_code == 405:
            detail = "This address does not take that method."
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)
