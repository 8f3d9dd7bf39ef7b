"""Issue 27, turn-based play that waits: under a 'turn' pace the absence rule is off, only an
expired deadline applies the host's timeout policy (bot, skip, offer), a game is abandoned only
when no clock runs and it has been idle for max(72 h, 2 x move time + reserve), and vacation
pauses a player's clocks. Time is moved forward with the clocks' SKEW (a fake clock)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.services import clocks as clock_module
from tests.support.api import doc, new_player, play_first_legal
from tests.support.wait import wait_for


@pytest.fixture
def client(settings):
    """An app whose clocks and cleanup run only when a test calls them."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    quiet = settings.model_copy(update={"clock_sweep_seconds": 0, "cleanup_seconds": 0, "notify_seconds": 0})
    with TestClient(create_app(quiet)) as test_client:
        yield test_client


@pytest.fixture
def skew(monkeypatch):
    """Move the clocks' notion of now forward: skew(days=7)."""

    def move(**delta):
        monkeypatch.setattr(clock_module, "SKEW", timedelta(**delta))

    return move


def _turn_game(client, move_hours=24, timeout="bot", **more):
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    r = client.post(
        "/api/rooms",
        headers=a["headers"],
        json={
            "ruleset": "testgame",
            "seats": 2,
            "options": {},
            "pace": {"kind": "turn", "move_hours": move_hours, "timeout": timeout, **more},
        },
    )
    assert r.status_code == 201, r.text
    room = r.json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    return game_id, room["id"], a, b


def _seat(client, game_id, seat):
    table = client.get(f"/api/games/{game_id}/table").json()
    return next(s for s in table["seats"] if s["seat"] == seat)


def _sweep(client):
    return client.portal.call(client.app.state.platform.clocks.sweep)


def _cleanup(client):
    return client.portal.call(client.app.state.platform.cleanup.sweep)


