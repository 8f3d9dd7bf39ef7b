"""Accounts: a guest claims its name with an e-mail address and a password (Argon2id), verifies
the address by a link, signs in on another device (password, or a short code shown on a
signed-in device), resets a forgotten password by a link; lists and ends its sessions, renames
itself, deletes itself.

Signing in makes a new session of the same player (so every room, game, chat and setting comes
along) and ends the session the calling device held, if any (a token is never carried across a
sign-in). Nothing answers differently for an address that has an account and one that has not:
the sign-in refusal is one sentence, mails are sent in the background (no timing), and limits
count the address typed whether it exists or not. Passwords are hashed off the event loop and
never logged; codes and links are stored as their SHA-256 and work once.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import unicodedata
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.config import Settings
from app.db.models import AccountCode, Player, PlayerSession, utcnow
from app.db.session import rowcount
from app.limits import Limiter, Rate
from app.services.errors import Refusal, ServiceError
from app.services.mail import Mail, Mailer
from app.services.tokens import LEGACY_TOKEN_TTL, Identity, Tokens, aware, hash_token, new_session

log = logging.getLogger(__name__)

FORMER_NAME = "Former player"  # what games show for a deleted account
NO_MATCH = "That e-mail address and password do not match an account."
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


def normal_email(text: str) -> str:
    """The address as stored (trimmed, lower case), or a 422 saying what is wrong with it."""
    email = text.strip().lower()
    if len(email) > 254 or not _EMAIL.match(email):
        raise ServiceError(Refusal.INVALID, "That is not an e-mail address (like ann@example.org).")
    return email


def clean_name(text: str) -> str:
    """A display name as stored (control characters removed, trimmed), or a 422."""
    name = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()
    if not name or len(name) > 40:
        raise ServiceError(Refusal.INVALID, "A name must have 1 to 40 characters.")
    if name == FORMER_NAME:
        raise ServiceError(
            Refusal.INVALID, f"'{FORMER_NAME}' is kept for deleted accounts; choose another name."
        )
    return name


def device_label(user_agent: str | None) -> str:
    """A short description of a browser for the list of sessions ('Firefox on Linux')."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for key, name in (
                ("Edg/", "Edge"),
                ("Firefox/", "Firefox"),
                ("Chrome/", "Chrome"),
                ("Safari/", "Safari"),
            )
            if key in ua
        ),
        "",
    )
    system = next(
        (
            name
            for key, name in (
                ("Android", "Android"),
                ("iPhone", "iPhone"),
                ("iPad", "iPad"),
                ("Windows", "Windows"),
                ("Mac OS", "macOS"),
                ("Linux", "Linux"),
            )
            if key in ua
        ),
        "",
    )
    if browser and system:
        return f"{browser} on {system}"
    return (browser or system or ua[:60] or "Unknown device")[:80]


@dataclass(frozen=True)
class SignedIn:
    """A new session: the identity, its bearer token (shown once), the tokens it ended."""

    identity: Identity
    token: str
    ended: list[str]


