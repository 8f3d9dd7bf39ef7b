"""Alembic migrations: one head; 0002 repairs seats the old room races left behind; 0006 drops
the moves table's client-id index and keeps every move; 0008 keeps every token as a session."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

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
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at) VALUES "
                "('p', 'P', 'h', '2026-01-01'), ('q', 'Q', 'i', '2026-01-01')"
            )
        )
        for room, status in (("play", "playing"), ("wait", "lobby")):
            conn.execute(
                text(
                    "INSERT INTO rooms (id, ruleset, options, private, invite_code, host_id, "
                    "status, created_at) VALUES (:r, 'testgame', '{}', 0, :r, 'p', :s, "
                    "'2026-01-01')"
                ),
                {"r": room, "s": status},
            )
            conn.execute(
                text(
                    "INSERT INTO seats (room_id, seat, player_id, bot) VALUES "
                    "(:r, 0, 'p', NULL), (:r, 1, 'p', NULL), (:r, 2, 'q', 'Bot')"
                ),
                {"r": room},
            )
    command.upgrade(config, "head")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT room_id, seat, player_id, bot FROM seats ORDER BY room_id, seat")
        ).all()
        version = conn.execute(text("SELECT version FROM rooms WHERE id = 'play'")).scalar()
    engine.dispose()
    assert [tuple(r) for r in rows] == [
        ("play", 0, "p", None),
        ("play", 1, None, "Bot"),
        ("play", 2, "q", "Bot"),
        ("wait", 0, "p", None),
        ("wait", 1, None, None),
        ("wait", 2, "q", "Bot"),
    ]
    assert version == 0


def _unique_keys_of_moves(engine) -> list[list[str]]:
    """The column lists of the moves table's unique constraints (its primary key aside)."""
    from sqlalchemy import inspect

    return [c["column_names"] for c in inspect(engine).get_unique_constraints("moves")]


def test_moves_client_id_migration_keeps_every_move_and_drops_only_the_index(tmp_path):
    """0006 copies the moves table without the unique (game, seat, client id) index: every row
    and the (game, seq) primary key stay; the downgrade puts the index back."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = _config(url)
    command.upgrade(config, "0005_token_expiry")
    engine = create_engine(url)
    assert _unique_keys_of_moves(engine) == [["game_id", "seat", "client_move_id"]]
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at) VALUES ('p', 'P', 'h', '2026-01-01')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO rooms (id, ruleset, options, private, invite_code, host_id, "
                "status, created_at) VALUES ('r', 'testgame', '{}', 0, 'r', 'p', "
                "'playing', '2026-01-01')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO games (id, room_id, ruleset, ruleset_version, options, "
                "players, seed, seed_hash, version, status, to_act, created_at) VALUES "
                "('g', 'r', 'testgame', '1', '{}', 2, '7', 'h', 3, 'active', '[0]', "
                "'2026-01-01')"
            )
        )
        for seq, client_id in ((1, "a"), (2, None), (3, "c")):
            conn.execute(
                text(
                    "INSERT INTO moves (game_id, seq, seat, move, client_move_id, to_act, "
                    "created_at) VALUES ('g', :s, 0, '{\"type\": \"pass\"}', :c, '[1]', "
                    "'2026-01-01')"
                ),
                {"s": seq, "c": client_id},
            )
    command.upgrade(config, "head")
    engine.dispose()
    assert _unique_keys_of_moves(engine) == []
    with engine.begin() as conn:
        rows = conn.execute(text("SELECT seq, client_move_id FROM moves ORDER BY seq")).all()
        assert [tuple(r) for r in rows] == [(1, "a"), (2, None), (3, "c")]
    with pytest.raises(IntegrityError), engine.begin() as conn:  # the key still refuses a 2nd move 3
        conn.execute(
            text(
                "INSERT INTO moves (game_id, seq, seat, move, to_act, created_at) "
                "VALUES ('g', 3, 1, '{}', '[0]', '2026-01-01')"
            )
        )
    command.downgrade(config, "0005_token_expiry")
    engine.dispose()
    assert _unique_keys_of_moves(engine) == [["game_id", "seat", "client_move_id"]]
    engine.dispose()


def test_accounts_migration_keeps_every_players_token_as_its_first_session(tmp_path):
    """0008 moves each player's token (and the one it replaced) into player_sessions, so nobody
    is signed out by the upgrade; the downgrade puts the newest session's token back."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    config = _config(url)
    command.upgrade(config, "0007_deploy")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at, token_expires_at, "
                "prev_token_hash, prev_valid_until) VALUES ('p', 'P', 'h', '2026-01-01', "
                "'2026-02-01', 'old', '2026-01-02'), ('q', 'Q', 'i', '2026-01-01', NULL, "
                "NULL, NULL)"
            )
        )
    command.upgrade(config, "0008_accounts")
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT player_id, token_hash, prev_token_hash FROM player_sessions ORDER BY player_id")
        ).all()
        account = conn.execute(
            text("SELECT email, email_verified, password_hash FROM players WHERE id = 'p'")
        ).one()
    assert [tuple(r) for r in rows] == [("p", "h", "old"), ("q", "i", None)]
    assert tuple(account) == (None, 0, None)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM player_sessions WHERE player_id = 'q'"))  # q signed out
    command.downgrade(config, "0007_deploy")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT id, token_hash, prev_token_hash FROM players ORDER BY id"))
        assert [tuple(r) for r in rows] == [("p", "h", "old"), ("q", "ended-q", None)]
    engine.dispose()
