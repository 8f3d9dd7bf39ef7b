"""Alembic migrations: one head, and 0002 repairs seats the old room races left behind."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from app.config import ROOT


def _config(url: str) -> Config:
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    return config


def test_there_is_exactly_one_head():
    """Parallel branches must not leave two heads (the app migrates to 'head')."""
    assert len(ScriptDirectory.from_config(_config("sqlite://")).get_heads()) == 1


def test_room_writes_migration_repairs_raced_seats(tmp_path):
    """A player holding two seats keeps the first (the extra one goes to a bot in a running game,
    empties in the lobby); a held seat (player and bot) is kept as it is."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = _config(url)
    command.upgrade(config, "0002_table")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, name, token_hash, created_at) VALUES "
                          "('p', 'P', 'h', '2026-01-01'), ('q', 'Q', 'i', '2026-01-01')"))
        for room, status in (("play", "playing"), ("wait", "lobby")):
            conn.execute(text("INSERT INTO rooms (id, ruleset, options, private, invite_code, host_id, "
                              "status, created_at) VALUES (:r, 'testgame', '{}', 0, :r, 'p', :s, "
                              "'2026-01-01')"), {"r": room, "s": status})
            conn.execute(text("INSERT INTO seats (room_id, seat, player_id, bot) VALUES "
                              "(:r, 0, 'p', NULL), (:r, 1, 'p', NULL), (:r, 2, 'q', 'Bot')"), {"r": room})
    command.upgrade(config, "head")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT room_id, seat, player_id, bot FROM seats ORDER BY room_id, seat")).all()
        version = conn.execute(text("SELECT version FROM rooms WHERE id = 'play'")).scalar()
    engine.dispose()
    assert [tuple(r) for r in rows] == [
        ("play", 0, "p", None), ("play", 1, None, "Bot"), ("play", 2, "q", "Bot"),
        ("wait", 0, "p", None), ("wait", 1, None, None), ("wait", 2, "q", "Bot")]
    assert version == 0
