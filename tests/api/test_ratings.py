"""Ratings as games end (issue 29): games between two accounts are rated, one human against bots
goes to the against-bots pool, a seat left to a bot counts last, and `python -m app.cli ratings
rebuild` gives exactly the ratings the server kept as the games ended."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

from sqlalchemy import select
from sqlalchemy.util import await_only

from app import cli
from app.db.models import RatedGame
from app.services import ratings as rating_service
from tests.support.api import doc, in_db, new_player, new_room, play_to_end
from tests.support.wait import wait_for


def _game(client, host, guest=None, bots=0):
    room = new_room(client, host, seats=(2 if guest else 1) + bots)
    if guest:
        assert (
            client.post(f"/api/rooms/{room['id']}/join", headers=guest["headers"], json={}).status_code == 200
        )
    for _ in range(bots):
        assert (
            client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={}).status_code == 200
        )
    r = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    return room["id"], r.json()["game_id"]


def _sync(client, fn):
    async def run(session):
        return await session.run_sync(fn)

    return in_db(client, run)


def test_ratings_follow_the_games_and_a_rebuild_gives_exactly_the_same(client, settings, capsys):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    for _ in range(3):
        _, game_id = _game(client, ann, bob)
        play_to_end(client, game_id, [ann, bob])
    _, against_bots = _game(client, ann, bots=1)
    play_to_end(client, against_bots, [ann])
    room_id, left = _game(client, ann, bob)
    assert client.post(f"/api/rooms/{room_id}/leave", headers=bob["headers"]).status_code == 204
    play_to_end(client, left, [ann])

    # A bot's final move is rated right after it is stored, as the page learns of it: wait.
    wait_for(lambda: len(in_db(client, _all)) == 5)
    rows = {r.game_id: r for r in in_db(client, _all)}
    assert rows[against_bots].pool == "bots" and rows[against_bots].lineup == [ann["id"]]
    assert rows[left].pool == "rated"
    # Bob's seat was the bot's for every move: he counts last, whatever the points said.
    assert rows[left].changes[bob["id"]]["after"] < rows[left].changes[bob["id"]]["before"]
    assert sum(r.pool == "rated" for r in rows.values()) == 4

    stored = _sync(client, rating_service.stored)
    assert {(p, pool) for p, _, pool in stored} == {
        (ann["id"], "rated"),
        (bob["id"], "rated"),
        (ann["id"], "bots"),
    }
    assert stored[(ann["id"], "testgame", "rated")][2] == 4
    assert _sync(client, rating_service.folded) == stored
    url = settings.database_url
    assert cli.main(["--database", url, "ratings", "check"]) == 0
    assert cli.main(["--database", url, "ratings", "rebuild"]) == 0
    assert "5 games rated" in capsys.readouterr().out
    assert _sync(client, rating_service.stored) == stored


def test_a_game_that_ended_before_one_already_rated_is_folded_in_its_true_order(client):
    """Incremental and rebuilt ratings agree even when games are recorded out of finish order."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    _, first = _game(client, ann, bob)
    _, second = _game(client, ann, bob)
    platform = client.app.state.platform
    rate = platform._rate
    platform.games.listeners.remove(rate)  # the first game's rating is recorded late
    play_to_end(client, first, [ann, bob])
    platform.games.listeners.append(rate)
    play_to_end(client, second, [ann, bob])
    wait_for(lambda: len(in_db(client, _all)) == 1)
    assert _sync(client, lambda s: rating_service.record(s, first)) == "rebuilt"
    assert _sync(client, lambda s: rating_service.record(s, first)) == "known"
    assert _sync(client, rating_service.folded) == _sync(client, rating_service.stored)


async def _all(session):
    return list((await session.execute(select(RatedGame))).scalars())


