"""Bearer tokens and the sessions they open: who a token belongs to, cached so that a request
costs no database read; and the end of a session everywhere.

A token opens a session of a player (player_sessions: one per signed-in device, each with one
current token plus the one it replaced while its grace lasts). `Tokens.authenticate` answers from memory and reads the database only for
a token it has not seen for `cache_seconds`. A session ends by logout (at once) or rotation (the
old token after its grace): the change is committed, then published on the broker, and every
instance forgets its cached answer and ends the sockets opened with that token (`attach`). Each
socket's token is also checked again at every heartbeat (`recheck`), so an expiry, a grace that
ran out, or a revocation whose broker event was lost ends the socket within one heartbeat.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable, overload

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Player, PlayerSession, utcnow
from app.db.session import rowcount
from app.services.errors import Refusal, ServiceError

LEGACY_TOKEN_TTL = timedelta(days=30)  # tokens issued before expiry existed count from creation
EVENT = "tokens"  # the broker event that carries a session's end to every instance
# How a socket learns that its session ended (close codes): logged out, expired or revoked, so
# the client stops; or replaced by a newer token whose grace ran out, so the client reconnects
# with the newest token it holds.
CLOSE_ENDED = 4401
CLOSE_REPLACED = 4000

Closer = Callable[[int, str], None]  # (close code, sentence): end one socket


def hash_token(token: str) -> str:
    """Tokens are stored only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


