"""Persistence: games survive restarts, snapshots bound replay, racing writers cannot both win."""

from __future__ import annotations

import asyncio
import os

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.models import MoveRow, Snapshot
from app.refusals import STATUS
from app.engine.errors import GameError
from app.main import create_app
from app.services.games import GameService
from tests.support.api import doc, legal, play_first_legal, play_to_end, started_game

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")


def test_restart_loses_nothing_and_the_game_continues(settings):
    """Stop the server mid-game, start a new one on the same database: same documents, same moves."""
    settings.snapshot_every = 3
    with TestClient(create_app(settings)) as first:
        game_id, humans = started_game(first, seats=3, options={"rounds": 3})
        for _ in range(5):
            for player in humans:
                if legal(first, game_id, player)["moves"]:
                    play_first_legal(first, game_id, player)
        before = [doc(first, game_id, p) for p in humans] + [doc(first, game_id)]
        log_before = first.get(f"/api/games/{game_id}/log", headers=humans[0]["headers"]).json()
    with TestClient(create_app(settings)) as second:
        after = [doc(second, game_id, p) for p in humans] + [doc(second, game_id)]
        assert after == before and before[0]["version"] >= 5
        assert second.get(f"/api/games/{game_id}/log", headers=humans[0]["headers"]).json() == log_before
        final = play_to_end(second, game_id, humans)
        assert final["status"] == "finished"


def test_snapshots_are_written_and_replay_from_them_matches(client, settings):
    """Every N moves a snapshot is stored; loading from a snapshot gives the same state as full replay."""
    platform = client.app.state.platform
    platform.games.snapshot_every = 2
    game_id, humans = started_game(client, seats=2, options={"rounds": 3})
    for _ in range(3):
        for player in humans:
            if legal(client, game_id, player)["moves"]:
                play_first_legal(client, game_id, player)
    live = platform.games._live[game_id]

    async def check():
        async with platform.sessions() as session:
            versions = list(
                (await session.execute(select(Snapshot.version).where(Snapshot.game_id == game_id))).scalars()
            )
            moves = await session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
            )
        fresh = GameService(platform.sessions)
        reloaded = await fresh.live(game_id)
        await fresh.aclose()
        return versions, moves, reloaded

    versions, moves, reloaded = client.portal.call(check)
    assert versions and all(v % 2 == 0 for v in versions) and moves == live.version
    assert reloaded.state == live.state and reloaded.version == live.version
    assert reloaded.to_act_at == live.to_act_at and reloaded.movers == live.movers


def test_two_instances_racing_on_one_version_one_wins(client):
    """Two services (as two server instances) submit moves for the same version: exactly one is
    stored; the loser catches up and is told the version moved on, or is accepted by the
    simultaneous-phase rule when its seat was still asked."""
    platform = client.app.state.platform
    game_id, (a, b) = started_game(client, options={"rounds": 2})
    play_first_legal(client, game_id, a)
    play_first_legal(client, game_id, b)  # draw phase: only seat 0 to act at version 2

    async def race():
        one, two = GameService(platform.sessions), GameService(platform.sessions)
        await one.live(game_id)
        await two.live(game_id)
        results = await asyncio.gather(
            one.submit(game_id, 0, 2, {"type": "draw"}),
            two.submit(game_id, 0, 2, {"type": "pass"}),
            return_exceptions=True,
        )
        await one.aclose()
        await two.aclose()
        return results

    results = client.portal.call(race)
    wins = [r for r in results if isinstance(r, int)]
    losses = [r for r in results if isinstance(r, GameError)]
    assert wins == [3] and len(losses) == 1, results
    assert STATUS[losses[0].code] in (403, 409)
    assert doc(client, game_id)["version"] == 3


def test_least_recently_used_games_leave_memory_and_come_back_equal(client):
    """With room for one game in memory, loading a second drops the first; reloading rebuilds it."""
    platform = client.app.state.platform
    first, humans_1 = started_game(client)
    play_first_legal(client, first, humans_1[0])
    expected = doc(client, first, humans_1[0])
    platform.games.max_live_games = 1
    second, _ = started_game(client)
    doc(client, second)
    assert list(platform.games._live) == [second]
    assert doc(client, first, humans_1[0]) == expected
    assert list(platform.games._live) == [first]