def test_games_that_ended_unrated_by_a_stopped_instance_are_caught_up(client):
    """A game whose final move's instance stopped before rating it is rated by the catch-up that
    runs at start; a game the ratings leave out (a seat with too few moves) is read once, not at
    every start."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    _, rated = _game(client, ann, bob)
    _, alone = _game(client, ann, bots=1)
    room = new_room(client, ann, options={"rounds": 1})
    client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={})
    short = client.post(f"/api/rooms/{room['id']}/start", headers=ann["headers"]).json()["game_id"]
    platform = client.app.state.platform
    platform.games.listeners.remove(platform._rate)
    for game_id, people in ((rated, [ann, bob]), (alone, [ann]), (short, [ann, bob])):
        play_to_end(client, game_id, people)
    assert _sync(client, rating_service.catch_up) == 3
    rows = {r.game_id: r.pool for r in in_db(client, _all)}
    assert rows == {rated: "rated", alone: "bots", short: "none"}
    assert _sync(client, rating_service.catch_up) == 0
    assert _sync(client, rating_service.folded) == _sync(client, rating_service.stored)
    before = _sync(client, rating_service.stored)
    _sync(client, rating_service.rebuild)
    assert {r.game_id: r.pool for r in in_db(client, _all)} == rows
    assert _sync(client, rating_service.stored) == before


def test_a_late_game_refolds_its_ruleset_outside_the_writers_turn_while_other_games_move(client, monkeypatch):
    """A game rated after one that ended later makes its ruleset fold again: the fold reads every
    game outside the turn the moves' writer shares (so moves of other games, played meanwhile,
    never wait for it), and only the write of the changed rows takes the turn. The result is
    exactly `ratings rebuild`'s."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    _, first = _game(client, ann, bob)
    _, second = _game(client, ann, bob)
    _, third = _game(client, ann, bob)
    platform = client.app.state.platform
    store = platform.games.store
    held = []  # writer turns being held right now
    calls = []  # (what ran, turns held while it ran)
    turn = store.turn

    @asynccontextmanager
    async def watched_turn():
        async with turn():
            held.append(1)
            try:
                yield
            finally:
                held.pop()

    monkeypatch.setattr(store, "turn", watched_turn)
    for name in ("game_result", "refold", "store_refold", "record_result"):
        real = getattr(rating_service, name)

        def spy(*args, _real=real, _name=name, **kwargs):
            calls.append((_name, len(held)))
            if _name == "refold":
                # Another game moves while the ruleset is read again, and the read waits for
                # that move to be stored: held in the writer's turn, it would wait 30 s.
                moves.append(await_only(asyncio.wait_for(_move_in_third(), 5)))
            return _real(*args, **kwargs)

        monkeypatch.setattr(rating_service, name, spy)

    async def _move_in_third():
        live = await platform.games.live(third)
        seat = live.ruleset.to_act(live.state)[0]
        move = live.ruleset.legal_moves(live.state, seat)[0]
        return await platform.games.submit(third, seat, live.version, move)

    moves = []
    rate = platform._rate
    platform.games.listeners.remove(rate)  # the first game's end is heard late
    play_to_end(client, first, [ann, bob])
    platform.games.listeners.append(rate)
    play_to_end(client, second, [ann, bob])
    wait_for(lambda: len(in_db(client, _all)) == 1)
    assert ("refold", 0) not in calls  # the second game was simply folded in
    platform.ratings.post(first)
    wait_for(lambda: len(in_db(client, _all)) == 2)

    # The games were read outside the turn; only the short writes took it.
    assert ("refold", 0) in calls and ("store_refold", 1) in calls
    assert all(n == 0 for name, n in calls if name in ("game_result", "refold"))
    assert all(n == 1 for name, n in calls if name in ("store_refold", "record_result"))
    assert moves == [doc(client, third)["version"]] == [1]
    assert _sync(client, rating_service.folded) == _sync(client, rating_service.stored)
    before = _sync(client, rating_service.stored)
    rows = {r.game_id: (r.pool, r.changes) for r in in_db(client, _all)}
    _sync(client, rating_service.rebuild)
    assert _sync(client, rating_service.stored) == before
    assert {r.game_id: (r.pool, r.changes) for r in in_db(client, _all)} == rows


def test_a_refold_read_before_another_game_ended_is_not_written(client):
    """The slow half of a refold reads the ruleset's finished games; if one more ends before the
    write, the write changes nothing and says so (the queue reads again), so a refold never
    drops a game rated meanwhile."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    _, first = _game(client, ann, bob)
    _, second = _game(client, ann, bob)
    play_to_end(client, first, [ann, bob])
    wait_for(lambda: len(in_db(client, _all)) == 1)
    stale = _sync(client, lambda s: rating_service.refold(s, "testgame"))
    assert stale.games == {first}
    play_to_end(client, second, [ann, bob])
    wait_for(lambda: len(in_db(client, _all)) == 2)
    before = _sync(client, rating_service.stored)
    assert _sync(client, lambda s: rating_service.store_refold(s, stale)) is False
    assert _sync(client, rating_service.stored) == before and len(in_db(client, _all)) == 2
    fresh = _sync(client, lambda s: rating_service.refold(s, "testgame"))
    assert _sync(client, lambda s: rating_service.store_refold(s, fresh)) is True
    assert _sync(client, rating_service.stored) == before == _sync(client, rating_service.folded)
