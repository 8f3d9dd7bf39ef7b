"""The bot worker pool (app/services/bot_pool.py): decisions made in other processes, from JSON,
with a deadline; a worker that misses it, dies or hangs is replaced, and the pool goes on."""

from __future__ import annotations

import asyncio
import os
import time

import pytest

from app.engine.rng import Rng
from app.services.bot_pool import BotPool, BotPoolError, default_size
from tests.support.pool_games import CRASH_GAME, LAST_GAME, SLEEPY_GAME, SPEC

RULESETS = f"tests.support.testgame:TEST_GAME,{SPEC}"


def _request(ruleset, seat: int = 0, level: str = "normal") -> dict:
    state = ruleset.setup(2, ruleset.Options(), 7)
    return {
        "ruleset": ruleset.id,
        "players": 2,
        "options": {},
        "state": state,
        "seat": seat,
        "level": level,
        "seed": Rng.from_seed(7, "bot", 0, seat).state,
        "budget": 0.0,
    }


def _run(scenario):
    async def main():
        pool = BotPool(1, RULESETS, queue_seconds=5)
        try:
            return await scenario(pool)
        finally:
            await pool.aclose()

    return asyncio.run(main())


def test_a_decision_is_made_in_another_process_from_the_state_as_json():
    """The ruleset's bot runs in a worker process (not this one), on the state sent as JSON, and
    its answer is the move it chose; the worker stays for the next decision."""

    async def scenario(pool):
        first = await pool.choose(_request(LAST_GAME), deadline=30)
        second = await pool.choose(_request(LAST_GAME, seat=1), deadline=30)
        return first, second, pool.pids()

    first, second, pids = _run(scenario)
    state = LAST_GAME.setup(2, LAST_GAME.Options(), 7)
    assert first.move == LAST_GAME.legal_moves(state, 0)[-1]
    assert second.move == LAST_GAME.legal_moves(state, 1)[-1]
    assert first.pid != os.getpid() and first.pid == second.pid and pids == [first.pid]


def test_a_worker_that_misses_the_deadline_is_replaced():
    """A decision past its deadline fails with reason "deadline" soon after it (the worker is
    killed, not waited for), and the next decision gets a new worker."""

    async def scenario(pool):
        warm = await pool.choose(_request(LAST_GAME), deadline=30)
        start = time.monotonic()
        with pytest.raises(BotPoolError) as missed:
            await pool.choose(_request(SLEEPY_GAME), deadline=0.3)
        waited = time.monotonic() - start
        after = await pool.choose(_request(LAST_GAME), deadline=30)
        return warm.pid, missed.value.reason, waited, after.pid

    first_pid, reason, waited, new_pid = _run(scenario)
    assert reason == "deadline" and waited < 10  # the sleepy bot sleeps 60 s
    assert new_pid != first_pid


def test_a_worker_that_dies_is_replaced():
    """A worker that exits mid-decision fails that decision with reason "crash"; the next
    decision gets a new worker."""

    async def scenario(pool):
        warm = await pool.choose(_request(LAST_GAME), deadline=30)
        with pytest.raises(BotPoolError) as crashed:
            await pool.choose(_request(CRASH_GAME), deadline=30)
        after = await pool.choose(_request(LAST_GAME), deadline=30)
        return warm.pid, crashed.value.reason, after.pid

    first_pid, reason, new_pid = _run(scenario)
    assert reason == "crash" and new_pid != first_pid


def test_a_chooser_that_raises_is_an_answer_and_the_worker_stays():
    """An error inside the worker (a ruleset it lacks, a bot that raises past the heuristic's
    own fallback) comes back as reason "error"; the same worker answers the next decision."""

    async def scenario(pool):
        warm = await pool.choose(_request(LAST_GAME), deadline=30)
        with pytest.raises(BotPoolError) as failed:
            await pool.choose({**_request(LAST_GAME), "ruleset": "nosuchgame"}, deadline=30)
        after = await pool.choose(_request(LAST_GAME), deadline=30)
        return warm.pid, failed.value, after.pid

    first_pid, error, new_pid = _run(scenario)
    assert error.reason == "error" and "nosuchgame" in str(error) and new_pid == first_pid


