"""Settings from the environment (prefix CIVITAS_), each with a default that works on a fresh machine."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Server configuration; see README for each variable."""

    model_config = SettingsConfigDict(env_prefix="CIVITAS_", extra="ignore")

    host: str = "127.0.0.1"
    port: int = 8000
    database_url: str = f"sqlite+aiosqlite:///{ROOT / 'var' / 'civitas.db'}"
    broker_url: str = "memory://"
    bot_delay_ms: int = 600
    game_seed: int | None = None  # every new game uses this seed (tests, reproducing a report)
    # Tests only: a file each new game's id, ruleset and seed are appended to, read by the test
    # that started this server to print its games' seeds when it fails. Never set it in
    # production: seeds stay secret until a game ends, and this file is no log anyone else reads.
    seed_log: str = ""
    bot_lease_seconds: float = 15.0  # one instance drives a game's bots; a dead one's lease runs out
    bot_watchdog_seconds: float = 3.0  # how often to look for games whose bot seats nobody plays
    # Bot moves are chosen in worker processes (app/services/bot_pool.py): "auto" is one per core
    # less one, at least one; 0 chooses them on the event loop (only for tests that patch a
    # ruleset's bot in their own process).
    bot_workers: int | Literal["auto"] = "auto"
    bot_deadline_seconds: float = 2.0  # a decision's deadline beyond its level's thinking time
    bot_queue_seconds: float = 10.0  # the longest a decision waits for a free worker
    snapshot_every: int = 20
    # SQLite's fsync policy in WAL mode: "normal" (no fsync per commit: a process crash loses no
    # acknowledged move, a power cut may lose the last ones) or "full" (an fsync per commit).
    sqlite_synchronous: Literal["normal", "full"] = "normal"
    max_body_bytes: int = 64 * 1024
    max_frame_bytes: int = 64 * 1024
    heartbeat_seconds: float = 15.0
    # "lean": uvicorn's websockets-sansio with less kept per socket (app/realtime/transport.py);
    # any uvicorn ws name (websockets-sansio, wsproto, websockets) to fall back to uvicorn's own.
    ws_protocol: str = "lean"
    # A client frame begun and not whole after this long closes its socket (1008; "lean" only):
    # half a frame, then silence, must not hold a socket open for ever.
    ws_frame_seconds: float = 10.0
    frames_per_second: float = 20.0  # per socket, with a burst of twice that
    frames_per_token_second: float = 40.0  # all of one token's sockets on an instance together
    max_live_games: int = 5000
    # The garbage collector (app/collector.py): objects alive this long are frozen out of its
    # full collections, which are let back in every gc_thaw_seconds (0: off).
    gc_freeze_seconds: float = 10.0
    gc_thaw_seconds: float = 600.0
    patch_history: int = 64
    # Limits, applied before parsing (shared through Redis when the broker is Redis). A rate is
    # "count/seconds" in a sliding window, per token when a request is signed in and per client
    # address when it is not (app/limits.py); limits_scale multiplies every rate and cap (tests
    # and benches raise it).
    limits_enabled: bool = True
    forwarded_allow_ips: str | None = (
        None  # proxies trusted for X-Forwarded-For (None: uvicorn's FORWARDED_ALLOW_IPS or 127.0.0.1)
    )
    limits_scale: float = 1.0
    rate_players: str = "60/60"  # per address: a class signing in at once gets through
    rate_rooms: str = "20/60"
    rate_rooms_per_address: str = "60/60"  # on top of the per-token rate: bounds what many guests open
    rate_lobby: str = "120/60"
    rate_moves: str = "300/60"
    rate_sockets: str = "60/60"
    sockets_per_ip: int = 100  # anonymous sockets open from one address
    sockets_per_token: int = 20
    spectators_per_game: int = 200  # spectator sockets of one game; seated players never count
    open_rooms_per_player: int = 5  # rooms waiting in the lobby that one player hosts
    bot_games_per_player: int = 5  # active games with bot seats that one player hosts
    live_games_max_bytes: int = 256 * 1024 * 1024  # memory budget of the live-game cache
    room_ttl_hours: float = 24  # a room never started is removed after this long
    abandon_after_hours: float = 72  # a game with no move for this long ends as abandoned
    # Without a clock, a player asked to act who has not moved for this long loses the seat to
    # a bot (taken back by reconnecting once the bot has played), connected or not.
    idle_seat_hours: float = 24
    cleanup_seconds: float = 600  # how often to sweep (0: never)
    token_ttl_hours: float = 24 * 30  # a player token's life; the browser renews it silently
    token_grace_seconds: float = 300  # how long a rotated-out token keeps working
    # How long an instance trusts its cached answer for a token before reading it again (ended
    # sessions reach every instance at once through the broker; this bounds a lost event).
    token_cache_seconds: float = 60.0
    lobby_page_size: int = 50  # rooms in the lobby socket's page and GET /api/rooms' default page
    lobby_resync_seconds: float = 60.0  # rebuild the lobby projection now and then (lost events)
    extra_rulesets: str = ""  # comma-separated modules exposing RULESET (tests register their game)
    migrate_on_start: bool = True
    # The database pool (None: the backend's default, app/db/session.py) and how long a request
    # waits for a connection before it fails (503).
    db_pool_size: int | None = None
    db_max_overflow: int | None = None
    db_pool_timeout: float = 30.0
    absence_grace_seconds: float = 90.0  # a player gone this long while asked to act: a bot holds the seat
    clock_sweep_seconds: float = 1.0  # how often each instance looks for run-out clocks and absent players
    # Outgoing e-mail (app/services/mail.py). No host: messages go to the server log, marked as
    # such, so `make run` needs no mail server. TLS: "none", "starttls" or "tls" (implicit).
    smtp_host: str = ""
    smtp_port: int = 25
    smtp_tls: Literal["none", "starttls", "tls"] = "none"
    smtp_username: str = ""
    smtp_password: str = ""
    mail_from: str = "Civitas <noreply@civitas.invalid>"
    public_url: str = "http://127.0.0.1:8000"  # the site's address as links in e-mails give it
    vacation_days_per_year: float = 14  # days a player may pause their turn clocks each year
    # Notifications (app/services/notify.py, app/services/outbox.py): an instance sends what it
    # writes at once; every notify_seconds (0: never send) it also looks for rows another instance
    # left. How long a claim lasts before another instance may retry it, and how many tries a
    # notification gets. Web Push needs a VAPID key pair (the private
    # key as PEM or base64url DER, the public key base64url, uncompressed point) and a contact.
    notify_seconds: float = 30.0
    notify_lease_seconds: float = 60.0
    notify_attempts: int = 6
    vapid_private_key: str = ""
    vapid_public_key: str = ""
    vapid_subject: str = "mailto:admin@civitas.invalid"
    # Accounts (app/services/accounts.py). Sign-in attempts per account and per address, e-mails
    # asked for (verification, reset) per address, device-code attempts per address; all scaled
    # by limits_scale. Argon2id's cost (the library's defaults; tests lower them).
    rate_sign_in_account: str = "5/300"
    rate_sign_in_address: str = "20/300"
    rate_account_mail: str = "10/3600"
    rate_device_code: str = "10/300"
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    verify_link_hours: float = 48
    reset_link_minutes: float = 60
    device_code_minutes: float = 10
    log_level: str = "info"
    log_format: str = "json"  # or "text"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings (tests build their own Settings and pass them to create_app)."""
    return Settings()


def async_url(url: str) -> str:
    """The async-driver form of a database URL (plain sqlite/postgresql URLs are accepted too)."""
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def sync_url(url: str) -> str:
    """The sync-driver form of a database URL, for Alembic."""
    url = async_url(url)
    return url.replace("sqlite+aiosqlite://", "sqlite://", 1)
