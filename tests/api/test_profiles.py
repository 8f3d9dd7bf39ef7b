"""Profiles and leaderboards (issue 29): a player's page (ratings, games played, win share, share
finished), their games with replays, private games hidden from others, and a game's leaderboard."""

from __future__ import annotations

from tests.support.api import in_db, new_player, new_room, play_to_end
from tests.support.wait import wait_for
from app.db.models import RatedGame
from sqlalchemy import func, select


def _game(client, host, guest, private=False):
    room = new_room(client, host, private=private)
    body = {"invite_code": room["invite_code"]} if private else {}
    assert (
        client.post(f"/api/rooms/{room['id']}/join", headers=guest["headers"], json=body).status_code == 200
    )
    r = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    return room["id"], r.json()["game_id"]


def _rated(client):
    async def count(session):
        return await session.scalar(select(func.count()).select_from(RatedGame))

    return in_db(client, count)


def test_a_profile_counts_games_wins_and_games_not_finished(client):
    ann, bob, cy = new_player(client, "Ann"), new_player(client, "Bob"), new_player(client, "Cy")
    _, first = _game(client, ann, bob)
    final = play_to_end(client, first, [ann, bob])
    room_id, second = _game(client, ann, bob)
    assert client.post(f"/api/rooms/{room_id}/leave", headers=bob["headers"]).status_code == 204
    play_to_end(client, second, [ann])
    _, hidden = _game(client, ann, cy, private=True)
    wait_for(lambda: _rated(client) == 2)

    profile = client.get(f"/api/players/{bob['id']}").json()
    assert profile["name"] == "Bob" and profile["games_played"] == 2
    assert profile["finished_share"] == 0.5  # he left the second game
    bob_won = final["outcome"]["ranks"][1] == 1
    assert profile["wins"] == int(bob_won) and profile["win_share"] == (0.5 if bob_won else 0.0)
    [rating] = profile["ratings"]
    assert rating["ruleset"] == "testgame" and rating["pool"] == "rated"
    assert rating["games"] == 2 and rating["provisional"] is True

    games = client.get(f"/api/players/{ann['id']}/games").json()
    assert [g["game_id"] for g in games] == [second, first]  # the private game is not shown
    assert games[1]["replay"] == f"/games/{first}/replay"
    assert [p["name"] for p in games[1]["players"]] == ["Ann", "Bob"]
    assert games[1]["rating"]["pool"] == "rated"
    mine = client.get("/api/players/me/games", headers=ann["headers"]).json()
    assert [g["game_id"] for g in mine] == [hidden, second, first]
    assert client.get(f"/api/players/{ann['id']}").json()["games_in_progress"] == 0
    assert client.get("/api/players/me", headers=ann["headers"]).json()["games_in_progress"] == 1

    board = client.get("/api/rulesets/testgame/leaderboard").json()
    assert {p["name"] for p in board["players"]} == {"Ann", "Bob"}
    assert [p["place"] for p in board["players"]] == [1, 2]
    assert board["players"][0]["rating"] >= board["players"][1]["rating"]
    assert board["bots"]["normal"] == 1500 and board["bots"]["easy"] < board["bots"]["hard"]


def test_bad_profile_requests_get_a_sentence(client):
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/nobody/games").status_code == 404
    r = client.get("/api/players/me")
    assert r.status_code == 401 and r.json()["detail"].endswith(".")
    ann = new_player(client)
    assert client.get(f"/api/players/{ann['id']}/games?limit=0").status_code == 422
    assert client.get("/api/rulesets/nope/leaderboard").status_code == 404
    assert client.get("/api/rulesets/testgame/leaderboard?pool=x").status_code == 422


def test_table_seats_carry_the_profile_and_a_bots_fixed_rating(client):
    ann = new_player(client)
    room = new_room(client, ann)
    client.post(f"/api/rooms/{room['id']}/bots", headers=ann["headers"], json={"level": "hard"})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=ann["headers"]).json()["game_id"]
    seats = client.get(f"/api/games/{game_id}/table").json()["seats"]
    assert seats[0]["player_id"] == ann["id"] and seats[0]["bot_rating"] is None
    assert seats[1]["player_id"] is None and seats[1]["bot_rating"] > 1500
