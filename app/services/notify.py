"""Notifications: deciding who is told what, and writing it to the outbox (app/services/outbox.py
sends it). Events: your_turn, game_started, game_finished, mention (a chat line naming you) and
deadline (12 hours left on your clock). Channels: push (Web Push), email, webhook; the page's own
your-turn signals need nothing here. A player is told only when no page of theirs is open on that
game (unless they chose `always`), and at most once per hand-over: each row's key names the event,
the game, the seat and the version, and the outbox keeps keys unique."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import false, select, true
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import NotificationSettings, OutboxRow, Player, PushSubscription, SeatClock
from app.services.clocks import now
from app.services.errors import Refusal, ServiceError

EVENTS = ("your_turn", "game_started", "game_finished", "mention", "deadline")
CHANNELS = ("push", "email", "webhook")
DEFAULT_EVENTS = {event: list(CHANNELS) for event in EVENTS}
_LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1"}
# A player found with no channel set up (most players: guests) is not looked up again for this
# long: a hand-over then costs no query. Setting a channel up through this instance is heard at
# once (Notifier.forget); through another instance, within this many seconds.
QUIET_SECONDS = 30.0
QUIET_MAX = 100_000  # players remembered at most (then the memory starts afresh)


@dataclass(frozen=True)
class Notice:
    """One event for one player: the key makes it happen once; the text says nothing hidden."""

    player_id: str
    event: str
    key: str
    title: str
    body: str
    path: str
    game_id: str | None = None
    seat: int | None = None


def check_settings(body: dict[str, Any]) -> dict[str, Any]:
    """The settings a player sent, checked (422 with a sentence naming what is wrong)."""
    unknown = set(body) - {"events", "webhook_url", "always"}
    if unknown:
        raise ServiceError(
            Refusal.INVALID,
            f"Unknown notification setting {min(unknown)!r}; "
            "the settings are events, webhook_url and always.",
        )
    events = body.get("events", DEFAULT_EVENTS)
    if not isinstance(events, dict):
        raise ServiceError(Refusal.INVALID, "events must map each event to a list of channels.")
    for event, channels in events.items():
        if event not in EVENTS:
            raise ServiceError(
                Refusal.INVALID, f"There is no event {str(event)[:30]!r}; the events are {', '.join(EVENTS)}."
            )
        if not isinstance(channels, list) or any(c not in CHANNELS for c in channels):
            raise ServiceError(
                Refusal.INVALID, f"The channels of {event} must be a list drawn from {', '.join(CHANNELS)}."
            )
    url = body.get("webhook_url")
    if url is not None:
        if not isinstance(url, str) or len(url) > 500:
            raise ServiceError(Refusal.INVALID, "webhook_url must be a URL of at most 500 characters.")
        check_url(url, "webhook_url")
    always = body.get("always", False)
    if not isinstance(always, bool):
        raise ServiceError(Refusal.INVALID, "always must be true or false.")
    return {
        "events": {e: list(dict.fromkeys(events.get(e, []))) for e in EVENTS},
        "webhook_url": url or None,
        "always": always,
    }


def check_url(url: str, what: str) -> None:
    """A URL the server will POST to (a webhook, a push endpoint): https, or plain http only to
    this machine (a developer's test hook), else a 422 naming `what`."""
    parts = urlsplit(url)
    if not parts.hostname or not (
        parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in _LOCAL_HOSTS)
    ):
        raise ServiceError(Refusal.INVALID, f"{what} must be an https:// URL.")


def settings_json(row: NotificationSettings | None) -> dict[str, Any]:
    """A player's settings as the API shows them (the defaults when never set)."""
    if row is None:
        return {"events": DEFAULT_EVENTS, "webhook_url": None, "always": False}
    return {
        "events": {e: list(row.events.get(e, [])) for e in EVENTS},
        "webhook_url": row.webhook_url,
        "always": row.always,
    }


def _email_column() -> Any:
    """players.email once accounts exist (app/services/accounts), else None."""
    return getattr(Player, "email", None)


