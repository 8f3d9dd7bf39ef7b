"""Structured logs: one JSON object per line, carrying the game id and version when a record has
them (`log.info("...", extra={"game_id": ..., "version": ...})`)."""

from __future__ import annotations

import json
import re
import logging
import time
from typing import Any

# Bearer tokens travel in websocket URLs (?token=...), which uvicorn logs: never write them out.
_TOKEN = re.compile(r"(token=)[^&\s\"']+")


def redact(text: str) -> str:
    """The text with every token=... query value replaced."""
    return _TOKEN.sub(r"\1[redacted]", text) if "token=" in text else text


# Context fields copied from a record's `extra` into its JSON line.
FIELDS = ("game_id", "version", "seat", "room_id", "code", "instance")


class JsonFormatter(logging.Formatter):
    """Formats a record as one JSON line: time, level, logger, message and context fields."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as JSON."""
        line: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        for name in FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


class TextFormatter(logging.Formatter):
    """Plain text lines, tokens redacted."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as text."""
        return redact(super().format(record))


def log_config(level: str = "info", fmt: str = "json") -> dict[str, Any]:
    """A logging dictConfig for uvicorn.run: JSON (or plain text) lines on stderr for the app and
    uvicorn alike, at `level`."""
    formatter = (
        {"()": "app.observability.logs.JsonFormatter"}
        if fmt == "json"
        else {
            "()": "app.observability.logs.TextFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    )
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"}
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": True},
        },
    }
