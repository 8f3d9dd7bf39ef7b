"""Shared fixtures: the test-only game, a fresh database per test on SQLite and on PostgreSQL,
and a running app (lifespan included) behind Starlette's TestClient."""

from __future__ import annotations

import asyncio
import asyncio.runners
import io
import os
import secrets
import threading
from typing import Iterator

import pytest

from app.engine import registry
from tests.support.testgame import TEST_GAME

POSTGRES_URL = os.environ.get("CIVITAS_TEST_POSTGRES_URL", "")
GAME_SEED = int(os.environ["CIVITAS_TEST_GAME_SEED"]) if os.environ.get("CIVITAS_TEST_GAME_SEED") else None
TABLES = (
    "notification_outbox, push_subscriptions, notification_settings, vacations, "
    "ratings, rated_games, account_codes, player_sessions, game_events, chat_messages, "
    "rematches, seat_clocks, room_paces, snapshots, moves, games, seats, rooms, players"
)


def _postgres_reachable(url: str) -> bool:
    try:
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), connect_timeout=2):
            return True
    except Exception:
        return False


def _backends() -> list[str]:
    backends = ["sqlite"]
    # In CI a PostgreSQL that is not there fails its tests instead of dropping them quietly.
    if POSTGRES_URL and (os.environ.get("CI") or _postgres_reachable(POSTGRES_URL)):
        backends.append("postgres")
    return backends