def test_move_ids_from_before_the_latest_snapshot_survive_a_reload(settings):
    """Idempotent retries: after a restart that loads the game from a snapshot, retrying a move id
    first used before that snapshot returns its first answer (not a 409, not a second move)."""
    settings.snapshot_every = 2
    with TestClient(create_app(settings)) as first:
        game_id, (a, b) = started_game(first, options={"rounds": 3})
        sent = []
        for i in range(5):
            for player in (a, b):
                moves = legal(first, game_id, player)
                if moves["moves"]:
                    body = {"version": moves["version"], "move": moves["moves"][0], "id": f"m{i}"}
                    r = first.post(f"/api/games/{game_id}/moves", headers=player["headers"], json=body)
                    assert r.status_code == 200, r.text
                    sent.append((player, body, r.json()["version"]))
        version = doc(first, game_id)["version"]
    assert version >= 5
    with TestClient(create_app(settings)) as second:
        for player, body, answered in sent[:3]:  # stored before the snapshot at version 4
            again = second.post(f"/api/games/{game_id}/moves", headers=player["headers"], json=body)
            assert again.status_code == 200 and again.json() == {"version": answered}, again.text
        assert doc(second, game_id)["version"] == version


def test_sqlite_fsync_policy_is_normal_unless_full_is_asked_for(tmp_path):
    """SQLite commits without an fsync by default (WAL, synchronous=NORMAL); CIVITAS_SQLITE_SYNCHRONOUS
    =full makes every commit wait for one, on the move writer's connection too. Moves work both ways."""
    from app.config import Settings

    for policy, pragma in (("normal", 1), ("full", 2)):
        settings = Settings(
            database_url=f"sqlite+aiosqlite:///{tmp_path / policy}.db",
            sqlite_synchronous=policy,
            bot_delay_ms=0,
            limits_scale=1000,
            extra_rulesets="tests.support.testgame:TEST_GAME",
            bot_watchdog_seconds=3600,
        )
        with TestClient(create_app(settings)) as client:
            game_id, (a, b) = started_game(client)
            player = a if legal(client, game_id, a)["moves"] else b
            assert play_first_legal(client, game_id, player) == 1
            writer = client.app.state.platform.games.store.writer
            assert writer.conn.execute("PRAGMA synchronous").fetchone()[0] == pragma


@pytest.mark.skipif(
    not POSTGRES_URL and not os.environ.get("CI"),
    reason="needs CIVITAS_TEST_POSTGRES_URL: only PostgreSQL has its own move connections",
)
def test_stopping_the_server_closes_its_postgres_move_connections(postgres_url):
    """Shutdown: the move writer's own PostgreSQL connections (kept outside SQLAlchemy's pool)
    are all closed when the server stops, so a restart never leaves connections open."""
    from app.config import Settings

    settings = Settings(
        database_url=postgres_url,
        bot_delay_ms=0,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        broker_url="memory://",
        bot_watchdog_seconds=3600,
    )
    with TestClient(create_app(settings)) as client:
        game_id, humans = started_game(client)
        play_first_legal(client, game_id, humans[0])
        writer = client.app.state.platform.games.store
        kept = list(writer._idle)
        assert kept and not any(c.closed for c in kept)
    assert all(c.closed for c in kept) and writer._idle == []


def test_closing_the_sqlite_writer_waits_for_a_checkpoint_in_progress(tmp_path):
    """Shutdown: closing SQLite's move writer waits for a checkpoint still running on its thread
    (stopping the service cancels the task awaiting it, not the thread), so no checkpoint is left
    running against connections being closed."""
    import time

    from app.services.move_store import SqliteWriter

    writer = SqliteWriter(f"sqlite+aiosqlite:///{tmp_path / 'moves.db'}")

    def slow_checkpoint():
        time.sleep(0.3)
        writer.checkpoint()

    running = writer.checkpoints.submit(slow_checkpoint)
    writer.close()
    assert running.done() and running.exception() is None


