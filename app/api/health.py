"""Operations endpoints: liveness (/healthz), readiness (/readyz) and Prometheus metrics (/metrics)."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse
from sqlalchemy import text

from app.api.deps import PlatformDep
from app.observability.metrics import REGISTRY

router = APIRouter(include_in_schema=False)


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is up and its event loop answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(platform: PlatformDep) -> JSONResponse:
    """Ready to serve: the database answers and the broker is connected (503 naming what is not)."""
    problems = []
    try:
        async with platform.engine.connect() as conn:
            await asyncio.wait_for(conn.execute(text("SELECT 1")), 2)
    except Exception:
        problems.append("The database does not answer.")
    if not await platform.broker.ready():
        problems.append("The broker is not connected.")
    if problems:
        return JSONResponse({"status": "unavailable", "detail": " ".join(problems)}, status_code=503)
    return JSONResponse({"status": "ready"})


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics() -> PlainTextResponse:
    """This process's metrics in the Prometheus text format."""
    return PlainTextResponse(REGISTRY.render(), media_type="text/plain; version=0.0.4")
