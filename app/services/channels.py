"""The notification channels' senders: Web Push (pywebpush, VAPID keys from the settings), e-mail
(the mailer) and a webhook (a Discord or Slack style JSON POST). Each finds the player's address
when it sends, so a changed subscription or address is used from then on."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db.models import NotificationSettings, OutboxRow, Player, PushSubscription
from app.services.mail import Mail, Mailer
from app.services.outbox import Sender, Undeliverable


def push_sender(settings: Settings) -> Sender:
    """Sends a row to every push subscription of its player; one that is gone (404/410) is
    dropped. Without VAPID keys, push is not offered at all."""

    signer: list[Any] = []  # the VAPID key, read once

    def vapid() -> Any:
        from py_vapid import Vapid

        if not signer:
            key = settings.vapid_private_key.strip()
            signer.append(
                Vapid.from_pem(key.encode()) if key.startswith("-----BEGIN") else Vapid.from_string(key)
            )
        return signer[0]

    async def send(session: AsyncSession, row: OutboxRow) -> None:
        from pywebpush import WebPushException, webpush_async  # imported only when pushing

        if not settings.vapid_private_key:
            raise Undeliverable("push is not configured (no VAPID key)")
        subs = list(
            (
                await session.execute(
                    select(PushSubscription).where(PushSubscription.player_id == row.player_id)
                )
            ).scalars()
        )
        if not subs:
            raise Undeliverable("no push subscription")
        data = json.dumps(row.payload)
        failures = 0
        for sub in subs:
            try:
                await webpush_async(
                    {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
                    data,
                    vapid_private_key=vapid(),
                    vapid_claims={"sub": settings.vapid_subject},
                    ttl=24 * 3600,
                    timeout=10,
                )
            except WebPushException as exc:
                status = getattr(exc.response, "status", None) or getattr(exc.response, "status_code", None)
                if status in (404, 410):  # the browser dropped it: forget it
                    await session.execute(
                        delete(PushSubscription).where(PushSubscription.endpoint == sub.endpoint)
                    )
                    await session.commit()
                else:
                    failures += 1
        if failures == len(subs):
            raise RuntimeError("every push endpoint failed")

    return send


def email_sender(mailer: Mailer) -> Sender:
    """Mails a row to its player's verified address."""

    async def send(session: AsyncSession, row: OutboxRow) -> None:
        column = getattr(Player, "email", None)
        verified = getattr(Player, "email_verified", None)
        if column is None:
            raise Undeliverable("no e-mail addresses yet")
        query = select(column).where(Player.id == row.player_id)
        if verified is not None:
            query = query.where(verified.is_(True))
        address = (await session.execute(query)).scalar_one_or_none()
        if not address:
            raise Undeliverable("no verified e-mail address")
        payload = row.payload
        await mailer.send(
            Mail(
                to=address,
                subject=f"Civitas: {payload['title']}",
                text=f"{payload['body']}\n\n{payload['url']}\n\n"
                "You get this because of your notification settings in Civitas.",
            )
        )

    return send


def webhook_sender() -> Sender:
    """POSTs a row as JSON to its player's webhook: `content` for Discord, `text` for Slack."""

    async def send(session: AsyncSession, row: OutboxRow) -> None:
        import aiohttp  # pywebpush's dependency; imported only when a webhook is set

        settings = await session.get(NotificationSettings, row.player_id)
        if settings is None or not settings.webhook_url:
            raise Undeliverable("no webhook URL")
        payload: dict[str, Any] = row.payload
        line = f"{payload['title']}: {payload['body']} {payload['url']}"
        body = {
            "content": line,
            "text": line,
            "event": payload.get("event"),
            "title": payload["title"],
            "url": payload["url"],
            "tag": payload.get("tag"),
        }
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http,
            http.post(settings.webhook_url, json=body, allow_redirects=False) as answer,
        ):
            if answer.status >= 300:
                raise RuntimeError(f"webhook answered {answer.status}")

    return send
