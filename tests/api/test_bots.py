"""Bot seats: the server plays the ruleset's own bot, falls back to a random legal move when that
fails, resumes after a restart, restarts stalled games (watchdog), and one instance drives a
game's bots at a time (a lease)."""

from __future__ import annotations


from fastapi.testclient import TestClient

from app.main import create_app
from tests.support.services import REDIS_URL, needs_redis
from tests.support.api import doc, play_to_end, started_game
from tests.support.testgame import TEST_GAME
from tests.support.wait import wait_for


def _last_legal(state, seat, rng):
    return TEST_GAME.legal_moves(state, seat)[-1]


def test_the_server_plays_the_rulesets_own_bot(client, monkeypatch):
    """Bots: a bot seat plays what the ruleset's bot_move chooses (here: always the last legal
    move, which random play would rarely match every time)."""
    calls = []

    def bot_move(state, seat, rng):
        calls.append(seat)
        return _last_legal(state, seat, rng)

    monkeypatch.setattr(TEST_GAME, "bot_move", bot_move, raising=False)
    game_id, humans = started_game(client, seats=3, bots=2, options={"rounds": 3})
    play_to_end(client, game_id, humans)
    log = client.get(f"/api/games/{game_id}/log").json()
    state = TEST_GAME.setup(log["players"], TEST_GAME.Options.model_validate(log["options"]),
                            int(log["seed"]))
    bot_moves = 0
    for entry in log["moves"]:
        if entry["seat"] != 0:
            assert entry["move"] == _last_legal(state, entry["seat"], None), entry
            bot_moves += 1
        state = TEST_GAME.apply(state, entry["seat"], entry["move"])
    assert bot_moves >= 6 and len(calls) >= bot_moves


def test_a_bot_whose_choice_is_refused_falls_back_to_a_random_legal_move(client, monkeypatch):
    """Bots: a ruleset bot that answers an illegal move (or raises) never stalls the game: the
    server plays a random legal move instead and the game ends."""
    monkeypatch.setattr(TEST_GAME, "bot_move",
                        lambda state, seat, rng: {"type": "bid", "card": "K999"}, raising=False)
    game_id, humans = started_game(client, seats=2, bots=1, options={"rounds": 2})
    assert play_to_end(client, game_id, humans)["status"] == "finished"
    monkeypatch.setattr(TEST_GAME, "bot_move", lambda state, seat, rng: 1 / 0, raising=False)
    game_id, humans = started_game(client, seats=2, bots=1, options={"rounds": 2})
    assert play_to_end(client, game_id, humans)["status"] == "finished"


def test_bots_resume_after_a_restart(settings):
    """Bots: a game whose bot seat is due when the server stops is played on by the next server,
    with no move from anyone to wake it."""
    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as first:
        first.app.state.platform.bots.kick = lambda game_id: None  # the bot never gets to move
        game_id, (a,) = started_game(first, seats=2, bots=1, options={"rounds": 1})
        r = first.post(f"/api/games/{game_id}/moves", headers=a["headers"],
                       json={"version": 0, "move": {"type": "bid", "card": doc(first, game_id, a)[
                           "view"]["hand"][0]}})
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
    client.post(f"/api/games/{game_id}/moves", headers=a["headers"],
                json={"version": 0, "move": {"type": "bid", "card": hand[0]}})
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
            assert client.post(f"/api/rooms/{room_id}/leave",
                               headers=host["headers"]).status_code == 204
            wait_for(lambda: doc(client, game_id)["status"] == "finished")


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
        results = [await games.lease_bots(game_id, "one", 30),
                   await games.lease_bots(game_id, "two", 30),
                   await games.lease_bots(game_id, "one", 30)]
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
    shared = settings.model_copy(update={"broker_url": url, "bot_watchdog_seconds": 3600,
                                         "bot_lease_seconds": 3600})
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