class Accounts:
    """The account paths, over the database, the token cache, the limiter and the mailer."""

    def __init__(
        self,
        settings: Settings,
        sessions: async_sessionmaker,
        tokens: Tokens,
        limiter: Limiter,
        mailer: Mailer,
        write_turn: Callable[[], AbstractAsyncContextManager[Any]],
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self.tokens = tokens
        self.limiter = limiter
        self.mailer = mailer
        self.write_turn = write_turn
        self.hasher = PasswordHasher(
            time_cost=settings.password_time_cost, memory_cost=settings.password_memory_kib, type=Type.ID
        )
        scale = settings.limits_scale
        self.rates = {
            name: Rate.parse(getattr(settings, f"rate_{name}"), scale)
            for name in ("sign_in_account", "sign_in_address", "account_mail", "device_code")
        }
        self._dummy: str | None = None  # checked against for unknown addresses (same time)
        self._sending: set[asyncio.Task[None]] = set()
        self.renamed: list[Callable[[str], Awaitable[None]]] = []  # player id: names changed
        self.deleted: list[Callable[[str], Awaitable[None]]] = []  # player id: account deleted

    # -- passwords, limits, mail -------------------------------------------------------------

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _matches(self, stored: str | None, password: str) -> bool:
        """Whether `password` is the one `stored` hashes; an account without a password (or an
        unknown address) costs the same time and answers False."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self._hash(secrets.token_urlsafe(16))
            stored = self._dummy
            password = "\0" + password  # never matches the dummy's random password
        try:
            return await asyncio.to_thread(self.hasher.verify, stored, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    async def _limit(self, checks: list[tuple[str, str]], sentence: str) -> None:
        """Count one attempt under each (rate, key); a 429 with `sentence` if any is over."""
        wait = 0
        for rate, key in checks:
            # Exact counts (a moving window): these rates are low and guard passwords.
            wait = max(wait, await self.limiter.hit(f"account:{rate}:{key}", self.rates[rate], exact=True))
        if wait:
            raise ServiceError(Refusal.RATE_LIMITED, f"{sentence} Try again in {wait} s.", retry_after=wait)

    def _send_later(self, mail: Mail) -> None:
        """Send in the background: an answer never waits for (or times) the mail server."""

        async def send() -> None:
            try:
                await self.mailer.send(mail)
            except Exception as exc:  # noqa: BLE001 - the request has been answered; say so here
                log.warning("e-mail %r to an account could not be sent: %s", mail.subject, type(exc).__name__)

        task = asyncio.get_running_loop().create_task(send())
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _link(self, action: str, code: str) -> str:
        return f"{self.settings.public_url.rstrip('/')}/account?action={action}&code={code}"

    async def _new_code(
        self,
        session: AsyncSession,
        player_id: str,
        purpose: str,
        life: timedelta,
        email: str | None = None,
        code: str | None = None,
    ) -> str:
        """Store a single-use code (hashed) for the player; older unused ones of that purpose
        stop working. Returns the code."""
        code = code or secrets.token_urlsafe(32)
        await session.execute(
            delete(AccountCode).where(AccountCode.player_id == player_id, AccountCode.purpose == purpose)
        )
        session.add(
            AccountCode(
                code_hash=hash_token(code),
                player_id=player_id,
                purpose=purpose,
                email=email,
                expires_at=utcnow() + life,
            )
        )
        return code

    async def _use_code(self, session: AsyncSession, code: str, purpose: str, refusal: str) -> AccountCode:
        """Spend a code once (a guarded update: two requests with one code cannot both win);
        a 400 with `refusal` if it is unknown, expired or used."""
        row = await session.get(AccountCode, hash_token(code))
        now = utcnow()
        if (
            row is None
            or row.purpose != purpose
            or row.used_at is not None
            or (aware(row.expires_at) or now) <= now
        ):
            raise ServiceError(Refusal.ACCOUNT_CODE_INVALID, refusal)
        done = await session.execute(
            update(AccountCode)
            .where(AccountCode.code_hash == row.code_hash, AccountCode.used_at.is_(None))
            .values(used_at=now)
            .execution_options(synchronize_session=False)
        )
        if rowcount(done) != 1:
            raise ServiceError(Refusal.ACCOUNT_CODE_INVALID, refusal)
        return row

    # -- the account -------------------------------------------------------------------------

    async def document(self, player_id: str) -> dict[str, Any]:
        """What the player sees of its account: name, address (verified, or waiting for its
        link), whether it has a password."""
        async with self.sessions() as session:
            return await self._document(session, player_id)

    async def _document(self, session: AsyncSession, player_id: str) -> dict[str, Any]:
        player = await session.get(Player, player_id)
        if player is None:
            raise ServiceError(Refusal.NOT_FOUND, "No player with that id exists.")
        pending = (
            await session.execute(
                select(AccountCode.email).where(
                    AccountCode.player_id == player_id,
                    AccountCode.purpose == "verify",
                    AccountCode.used_at.is_(None),
                    AccountCode.expires_at > utcnow(),
                )
            )
        ).scalar()
        return {
            "id": player.id,
            "name": player.name,
            "email": player.email or pending,
            "email_verified": bool(player.email_verified),
            "claimed": player.password_hash is not None,
        }

    async def claim(self, caller: Identity, email: str, password: str) -> dict[str, Any]:
        """The guest claims its name: a password, and an address to verify by a link. The
        answer is the same whether the address is free or another account's (that account's
        owner is told by mail instead); the address counts once its link is followed."""
        address = normal_email(email)
        await self._limit([("account_mail", caller.id)], "Too many e-mails asked for by this player.")
        hashed = await self._hash(password)
        async with self.write_turn(), self.sessions() as session:
            player = await session.get(Player, caller.id)
            if player is None or player.deleted_at is not None:
                raise ServiceError(Refusal.PLAYER_DELETED, "This player was deleted.")
            if player.email is not None:
                raise ServiceError(
                    Refusal.ACCOUNT_CLAIMED,
                    "This name is claimed already (its address is verified); "
                    "reset the password if it is lost.",
                )
            owner = (await session.execute(select(Player.id).where(Player.email == address))).scalar()
            player.password_hash = hashed
            code = await self._new_code(
                session, player.id, "verify", timedelta(hours=self.settings.verify_link_hours), address
            )
            await session.commit()
            document = await self._document(session, player.id)
        if owner is None:
            self._send_later(
                Mail(
                    address,
                    "Confirm your e-mail address for Civitas",
                    (
                        f"Someone (we hope you) claimed the Civitas name {player.name!r} with this "
                        f"address. Follow this link to confirm it:\n\n{self._link('verify', code)}\n\n"
                        "If it was not you, ignore this message."
                    ),
                )
            )
        else:
            self._send_later(
                Mail(
                    address,
                    "Your Civitas account",
                    (
                        "Someone tried to claim a Civitas name with this address, which your account "
                        "already has. If it was you, sign in with it instead (or reset the password "
                        f"at {self.settings.public_url}). If not, nothing changed."
                    ),
                )
            )
        return document

    async def verify(self, code: str) -> dict[str, Any]:
        """Follow a verification link: the address becomes the account's."""
        refusal = (
            "This verification link has expired or was already used; ask for a new one "
            "by claiming the name again."
        )
        async with self.write_turn(), self.sessions() as session:
            row = await self._use_code(session, code, "verify", refusal)
            player = await session.get(Player, row.player_id)
            assert player is not None  # codes go with their player (ON DELETE CASCADE)
            player.email, player.email_verified = row.email, True
            try:
                await session.commit()
            except IntegrityError:
                raise ServiceError(
                    Refusal.ACCOUNT_CLAIMED,
                    "That address was verified for another account meanwhile; nothing changed.",
                ) from None
            return await self._document(session, player.id)

    # -- signing in ------------------------------------------------------------------------

    async def sign_in(
        self, email: str, password: str, address: str, caller: Identity | None, label: str
    ) -> SignedIn:
        """Sign in with an address and password: a new session of that player."""
        typed = email.strip().lower()
        await self._limit(
            [("sign_in_address", address), ("sign_in_account", typed)],
            "Too many sign-in attempts for this account or from this address.",
        )
        async with self.sessions() as session:
            row = (
                await session.execute(
                    select(Player.id, Player.password_hash).where(
                        Player.email == typed, Player.deleted_at.is_(None)
                    )
                )
            ).first()
        if not await self._matches(row.password_hash if row else None, password) or row is None:
            raise ServiceError(Refusal.PASSWORD_WRONG, NO_MATCH)
        return await self._open(row.id, caller, label)

    async def device_code(self, caller: Identity) -> dict[str, Any]:
        """A short one-time code that signs another device in as the caller."""
        raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
        life = timedelta(minutes=self.settings.device_code_minutes)
        async with self.write_turn(), self.sessions() as session:
            await self._new_code(session, caller.id, "device", life, code=raw)
            await session.commit()
        return {"code": f"{raw[:4]}-{raw[4:]}", "expires_at": (utcnow() + life).isoformat()}

    async def code_sign_in(self, code: str, address: str, caller: Identity | None, label: str) -> SignedIn:
        """Sign in with a code shown on a signed-in device (once, before it expires)."""
        await self._limit([("device_code", address)], "Too many sign-in codes tried from this address.")
        raw = "".join(ch for ch in code.upper() if ch.isalnum())
        async with self.write_turn(), self.sessions() as session:
            row = await self._use_code(
                session,
                raw,
                "device",
                ("That code is wrong, expired or already used; show a new one on your signed-in device."),
            )
            await session.commit()
        return await self._open(row.player_id, caller, label)

    async def _open(
        self, player_id: str, caller: Identity | None, label: str, end_all: bool = False
    ) -> SignedIn:
        """A new session of the player; the caller's own session (or all of the player's)
        ends with it, so no token outlives a sign-in on its device."""
        ttl = timedelta(hours=self.settings.token_ttl_hours)
        async with self.write_turn(), self.sessions() as session:
            ended: list[str] = []
            if end_all:
                ended += await self.tokens.end_sessions(session, player_id)
            if caller is not None:
                ended += await self.tokens.end_sessions(
                    session, caller.id, PlayerSession.id == caller.session_id
                )
            name = (await session.execute(select(Player.name).where(Player.id == player_id))).scalar_one()
            identity, token = await new_session(session, player_id, name, ttl, label)
            await session.commit()
        if ended:
            await self.tokens.ended(ended)
        self.tokens.remember(identity)
        return SignedIn(identity, token, ended)

    # -- password reset --------------------------------------------------------------------

    async def request_reset(self, email: str, address: str) -> None:
        """Mail a reset link if an account has this address; the same answer either way."""
        typed = email.strip().lower()
        await self._limit(
            [("account_mail", f"ip:{address}"), ("account_mail", typed)],
            "Too many e-mails asked for from this address or to this account.",
        )
        async with self.write_turn(), self.sessions() as session:
            player_id = (
                await session.execute(
                    select(Player.id).where(Player.email == typed, Player.deleted_at.is_(None))
                )
            ).scalar()
            if player_id is None:
                return
            code = await self._new_code(
                session, player_id, "reset", timedelta(minutes=self.settings.reset_link_minutes)
            )
            await session.commit()
        minutes = f"{self.settings.reset_link_minutes:g}"
        self._send_later(
            Mail(
                typed,
                "Reset your Civitas password",
                (
                    f"Follow this link within {minutes} minutes to choose a new password (it works "
                    f"once):\n\n{self._link('reset', code)}\n\n"
                    "If you did not ask for this, ignore this message; nothing changed."
                ),
            )
        )

    async def reset(self, code: str, password: str, caller: Identity | None, label: str) -> SignedIn:
        """Follow a reset link with a new password: every session ends, this device signs in."""
        hashed = await self._hash(password)
        async with self.write_turn(), self.sessions() as session:
            row = await self._use_code(
                session,
                code,
                "reset",
                ("This reset link has expired or was already used; ask for a new one."),
            )
            await session.execute(
                update(Player).where(Player.id == row.player_id).values(password_hash=hashed)
            )
            await session.commit()
        return await self._open(row.player_id, caller, label, end_all=True)

    async def change_password(self, caller: Identity, current: str, password: str) -> None:
        """A new password, given the current one; the player's other sessions end (this one
        stays)."""
        async with self.sessions() as session:
            stored = (
                await session.execute(select(Player.password_hash).where(Player.id == caller.id))
            ).scalar()
        if stored is None:
            raise ServiceError(
                Refusal.ACCOUNT_NO_PASSWORD, "This player has no password yet; claim the name first."
            )
        if not await self._matches(stored, current):
            raise ServiceError(Refusal.PASSWORD_WRONG, "The current password is wrong; nothing changed.")
        hashed = await self._hash(password)
        async with self.write_turn(), self.sessions() as session:
            await session.execute(update(Player).where(Player.id == caller.id).values(password_hash=hashed))
            ended = await self.tokens.end_sessions(session, caller.id, PlayerSession.id != caller.session_id)
            await session.commit()
        await self.tokens.ended(ended)

    # -- sessions, name, deletion ------------------------------------------------------------

    async def list_sessions(self, caller: Identity) -> list[dict[str, Any]]:
        """The player's signed-in devices that still work, newest first."""
        now = utcnow()
        async with self.sessions() as session:
            rows = (
                (
                    await session.execute(
                        select(PlayerSession)
                        .where(PlayerSession.player_id == caller.id)
                        .order_by(PlayerSession.created_at.desc())
                    )
                )
                .scalars()
                .all()
            )
        listed = []
        for row in rows:
            started = aware(row.created_at) or now
            until = aware(row.expires_at) or started + LEGACY_TOKEN_TTL
            if until > now:
                listed.append(
                    {
                        "id": row.id,
                        "label": row.label or "Unknown device",
                        "created_at": started.isoformat(),
                        "expires_at": until.isoformat(),
                        "current": row.id == caller.session_id,
                    }
                )
        return listed

    async def end_sessions(self, caller: Identity, session_id: str | None) -> None:
        """Sign out one of the player's sessions (by id), or every one (None)."""
        async with self.write_turn(), self.sessions() as session:
            where = [] if session_id is None else [PlayerSession.id == session_id]
            ended = await self.tokens.end_sessions(session, caller.id, *where)
            if session_id is not None and not ended:
                raise ServiceError(
                    Refusal.SESSION_UNKNOWN, "You have no session with that id (it may have ended)."
                )
            await session.commit()
        await self.tokens.ended(ended)

    async def rename(self, caller: Identity, name: str) -> dict[str, Any]:
        """Change the player's one name (rooms, games, chat and the log all read it)."""
        clean = clean_name(name)
        async with self.write_turn(), self.sessions() as session:
            await session.execute(update(Player).where(Player.id == caller.id).values(name=clean))
            hashes = await self.tokens.hashes(session, caller.id)
            await session.commit()
        await self.tokens.renamed(hashes)
        for listener in self.renamed:
            await listener(caller.id)
        return {"id": caller.id, "name": clean}

    async def delete(self, caller: Identity, password: str | None) -> None:
        """Delete the account: the name becomes neutral in every game, the address, password,
        codes and every session go. An account with a password must give it."""
        async with self.sessions() as session:
            stored = (
                await session.execute(select(Player.password_hash).where(Player.id == caller.id))
            ).scalar()
        if stored is not None and not await self._matches(stored, password or ""):
            raise ServiceError(Refusal.PASSWORD_WRONG, "That password is wrong; the account was not deleted.")
        async with self.write_turn(), self.sessions() as session:
            await session.execute(
                update(Player)
                .where(Player.id == caller.id)
                .values(
                    name=FORMER_NAME,
                    email=None,
                    email_verified=False,
                    password_hash=None,
                    deleted_at=utcnow(),
                )
            )
            await session.execute(delete(AccountCode).where(AccountCode.player_id == caller.id))
            ended = await self.tokens.end_sessions(session, caller.id)
            await session.commit()
        await self.tokens.ended(ended)
        for listener in self.deleted + self.renamed:
            await listener(caller.id)

    async def purge(self) -> int:
        """Delete sessions whose token has expired and codes past their time (the cleanup
        sweep); returns how many rows went."""
        now = utcnow()
        s = PlayerSession
        async with self.write_turn(), self.sessions() as session:
            gone = await session.execute(
                delete(s)
                .where(
                    (s.expires_at < now) | (s.expires_at.is_(None) & (s.created_at < now - LEGACY_TOKEN_TTL))
                )
                .execution_options(synchronize_session=False)
            )
            spent = await session.execute(
                delete(AccountCode)
                .where(AccountCode.expires_at < now)
                .execution_options(synchronize_session=False)
            )
            await session.commit()
        return gone.rowcount + spent.rowcount

    async def drain(self) -> None:
        """Wait for the mails being sent (tests; shutdown)."""
        while self._sending:
            await asyncio.gather(*list(self._sending), return_exceptions=True)
