"""Outgoing e-mail: SMTP through aiosmtplib when a host is set, else the server log (marked)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Protocol

from app.config import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mail:
    """One plain-text message to one address."""

    to: str
    subject: str
    text: str


class Mailer(Protocol):
    """Sends a message or raises; callers that must not lose one (the outbox) retry later."""

    async def send(self, mail: Mail) -> None: ...


class LogMailer:
    """No mail server configured: the message goes to the server log, clearly marked, so a
    developer running `make run` can still follow a verification or reset link."""

    async def send(self, mail: Mail) -> None:
        """Write the message to the log instead of sending it."""
        log.warning(
            "e-mail not sent (no CIVITAS_SMTP_HOST set); it would have gone to %s:\nSubject: %s\n\n%s",
            mail.to,
            mail.subject,
            mail.text,
        )


class SmtpMailer:
    """Sends through an SMTP server (host, port, TLS mode, optional login) from the settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def message(self, mail: Mail) -> EmailMessage:
        """The RFC 5322 message for `mail`, from the configured sender."""
        message = EmailMessage()
        message["From"] = self.settings.mail_from
        message["To"] = mail.to
        message["Subject"] = mail.subject
        message.set_content(mail.text)
        return message

    async def send(self, mail: Mail) -> None:
        """Deliver one message; raises aiosmtplib's errors on failure (never logs the password)."""
        import aiosmtplib  # imported here: a server without mail settings never needs it

        s = self.settings
        await aiosmtplib.send(
            self.message(mail),
            hostname=s.smtp_host,
            port=s.smtp_port,
            use_tls=s.smtp_tls == "tls",
            start_tls=s.smtp_tls == "starttls",
            username=s.smtp_username or None,
            password=s.smtp_password or None,
            timeout=20,
        )


def make_mailer(settings: Settings) -> Mailer:
    """The mailer the settings ask for."""
    return SmtpMailer(settings) if settings.smtp_host else LogMailer()
