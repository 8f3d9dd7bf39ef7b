"""Wire contract v1: identities, rulesets, rooms (public and private), joining, bots, starting."""

from __future__ import annotations

from app.services.rooms import hash_token
from tests.support.api import new_player, new_room


def test_player_token_is_stored_hashed(client, settings):
    """POST /api/players answers id, name, token (and its expiry); the database keeps only the
    token's hash."""
    import sqlite3

    player = new_player(client, "Ann")
    assert set(player) - {"headers"} == {"id", "name", "token", "expires_at"} and player["name"] == "Ann"
    assert len(player["token"]) >= 32
    if settings.database_url.startswith("sqlite"):
        db = sqlite3.connect(settings.database_url.split(":///", 1)[1])
        stored = db.execute(
            "select token_hash from player_sessions where player_id = ?", (player["id"],)
        ).fetchone()[0]
        assert stored == hash_token(player["token"]) and player["token"] not in stored


def test_rulesets_list_options_schema(client):
    """GET /api/rulesets lists each ruleset with its seat range and a JSON schema for options."""
    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
    test = rulesets["testgame"]
    assert (test["min_players"], test["max_players"]) == (1, 6)
    assert test["options"]["properties"]["rounds"]["default"] == 3


def test_create_room_host_sits_in_seat_zero(client):
    """A new room is in the lobby, the host in seat 0, the other seats empty, an invite code shown."""
    host = new_player(client)
    room = new_room(client, host, seats=3)
    assert room["status"] == "lobby" and room["game_id"] is None
    assert room["seats"][0]["player"]["id"] == host["id"]
    assert [s["player"] for s in room["seats"][1:]] == [None, None]
    assert room["host"]["id"] == host["id"] and len(room["invite_code"]) >= 16


def test_public_room_listed_private_room_hidden(client):
    """GET /api/rooms lists public lobby rooms only; a private room is invisible to non-members."""
    host, stranger = new_player(client), new_player(client, "Eve")
    public = new_room(client, host)
    private = new_room(client, host, private=True)
    listed = {r["id"] for r in client.get("/api/rooms", headers=stranger["headers"]).json()}
    assert public["id"] in listed and private["id"] not in listed
    assert all(
        "invite_code" not in r or r["invite_code"] is None
        for r in client.get("/api/rooms", headers=stranger["headers"]).json()
    )
    r = client.get(f"/api/rooms/{private['id']}", headers=stranger["headers"])
    assert r.status_code == 404 and isinstance(r.json()["detail"], str)
    r = client.get(f"/api/rooms/{private['id']}", params={"invite_code": private["invite_code"]})
    assert r.status_code == 200 and r.json().get("invite_code") is None
    assert client.get(f"/api/rooms/{private['id']}", headers=host["headers"]).json()["invite_code"]


def test_join_private_room_needs_the_code(client):
    """Joining a private room without its code is 404; with it, the player takes the first seat free."""
    host, friend = new_player(client), new_player(client, "Bob")
    room = new_room(client, host, private=True)
    assert client.post(f"/api/rooms/{room['id']}/join", headers=friend["headers"], json={}).status_code == 404
    r = client.post(
        f"/api/rooms/{room['id']}/join", headers=friend["headers"], json={"invite_code": room["invite_code"]}
    )
    assert r.status_code == 200 and r.json()["seats"][1]["player"]["id"] == friend["id"]
    assert r.json()["invite_code"] == room["invite_code"]


def test_join_by_code_lookup(client):
    """GET /api/rooms/by-code/{code} finds the room (invite links /r/<code> use it)."""
    host = new_player(client)
    room = new_room(client, host, private=True)
    r = client.get(f"/api/rooms/by-code/{room['invite_code']}")
    assert r.status_code == 200 and r.json()["id"] == room["id"]
    assert client.get("/api/rooms/by-code/nope").status_code == 404
    r = client.get(f"/r/{room['invite_code']}", follow_redirects=False)
    assert r.status_code == 303 and room["invite_code"] in r.headers["location"]


def test_join_errors(client):
    """A taken seat, a full room, joining twice, or a seat that does not exist are refused clearly."""
    host, b, c = new_player(client), new_player(client, "B"), new_player(client, "C")
    room = new_room(client, host, seats=2)
    r = client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={"seat": 0})
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={"seat": 4})
    assert r.status_code == 422 and "no seat 4" in r.json()["detail"]
    assert client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={}).status_code == 200
    r = client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    assert r.status_code == 409 and "already" in r.json()["detail"]
    r = client.post(f"/api/rooms/{room['id']}/join", headers=c["headers"], json={})
    assert r.status_code == 409 and "taken" in r.json()["detail"]