def _table_t(tmp_path):
    """A writer on a fresh database with one table `t`, and a second connection to it."""
    import sqlite3

    from app.services.move_store import SqliteWriter

    path = tmp_path / "moves.db"
    writer = SqliteWriter(f"sqlite+aiosqlite:///{path}")
    writer.submit(lambda: writer.conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")).result(5)
    return writer, sqlite3.connect(path, isolation_level=None, check_same_thread=False)


def test_a_move_behind_another_connections_write_lock_waits_for_it_then_is_stored(tmp_path, monkeypatch):
    """The move writer's thread: while another connection holds SQLite's write lock the move
    waits (trying again in short steps), is stored once the lock is let go, and gives up with
    SQLAlchemy's OperationalError (a 503 for the client) if it is never let go. The caller never
    waits on SQLite itself: it gets a future at once."""
    import threading

    from sqlalchemy.exc import OperationalError

    from app.services import move_store

    writer, other = _table_t(tmp_path)
    other.execute("BEGIN IMMEDIATE")
    caller = threading.current_thread()
    stored = writer.submit([("INSERT INTO t (n) VALUES (?)", (1,))])
    assert threading.current_thread() is caller and not stored.done()
    assert not _settled(stored, 0.05)  # still waiting for the lock
    other.execute("COMMIT")
    assert stored.result(5) is True and writer.busy > 0
    assert other.execute("SELECT count(*) FROM t").fetchone()[0] == 1

    monkeypatch.setattr(move_store, "LOCK_WAIT_SECONDS", 0.05)
    other.execute("BEGIN IMMEDIATE")
    refused = writer.submit([("INSERT INTO t (n) VALUES (?)", (2,))])
    with pytest.raises(OperationalError):
        refused.result(5)
    other.execute("ROLLBACK")
    assert other.execute("SELECT count(*) FROM t").fetchone()[0] == 1
    other.close()
    writer.close()


def _settled(future, seconds):
    """Whether the future is done within `seconds`."""
    import concurrent.futures

    try:
        future.exception(seconds)
    except concurrent.futures.TimeoutError:
        return False
    return True


def test_moves_queued_together_are_committed_together_and_a_failed_guard_undoes_its_move_alone(tmp_path):
    """Moves that queue while the writer is busy go in one transaction (one commit, so one fsync
    under synchronous=FULL), each in a savepoint: a move whose guard fails (its first statement
    changes no row) or whose key is taken is undone alone, the others are stored, and each
    caller gets its own answer."""
    import threading

    writer, other = _table_t(tmp_path)
    gate = threading.Event()
    held = writer.submit(gate.wait)  # the writer is busy: the moves below queue behind it
    insert = "INSERT INTO t (n) VALUES (?)"
    guard_fails = "UPDATE t SET n = n WHERE n = -1"
    answers = [
        writer.submit([(insert, (1,))]),
        writer.submit([(guard_fails, ()), (insert, (2,))]),
        writer.submit([(insert, (3,)), (insert, (1,))]),  # the key 1 is taken: undone
        writer.submit([(insert, (4,))]),
    ]
    gate.set()
    assert held.result(5) is True
    assert [a.result(5) for a in answers] == [True, False, False, True]
    assert writer.batches == 1
    assert [n for (n,) in other.execute("SELECT n FROM t ORDER BY n")] == [1, 4]
    other.close()
    writer.close()


def test_a_move_whose_caller_gave_up_while_it_queued_is_not_written(tmp_path):
    """A move cancelled before the writer took it (its request ended) is never written."""
    import threading

    writer, other = _table_t(tmp_path)
    gate = threading.Event()
    writer.submit(gate.wait)
    dropped = writer.submit([("INSERT INTO t (n) VALUES (?)", (1,))])
    kept = writer.submit([("INSERT INTO t (n) VALUES (?)", (2,))])
    assert dropped.cancel()
    gate.set()
    assert kept.result(5) is True
    assert [n for (n,) in other.execute("SELECT n FROM t")] == [2]
    other.close()
    writer.close()


def test_the_event_loop_never_runs_a_sqlite_move(tmp_path):
    """Every SQLite move transaction runs on the writer thread, none on the event loop's."""
    import threading

    from app.config import Settings

    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'loop.db'}",
        bot_delay_ms=0,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        bot_watchdog_seconds=3600,
    )
    with TestClient(create_app(settings)) as client:
        writer = client.app.state.platform.games.store.writer
        threads: list[str] = []
        transaction = writer._transaction

        def recorded(moves):
            threads.append(threading.current_thread().name)
            return transaction(moves)

        writer._transaction = recorded
        game_id, (a, b) = started_game(client)
        for _ in range(3):
            player = a if legal(client, game_id, a)["moves"] else b
            play_first_legal(client, game_id, player)
    assert threads and set(threads) == {"sqlite-writer"}


