"""Outgoing e-mail: a real SMTP server receives what SmtpMailer sends; LogMailer only logs."""

from __future__ import annotations

import asyncio
import logging

from app.config import Settings
from app.services.mail import LogMailer, Mail, SmtpMailer, make_mailer
from tests.support.smtp import SmtpServer


def test_smtp_mailer_delivers_a_plain_text_message_from_the_configured_sender():
    """The message reaches the SMTP server with its sender, recipient, subject and body."""
    with SmtpServer() as smtp:
        settings = Settings(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="Civitas <a@b.test>")
        mailer = make_mailer(settings)
        assert isinstance(mailer, SmtpMailer)
        asyncio.run(mailer.send(Mail("ann@example.test", "Your turn", "Ann, it is your turn.")))
        [message] = smtp.wait_for(1)
    assert message["To"] == "ann@example.test"
    assert message["From"] == "Civitas <a@b.test>"
    assert message["Subject"] == "Your turn"
    assert message.get_content().strip() == "Ann, it is your turn."


def test_without_a_host_messages_go_to_the_log_marked_as_not_sent(caplog):
    """`make run` needs no mail server: the message is logged, and says it was not sent."""
    mailer = make_mailer(Settings(smtp_host=""))
    assert isinstance(mailer, LogMailer)
    with caplog.at_level(logging.WARNING):
        asyncio.run(mailer.send(Mail("ann@example.test", "Reset", "Follow https://x.test/r/1")))
    text = caplog.text
    assert "not sent" in text and "ann@example.test" in text and "https://x.test/r/1" in text
