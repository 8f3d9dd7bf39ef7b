"""Wire contract v1 for games: documents, legal moves, moves, versions, idempotency, logs, bots."""

from __future__ import annotations

import hashlib
import json

from tests.support.api import doc, legal, new_player, play_first_legal, play_to_end, started_game
from tests.support.wait import wait_for


def test_document_shape_for_seat_and_spectator(client):
    """Seats see their own hand; spectators see the public view; the seed hash is there from v0."""
    game_id, (a, b) = started_game(client)
    mine, spectator = doc(client, game_id, a), doc(client, game_id)
    assert set(mine) == {
        "id",
        "ruleset",
        "version",
        "status",
        "to_act",
        "seat",
        "seed_hash",
        "view",
        "outcome",
        "room_id",
    }
    assert mine["seat"] == 0 and spectator["seat"] is None and mine["status"] == "active"
    assert len(mine["view"]["hand"]) == 3 and spectator["view"]["hand"] is None
    assert len(mine["seed_hash"]) == 64 and mine["outcome"] is None
    assert doc(client, game_id, new_player(client, "Stranger"))["seat"] is None


def test_legal_moves_and_a_move(client):
    """Legal moves are listed for the caller's seat; playing one returns the next version."""
    game_id, (a, b) = started_game(client)
    moves = legal(client, game_id, a)
    assert moves["version"] == 0 and moves["seat"] == 0
    assert {m["card"] for m in moves["moves"]} == set(doc(client, game_id, a)["view"]["hand"])
    assert play_first_legal(client, game_id, a) == 1
    assert doc(client, game_id, b)["view"]["bids"][0] is True
    assert legal(client, game_id, a)["moves"] == []


def test_simultaneous_phase_accepts_a_move_made_at_an_older_version(client):
    """Both seats bid at version 0; the second bid still counts although the game is at version 1."""
    game_id, (a, b) = started_game(client)
    move_b = legal(client, game_id, b)["moves"][0]
    play_first_legal(client, game_id, a)
    r = client.post(f"/api/games/{game_id}/moves", headers=b["headers"], json={"version": 0, "move": move_b})
    assert r.status_code == 200 and r.json()["version"] == 2


def test_stale_version_is_409_with_current_version(client):
    """In the sequential draw phase a move made before the last move is 409 and carries the version."""
    game_id, (a, b) = started_game(client)
    play_first_legal(client, game_id, a)
    play_first_legal(client, game_id, b)  # both bid: draw phase, seat 0 to act at version 2
    play_first_legal(client, game_id, a)  # seat 1 to act at version 3
    r = client.post(
        f"/api/games/{game_id}/moves", headers=b["headers"], json={"version": 2, "move": {"type": "pass"}}
    )
    assert r.status_code == 409 and r.json()["version"] == 3
    r = client.post(
        f"/api/games/{game_id}/moves", headers=b["headers"], json={"version": 9, "move": {"type": "pass"}}
    )
    assert r.status_code == 409


def test_wrong_seat_illegal_and_non_member_moves_change_nothing(client):
    """403 for a seat not asked or a non-member, 422 naming the rule for an illegal move; no version moves."""
    game_id, (a, b) = started_game(client)
    play_first_legal(client, game_id, a)
    before = doc(client, game_id, a)
    r = client.post(
        f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 1, "move": {"type": "pass"}}
    )
    assert r.status_code == 403 and "not asked" in r.json()["detail"]
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=b["headers"],
        json={"version": 1, "move": {"type": "bid", "card": "K999"}},
    )
    assert r.status_code == 422 and "from your hand" in r.json()["detail"]
    outsider = new_player(client, "Out")
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=outsider["headers"],
        json={"version": 1, "move": {"type": "pass"}},
    )
    assert r.status_code == 403
    r = client.post(f"/api/games/{game_id}/moves", json={"version": 1, "move": {"type": "pass"}})
    assert r.status_code == 401
    assert doc(client, game_id, a) == before
    assert len(client.get(f"/api/games/{game_id}/log", headers=a["headers"]).json()["moves"]) == 1


def test_repeated_client_move_id_returns_first_answer(client):
    """A retried move id gives the first version again and stores one move; a reused id for
    another move is 409."""
    game_id, (a, b) = started_game(client)
    move = legal(client, game_id, a)["moves"][0]
    body = {"version": 0, "move": move, "id": "m-1"}
    first = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body)
    again = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=body)
    assert first.json() == again.json() == {"version": 1}
    other = dict(body, move={"type": "bid", "card": "K998"})
    r = client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json=other)
    assert r.status_code == 409 and "different move" in r.json()["detail"]
    assert doc(client, game_id, a)["version"] == 1


