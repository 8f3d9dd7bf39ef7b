"""A real SMTP server in the test process (aiosmtpd) that keeps every message it receives."""

from __future__ import annotations

import email
import email.policy
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from tests.support.server import free_port


class _Keep:
    """aiosmtpd handler: parse and keep each message."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        message = email.message_from_bytes(
            envelope.original_content or envelope.content, policy=email.policy.default
        )
        self.messages.append(message)  # type: ignore[arg-type]  # policy.default gives EmailMessage
        return "250 Message accepted for delivery"


class SmtpServer:
    """Start with `with SmtpServer() as smtp:`; `smtp.port`, `smtp.messages`, `smtp.wait_for()`."""

    def __init__(self) -> None:
        self.port = free_port()
        self._handler = _Keep()
        self._controller = Controller(self._handler, hostname="127.0.0.1", port=self.port)

    @property
    def messages(self) -> list[EmailMessage]:
        """Every message received so far, oldest first."""
        return self._handler.messages

    def wait_for(self, count: int = 1, timeout: float = 10.0) -> list[EmailMessage]:
        """Block until at least `count` messages arrived (or fail after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while len(self.messages) < count:
            assert time.monotonic() < deadline, (
                f"expected {count} e-mail(s), got {len(self.messages)} in {timeout} s"
            )
            time.sleep(0.02)
        return self.messages

    def __enter__(self) -> "SmtpServer":
        self._controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._controller.stop()
