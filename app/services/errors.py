"""Errors the services raise; the API and websocket layers turn them into 4xx answers."""

from __future__ import annotations

from typing import Any

# What a request hears when the database cannot be reached (REST 503 and the socket's error frame).
DATABASE_DOWN = "The database is unavailable right now; nothing was stored, so retry the request."


class ServiceError(Exception):
    """A refused request: HTTP-like status, a human sentence, and optional extra body fields."""

    def __init__(self, status: int, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.extra = extra


def not_found(what: str) -> ServiceError:
    """404 with a sentence naming what is missing."""
    return ServiceError(404, f"No {what} with that id exists (or it is not visible to you).")