def test_a_turn_paced_game_waits_seven_days_with_no_socket_open(client, skew):
    """Both players opened the game once and left. Seven days on (the absence grace is 90 s, the
    idle abandonment 72 h) no bot has moved and the game is not abandoned: a 10-day deadline is
    still ahead."""
    game_id, _room_id, a, b = _turn_game(client, move_hours=240)
    for player in (a, b):
        with client.websocket_connect(f"/ws/games/{game_id}?token={player['token']}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
    wait_for(
        lambda: (
            _seat(client, game_id, 0)["connected"] is False
            and _seat(client, game_id, 1)["connected"] is False
        )
    )
    version = doc(client, game_id)["version"]
    for days in (1, 3, 7):
        skew(days=days)
        assert _sweep(client) == []
        assert _cleanup(client)["games"] == []
    assert doc(client, game_id)["version"] == version and doc(client, game_id)["status"] == "active"
    for seat in (0, 1):
        info = _seat(client, game_id, seat)
        assert info["held"] is False and info["kind"] == "player", info


def test_the_pace_and_its_policy_show_on_the_room_and_table_before_anyone_sits(client):
    """The room document (lobby, room page) carries the pace, the timeout policy included."""
    game_id, _room_id, _a, _b = _turn_game(client, move_hours=48, timeout="skip", reserve_hours=12)
    pace = {"kind": "turn", "move_seconds": 48 * 3600, "reserve_seconds": 12 * 3600, "timeout": "skip"}
    assert client.get(f"/api/games/{game_id}/table").json()["pace"] == pace
    host = new_player(client, "Hal")
    r = client.post(
        "/api/rooms",
        headers=host["headers"],
        json={
            "ruleset": "testgame",
            "seats": 2,
            "options": {},
            "pace": {"kind": "turn", "move_hours": 24, "timeout": "offer"},
        },
    )
    listed = next(x for x in client.get("/api/rooms").json() if x["id"] == r.json()["id"])
    assert listed["pace"] == {"kind": "turn", "move_seconds": 86400, "reserve_seconds": 0, "timeout": "offer"}
    assert client.get(f"/api/rooms/{r.json()['id']}").json()["pace"] == listed["pace"]


@pytest.mark.parametrize(
    "pace, words",
    [
        ({"kind": "turn", "move_hours": 24, "timeout": "nap"}, "timeout"),
        ({"kind": "realtime", "move_minutes": 5, "reserve_minutes": 0, "timeout": "skip"}, "turn"),
        ({"kind": "turn", "move_hours": 24, "reserve_hours": -1}, "reserve_hours"),
    ],
)
def test_bad_timeout_policies_are_refused_with_a_sentence(client, pace, words):
    host = new_player(client, "Hal")
    r = client.post(
        "/api/rooms",
        headers=host["headers"],
        json={"ruleset": "testgame", "seats": 2, "options": {}, "pace": pace},
    )
    assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert client.get("/api/players/me/rooms", headers=host["headers"]).json() == []


def _expire_anns_turn(client, skew, game_id, b, hours):
    """Bob bids, so only Ann (seat 0) is asked to act; then her deadline passes."""
    play_first_legal(client, game_id, b)
    assert doc(client, game_id)["to_act"] == [0]
    skew(hours=hours)
    return doc(client, game_id)["version"]


def test_timeout_bot_plays_the_seat_until_its_player_returns(client, skew):
    game_id, room_id, a, b = _turn_game(client, timeout="bot")
    version = _expire_anns_turn(client, skew, game_id, b, 25)
    assert _sweep(client) == [(game_id, room_id)]
    assert _seat(client, game_id, 0)["held"] is True
    wait_for(lambda: doc(client, game_id)["version"] > version)  # the bot bid for Ann
    # Unlike 'skip', the hold outlives the turn: the bot keeps the seat until Ann is back.
    wait_for(lambda: 1 in doc(client, game_id)["to_act"] or doc(client, game_id)["status"] != "active")
    assert _seat(client, game_id, 0)["kind"] == "held"
    r = client.post(f"/api/games/{game_id}/reclaim", headers=a["headers"])
    assert r.status_code == 200 and r.json()["seats"][0]["kind"] == "player"


def test_timeout_skip_plays_one_move_and_gives_the_seat_back(client, skew):
    game_id, room_id, a, b = _turn_game(client, timeout="skip")
    version = _expire_anns_turn(client, skew, game_id, b, 25)
    assert _sweep(client) == [(game_id, room_id)]
    wait_for(lambda: doc(client, game_id)["version"] > version)
    wait_for(lambda: _seat(client, game_id, 0)["kind"] == "player")
    seat = _seat(client, game_id, 0)
    assert seat["held"] is False and seat["name"] == "Ann"
    if 0 in doc(client, game_id)["to_act"]:  # asked again: a fresh 24 h from the skewed now
        left = datetime.fromisoformat(seat["clock"]["deadline"]) - clock_module.now()
        assert timedelta(hours=23) < left <= timedelta(hours=24)
    wait_for(lambda: 0 in doc(client, game_id)["to_act"] or doc(client, game_id)["status"] != "active")
    if doc(client, game_id)["status"] == "active":
        assert doc(client, game_id, a)["seat"] == 0
        play_first_legal(client, game_id, a)  # Ann plays her own seat again


def test_timeout_offer_hands_the_seat_to_whoever_takes_it(client, skew):
    game_id, room_id, a, b = _turn_game(client, timeout="offer")
    _expire_anns_turn(client, skew, game_id, b, 25)
    assert _sweep(client) == [(game_id, room_id)]
    seat = _seat(client, game_id, 0)
    assert seat["offered"] is True and seat["kind"] == "bot" and seat["held"] is False
    assert doc(client, game_id, a).get("seat") is None  # Ann lost it
    r = client.post(f"/api/games/{game_id}/seats/0/take", headers=b["headers"])
    assert r.status_code == 409 and "already sit" in r.json()["detail"]
    cy, dee = new_player(client, "Cy"), new_player(client, "Dee")
    r = client.post(f"/api/games/{game_id}/seats/0/take", headers=cy["headers"])
    assert r.status_code == 200, r.text
    taken = next(s for s in r.json()["seats"] if s["seat"] == 0)
    assert taken["name"] == "Cy" and taken["kind"] == "player" and taken["offered"] is False
    r = client.post(f"/api/games/{game_id}/seats/0/take", headers=dee["headers"])
    assert r.status_code == 409 and "not offered" in r.json()["detail"]
    r = client.post(f"/api/games/{game_id}/seats/1/take", headers=dee["headers"])
    assert r.status_code == 409
    assert doc(client, game_id, cy)["seat"] == 0


def test_abandonment_waits_for_twice_the_move_time_and_every_clock(client, skew):
    """A 100-hour move: at 150 h every clock has run out (nobody swept it into a timeout) but the
    game is kept; past 2 x 100 h with no clock running it is abandoned."""
    game_id, _room_id, _a, _b = _turn_game(client, move_hours=100)
    skew(hours=99)
    assert _cleanup(client)["games"] == []  # past 72 h, but both deadlines are ahead
    skew(hours=150)
    assert _cleanup(client)["games"] == []  # clocks out, but not yet 2 x the move time
    skew(hours=201)
    assert _cleanup(client)["games"] == [game_id]
    assert doc(client, game_id)["ended"]["reason"] == "abandoned"


def test_vacation_pushes_deadlines_back_and_ending_it_early_gives_days_back(client, skew):
    game_id, room_id, a, _b = _turn_game(client, move_hours=24)
    before = datetime.fromisoformat(_seat(client, game_id, 0)["clock"]["deadline"])
    r = client.post("/api/players/me/vacation", headers=a["headers"], json={"days": 3})
    assert r.status_code == 200, r.text
    assert r.json()["on_vacation"] is True and r.json()["days_left"] == 11
    moved = datetime.fromisoformat(_seat(client, game_id, 0)["clock"]["deadline"])
    assert moved - before == timedelta(days=3)
    assert datetime.fromisoformat(_seat(client, game_id, 1)["clock"]["deadline"]) == before
    skew(days=2)
    assert _sweep(client) == [(game_id, room_id)]  # Bob's clock ran out, Ann's did not
    assert _seat(client, game_id, 0)["held"] is False and _seat(client, game_id, 1)["held"] is True
    r = client.post("/api/players/me/vacation", headers=a["headers"], json={"days": 1})
    assert r.status_code == 409 and "already" in r.json()["detail"]
    r = client.delete("/api/players/me/vacation", headers=a["headers"])
    assert r.status_code == 200 and r.json()["on_vacation"] is False
    assert abs(r.json()["days_left"] - 12) < 0.01  # 2 of the 3 days used
    back = datetime.fromisoformat(_seat(client, game_id, 0)["clock"]["deadline"])
    assert abs((back - before) - timedelta(days=2)) < timedelta(seconds=5)
    assert client.delete("/api/players/me/vacation", headers=a["headers"]).status_code == 409
    for days in (0, -1, 15, "3"):
        r = client.post("/api/players/me/vacation", headers=a["headers"], json={"days": days})
        assert r.status_code == 422, (days, r.text)
    r = client.post("/api/players/me/vacation", headers=a["headers"], json={"days": 12.5})
    assert r.status_code == 409 and "left" in r.json()["detail"]
