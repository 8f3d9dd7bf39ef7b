"""Cleanup (issue 12): rooms never started expire; long-idle games end as abandoned and stay
readable; fresh rooms and games are left alone."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine, text

from app.config import sync_url
from tests.support.api import doc, legal, new_player, new_room, play_first_legal, started_game


def _backdate(settings, statements):
    engine = create_engine(sync_url(settings.database_url))
    old = datetime.now(timezone.utc) - timedelta(days=30)
    with engine.begin() as conn:
        for statement, params in statements:
            conn.execute(text(statement), {**params, "old": old})
    engine.dispose()


def test_old_unstarted_rooms_expire_and_idle_games_end(client, settings):
    """A room waiting 30 days is removed (lobby and GET); a game idle 30 days ends: its moves
    are refused with a sentence, its document and log stay readable, its room is finished.
    A new room and a game just played are untouched."""
    ann = new_player(client)
    old_room, fresh_room = new_room(client, ann), new_room(client, ann)
    idle_game, (a, b) = started_game(client)
    play_first_legal(client, idle_game, a)
    busy_game, _ = started_game(client)
    idle_room = doc(client, idle_game)["room_id"]
    player = a if legal(client, idle_game, a)["moves"] else b
    move = legal(client, idle_game, player)  # before the end: an ended game lists no moves
    _backdate(
        settings,
        [
            ("UPDATE rooms SET created_at = :old WHERE id = :r", {"r": old_room["id"]}),
            ("UPDATE games SET created_at = :old WHERE id = :g", {"g": idle_game}),
            ("UPDATE moves SET created_at = :old WHERE game_id = :g", {"g": idle_game}),
        ],
    )
    platform = client.app.state.platform
    swept = client.portal.call(platform.cleanup.sweep)
    assert swept == {"rooms": [old_room["id"]], "games": [idle_game], "held": []}
    assert [r["id"] for r in client.get("/api/rooms").json()] == [fresh_room["id"]]
    assert client.get(f"/api/rooms/{old_room['id']}").status_code == 404
    r = client.post(
        f"/api/games/{idle_game}/moves",
        headers=player["headers"],
        json={"version": move["version"], "move": move["moves"][0]},
    )
    assert r.status_code == 409 and "abandoned" in r.json()["detail"]
    assert doc(client, idle_game)["version"] == 1
    assert client.get(f"/api/games/{idle_game}/log").status_code == 200
    assert client.get(f"/api/rooms/{idle_room}").json()["status"] == "finished"
    assert client.portal.call(platform.cleanup.sweep) == {"rooms": [], "games": [], "held": []}
    assert doc(client, busy_game)["status"] == "active"


def test_an_abandoned_game_says_it_ended_and_why_everywhere(settings):
    """After cleanup ends an idle game, its document says finished (nobody to act, no result)
    with `ended.reason` "abandoned"; an open socket gets that document as a snapshot; legal
    moves are empty; the room (alone and in the player's list) says finished. A second instance
    that still held the game in memory refuses a move on it (the database's status guards every
    move) and stores nothing."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as client, TestClient(create_app(settings)) as other:
        idle_game, (a, b) = started_game(client)
        play_first_legal(client, idle_game, a)
        player = a if legal(client, idle_game, a)["moves"] else b
        move = legal(other, idle_game, player)  # the other instance now holds the game too
        assert doc(client, idle_game)["status"] == "active" and "ended" not in doc(client, idle_game)
        room_id = doc(client, idle_game)["room_id"]
        _backdate(
            settings,
            [
                ("UPDATE games SET created_at = :old WHERE id = :g", {"g": idle_game}),
                ("UPDATE moves SET created_at = :old WHERE game_id = :g", {"g": idle_game}),
            ],
        )
        with client.websocket_connect(
            f"/ws/games/{idle_game}", subprotocols=["civitas", f"bearer.{a['token']}"]
        ) as ws:
            assert ws.receive_json()["game"]["status"] == "active"
            platform = client.app.state.platform
            assert client.portal.call(platform.cleanup.sweep)["games"] == [idle_game]
            frame = ws.receive_json()
            while frame["type"] != "snapshot":
                frame = ws.receive_json()
            pushed = frame["game"]
        for seen in (pushed, doc(client, idle_game, a), doc(client, idle_game)):
            assert seen["status"] == "finished" and seen["to_act"] == [] and seen["outcome"] is None
            assert seen["ended"]["reason"] == "abandoned" and seen["ended"]["detail"]
            assert seen["version"] == 1
        assert legal(client, idle_game, player)["moves"] == []
        assert client.get(f"/api/rooms/{room_id}").json()["status"] == "finished"
        mine = client.get("/api/players/me/rooms", headers=a["headers"]).json()
        assert [r["status"] for r in mine if r["id"] == room_id] == ["finished"]
        assert room_id not in [r["id"] for r in client.get("/api/rooms").json()]
        r = other.post(
            f"/api/games/{idle_game}/moves",
            headers=player["headers"],
            json={"version": move["version"], "move": move["moves"][0]},
        )
        assert r.status_code == 409 and "abandoned" in r.json()["detail"], r.text
        assert doc(client, idle_game)["version"] == 1


def test_idle_time_counts_from_the_last_move_not_from_the_start(client, settings):
    """Issue 26 item 8: a game started 30 days ago whose last move was a moment ago is in play,
    not idle. (A planted bug that counted idle time from the game's creation survived every
    earlier test, and then ended every game older than 72 hours mid-play.)"""
    game_id, (a, b) = started_game(client)
    _backdate(settings, [("UPDATE games SET created_at = :old WHERE id = :g", {"g": game_id})])
    play_first_legal(client, game_id, a)  # a fresh move, in a month-old game
    swept = client.portal.call(client.app.state.platform.cleanup.sweep)
    assert swept["games"] == [] and swept["held"] == []
    assert doc(client, game_id)["status"] == "active" and "ended" not in doc(client, game_id)
