"""Response security headers on every HTTP answer, and secrets kept out of the logs."""

from __future__ import annotations

import logging
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Renderers inject their own <style> and style attributes; scripts load only from /static.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # invite links must not leak to other sites
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Add CSP (with frame-ancestors), nosniff, a referrer policy and frame denial."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = list(message.get("headers", [])) + [
                    (name, value) for name, value in HEADERS if name not in present
                ]
            await send(message)

        await self.app(scope, receive, with_headers)


_SECRET = re.compile(r"((?:token|invite_code|code)=)[^&\s\"']+|(/(?:by-code|r)/)[^/?\s\"']+", re.IGNORECASE)


def redact(text: str) -> str:
    """The text with tokens and invite codes replaced by [redacted]."""
    return _SECRET.sub(lambda m: (m.group(1) or m.group(2)) + "[redacted]", text)


class RedactSecrets(logging.Filter):
    """A log filter that redacts tokens and invite codes from messages and their arguments
    (uvicorn's access log prints each request's path and query string)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install_log_redaction() -> None:
    """Redact secrets in uvicorn's access and error logs and in the app's own (idempotent)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn", "app"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