class Notifier:
    """Writes notices to the outbox (in the caller's transaction, or its own) and wakes the
    sender; `focused(game_id, seat)` says whether a page of the seat's player is open there."""

    def __init__(
        self,
        sessions: Any,
        dialect: str,
        write_turn: Callable[[], Any],
        focused: Callable[[SeatClock | None], bool],
        public_url: str,
        wake: Callable[[], None],
    ) -> None:
        self.sessions = sessions
        self.insert = (postgresql if dialect == "postgresql" else sqlite).insert
        self.write_turn = write_turn
        self.focused = focused
        self.public_url = public_url.rstrip("/")
        self.wake = wake
        self._quiet: dict[str, float] = {}  # player id -> until when it is known to have no channel

    def forget(self, player_id: str) -> None:
        """This player's channels may have changed: look them up at the next notice."""
        self._quiet.pop(player_id, None)

    async def send(self, notices: list[Notice]) -> int:
        """Write these notices in a transaction of their own; returns the rows written. What to
        write is read first, without the writer's turn (SQLite's one writer, shared with the
        moves): most players have no channel set up, and then nothing waits for it (nor, for
        QUIET_SECONDS after, is it asked again)."""
        moment = time.monotonic()
        notices = [n for n in notices if self._quiet.get(n.player_id, 0.0) <= moment]
        if not notices:
            return 0
        async with self.sessions() as session:
            rows = await self._rows(session, notices)
        if not rows:
            return 0
        async with self.write_turn(), self.sessions() as session:
            written = await self._insert(session, rows)
            await session.commit()
        if written:
            self.wake()
        return written

    async def enqueue(self, session: AsyncSession, notices: list[Notice]) -> int:
        """Write these notices inside the caller's transaction; returns the rows written."""
        return await self._insert(session, await self._rows(session, notices))

    async def _rows(self, session: AsyncSession, notices: list[Notice]) -> list[dict[str, Any]]:
        """Outbox rows for these notices on each channel their player chose and set up, skipping
        players with a page open on the game (one query for the players' channels)."""
        players = list({n.player_id for n in notices})
        email = _email_column()
        verified = getattr(Player, "email_verified", None)
        pushes = select(PushSubscription.endpoint).where(PushSubscription.player_id == Player.id).exists()
        mail_ok = (
            (email.is_not(None) & (verified.is_(True) if verified is not None else true()))
            if email is not None
            else false()
        )
        found = (
            await session.execute(
                select(Player.id, NotificationSettings, pushes, mail_ok)
                .outerjoin(NotificationSettings, NotificationSettings.player_id == Player.id)
                .where(Player.id.in_(players))
            )
        ).all()
        channels: dict[str, tuple[NotificationSettings | None, dict[str, bool]]] = {
            pid: (
                settings,
                {"push": bool(push), "email": bool(mail), "webhook": bool(settings and settings.webhook_url)},
            )
            for pid, settings, push, mail in found
        }
        if len(self._quiet) > QUIET_MAX:
            self._quiet.clear()
        until = time.monotonic() + QUIET_SECONDS
        for pid, (_settings, ready) in channels.items():
            if not any(ready.values()):
                self._quiet[pid] = until
        wanted = [n for n in notices if n.player_id in channels and any(channels[n.player_id][1].values())]
        if not wanted:
            return []
        open_pages = await self._open_pages(session, wanted)
        rows = []
        for n in wanted:
            settings, ready = channels[n.player_id]
            if (n.game_id, n.seat) in open_pages and not (settings and settings.always):
                continue
            events = settings.events if settings is not None else DEFAULT_EVENTS
            for channel in events.get(n.event, []):
                if ready.get(channel):
                    rows.append(
                        {
                            "key": f"{n.key}:{channel}"[:200],
                            "player_id": n.player_id,
                            "channel": channel,
                            "event": n.event,
                            "game_id": n.game_id,
                            "payload": {
                                "title": n.title,
                                "body": n.body,
                                "url": self.public_url + n.path,
                                "event": n.event,
                                "tag": n.key,
                            },
                            "status": "pending",
                            "attempts": 0,
                            "not_before": now(),
                            "created_at": now(),
                        }
                    )
        return rows

    async def _insert(self, session: AsyncSession, rows: list[dict[str, Any]]) -> int:
        """Insert outbox rows; a key already present (the same hand-over reported again) is
        skipped. RETURNING counts what was written (psycopg reports no rowcount here)."""
        if not rows:
            return 0
        written = await session.execute(
            self.insert(OutboxRow.__table__)
            .values(rows)
            .on_conflict_do_nothing(index_elements=["key"])
            .returning(OutboxRow.__table__.c.id)
        )
        return len(written.all())

    async def _open_pages(self, session: AsyncSession, notices: list[Notice]) -> set[tuple[str, int]]:
        """(game, seat) pairs among the notices with a socket of the seat's player open."""
        games = {n.game_id for n in notices if n.game_id is not None and n.seat is not None}
        if not games:
            return set()
        clocks = (await session.execute(select(SeatClock).where(SeatClock.game_id.in_(games)))).scalars()
        return {(c.game_id, c.seat) for c in clocks if self.focused(c)}


def mentioned(text: str, names: dict[str, str]) -> list[str]:
    """Player ids whose name the chat line names as @Name (any case; whole name)."""
    lowered = text.lower()
    return [
        pid
        for pid, name in names.items()
        if name and re.search(r"@" + re.escape(name.lower()) + r"(?![\w])", lowered)
    ]
