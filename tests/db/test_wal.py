"""SQLite's WAL under steady play: checkpoints run beside the moves, and the WAL still starts over."""

from __future__ import annotations

import asyncio
import sqlite3
import threading

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.services import move_store
from tests.support.api import started_game

ONE_MOVE_FRAMES = 8  # the pages one move writes (the games row, the moves row and its indexes), with room


def _settings(tmp_path) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}",
        bot_delay_ms=0,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        broker_url="memory://",
        bot_watchdog_seconds=3600,
        gc_freeze_seconds=0,
    )


async def _move(games, game_id: str) -> int:
    """Store the first legal move of the first seat asked to act; the new version."""
    live = await games.live(game_id)
    seat = live.ruleset.to_act(live.state)[0]
    return await games.submit(game_id, seat, live.version, live.ruleset.legal_moves(live.state, seat)[0])


@pytest.mark.parametrize("restart_frames, starts_over", [(0, True), (1 << 40, False)])
def test_the_wal_starts_over_though_a_move_comes_during_every_checkpoint(
    tmp_path, monkeypatch, restart_frames, starts_over
):
    """Under steady play a move is stored while the checkpoint thread copies the WAL, every time:
    the checkpoint stops short of that move's frames, so the next move appends to the WAL
    instead of starting it over, and the WAL grew without end. Past WAL_RESTART_FRAMES a second
    pass with the moves held copies those frames too: the next move starts the WAL over, which
    then holds that move's frames alone. Below the threshold the frames pile up, as before.

    (The checkpoint is made to stop short of a move the way a concurrent copy does, by a reader
    that took its snapshot before the move and lets go only once the first pass is over.)"""
    monkeypatch.setattr(move_store, "CHECKPOINT_EVERY", 1 << 30)  # only the test's checkpoint
    monkeypatch.setattr(move_store, "WAL_RESTART_FRAMES", restart_frames)
    with TestClient(create_app(_settings(tmp_path))) as client:
        game_id, _ = started_game(client)
        games = client.app.state.platform.games
        store = games.store
        writer = store.writer
        reader = sqlite3.connect(writer.path, isolation_level=None, check_same_thread=False)
        passes: list[tuple[int, int]] = []
        checkpoint = writer.checkpoint

        def first_pass_stops_short() -> tuple[int, int]:
            frames = checkpoint()
            passes.append(frames)
            if reader.in_transaction:
                reader.execute("COMMIT")
            return frames

        monkeypatch.setattr(writer, "checkpoint", first_pass_stops_short)

        async def scenario() -> tuple[int, int]:
            for _ in range(6):
                await _move(games, game_id)
            reader.execute("BEGIN")
            reader.execute("SELECT count(*) FROM moves").fetchall()  # its snapshot: before the next move
            await _move(games, game_id)  # "during the checkpoint"
            await store._checkpoint()
            await _move(games, game_id)
            return checkpoint()  # (frames in the WAL, frames copied)

        frames, copied = client.portal.call(scenario)
        reader.close()
    assert len(passes) == (2 if starts_over else 1)
    assert 6 <= passes[0][1] < passes[0][0]  # the first pass stopped short of the last move
    if starts_over:
        assert passes[1][0] == passes[1][1]  # the second copied every frame
        assert frames == copied <= ONE_MOVE_FRAMES  # the WAL holds the next move alone
    else:
        assert frames > passes[0][0]  # the next move was appended after the rest


def test_a_move_waits_for_the_second_pass_then_is_stored(tmp_path, monkeypatch):
    """The second pass runs on the writer thread, so it holds the moves (that is what lets it
    copy every frame): a move submitted meanwhile is stored after the pass has ended, and
    acknowledged as usual."""
    monkeypatch.setattr(move_store, "CHECKPOINT_EVERY", 1 << 30)
    monkeypatch.setattr(move_store, "WAL_RESTART_FRAMES", 0)
    with TestClient(create_app(_settings(tmp_path))) as client:
        game_id, _ = started_game(client)
        games = client.app.state.platform.games
        store = games.store
        writer = store.writer
        second_pass_started, release = threading.Event(), threading.Event()
        events: list[str] = []
        checkpoint, transaction = writer.checkpoint, writer._transaction

        def held_checkpoint() -> tuple[int, int]:
            events.append("pass")
            if events.count("pass") == 2:
                second_pass_started.set()
                assert release.wait(5)
                events.append("second pass done")
            return checkpoint()

        def recorded_transaction(moves):
            events.append("move written")
            return transaction(moves)

        monkeypatch.setattr(writer, "checkpoint", held_checkpoint)
        monkeypatch.setattr(writer, "_transaction", recorded_transaction)

        async def scenario() -> tuple[int, int, bool]:
            before = await _move(games, game_id)
            running = asyncio.create_task(store._checkpoint())
            await asyncio.get_running_loop().run_in_executor(None, second_pass_started.wait, 5)
            move = asyncio.create_task(_move(games, game_id))
            await asyncio.sleep(0.05)
            waited = not move.done()
            release.set()
            await running
            return before, await move, waited

        before, after, waited = client.portal.call(scenario)
    assert waited and after == before + 1
    assert events == ["move written", "pass", "pass", "second pass done", "move written"]
