"""Bad input found by the outside abuse test (issue 12 findings 5-7): each is a 4xx naming what
is wrong, and nothing changes."""

from __future__ import annotations

import pytest

from tests.support.api import doc, legal, new_player, new_room, play_to_end, started_game


def test_an_outsiders_leave_on_a_private_room_is_a_404(client):
    """Finding 7: leaving a private room one is not in answers 404, as for a missing room, so a
    leave cannot probe which private rooms exist; on a public room it stays 403."""
    host, outsider = new_player(client, "Host"), new_player(client, "Eve")
    private = new_room(client, host, private=True)
    public = new_room(client, host)
    hidden = client.post(f"/api/rooms/{private['id']}/leave", headers=outsider["headers"])
    missing = client.post("/api/rooms/doesnotexist/leave", headers=outsider["headers"])
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json()["detail"] == missing.json()["detail"]
    assert client.post(f"/api/rooms/{public['id']}/leave", headers=outsider["headers"]).status_code == 403


@pytest.mark.parametrize("seat", ["1", 1.0, True])
def test_seat_must_be_a_strict_integer(client, seat):
    """Finding 7: `seat` in join and bot bodies refuses "1", 1.0 and true with a 422."""
    host, bob = new_player(client, "Host"), new_player(client, "Bob")
    room = new_room(client, host, seats=3)
    join = client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={"seat": seat})
    bot = client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={"seat": seat})
    assert join.status_code == bot.status_code == 422
    assert "seat" in str(join.json()["detail"])
    seats = client.get(f"/api/rooms/{room['id']}").json()["seats"]
    assert [s["player"] is None and s["bot"] is None for s in seats] == [False, True, True]


def test_a_legal_move_with_extra_keys_is_refused_and_nothing_is_stored(client):
    """Finding 5: a legal move plus an extra key (a 50 KB <img onerror> here) is refused with a
    422 naming the field; the game and its log are unchanged, and the listed move still works."""
    game_id, (a, b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]
    padded = dict(move, note="<img src=x onerror=alert(1)>" + "x" * 50_000)
    r = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 0, "move": padded})
    assert r.status_code == 422 and "note" in r.json()["detail"]
    assert doc(client, game_id)["version"] == 0
    r = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 0, "move": move})
    assert r.status_code == 200


def test_the_stored_move_is_the_listed_one(client):
    """Finding 5: the move stored and shown in the log is the ruleset's own listed move, so a
    client's spelling of it (here 1.0 for 1 where the test game lists integers) never reaches others."""
    game_id, (a, b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]
    numbers = {k: v for k, v in move.items() if isinstance(v, int) and not isinstance(v, bool)}
    sent = {k: (float(v) if k in numbers else v) for k, v in move.items()}
    assert (
        client.post(
            f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 0, "move": sent}
        ).status_code
        == 200
    )
    play_to_end(client, game_id, [a, b])
    first = client.get(f"/api/games/{game_id}/log").json()["moves"][0]["move"]
    assert first == move and all(type(first[k]) is int for k in numbers)


def test_extra_keys_are_refused_on_the_socket_too(client):
    """Finding 5 over the websocket: the same 422, no version made."""
    game_id, (a, b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "move", "version": 0, "move": dict(move, x=1), "id": "m1"})
        frame = ws.receive_json()
        while frame["type"] != "error":
            frame = ws.receive_json()
        assert frame["status"] == 422 and "'x'" in frame["detail"]
    assert doc(client, game_id)["version"] == 0


def test_nul_characters_are_bad_input_on_every_backend(client):
    """Finding 6: a NUL in a name, a move id, a body or a path is a 422 or a 404 (PostgreSQL
    cannot store it; it answered 503 'retry' before), and nothing is stored."""
    r = client.post("/api/players", json={"name": "A\u0000B"})
    assert r.status_code == 422 and "NUL" in r.json()["detail"]
    game_id, (a, b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=a["headers"],
        json={"version": 0, "move": move, "id": "id\u0000"},
    )
    assert r.status_code == 422
    for path in (f"/api/games/{game_id}%00", "/api/rooms/%00", "/api/rooms/by-code/x%00y"):
        assert client.get(path).status_code == 404, path
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_text('{"type": "move", "version": 0, "move": {}, "id": "x\\u0000"}')
        frame = ws.receive_json()
        while frame["type"] != "error":
            frame = ws.receive_json()
        assert frame["status"] == 400 and "NUL" in frame["detail"]
    assert doc(client, game_id)["version"] == 0


def test_a_chunked_body_over_the_limit_is_413(client):
    """Finding 7: a 1 MB body sent in chunks (no Content-Length) gets 413, not 400."""
    host = new_player(client)

    def chunks():
        yield b'{"ruleset": "testgame", "seats": 2, "options": {"x": "'
        for _ in range(64):
            yield b"y" * 16_384
        yield b'"}}'

    r = client.post(
        "/api/rooms", headers={**host["headers"], "content-type": "application/json"}, content=chunks()
    )
    assert r.status_code == 413 and "larger than" in r.json()["detail"]
    assert client.get("/api/rooms").json() == []
