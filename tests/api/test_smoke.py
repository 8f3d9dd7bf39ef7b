"""Smoke: create, join, start, move."""
from tests.support.api import started_game, doc, play_first_legal


def test_game_flow(client):
    """A two-seat test game starts at version 0 and a legal move advances it."""
    game_id, (a, b) = started_game(client)
    d = doc(client, game_id, a)
    assert d["version"] == 0 and d["seat"] == 0 and sorted(d["to_act"]) == [0, 1]
    assert play_first_legal(client, game_id, a) == 1
