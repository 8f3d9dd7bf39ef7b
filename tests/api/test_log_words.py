"""The log in words over the API: each entry carries the ruleset's sentence with players' names."""

from __future__ import annotations

from tests.support.api import legal, new_player, new_room, play_first_legal, started_game
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
    wait_for(lambda: any(m["seat"] == 1 for m in client.get(f"/api/games/{game_id}/log").json()["moves"]))
    log = client.get(f"/api/games/{game_id}/log").json()["moves"]
    assert any(m["text"].startswith("Bot 2: ") for m in log if m["seat"] == 1)


def test_a_rulesets_own_sentence_reaches_the_log_with_names_filled_in(client):
    """Log rule: a ruleset with a `log_text` hook (City Council) gets its own sentence in the log,
    not the plain label, with every `{seatN}` replaced by that seat's display name."""
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, a, ruleset="city-council")
    assert client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={}).status_code == 200
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    mover, other = (a, b) if legal(client, game_id, a)["moves"] else (b, a)
    move = legal(client, game_id, mover)["moves"][0]
    assert move["type"] == "committees"  # the first player sets the committees first
    play_first_legal(client, game_id, mover)
    seats = client.get(f"/api/games/{game_id}/table").json()["seats"]
    names = {s["seat"]: s["name"] for s in seats}
    assert sorted(names.values()) == ["Ann", "Bob"]
    parts = [f"{names.get(m, 'Prof. Phil')}: {c.capitalize()}" for m, c in enumerate(move["seats"]) if c]
    expected = f"{mover['name']} set the committees: {', '.join(parts)}."
    for viewer in (mover, other, None):
        headers = viewer["headers"] if viewer else {}
        entries = client.get(f"/api/games/{game_id}/log", headers=headers).json()["moves"]
        assert [e["text"] for e in entries] == [expected]


def test_a_seat_without_a_name_reads_as_its_number_counted_from_one():
    """Log rule: a placeholder for a seat nobody is named for reads 'Seat N' (N from 1)."""
    from app.services.live import fill_names

    assert fill_names("{seat0} gave {seat2} a card.", {0: "Ann"}) == "Ann gave Seat 3 a card."
