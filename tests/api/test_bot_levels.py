"""Bot levels in the room (issue 28): the host seats a bot at Easy, Normal, Hard or Expert, or
changes its level; the level shows in the bot's name and is what its worker is asked to play; a
wrong level is refused with a sentence and changes nothing; a rematch keeps the levels."""

from __future__ import annotations

from app.services.bots import bot_request
from app.services.live import LiveGame
from tests.support.api import new_player, new_room, play_to_end
from tests.support.testgame import TEST_GAME


def test_the_host_seats_bots_at_levels_and_their_names_say_so(client):
    host = new_player(client, "Ann")
    room = new_room(client, host, seats=3)
    url = f"/api/rooms/{room['id']}/bots"
    r = client.post(url, headers=host["headers"], json={"seat": 1, "level": "hard"})
    assert r.status_code == 200, r.text
    r = client.post(url, headers=host["headers"], json={"seat": 2})
    seats = r.json()["seats"]
    assert [(s["bot"], s["level"]) for s in seats] == [(None, None), ("hard", "hard"), ("Bot", "normal")]
    r = client.put(f"{url}/2", headers=host["headers"], json={"level": "expert"})
    assert r.status_code == 200 and r.json()["seats"][2]["level"] == "expert"
    client.post(f"/api/rooms/{room['id']}/join", headers=host["headers"], json={"seat": 0})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"]).json()["game_id"]
    table = client.get(f"/api/games/{game_id}/table").json()
    assert [s["name"] for s in table["seats"]] == ["Ann", "Bot 2 (Hard)", "Bot 3 (Expert)"]


def test_a_wrong_level_or_seat_is_refused_and_changes_nothing(client):
    host, other = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, host, seats=2)
    url = f"/api/rooms/{room['id']}/bots"
    r = client.post(url, headers=host["headers"], json={"seat": 1, "level": "grandmaster"})
    assert r.status_code == 422 and "level" in r.text
    assert client.get(f"/api/rooms/{room['id']}").json()["seats"][1]["bot"] is None
    client.post(url, headers=host["headers"], json={"seat": 1, "level": "easy"})
    assert client.put(f"{url}/0", headers=host["headers"], json={"level": "hard"}).status_code == 409
    assert client.put(f"{url}/1", headers=host["headers"], json={"level": "Hard"}).status_code == 422
    assert client.put(f"{url}/1", headers=other["headers"], json={"level": "hard"}).status_code in (403, 404)
    assert client.get(f"/api/rooms/{room['id']}").json()["seats"][1]["level"] == "easy"


def test_a_game_against_an_easy_bot_plays_to_the_end_and_a_rematch_keeps_its_level(client):
    host = new_player(client, "Ann")
    room = new_room(client, host, seats=2)
    client.post(f"/api/rooms/{room['id']}/join", headers=host["headers"], json={"seat": 0})
    client.post(f"/api/rooms/{room['id']}/bots", headers=host["headers"], json={"level": "easy"})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"]).json()["game_id"]
    final = play_to_end(client, game_id, [host])
    assert final["status"] == "finished"
    rematch = client.post(f"/api/rooms/{room['id']}/rematch", headers=host["headers"]).json()
    r = client.get(f"/api/rooms/{rematch['room_id']}", headers=host["headers"])
    assert r.status_code == 200, (rematch, r.text)
    seats = r.json()["seats"]
    assert seats[1]["level"] == "easy"


def test_a_bot_seats_level_is_what_its_worker_is_asked_to_play():
    state = TEST_GAME.setup(2, TEST_GAME.Options(), 5)
    live = LiveGame(
        id="g",
        room_id="r",
        ruleset=TEST_GAME,
        players=2,
        options={},
        seed=5,
        seed_hash="h",
        version=0,
        state=state,
        to_act_at=[[0, 1]],
        movers=[],
        seats={0: {"player_id": None, "bot": "expert"}, 1: {"player_id": None, "bot": "easy"}},
    )
    expert, easy = bot_request(live, 0, 0), bot_request(live, 1, 0)
    assert (expert["level"], expert["budget"]) == ("expert", 2.0)
    assert (easy["level"], easy["budget"]) == ("easy", 0.0)
    assert expert["seed"] != easy["seed"]  # bots of one game never share a generator
