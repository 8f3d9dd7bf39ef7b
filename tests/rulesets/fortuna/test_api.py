"""Bad moves over the REST API (issue: bad moves get a 422 naming the rule, the game unchanged)."""

from __future__ import annotations

from tests.support.api import doc, legal, new_player, new_room


def _fortuna_game(client):
    """A started 2-player Fortuna game; returns (game id, the two players)."""
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, a, ruleset="fortuna")
    assert client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={}).status_code == 200
    r = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"])
    assert r.status_code == 200, r.text
    return r.json()["game_id"], (a, b)


def test_bad_fortuna_moves_are_422_naming_the_rule_and_change_nothing(client):
    """Bad moves: a move of a later phase, an exchange with one's own side and a favour card
    before the dice are rolled each get a 422 whose sentence names the rule (strict phase
    order, the exchange with another side); the game document, its version and log stay as
    they were; the listed move is then accepted."""
    game_id, players = _fortuna_game(client)
    moves = {p["name"]: legal(client, game_id, p) for p in players}
    mover = next(p for p in players if moves[p["name"]]["moves"])
    version = moves[mover["name"]]["version"]
    before = doc(client, game_id, mover)
    cases = [
        ({"type": "favour", "card": 1, "n": 1}, "strict order"),
        ({"type": "exchange", "side": 0, "slot": 0}, "strict order"),
        ({"type": "play", "slot": 5, "args": None}, "three action cards"),
    ]
    for move, words in cases:
        r = client.post(
            f"/api/games/{game_id}/moves", headers=mover["headers"], json={"version": version, "move": move}
        )
        assert r.status_code == 422, r.text
        assert words in r.json()["detail"] and r.json()["detail"].endswith(".")
    assert doc(client, game_id, mover) == before
    assert len(client.get(f"/api/games/{game_id}/log", headers=mover["headers"]).json()["moves"]) == 0
    first = moves[mover["name"]]["moves"][0]
    assert first["type"] == "play"
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=mover["headers"],
        json={"version": version, "move": {**first, "args": None}},
    )
    assert r.status_code == 200
    seat = doc(client, game_id, mover)["view"]["active"]
    wrong = {"type": "exchange", "side": seat, "slot": 1}
    after_play = doc(client, game_id, mover)
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=mover["headers"],
        json={"version": after_play["version"], "move": wrong},
    )
    assert r.status_code == 422 and "other three sides" in r.json()["detail"]
    assert doc(client, game_id, mover) == after_play
    assert before["version"] == version and after_play["version"] == version + 1
