"""Bot seats: the server plays the ruleset's own bot, falls back to a random legal move when that
fails, resumes after a restart, restarts stalled games (watchdog), and one instance drives a
game's bots at a time (a lease)."""

from __future__ import annotations

import os

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.observability.metrics import BOT_FALLBACKS
from tests.support.services import REDIS_URL, needs_redis
from tests.support.api import doc, play_to_end, started_game
from tests.support.pool_games import LAST_GAME, SPEC
from tests.support.testgame import TEST_GAME
from tests.support.wait import wait_for


@pytest.fixture
def pool_settings(settings):
    """Settings whose bot workers (and server) know the misbehaving bots of pool_games."""
    return settings.model_copy(update={"extra_rulesets": f"{settings.extra_rulesets},{SPEC}"})


def _replay_bot_moves(log: dict, ruleset) -> int:
    """Check every bot move (seats past 0) in a finished game's log was the last legal move;
    how many there were."""
    state = ruleset.setup(log["players"], ruleset.Options.model_validate(log["options"]), int(log["seed"]))
    bot_moves = 0
    for entry in log["moves"]:
        if entry["seat"] != 0:
            assert entry["move"] == ruleset.legal_moves(state, entry["seat"])[-1], entry
            bot_moves += 1
        state = ruleset.apply(state, entry["seat"], entry["move"])
    return bot_moves


def test_the_server_plays_the_rulesets_own_bot_in_a_worker_process(pool_settings):
    """Bots: a bot seat plays what the ruleset's bot_move chooses (here: always the last legal
    move, which random play would rarely match every time), chosen in a worker process of the
    bot pool, never in the server's own."""
    with TestClient(create_app(pool_settings)) as client:
        pool = client.app.state.platform.bot_pool
        choose, decisions = pool.choose, []

        async def recorded(request, deadline):
            decision = await choose(request, deadline)
            decisions.append(decision)
            return decision

        pool.choose = recorded
        game_id, humans = started_game(client, seats=3, bots=2, options={"rounds": 3}, ruleset="lastgame")
        play_to_end(client, game_id, humans)
        log = client.get(f"/api/games/{game_id}/log").json()
        bot_moves = _replay_bot_moves(log, LAST_GAME)
        assert bot_moves >= 6 and len(decisions) >= bot_moves
        assert {d.pid for d in decisions} <= set(pool.pids()) and os.getpid() not in {
            d.pid for d in decisions
        }


def test_bots_choose_on_the_event_loop_when_asked_to_have_no_workers(settings, monkeypatch):
    """Bots: with CIVITAS_BOT_WORKERS=0 the ruleset's bot runs in the server's own process (so a
    test may patch it there); no worker is started."""
    monkeypatch.setattr(
        TEST_GAME, "bot_move", lambda state, seat, rng: TEST_GAME.legal_moves(state, seat)[-1], raising=False
    )
    with TestClient(create_app(settings.model_copy(update={"bot_workers": 0}))) as client:
        assert client.app.state.platform.bot_pool is None
        game_id, humans = started_game(client, seats=3, bots=2, options={"rounds": 2})
        play_to_end(client, game_id, humans)
        assert _replay_bot_moves(client.get(f"/api/games/{game_id}/log").json(), TEST_GAME) >= 4


@pytest.mark.parametrize(
    "ruleset, reason",
    [("illegalgame", None), ("raisinggame", None), ("sleepygame", "deadline"), ("crashgame", "crash")],
)
def test_a_bot_that_fails_still_moves(pool_settings, ruleset, reason):
    """Bots: a ruleset bot that answers an illegal move, raises, thinks past its deadline or
    kills its worker never stalls the game: the server plays a random legal move instead and
    the game ends. A missed deadline or a crash is counted by reason on /metrics, and the
    worker is replaced."""
    settings = pool_settings.model_copy(update={"bot_deadline_seconds": 0.3})
    before = BOT_FALLBACKS.values.get((("reason", reason),), 0)
    with TestClient(create_app(settings)) as client:
        game_id, humans = started_game(client, seats=2, bots=1, options={"rounds": 1}, ruleset=ruleset)
        assert play_to_end(client, game_id, humans, timeout=60)["status"] == "finished"
        if reason is not None:
            assert BOT_FALLBACKS.values.get((("reason", reason),), 0) > before
            assert f'civitas_bot_fallbacks_total{{reason="{reason}"}}' in client.get("/metrics").text


def test_bots_resume_after_a_restart(settings):
    """Bots: a game whose bot seat is due when the server stops is played on by the next server,
    with no move from anyone to wake it."""
    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as first:
        first.app.state.platform.bots.kick = lambda game_id: None  # the bot never gets to move
        game_id, (a,) = started_game(first, seats=2, bots=1, options={"rounds": 1})
        r = first.post(
            f"/api/games/{game_id}/moves",
            headers=a["headers"],
            json={"version": 0, "move": {"type": "bid", "card": doc(first, game_id, a)["view"]["hand"][0]}},
        )
        assert r.status_code == 200
        assert doc(first, game_id)["to_act"] == [1]
    with TestClient(create_app(settings)) as second:
        wait_for(lambda: doc(second, game_id)["version"] >= 2)


