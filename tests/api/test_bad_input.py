"""Bad input: each gets a 4xx with a sentence, and nothing is stored."""

from __future__ import annotations

import pytest

from tests.support.api import doc, new_player, new_room, started_game


def _log_len(client, game_id):
    return len(client.get(f"/api/games/{game_id}/log").json()["moves"])


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ('{"version": 0, "move": ', 400, "not valid JSON"),
        ("[]", 422, ""),
        ('{"move": {"type": "pass"}}', 422, "'version' is required"),
        ('{"version": "0", "move": {"type": "pass"}}', 422, "'version'"),
        ('{"version": true, "move": {"type": "pass"}}', 422, "'version'"),
        ('{"version": 0, "move": "pass"}', 422, "'move'"),
        ('{"version": 0, "move": {"type": "pass"}, "extra": 1}', 422, "Unknown field 'extra'"),
        ('{"version": 0, "move": {"type": "bid", "card": {"deep": [1, 2]}}}', 422, ""),
        ('{"version": 0, "move": {"type": "fly"}}', 422, ""),
        ('{"version": 0, "move": {}}', 422, ""),
    ],
)
def test_bad_move_bodies(client, body, status, words):
    """Malformed JSON, missing/unknown fields, wrong types and unknown move shapes are refused."""
    game_id, (a, _) = started_game(client)
    before = doc(client, game_id, a)
    r = client.post(
        f"/api/games/{game_id}/moves",
        content=body,
        headers={**a["headers"], "content-type": "application/json"},
    )
    assert r.status_code == status, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and words in detail
    assert doc(client, game_id, a) == before and _log_len(client, game_id) == 0


def test_oversized_body_is_413(client):
    """A body over the limit is refused before it is read; nothing changes."""
    host = new_player(client)
    r = client.post(
        "/api/rooms",
        headers=host["headers"],
        json={"ruleset": "testgame", "seats": 2, "options": {"x": "y" * 100_000}},
    )
    assert r.status_code == 413 and "larger than" in r.json()["detail"]
    assert client.get("/api/rooms").json() == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/nope",
        "/api/games/nope/legal-moves",
        "/api/games/nope/log",
        "/api/rooms/nope",
        "/api/rulesets/nope/catalogue",
    ],
)
def test_unknown_ids_are_404(client, path):
    """Unknown ids give 404 with a sentence."""
    r = client.get(path)
    assert r.status_code == 404 and isinstance(r.json()["detail"], str)


def test_bad_tokens_and_missing_auth(client):
    """A token that matches nobody is 401; a write without a token is 401; unknown routes are 404."""
    r = client.post(
        "/api/rooms", headers={"Authorization": "Bearer nope"}, json={"ruleset": "testgame", "seats": 2}
    )
    assert r.status_code == 401 and "token" in r.json()["detail"]
    assert client.post("/api/rooms", json={"ruleset": "testgame", "seats": 2}).status_code == 401
    assert client.get("/api/nothing").status_code == 404
    assert client.put("/api/rooms").status_code == 405
    r = client.post("/api/players", json={"name": ""})
    assert r.status_code == 422 and "'name'" in r.json()["detail"]


def test_a_token_for_another_seat_cannot_move_it(client):
    """Seat 1's token moves seat 1 only: it cannot make seat 0's move."""
    game_id, (a, b) = started_game(client)
    own_move = {"type": "bid", "card": doc(client, game_id, a)["view"]["hand"][0]}
    r = client.post(
        f"/api/games/{game_id}/moves", headers=b["headers"], json={"version": 0, "move": own_move}
    )
    assert r.status_code == 422  # it is checked as seat 1's move, and seat 1 lacks that card
    assert doc(client, game_id, a)["view"]["bids"][0] is None


def test_moves_to_a_room_in_the_lobby_or_wrong_room_ops(client):
    """Non-members of a private room can neither add bots nor leave it: both 404, as if it did
    not exist (issue 12 finding 7: a 403 on leave revealed the room)."""
    host, other = new_player(client), new_player(client, "O")
    room = new_room(client, host, private=True)
    assert client.post(f"/api/rooms/{room['id']}/bots", headers=other["headers"], json={}).status_code == 404
    assert client.post(f"/api/rooms/{room['id']}/leave", headers=other["headers"]).status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        {"private": "yes"},
        {"private": 1},
        {"private": "true"},
        {"private": None},
        {"options": {"double_points": "yes"}},
        {"options": {"double_points": 1}},
        {"options": {"rounds": "2"}},
        {"options": {"rounds": 2.0}},
    ],
)
def test_booleans_and_numbers_are_strict(client, body):
    """Issue 33 item 7: `"private": "yes"` and `1` were coerced to true (and options alike);
    now anything but a JSON true/false or a JSON integer is a 422 naming the field, and no room
    is made."""
    ann = new_player(client)
    r = client.post("/api/rooms", headers=ann["headers"], json={"ruleset": "testgame", "seats": 2, **body})
    assert r.status_code == 422, r.text
    field = next(iter(body["options"])) if "options" in body else "private"
    assert field in r.json()["detail"]
    assert client.get("/api/players/me/rooms", headers=ann["headers"]).json() == []