def test_bots_only_by_host_and_start_needs_full_seats(client):
    """Only the host adds or removes bots; starting with an empty seat is 409; then it starts."""
    host, guest = new_player(client), new_player(client, "G")
    room = new_room(client, host, seats=3)
    rid = room["id"]
    assert client.post(f"/api/rooms/{rid}/join", headers=guest["headers"], json={}).status_code == 200
    assert client.post(f"/api/rooms/{rid}/bots", headers=guest["headers"], json={}).status_code == 403
    r = client.post(f"/api/rooms/{rid}/start", headers=host["headers"])
    assert r.status_code == 409 and "empty" in r.json()["detail"]
    r = client.post(f"/api/rooms/{rid}/bots", headers=host["headers"], json={})
    assert r.status_code == 200 and r.json()["seats"][2]["bot"]
    assert (
        client.delete(f"/api/rooms/{rid}/bots/2", headers=host["headers"]).json()["seats"][2]["bot"] is None
    )
    assert client.delete(f"/api/rooms/{rid}/bots/1", headers=host["headers"]).status_code == 409
    client.post(f"/api/rooms/{rid}/bots", headers=host["headers"], json={"seat": 2})
    assert client.post(f"/api/rooms/{rid}/start", headers=guest["headers"]).status_code == 403
    r = client.post(f"/api/rooms/{rid}/start", headers=host["headers"])
    assert r.status_code == 200 and r.json()["game_id"]
    room = client.get(f"/api/rooms/{rid}", headers=host["headers"]).json()
    assert room["status"] == "playing" and room["game_id"] == r.json()["game_id"]
    assert rid not in {x["id"] for x in client.get("/api/rooms").json()}
    assert client.post(f"/api/rooms/{rid}/start", headers=host["headers"]).status_code == 409


def test_leave_in_lobby_passes_host_and_empty_room_closes(client):
    """Leaving frees the seat; a leaving host hands over to a seated player; an empty room is gone."""
    host, guest = new_player(client), new_player(client, "G")
    room = new_room(client, host)
    rid = room["id"]
    client.post(f"/api/rooms/{rid}/join", headers=guest["headers"], json={})
    assert client.post(f"/api/rooms/{rid}/leave", headers=host["headers"]).status_code == 204
    room = client.get(f"/api/rooms/{rid}").json()
    assert room["host"]["id"] == guest["id"] and room["seats"][0]["player"] is None
    assert client.post(f"/api/rooms/{rid}/leave", headers=guest["headers"]).status_code == 204
    assert client.get(f"/api/rooms/{rid}").status_code == 404


def test_room_options_are_validated(client):
    """Unknown rulesets, seat counts outside the ruleset's range and bad options are 422 sentences."""
    host = new_player(client)
    cases = [
        ({"ruleset": "chess", "seats": 2}, "no ruleset"),
        ({"ruleset": "testgame", "seats": 7}, "seats"),
        ({"ruleset": "testgame", "seats": 2, "options": {"rounds": 99}}, "rounds"),
        ({"ruleset": "testgame", "seats": 2, "options": {"colour": "red"}}, "colour"),
    ]
    for body, words in cases:
        r = client.post("/api/rooms", headers=host["headers"], json=body)
        assert r.status_code == 422, body
        assert isinstance(r.json()["detail"], str) and words in r.json()["detail"], r.json()
    assert client.get("/api/rooms", headers=host["headers"]).json() == []


def test_the_product_lists_its_real_rulesets(client):
    """Suburbia and Tiny Towns are offered with their seat ranges and options schemas."""
    rulesets = {r["id"]: r for r in client.get("/api/rulesets").json()}
    assert (rulesets["suburbia"]["min_players"], rulesets["suburbia"]["max_players"]) == (1, 4)
    assert (rulesets["tiny-towns"]["min_players"], rulesets["tiny-towns"]["max_players"]) == (1, 6)
    assert rulesets["suburbia"]["options"]["type"] == "object"
    assert client.get("/api/rulesets/suburbia/catalogue").json()
    assert client.get("/api/rulesets/tiny-towns/catalogue").json()


def test_a_tiny_towns_room_without_options_plays_the_base_game(client):
    """Issue 8: the base game is the default, Fortune one option. A room created with no options
    at all stores fortune off, and its game deals only base cards and monuments, without coins;
    asking for Fortune gets it."""
    from app.rulesets.tiny_towns import data

    host = new_player(client)
    r = client.post("/api/rooms", headers=host["headers"], json={"ruleset": "tiny-towns", "seats": 2})
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["options"]["fortune"] is False
    client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={})
    game = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"]).json()["game_id"]
    view = client.get(f"/api/games/{game}", headers=host["headers"]).json()["view"]
    assert view["coins_on"] is False and view["options"]["fortune"] is False
    assert {data.card(b)["set"] for b in view["buildings"]} == {"base"}
    assert {data.card(m)["set"] for m in view["monument_pool"] + view["towns"][0]["dealt"]} == {"base"}
    fortune = new_room(client, host, ruleset="tiny-towns", options={"fortune": True})
    assert fortune["options"]["fortune"] is True


def test_a_player_finds_their_own_tables(client):
    """GET /api/players/me/rooms lists rooms the caller hosts or sits in, private ones included."""
    host, guest, other = new_player(client), new_player(client, "G"), new_player(client, "O")
    mine = new_room(client, host, private=True)
    joined = new_room(client, other)
    client.post(f"/api/rooms/{joined['id']}/join", headers=host["headers"], json={})
    new_room(client, guest)
    listed = [r["id"] for r in client.get("/api/players/me/rooms", headers=host["headers"]).json()]
    assert sorted(listed) == sorted([mine["id"], joined["id"]])
    assert client.get("/api/players/me/rooms").status_code == 401
