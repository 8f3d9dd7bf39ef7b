"""The log in words over the API: each entry carries the ruleset's sentence with players' names."""

from __future__ import annotations

from tests.support.api import legal, play_first_legal, started_game
from tests.support.wait import wait_for


def test_log_entries_carry_a_sentence_with_the_movers_name(client):
    """Log rule: entries have `text` naming the mover by display name, never '{seat0}' or 'Seat 0'."""
    game_id, (a, b) = started_game(client)
    card = legal(client, game_id, a)["moves"][0]["card"]
    play_first_legal(client, game_id, a)
    mine = client.get(f"/api/games/{game_id}/log", headers=a["headers"]).json()["moves"]
    theirs = client.get(f"/api/games/{game_id}/log", headers=b["headers"]).json()["moves"]
    assert mine[0]["text"].startswith("P0: ") and "{seat" not in mine[0]["text"]
    assert str(card) in mine[0]["text"]
    # The sealed bid's card is hidden from the other seat in the sentence as in the move.
    assert theirs[0]["text"].startswith("P0: ") and f"card={card}" not in theirs[0]["text"]


def test_bot_seats_are_named_the_same_in_the_log_as_in_the_room(client):
    """Names agree: a bot seat is 'Bot N' (N counted from 1) in the room's seat list and the log."""
    game_id, (a,) = started_game(client, bots=1)
    play_first_legal(client, game_id, a)
    wait_for(lambda: any(m["seat"] == 1 for m in
                         client.get(f"/api/games/{game_id}/log").json()["moves"]))
    log = client.get(f"/api/games/{game_id}/log").json()["moves"]
    assert any(m["text"].startswith("Bot 2: ") for m in log if m["seat"] == 1)
