"""Bad moves over the API: a Fortune City move the rules forbid gets a 422 whose sentence names the
rule, and the game (document, version, log) is unchanged; the listed moves still work."""

from __future__ import annotations

from tests.support.api import doc, legal, new_player, new_room

BAD = [
    (
        {"type": "construct", "zone": 0, "at": [0, 1], "card": 0},
        "Construct Buildings: choose a goods tile in one of your construction zones.",
    ),
    ({"type": "bank", "at": [0, 1], "card": 0}, "Banks cannot be placed next to City Hall or another bank."),
    ({"type": "buy", "slot": 0, "gold": True}, "You have no gold coin"),
    ({"type": "buy", "slot": 0, "card": 2}, "Your credit card holds only 0 silver."),
    ({"type": "drive", "to": [0, 1]}, "A drive move belongs to the Move Delivery Truck phase"),
    ({"type": "hire", "citizen": "red", "at": [0, 0]}, "A hire move belongs to the Hire Citizens phase"),
    ({"type": "buy", "slot": 9, "card": 0}, "Buy Goods: choose a tile in the market (slot 0 to 3)."),
]


def test_illegal_moves_are_422_naming_the_rule_and_change_nothing(client):
    """Bad moves: each move the rules forbid is refused with 422 and the rule's sentence (not a
    500, not a generic error); the game document, its version and its log stay as they were, and
    a listed move is still accepted afterwards."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, ann, ruleset="fortune-city")
    assert client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={}).status_code == 200
    r = client.post(f"/api/rooms/{room['id']}/start", headers=ann["headers"])
    assert r.status_code == 200, r.text
    game_id = r.json()["game_id"]
    by_seat = {doc(client, game_id, p)["seat"]: p for p in (ann, bob)}
    mover = by_seat[doc(client, game_id)["to_act"][0]]
    before = doc(client, game_id, mover)
    for move, words in BAD:
        r = client.post(
            f"/api/games/{game_id}/moves",
            headers=mover["headers"],
            json={"version": before["version"], "move": move},
        )
        assert r.status_code == 422, (move, r.text)
        assert words in r.json()["detail"], (move, r.json()["detail"])
        assert doc(client, game_id, mover) == before
    assert client.get(f"/api/games/{game_id}/log", headers=ann["headers"]).json()["moves"] == []
    listed = legal(client, game_id, mover)
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=mover["headers"],
        json={"version": listed["version"], "move": listed["moves"][0]},
    )
    assert r.status_code == 200 and r.json()["version"] == before["version"] + 1