@pytest.fixture(autouse=True, scope="session")
def _register_test_game():
    registry.register(TEST_GAME)
    yield
    registry.unregister(TEST_GAME.id)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The test PostgreSQL database, migrated once for the session."""
    from app.main import migrate

    migrate(POSTGRES_URL)
    yield POSTGRES_URL


_BACKENDS: list[str] = []


def _backends_cached() -> list[str]:
    if not _BACKENDS:
        _BACKENDS.extend(_backends())
    return _BACKENDS


@pytest.fixture(params=_backends_cached())
def db_url(request, tmp_path) -> str:
    """A database URL with an empty, migrated schema: a new SQLite file, or PostgreSQL truncated."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}"
    url = request.getfixturevalue("postgres_url")
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as c:
        # A connection left open by an earlier test (a server process never stopped, a session
        # idle in a transaction) would make TRUNCATE wait for ever: fail naming it instead.
        c.execute("SET lock_timeout = '60s'")
        try:
            c.execute(f"TRUNCATE {TABLES} CASCADE")
        except psycopg.errors.LockNotAvailable:
            others = c.execute(
                "SELECT pid, state, application_name, client_port, left(query, 120) FROM "
                "pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
            pytest.fail(
                "TRUNCATE of the test tables waited 60 s for locks held by other "
                "connections (an earlier test left them open): " + "; ".join(map(str, others)),
                pytrace=False,
            )
    return url


@pytest.fixture
def settings(db_url):
    """Settings for a test app: no bot delay, the test game registered, limits raised (tests
    create players and rooms far faster than people; tests/api/test_limits.py checks them)."""
    from app.config import Settings

    # The bot watchdog's periodic pass is a background query; tests that count queries must not
    # see it, and tests of the watchdog call `platform.bots.check()` themselves.
    # CIVITAS_TEST_GAME_SEED replays a failing test's games with the seed its report printed.
    # The collector's freezes (tests/ops/test_collector.py tests them) would freeze the whole
    # test process, earlier tests' garbage included, for apps that never live to thaw it.
    return Settings(
        database_url=db_url,
        bot_delay_ms=0,
        heartbeat_seconds=30,
        limits_scale=1000,
        extra_rulesets="tests.support.testgame:TEST_GAME",
        broker_url="memory://",
        bot_watchdog_seconds=3600,
        game_seed=GAME_SEED,
        gc_freeze_seconds=0,
    )


@pytest.fixture
def client(settings):
    """A running app."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def unique() -> str:
    """A short random string for names."""
    return secrets.token_hex(3)


# -- a test that leaves tasks deaf to cancellation fails, naming them, instead of hanging ----------

# asyncio.run() and Runner.close() (which the TestClient's loop thread uses too) cancel the tasks
# still pending when a loop ends and wait for all of them without a limit: one task that ignores
# its cancellation (or awaits something that never ends, in a finally or behind a shield) used to
# hang the run until pytest-timeout stopped it, 180 s later, naming no task.
CANCEL_GRACE_SECONDS = float(os.environ.get("CIVITAS_TEST_CANCEL_GRACE", "30"))


class TasksIgnoredCancellation(RuntimeError):
    """Tasks still pending after being cancelled when their event loop was shut down."""


def _describe(task: asyncio.Task) -> str:
    out = io.StringIO()
    task.print_stack(file=out)
    waiter = getattr(task, "_fut_waiter", None)
    return f"{task!r}\n  waiting on {waiter!r}\n{out.getvalue()}"


def _cancel_all_tasks_bounded(loop: asyncio.AbstractEventLoop) -> None:
    """asyncio.runners._cancel_all_tasks, but giving up after CANCEL_GRACE_SECONDS with an error
    that shows every task still pending and where it waits."""
    to_cancel = asyncio.all_tasks(loop)
    if not to_cancel:
        return
    for task in to_cancel:
        task.cancel()
    _done, pending = loop.run_until_complete(asyncio.wait(to_cancel, timeout=CANCEL_GRACE_SECONDS))
    for task in to_cancel - pending:
        if not task.cancelled() and task.exception() is not None:
            loop.call_exception_handler(
                {
                    "message": "unhandled exception during asyncio.run() shutdown",
                    "exception": task.exception(),
                    "task": task,
                }
            )
    if pending:
        # Name every unfinished task, those started during the cancellation too (a shielded
        # cleanup, say, that the cancelled task waits for).
        stuck = [t for t in asyncio.all_tasks(loop) if not t.done()]
        raise TasksIgnoredCancellation(
            f"{len(pending)} task(s) still pending {CANCEL_GRACE_SECONDS:g} s after being cancelled "
            f"at the end of an event loop (thread {threading.current_thread().name}); "
            f"unfinished tasks:\n\n" + "\n".join(_describe(t) for t in stuck)
        )


@pytest.fixture(autouse=True, scope="session")
def _bounded_task_cancellation():
    """Install _cancel_all_tasks_bounded for the session (Runner.close looks it up by name)."""
    original = asyncio.runners._cancel_all_tasks
    asyncio.runners._cancel_all_tasks = _cancel_all_tasks_bounded
    yield
    asyncio.runners._cancel_all_tasks = original


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """After a module's last test (its module fixtures gone), no event loop may still run in the
    main thread: one left running (a sync Playwright never stopped, say) would make every later
    asyncio.run() fail with "cannot be called from a running event loop"."""
    result = yield
    module = getattr(item, "module", None)
    if nextitem is None or getattr(nextitem, "module", None) is not module:
        loop = asyncio.events._get_running_loop()
        if loop is not None:
            raise RuntimeError(
                f"{item.nodeid.split('::')[0]} left an event loop running in the main "
                f"thread after its fixtures were torn down: {loop!r}"
            )
    return result


# -- every game a test starts prints its seed when the test fails --------------------------------


@pytest.fixture(autouse=True)
def _record_game_seeds(request, monkeypatch):
    """Note the seed of every game the test starts in-process (see pytest_runtest_makereport)."""
    from app.services.games import GameService

    from tests.support import seeds

    started: list[tuple[str, str, str]] = []
    request.node.civitas_games = started
    request.node.civitas_seed_marks = seeds.marks()  # servers in other processes: see below
    create = GameService.create

    async def recording(self, session, room, players, *args, **kwargs):
        game = await create(self, session, room, players, *args, **kwargs)
        started.append((game.id, game.ruleset, game.seed))
        return game

    monkeypatch.setattr(GameService, "create", recording)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report lists its games' seeds and how to replay them."""
    outcome = yield
    report = outcome.get_result()
    if report.failed:
        section = seed_section(item)
        if section:
            report.sections.append(("games started (seeds)", section))


def seed_section(item) -> str:
    """The games a test started, in-process and in its server processes, with their seeds."""
    from tests.support import seeds

    games = list(getattr(item, "civitas_games", None) or [])
    marks = getattr(item, "civitas_seed_marks", None)
    served = seeds.started_since(marks) if marks is not None else []
    if not games and not served:
        return ""
    lines = [f"game {gid} ({ruleset}) seed {seed}" for gid, ruleset, seed in games]
    lines += [f"game {gid} ({ruleset}) seed {seed}, in a server process" for gid, ruleset, seed in served]
    lines.append(f"replay with CIVITAS_TEST_GAME_SEED={(games or served)[-1][2]}")
    return "\n".join(lines)


# -- without PostgreSQL or Redis, say so loudly, in one line naming what did not run -------------


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter):
    """One loud line: the tests skipped for want of PostgreSQL or Redis (and the PostgreSQL
    variants never generated), so a green run on SQLite alone is not mistaken for a full one."""
    skipped = []
    for report in terminalreporter.stats.get("skipped", []):
        reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
        if any(word in reason for word in ("POSTGRES", "PostgreSQL", "Redis", "REDIS")):
            skipped.append(report.nodeid.split("::")[-1])
    missing = [] if "postgres" in _backends_cached() else ["PostgreSQL"]
    if not skipped and not missing:
        return
    if any("Redis" in str(r.longrepr) for r in terminalreporter.stats.get("skipped", [])):
        missing.append("Redis")
    what = " and ".join(missing) or "PostgreSQL or Redis"
    parts = []
    if skipped:
        parts.append(f"{len(skipped)} tests skipped ({', '.join(sorted(set(skipped)))})")
    if "PostgreSQL" in missing:
        parts.append("every [postgres] variant of the database tests was not generated")
    terminalreporter.write_line(
        f"NOT RUN for want of {what}: {'; '.join(parts)}. Run .ci/run (or make test with "
        "CIVITAS_TEST_POSTGRES_URL and CIVITAS_TEST_REDIS_URL).",
        red=True,
        bold=True,
    )