@overload
def aware(value: datetime) -> datetime: ...
@overload
def aware(value: datetime | None) -> datetime | None: ...
def aware(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; they were stored in UTC."""
    return value.replace(tzinfo=timezone.utc) if value is not None and value.tzinfo is None else value


@dataclass(frozen=True, slots=True)
class Identity:
    """A signed-in caller: the player, and the session (token) they came with."""

    id: str
    name: str
    token_hash: str
    valid_until: datetime
    current: bool  # the session's newest token; False: replaced, working only until its grace ends
    session_id: str = ""

    def valid(self, moment: datetime) -> bool:
        """Whether the token still works at `moment`."""
        return self.valid_until > moment


async def new_player(
    session: AsyncSession, name: str, ttl: timedelta = LEGACY_TOKEN_TTL, label: str = ""
) -> tuple[Identity, str]:
    """A new guest identity (inside the caller's transaction) and its bearer token, shown once
    and stored hashed, valid for `ttl`."""
    player = Player(id=secrets.token_hex(8), name=name)
    session.add(player)
    await session.flush()  # the session row refers to the player
    return await new_session(session, player.id, name, ttl, label)


async def new_session(
    session: AsyncSession, player_id: str, name: str, ttl: timedelta, label: str = ""
) -> tuple[Identity, str]:
    """A new session (a device signing in) for an existing player, in the caller's transaction,
    and its bearer token, shown once and stored hashed."""
    token = secrets.token_urlsafe(32)
    expires_at = utcnow() + ttl
    row = PlayerSession(
        id=secrets.token_hex(8),
        player_id=player_id,
        token_hash=hash_token(token),
        expires_at=expires_at,
        label=label[:80],
    )
    session.add(row)
    return Identity(player_id, name, row.token_hash, expires_at, True, row.id), token


class Tokens:
    """The token cache of one instance, and the sockets opened with each token here."""

    def __init__(
        self, sessions: async_sessionmaker, cache_seconds: float = 60.0, max_entries: int = 100_000
    ) -> None:
        self.sessions = sessions
        self.cache_seconds = cache_seconds
        self.max_entries = max_entries
        # token hash -> (the identity, or None for a token that works for nobody; when read)
        self._cache: dict[str, tuple[Identity | None, float]] = {}
        self._reading: dict[str, asyncio.Future[Identity | None]] = {}
        self._epoch = 0  # bumped by every forget: a read begun before it is not cached
        self._sockets: dict[str, dict[object, Closer]] = {}
        self.publish: Callable[[dict[str, Any]], Awaitable[None]] | None = None
        self.reads = 0  # database reads (tests check that requests do not read)

    # -- who a token belongs to ----------------------------------------------------------------

    async def authenticate(self, token: str | None) -> Identity | None:
        """The identity a bearer token opens while it works, else None (unknown, expired,
        rotated out past its grace, logged out)."""
        if not token:
            return None
        identity = await self.lookup(hash_token(token))
        return identity if identity is not None and identity.valid(utcnow()) else None

    async def lookup(self, digest: str) -> Identity | None:
        """The identity of a token hash, from the cache while it is fresh, else the database
        (one read however many requests ask at once). It may have stopped working since."""
        hit = self._cache.get(digest)
        if hit is not None and time.monotonic() - hit[1] < self.cache_seconds:
            return hit[0]
        pending = self._reading.get(digest)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Identity | None] = asyncio.get_running_loop().create_future()
        self._reading[digest] = future
        epoch = self._epoch
        try:
            identity = await self._read(digest)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            self._reading.pop(digest, None)
        if epoch == self._epoch:  # no session ended while this read ran
            self._remember(digest, identity)
        future.set_result(identity)
        return identity

    async def _read(self, digest: str) -> Identity | None:
        return (await self._read_many([digest])).get(digest)

    async def _read_many(self, digests: list[str]) -> dict[str, Identity | None]:
        """The identities of these token hashes, in one query (None: works for nobody)."""
        self.reads += 1
        s = PlayerSession
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(
                        s.player_id,
                        Player.name,
                        s.id,
                        s.token_hash,
                        s.expires_at,
                        s.created_at,
                        s.prev_token_hash,
                        s.prev_valid_until,
                    )
                    .join(Player, Player.id == s.player_id)
                    .where(s.token_hash.in_(digests) | s.prev_token_hash.in_(digests))
                )
            ).all()
        found: dict[str, Identity | None] = dict.fromkeys(digests)
        for row in rows:
            if row.token_hash in found:
                until = aware(row.expires_at) or aware(row.created_at) + LEGACY_TOKEN_TTL
                found[row.token_hash] = Identity(row.player_id, row.name, row.token_hash, until, True, row.id)
            grace = aware(row.prev_valid_until)
            if row.prev_token_hash in found and grace is not None:
                found[row.prev_token_hash] = Identity(
                    row.player_id, row.name, row.prev_token_hash, grace, False, row.id
                )
        return found

    def _remember(self, digest: str, identity: Identity | None) -> None:
        if len(self._cache) >= self.max_entries:
            # Forget the oldest half (dicts keep insertion order): a bound, not an LRU.
            for key in list(self._cache)[: self.max_entries // 2]:
                del self._cache[key]
        self._cache[digest] = (identity, time.monotonic())

    def remember(self, identity: Identity) -> None:
        """Cache an identity this instance has just issued (its first request reads nothing)."""
        self._remember(identity.token_hash, identity)

    def clear(self) -> None:
        """Forget every cached answer (the broker was away: revocations may have been missed)."""
        self._epoch += 1
        self._cache.clear()

    # -- ending sessions -----------------------------------------------------------------------

    async def rotate(
        self, session: AsyncSession, caller: Identity, ttl: timedelta, grace: timedelta
    ) -> tuple[Identity, str, datetime]:
        """A fresh token for the caller (committed by the caller's transaction) and when the
        token it replaces stops working (after `grace`). Only the newest token may ask: a replaced one still in
        its grace cannot mint tokens (whoever stole it would take the account)."""
        if not caller.current:
            raise ServiceError(
                Refusal.TOKEN_REPLACED,
                "This token has been replaced by a newer one; only the newest token can ask for another.",
            )
        token = secrets.token_urlsafe(32)
        now = utcnow()
        digest, grace_until, expires = hash_token(token), now + grace, now + ttl
        done = await session.execute(
            update(PlayerSession)
            .where(PlayerSession.token_hash == caller.token_hash)
            .values(
                prev_token_hash=caller.token_hash,
                prev_valid_until=grace_until,
                token_hash=digest,
                expires_at=expires,
            )
            .execution_options(synchronize_session=False)
        )
        if rowcount(done) != 1:
            raise ServiceError(
                Refusal.TOKEN_REPLACED,
                "This token has been replaced by a newer one; only the newest token can ask for another.",
            )
        # The name from its one place: the caller's cached one may predate a rename, and the new
        # token's identity is cached here without any rename event naming it.
        name = (await session.execute(select(Player.name).where(Player.id == caller.id))).scalar()
        return (
            Identity(caller.id, name or caller.name, digest, expires, True, caller.session_id),
            token,
            grace_until,
        )

    async def revoke(self, session: AsyncSession, caller: Identity) -> list[str]:
        """Sign this device out (in the caller's transaction): neither the session's current
        token nor the one it replaced works any more. Returns the hashes that ended, for `ended`."""
        ended = await self.end_sessions(session, caller.id, PlayerSession.id == caller.session_id)
        return ended or [caller.token_hash]

    async def end_sessions(self, session: AsyncSession, player_id: str, *where: Any) -> list[str]:
        """Delete a player's sessions (all, or those `where` picks) in the caller's transaction;
        returns their token hashes (current and replaced), for `ended`."""
        hashes = await self.hashes(session, player_id, *where)
        await session.execute(
            delete(PlayerSession)
            .where(PlayerSession.player_id == player_id, *where)
            .execution_options(synchronize_session=False)
        )
        return hashes

    @staticmethod
    async def hashes(session: AsyncSession, player_id: str, *where: Any) -> list[str]:
        """The token hashes (current and replaced) of a player's sessions (all, or `where`)."""
        s = PlayerSession
        rows = (
            await session.execute(
                select(s.token_hash, s.prev_token_hash).where(s.player_id == player_id, *where)
            )
        ).all()
        return [h for row in rows for h in row if h]

    async def renamed(self, hashes: list[str]) -> None:
        """After the commit: a player's name changed; the cached answers for these tokens are
        forgotten here and on every instance (their sockets stay open)."""
        await self._spread({"type": EVENT, "hashes": hashes, "until": None, "keep": True})

    async def ended(self, hashes: list[str], until: datetime | None = None) -> None:
        """After the commit: these tokens stop working (now, or at `until` for a rotated-out
        token's grace) on this instance at once and on the others through the broker."""
        await self._spread(
            {"type": EVENT, "hashes": hashes, "until": until.isoformat() if until is not None else None}
        )

    async def _spread(self, event: dict[str, Any]) -> None:
        """Apply a token event here, then publish it to the other instances."""
        self.on_event(event)
        if self.publish is not None:
            await self.publish(event)

    def on_event(self, event: dict[str, Any]) -> None:
        """A session ended (or its player was renamed) somewhere: forget its cached answer; end
        its sockets here now, or (a replaced token, a rename) leave them to the heartbeat."""
        hashes = [str(h) for h in event.get("hashes") or []]
        self._epoch += 1
        for digest in hashes:
            self._cache.pop(digest, None)
        if event.get("until") is None and not event.get("keep"):
            for digest in hashes:
                self._close(
                    digest, CLOSE_ENDED, "You signed out (or this token was revoked); sign in again to go on."
                )

    # -- the sockets opened with each token ----------------------------------------------------

    def attach(self, digest: str, key: object, closer: Closer) -> None:
        """A socket opened with this token here; `closer` ends it when its session ends."""
        self._sockets.setdefault(digest, {})[key] = closer

    def detach(self, digest: str, key: object) -> None:
        """The socket is gone."""
        group = self._sockets.get(digest)
        if group is not None:
            group.pop(key, None)
            if not group:
                del self._sockets[digest]

    def socket_count(self) -> int:
        """Sockets opened with a token on this instance."""
        return sum(map(len, self._sockets.values()))

    def _close(self, digest: str, code: int, sentence: str) -> None:
        for closer in list((self._sockets.pop(digest, None) or {}).values()):
            closer(code, sentence)

    async def recheck(self) -> int:
        """The heartbeat's check: end every socket here whose token no longer works (expired,
        replaced past its grace, revoked). Returns how many sockets were ended."""
        now = utcnow()
        ended = 0
        moment = time.monotonic()
        stale = [
            d
            for d in self._sockets
            if (hit := self._cache.get(d)) is None or moment - hit[1] >= self.cache_seconds
        ]
        epoch = self._epoch
        for start in range(0, len(stale), 500):  # the stale answers, a few queries per beat
            try:
                fresh = await self._read_many(stale[start : start + 500])
            except Exception:  # the database is away: keep the sockets, look again next beat
                return ended
            if epoch == self._epoch:
                for digest, identity in fresh.items():
                    self._remember(digest, identity)
        for digest in list(self._sockets):
            hit = self._cache.get(digest)
            if hit is None:
                continue  # forgotten meanwhile (a session ended): its event closed the sockets
            identity = hit[0]
            if identity is not None and identity.valid(now):
                continue
            group = len(self._sockets.get(digest) or ())
            if identity is not None and not identity.current:
                self._close(
                    digest,
                    CLOSE_REPLACED,
                    "This token was replaced by a newer one; reconnect with the newest token.",
                )
            else:
                self._close(
                    digest,
                    CLOSE_ENDED,
                    "Your session ended (signed out, expired or revoked); sign in again to go on.",
                )
            ended += group
        return ended
