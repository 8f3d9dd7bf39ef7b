"""Issue 27, my games: GET /api/players/me/games lists the caller's games, your turn first (the
soonest deadline first), then waiting, then finished; `state` keeps one; the page and the push
service worker are served."""

from __future__ import annotations

from tests.support.api import doc, new_player, play_first_legal, play_to_end


def _game(client, a, b, pace=None):
    body = {"ruleset": "testgame", "seats": 2, "options": {"rounds": 1}}
    if pace:
        body["pace"] = pace
    room = client.post("/api/rooms", headers=a["headers"], json=body).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    return client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]


def test_my_games_your_turn_first_then_waiting_then_finished(client):
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    done = _game(client, a, b)
    play_to_end(client, done, [a, b])
    waiting = _game(client, a, b)
    play_first_legal(client, waiting, a)  # Ann bid: she waits for Bob
    assert doc(client, waiting)["to_act"] == [1]
    slow = _game(client, a, b, {"kind": "turn", "move_hours": 48})
    soon = _game(client, a, b, {"kind": "turn", "move_hours": 2})
    r = client.get("/api/players/me/games", headers=a["headers"])
    assert r.status_code == 200, r.text
    games = r.json()
    assert [g["game_id"] for g in games] == [soon, slow, waiting, done]
    assert [g["state"] for g in games] == ["your_turn", "your_turn", "waiting", "finished"]
    assert games[0]["deadline"] < games[1]["deadline"]
    assert games[2]["to_act"] == ["Bob"] and games[0]["players"] == ["Ann", "Bob"]
    assert games[0]["pace"]["kind"] == "turn" and games[3]["pace"] == {"kind": "none"}
    assert [
        g["game_id"] for g in client.get("/api/players/me/games?state=waiting", headers=a["headers"]).json()
    ] == [waiting]
    bobs = client.get("/api/players/me/games?state=your_turn", headers=b["headers"]).json()
    assert {g["game_id"] for g in bobs} == {waiting, slow, soon}
    r = client.get("/api/players/me/games?state=mine", headers=a["headers"])
    assert r.status_code == 422
    assert client.get("/api/players/me/games").status_code == 401
    outsider = new_player(client, "Cy")
    assert client.get("/api/players/me/games", headers=outsider["headers"]).json() == []


def test_the_my_games_page_and_the_service_worker_are_served(client):
    page = client.get("/me/games")
    assert page.status_code == 200 and "my_games.js" in page.text
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert 'addEventListener("push"' in worker.text
