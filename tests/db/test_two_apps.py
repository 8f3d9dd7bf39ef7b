"""Two app instances on one database, each with its own in-process broker (so neither hears the
other): an instance whose copy of a game is behind must catch up before it refuses anything, and
a seat that changed hands through one instance cannot be played through the other."""

from __future__ import annotations

from contextlib import contextmanager

from fastapi.testclient import TestClient

from app.main import create_app
from tests.support.api import doc, legal, play_first_legal, started_game


@contextmanager
def two_apps(settings, **changes):
    """Two running apps sharing the test database; their bots only move when a test kicks them."""
    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600, **changes})
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        yield one, two


def _as(client, player):
    return player["headers"]


def test_a_behind_instance_accepts_a_valid_move_and_reports_the_true_version(settings):
    """Instance B, holding version 2, accepts seat 1's correct move made at version 3 (the
    database's), instead of answering 403 from its old copy."""
    with two_apps(settings) as (one, two):
        game_id, (a, b) = started_game(one, options={"rounds": 2})
        play_first_legal(one, game_id, a)
        play_first_legal(one, game_id, b)
        assert doc(two, game_id)["version"] == 2  # B loads its copy at version 2
        assert legal(one, game_id, a)["moves"][0] == {"type": "draw"}
        play_first_legal(one, game_id, a)  # version 3, made through A: B is not told
        assert two.app.state.platform.games._live[game_id].version == 2
        r = two.post(
            f"/api/games/{game_id}/moves", headers=_as(two, b), json={"version": 3, "move": {"type": "pass"}}
        )
        assert r.status_code == 200, r.text
        assert r.json() == {"version": 4}
        assert doc(one, game_id)["version"] == 4


def test_a_behind_instance_replays_a_retried_move_id_made_elsewhere(settings):
    """A retry of a move id first stored through instance A returns A's answer on instance B."""
    with two_apps(settings) as (one, two):
        game_id, (a, b) = started_game(one)
        assert doc(two, game_id)["version"] == 0
        move = legal(one, game_id, a)["moves"][0]
        body = {"version": 0, "move": move, "id": "retry-me"}
        assert one.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body).json() == {
            "version": 1
        }
        again = two.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body)
        assert again.status_code == 200 and again.json() == {"version": 1}
        assert doc(one, game_id)["version"] == 1


def test_heartbeat_reports_the_database_version_and_pushes_the_missed_patch(settings):
    """A socket on instance B hears, within a heartbeat, of a move made through instance A: the
    heartbeat names the database's version and the patch follows (B's copy was at 0)."""
    with two_apps(settings, heartbeat_seconds=0.05) as (one, two):
        game_id, (a, b) = started_game(one)
        with two.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws:
            assert ws.receive_json()["type"] == "snapshot"
            play_first_legal(one, game_id, a)
            kinds = []
            for _ in range(1000):  # a bound, not a timing: heartbeats come every 0.05 s
                frame = ws.receive_json()
                kinds.append(frame["type"])
                if frame["type"] == "heartbeat" and frame["version"] == 1:
                    break
            else:
                raise AssertionError(f"no heartbeat named version 1: {kinds[-5:]}")
            assert "patch" in kinds


def test_a_socket_cannot_play_a_seat_its_player_left_through_another_instance(settings):
    """b's socket on instance B stays open while b leaves through instance A (a bot takes the
    seat): the same move that REST refuses with 403 is refused on the socket too, and the socket
    is moved to the spectators' view (no more seat 1 hand)."""
    with two_apps(settings) as (one, two):
        for app in (one, two):
            app.app.state.platform.bots.kick = lambda game_id: None  # keep the bot still
        game_id, (a, b) = started_game(one, options={"rounds": 2})
        play_first_legal(one, game_id, a)
        move = legal(one, game_id, b)["moves"][0]
        with two.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws:
            snap = ws.receive_json()
            assert snap["game"]["seat"] == 1 and snap["game"]["view"]["hand"]
            room_id = snap["game"]["room_id"]
            assert one.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
            rest = two.post(
                f"/api/games/{game_id}/moves", headers=b["headers"], json={"version": 1, "move": move}
            )
            assert rest.status_code == 403
            ws.send_json({"type": "move", "version": 1, "move": move, "id": "late"})
            error = ws.receive_json()
            assert error["type"] == "error" and error["status"] == 403, error
            downgraded = ws.receive_json()
            assert downgraded["type"] == "snapshot"
            assert downgraded["game"]["seat"] is None and downgraded["game"]["view"]["hand"] is None
        assert doc(one, game_id)["version"] == 1


def test_a_socket_whose_player_leaves_is_downgraded_to_spectator(client):
    """On one instance, leaving sends the open socket a spectator's snapshot; a move on it is
    then refused (403) and the socket no longer gets the seat's private view."""
    client.app.state.platform.bots.kick = lambda game_id: None
    game_id, (a, b) = started_game(client, options={"rounds": 2})
    move = legal(client, game_id, b)["moves"][0]
    with client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws:
        room_id = ws.receive_json()["game"]["room_id"]
        assert client.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
        frame = ws.receive_json()
        assert frame["type"] == "snapshot" and frame["game"]["seat"] is None
        assert frame["game"]["view"]["hand"] is None
        ws.send_json({"type": "move", "version": 0, "move": move, "id": "gone"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 403
    assert doc(client, game_id)["version"] == 0
