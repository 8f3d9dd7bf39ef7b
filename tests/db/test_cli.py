"""The operator's tool, python -m app.cli (issue 12): export, replay against snapshots, seed
verification, backup and restore into an empty database with a live game resumed."""

from __future__ import annotations

import json
import secrets

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app import cli
from app.config import sync_url
from app.main import create_app
from tests.support.api import doc, legal, play_first_legal, play_to_end, started_game


def _play(client, game_id, players, moves):
    for _ in range(moves):
        player = next(p for p in players if legal(client, game_id, p)["moves"])
        play_first_legal(client, game_id, player)


def test_export_and_replay_match_the_snapshots(settings, capsys):
    """A game with snapshots replays to the same states; a tampered snapshot is reported."""
    url = settings.database_url
    with TestClient(create_app(settings.model_copy(update={"snapshot_every": 2}))) as client:
        game_id, players = started_game(client, options={"rounds": 2})
        _play(client, game_id, players, 5)
    assert cli.main(["--database", url, "replay", game_id]) == 0
    assert capsys.readouterr().out == "ok\n"
    assert cli.main(["--database", url, "export", game_id]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert [m["seq"] for m in exported["moves"]] == [1, 2, 3, 4, 5]
    assert exported["snapshots"] == [2, 4] and exported["seed"] is None  # not over: no seed
    engine = create_engine(sync_url(url))
    with engine.begin() as conn:
        conn.execute(
            text("UPDATE snapshots SET state = :s WHERE game_id = :g AND version = 4"),
            {"s": json.dumps({"tampered": True}), "g": game_id},
        )
    engine.dispose()
    assert cli.main(["--database", url, "replay", game_id]) == 1
    assert "version 4" in capsys.readouterr().out


def test_a_finished_games_seed_verifies(settings, capsys):
    """After the end the revealed seed hashes to seed_hash and reproduces every state."""
    with TestClient(create_app(settings)) as client:
        game_id, players = started_game(client, options={"rounds": 1})
        play_to_end(client, game_id, players)
    assert cli.main(["--database", settings.database_url, "verify-seed", game_id]) == 0
    engine = create_engine(sync_url(settings.database_url))
    with engine.begin() as conn:
        conn.execute(text("UPDATE games SET seed = '12345' WHERE id = :g"), {"g": game_id})
    engine.dispose()
    assert cli.main(["--database", settings.database_url, "verify-seed", game_id]) == 1
    assert "seed_hash" in capsys.readouterr().out


def _empty_database_like(url: str, tmp_path) -> tuple[str, callable]:
    if url.startswith("sqlite"):
        return f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}", lambda: None
    name = f"civitas_restore_{secrets.token_hex(4)}"
    admin = url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop():
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return url.rsplit("/", 1)[0] + "/" + name, drop


def test_backup_restores_into_an_empty_database_and_the_game_resumes(settings, tmp_path):
    """Back up a live database mid-game, restore it into an empty one, serve from it: the game
    is at the same version, the same players hold their seats, and the next move is accepted."""
    with TestClient(create_app(settings)) as client:
        game_id, players = started_game(client, options={"rounds": 2})
        _play(client, game_id, players, 3)
        before = doc(client, game_id, players[0])
        dump = tmp_path / "civitas.backup"
        assert cli.main(["--database", settings.database_url, "backup", str(dump)]) == 0
    target, drop = _empty_database_like(settings.database_url, tmp_path)
    try:
        assert cli.main(["--database", target, "restore", str(dump)]) == 0
        restored = settings.model_copy(update={"database_url": target})
        with TestClient(create_app(restored)) as client:
            assert doc(client, game_id, players[0]) == before
            player = next(p for p in players if legal(client, game_id, p)["moves"])
            assert play_first_legal(client, game_id, player) == before["version"] + 1
        assert cli.main(["--database", target, "replay", game_id]) == 0
    finally:
        drop()


def test_snapshot_stores_every_active_games_state(settings, capsys):
    """`snapshot` (run before a rules deploy) stores each active game's state at its version."""
    with TestClient(create_app(settings)) as client:
        game_id, players = started_game(client)
        _play(client, game_id, players, 1)
    assert cli.main(["--database", settings.database_url, "snapshot"]) == 0
    assert "1 games snapshotted" in capsys.readouterr().out
    assert cli.main(["--database", settings.database_url, "replay", game_id]) == 0


def test_cli_refusals_are_sentences(settings, tmp_path, capsys):
    """Issue 33 item 7: `restore` into a database that is not empty (PostgreSQL ended in a
    pg_restore traceback), a backup file that is not there, a folder that is not there, a
    database that cannot be reached: each is refused in one sentence, nothing is changed."""
    with TestClient(create_app(settings)) as client:
        started_game(client)  # the test database now has tables and rows
    dump = tmp_path / "backup.dump"
    assert cli.main(["--database", settings.database_url, "backup", str(dump)]) == 0
    with pytest.raises(SystemExit) as refused:
        cli.main(["--database", settings.database_url, "restore", str(dump)])
    assert "not empty" in str(refused.value) and "restore only into an empty database" in str(refused.value)
    with pytest.raises(SystemExit) as refused:
        cli.main(["--database", settings.database_url, "restore", str(tmp_path / "missing.dump")])
    assert str(refused.value) == f"There is no backup file at {tmp_path / 'missing.dump'}."
    with pytest.raises(SystemExit) as refused:
        cli.main(["--database", settings.database_url, "backup", str(tmp_path / "no" / "x.dump")])
    assert "There is no folder" in str(refused.value)
    capsys.readouterr()
    assert cli.main(["--database", "postgresql://nobody@127.0.0.1:1/none", "snapshot"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("Cannot use the database") and "Traceback" not in err