def test_the_watchdog_restarts_a_stalled_bot_seat(client):
    """Bots: when only a bot seat is due and nothing drives it (here its kick was lost), one
    watchdog pass starts it again."""
    platform = client.app.state.platform
    kick = platform.bots.kick
    platform.bots.kick = lambda game_id: None
    game_id, (a,) = started_game(client, seats=2, bots=1, options={"rounds": 1})
    hand = doc(client, game_id, a)["view"]["hand"]
    client.post(
        f"/api/games/{game_id}/moves",
        headers=a["headers"],
        json={"version": 0, "move": {"type": "bid", "card": hand[0]}},
    )
    assert doc(client, game_id)["version"] == 1
    platform.bots.kick = kick
    assert client.portal.call(platform.bots.check) == [game_id]
    wait_for(lambda: doc(client, game_id)["version"] >= 2)


def test_the_host_leaving_right_after_the_start_never_strands_the_game(settings):
    """Bots (issue 12, item 4): the host leaves at once after starting a bot game; the bot that
    takes the seat plays the whole game (no watchdog: the cause itself is fixed)."""
    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as client:
        for _ in range(5):
            game_id, (host,) = started_game(client, seats=2, bots=1, options={"rounds": 1})
            room_id = doc(client, game_id)["room_id"]
            assert client.post(f"/api/rooms/{room_id}/leave", headers=host["headers"]).status_code == 204
            wait_for(lambda game_id=game_id: doc(client, game_id)["status"] == "finished")


def test_one_instance_holds_a_games_bot_lease_until_it_runs_out(settings):
    """Bots: exactly one driver per game across instances; a second owner cannot take a live
    lease, the holder renews it, and anyone may take it once it has run out or was released."""
    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as client:
        client.app.state.platform.bots.kick = lambda game_id: None  # this app's runner stays out
        _lease_scenario(client)


def _lease_scenario(client):
    games = client.app.state.platform.games
    game_id, _ = started_game(client, seats=2, bots=1)

    async def scenario():
        results = [
            await games.lease_bots(game_id, "one", 30),
            await games.lease_bots(game_id, "two", 30),
            await games.lease_bots(game_id, "one", 30),
        ]
        waiting_for_two = await games.games_waiting_on_bots("two")
        await games.lease_bots(game_id, "one", -1)  # renewed into the past: it has run out
        results.append(await games.lease_bots(game_id, "two", 30))
        await games.release_bots([game_id], "two")
        results.append(await games.lease_bots(game_id, "one", 30))
        return results, waiting_for_two

    results, waiting = client.portal.call(scenario)
    assert results == [True, False, True, True, True]
    assert game_id not in waiting  # another instance holds a live lease: not stalled


@needs_redis
def test_a_clean_shutdown_hands_the_bot_lease_to_another_instance_at_once(settings):
    """Bots: instance one drives a game's bot (slowly: it holds the lease through a long delay)
    and stops cleanly; instance two, hearing it through Redis, drives the bot at once. Neither
    the watchdog (once an hour here) nor the lease running out (an hour too) can be the path."""
    url = REDIS_URL
    shared = settings.model_copy(
        update={"broker_url": url, "bot_watchdog_seconds": 3600, "bot_lease_seconds": 3600}
    )
    with TestClient(create_app(shared)) as two:
        one = TestClient(create_app(shared.model_copy(update={"bot_delay_ms": 3_600_000})))
        with one:
            game_id, (a,) = started_game(one, seats=2, bots=1, options={"rounds": 1})
            assert 1 in doc(one, game_id)["to_act"]  # the bot is due from the start (bids)
            wait_for(lambda: one.app.state.platform.bots.holds(game_id))
            assert not two.app.state.platform.bots.holds(game_id)
        # One has stopped: its lease is released and two took over without waiting (nobody
        # else moves: the human never bids, so version 1 is the bot's bid).
        wait_for(lambda: doc(two, game_id)["version"] >= 1)
        assert 1 not in doc(two, game_id)["to_act"]


def test_a_second_instance_does_not_drive_a_bot_another_instance_holds(settings):
    """Bots: exactly one driver per game across instances. Instance one holds the game's bot
    lease (its bot waits an hour before moving); instance two, kicked for the same game, finds
    the lease taken and plays nothing: its runner ends with the game still at version 0."""
    shared = settings.model_copy(update={"bot_watchdog_seconds": 3600, "bot_lease_seconds": 3600})
    slow = shared.model_copy(update={"bot_delay_ms": 3_600_000})
    with TestClient(create_app(slow)) as one, TestClient(create_app(shared)) as two:
        game_id, _ = started_game(one, seats=2, bots=1, options={"rounds": 1})
        assert 1 in doc(one, game_id)["to_act"]  # the bot is due from the start (bids)
        wait_for(lambda: one.app.state.platform.bots.holds(game_id))
        bots = two.app.state.platform.bots

        async def kick():
            bots.kick(game_id)
            return bots._tasks[game_id]

        task = two.portal.call(kick)
        wait_for(task.done)
        assert doc(two, game_id)["version"] == 0 and not bots.holds(game_id)