def test_a_decision_that_finds_no_free_worker_in_time_fails_busy():
    """With the only worker busy (a bot that thinks for a minute, within its deadline), a
    decision that cannot be taken within `queue_seconds` and then answered within its deadline
    fails with reason "busy" instead of waiting on."""

    async def scenario(pool):
        await pool.choose(_request(LAST_GAME), deadline=30)  # the worker is up
        pool.queue_seconds = 0.2
        slow = asyncio.create_task(pool.choose(_request(SLEEPY_GAME), deadline=120))
        await asyncio.sleep(0.05)
        with pytest.raises(BotPoolError) as waited:
            await pool.choose(_request(LAST_GAME), deadline=0.5)
        slow.cancel()
        return waited.value.reason

    assert _run(scenario) == "busy"


def test_the_first_decisions_wait_for_the_workers_to_start():
    """Waiting for a worker's start is not waiting for a busy worker: a decision asked before
    any worker is up gets its answer even when the start takes longer than `queue_seconds`."""

    async def scenario(pool):
        pool.queue_seconds = 0.01  # far less than any process start
        return await pool.choose(_request(LAST_GAME), deadline=30)

    assert _run(scenario).move is not None


def test_closing_the_pool_stops_its_workers():
    """aclose ends every worker process, and a decision asked afterwards fails "closed"."""

    async def main():
        pool = BotPool(2, RULESETS)
        await asyncio.gather(
            pool.choose(_request(LAST_GAME), deadline=30),
            pool.choose(_request(LAST_GAME, seat=1), deadline=30),
        )
        procs = list(pool._procs.values())
        await pool.aclose()
        with pytest.raises(BotPoolError) as closed:
            await pool.choose(_request(LAST_GAME), deadline=30)
        return procs, closed.value.reason

    procs, reason = asyncio.run(main())
    assert len(procs) == 2 and all(p.returncode is not None for p in procs)
    assert reason == "closed"


def test_the_pool_leaves_one_core_to_the_event_loop():
    """Sized from the cores: one per core less one, and at least one."""
    assert [default_size(n) for n in (1, 2, 4, 16)] == [1, 1, 3, 15]


def test_a_request_names_the_seats_level_and_never_carries_the_games_seed():
    """What a worker is sent: the seat's level when its bot names one this server has (else the
    default level; after a refused choice, the random level), the state, and a seed derived
    from the game's seed, version and seat; the game's seed itself appears nowhere in it."""
    from app.engine import choosers
    from app.services.bot_pool import encode
    from app.services.bots import bot_request
    from app.services.live import LiveGame
    from tests.support.testgame import TEST_GAME

    seed = 123456789012345
    state = TEST_GAME.setup(2, TEST_GAME.Options(), seed)
    live = LiveGame(
        id="g",
        room_id="r",
        ruleset=TEST_GAME,
        players=2,
        options={},
        seed=seed,
        seed_hash="h",
        version=0,
        state=state,
        to_act_at=[[0, 1]],
        movers=[],
        seats={0: {"player_id": None, "bot": "Bot"}, 1: {"player_id": None, "bot": "test-level"}},
    )
    choosers.register("test-level", choosers.random_legal, budget=0.5)
    try:
        default, named, fallback = bot_request(live, 0, 0), bot_request(live, 1, 0), bot_request(live, 1, 1)
    finally:
        del choosers.LEVELS["test-level"]
    assert (default["level"], named["level"], fallback["level"]) == ("normal", "test-level", "random")
    assert named["budget"] == 0.5 and default["state"] is state
    assert len({default["seed"], named["seed"], fallback["seed"]}) == 3
    for request in (default, named, fallback):
        assert str(seed) not in encode(request).decode()


def test_a_request_is_json_a_worker_reads_back_whatever_the_state_holds():
    """Integer keys arrive as strings (as a stored snapshot has them) and integers beyond 64
    bits arrive whole, as integers: the two cases orjson's fast path refuses."""
    from app.bot_worker import parse
    from app.services.bot_pool import encode

    assert parse(encode({"state": {1: "a", "b": [2]}})) == {"state": {"1": "a", "b": [2]}}
    big = parse(encode({"state": {"big": (1 << 70) + 1}}))["state"]["big"]
    assert big == (1 << 70) + 1 and isinstance(big, int)