def test_log_hides_sealed_bids_until_the_end_then_shows_moves_and_seed(client):
    """Others see only that a bid was made; after the end everyone gets every move and the seed,
    whose hash matches the document's."""
    game_id, (a, b) = started_game(client, options={"rounds": 1})
    play_first_legal(client, game_id, a)
    seen_by_b = client.get(f"/api/games/{game_id}/log", headers=b["headers"]).json()
    seen_by_a = client.get(f"/api/games/{game_id}/log", headers=a["headers"]).json()
    assert seen_by_b["moves"][0]["move"] == {"type": "bid"}
    assert seen_by_a["moves"][0]["move"]["card"].startswith("K")
    assert "seed" not in seen_by_b
    while doc(client, game_id, a)["status"] == "active":
        for player in (a, b):
            if legal(client, game_id, player)["moves"]:
                play_first_legal(client, game_id, player)
    final = client.get(f"/api/games/{game_id}/log").json()
    assert hashlib.sha256(final["seed"].encode()).hexdigest() == doc(client, game_id)["seed_hash"]
    assert all("card" in m["move"] for m in final["moves"] if m["move"]["type"] == "bid")
    d = doc(client, game_id, a)
    assert d["outcome"]["ranks"] and d["to_act"] == []
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=a["headers"],
        json={"version": d["version"], "move": {"type": "pass"}},
    )
    assert r.status_code == 409 and "over" in r.json()["detail"]
    room = client.get(f"/api/rooms/{d['room_id']}", headers=a["headers"]).json()
    assert room["status"] == "finished" and room["game_id"] == game_id  # the room ends with it
    assert d["room_id"] not in [r["id"] for r in client.get("/api/rooms").json()]


def test_replaying_the_public_log_reproduces_the_final_state(client):
    """With the revealed seed and moves anyone can replay the game to the same final scores."""
    from app.engine.runner import replay
    from tests.support.testgame import TEST_GAME

    game_id, humans = started_game(client, seats=3, bots=2, options={"rounds": 2})
    final = play_to_end(client, game_id, humans)
    log = client.get(f"/api/games/{game_id}/log").json()
    state = replay(
        TEST_GAME,
        log["players"],
        log["options"],
        int(log["seed"]),
        [(m["seat"], m["move"]) for m in log["moves"]],
    )
    assert TEST_GAME.outcome(state).to_json() == final["outcome"]


def test_bots_play_a_whole_game(client):
    """A game with one human and bots: bots move by themselves; the human's moves are awaited."""
    game_id, humans = started_game(client, seats=4, bots=3, options={"rounds": 2})
    final = play_to_end(client, game_id, humans)
    assert final["outcome"] and len(final["outcome"]["scores"]) == 4
    log = client.get(f"/api/games/{game_id}/log").json()["moves"]
    assert {m["seat"] for m in log} == {0, 1, 2, 3}


def test_leaving_a_running_game_hands_the_seat_to_a_bot(client):
    """A player who leaves mid-game is replaced by a bot, which then plays that seat."""
    game_id, (a, b) = started_game(client, options={"rounds": 1})
    play_first_legal(client, game_id, a)
    room_id = doc(client, game_id, b)["room_id"]
    assert client.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
    assert client.get(f"/api/rooms/{room_id}", headers=a["headers"]).json()["seats"][1]["bot"]
    wait_for(lambda: doc(client, game_id, a)["version"] >= 2)
    assert doc(client, game_id, b)["seat"] is None


def test_views_never_carry_the_seed_or_other_hands(client):
    """Canary: nothing a seat receives over REST names the seed or a card still hidden in another hand."""
    game_id, (a, b) = started_game(client, options={"rounds": 3})
    received = []
    for _ in range(4):
        for player in (a, b):
            for path in ("", "/legal-moves", "/log"):
                received.append(client.get(f"/api/games/{game_id}{path}", headers=player["headers"]).text)
            if legal(client, game_id, player)["moves"]:
                play_first_legal(client, game_id, player)
    live = client.app.state.platform.games._live[game_id]
    assert not live.finished
    seed = str(live.seed)
    hidden_from_a = set(live.state["hands"][1]) | set(live.state["deck"])
    text_a = "".join(received[i] for i in range(len(received)) if (i // 3) % 2 == 0)
    assert seed not in "".join(received)
    leaked = [card for card in hidden_from_a if json.dumps(card) in text_a]
    assert not leaked