def test_two_instances_racing_one_move_id_store_it_once_and_give_one_answer(client):
    """The same move with the same client id, sent to two instances at once (a client retrying
    through another server): one stores it, the other's guard fails, it catches up and answers
    the stored version; the log holds the id once (no unique index is needed for that)."""
    platform = client.app.state.platform
    game_id, (a, _b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]

    async def race():
        one, two = GameService(platform.sessions), GameService(platform.sessions)
        await one.live(game_id)
        await two.live(game_id)
        answers = await asyncio.gather(
            one.submit(game_id, 0, 0, move, "twice"), two.submit(game_id, 0, 0, move, "twice")
        )
        again = await two.submit(game_id, 0, 0, move, "twice")  # and a third try, later
        async with platform.sessions() as session:
            ids = (
                (await session.execute(select(MoveRow.client_move_id).where(MoveRow.game_id == game_id)))
                .scalars()
                .all()
            )
        await one.aclose()
        await two.aclose()
        return answers, again, ids

    answers, again, ids = client.portal.call(race)
    assert answers == [1, 1] and again == 1
    assert ids == ["twice"]
    assert doc(client, game_id)["version"] == 1


def test_a_write_holding_the_turn_never_meets_a_move_and_the_moves_follow_it(tmp_path):
    """SQLite's writer turn (GameService.write_turn, taken by room, clock and chat writes): while
    a transaction holds it the move writer waits, so a move submitted meanwhile is not stored
    until the turn ends (and the other transaction never finds the write lock taken); then the
    move is stored. A turn whose wait is cancelled before it came never holds the writer."""
    import sqlite3

    from app.services.move_store import SqliteMoveStore

    path = tmp_path / "turn.db"
    store = SqliteMoveStore(f"sqlite+aiosqlite:///{path}")
    store.writer.submit(lambda: store.writer.conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)")).result(5)
    other = sqlite3.connect(path, isolation_level=None, timeout=0)  # never waits for the lock

    async def scenario():
        async with store.turn():
            move = asyncio.ensure_future(
                asyncio.wrap_future(store.writer.submit([("INSERT INTO t (n) VALUES (?)", (1,))]))
            )
            await asyncio.sleep(0.1)
            held = not move.done()
            other.execute("BEGIN IMMEDIATE")  # would fail at once if a move held the lock
            other.execute("INSERT INTO t (n) VALUES (2)")
            other.execute("COMMIT")
        stored = await move
        waiting = asyncio.ensure_future(_enter_and_stay(store))
        gate = store.turn()
        await gate.__aenter__()  # the writer is held: the next turn waits for it
        await asyncio.sleep(0.05)
        waiting.cancel()
        await gate.__aexit__(None, None, None)
        after = await asyncio.wrap_future(store.writer.submit([("INSERT INTO t (n) VALUES (?)", (3,))]))
        return held, stored, after

    held, stored, after = asyncio.run(scenario())
    assert held and stored is True and after is True
    assert [n for (n,) in other.execute("SELECT n FROM t ORDER BY n")] == [1, 2, 3]
    other.close()
    asyncio.run(store.aclose())


async def _enter_and_stay(store) -> None:
    async with store.turn():
        await asyncio.sleep(3600)


def test_a_started_games_copy_is_made_at_the_start_and_equals_one_loaded_from_the_database(client):
    """The start makes the live copy from what it has in hand (no reload by the first reader),
    and that copy is the one the database would give."""
    from tests.realtime.test_lobby import counting_statements

    platform = client.app.state.platform
    with counting_statements(client) as seen:
        game_id, (a, _b) = started_game(client, options={"rounds": 2})
        assert doc(client, game_id, a)["version"] == 0
    # Neither the start, its bot and clock hooks, nor the first read rebuilt the game.
    assert not [s for s in seen if "FROM snapshots" in s or "FROM moves" in s], seen
    live = platform.games.loaded(game_id)
    assert live is not None

    async def reload():
        fresh = GameService(platform.sessions)
        try:
            return await fresh.live(game_id)
        finally:
            await fresh.aclose()

    loaded = client.portal.call(reload)
    for name in ("room_id", "players", "options", "seed", "seed_hash", "version", "state", "to_act_at"):
        assert getattr(live, name) == getattr(loaded, name), name
    for name in ("movers", "seats", "undo_mode", "private", "invite_code", "abandoned"):
        assert getattr(live, name) == getattr(loaded, name), name
    assert live.states == loaded.states
    assert play_first_legal(client, game_id, a) == 1
