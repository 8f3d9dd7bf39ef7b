"""Taking moves back (POST /api/games/{id}/undo, the `undo` frame): a new log row and version,
the others' documents as before the moves, and every refusal a sentence that changes nothing.

The test game: a sealed bid is taken back freely until the last bid rolls the die (a reveal);
in the draw phase a pass reveals nothing and a draw shows the mover a card."""

from __future__ import annotations

import jsonpatch

from tests.support.api import doc, legal, new_player


def _undo_game(client, mode: str = "turn", seats: int = 2, rounds: int = 3):
    """A started test game in a room whose undo option is `mode`; returns (game, players)."""
    players = [new_player(client, f"P{i}") for i in range(seats)]
    r = client.post(
        "/api/rooms",
        headers=players[0]["headers"],
        json={
            "ruleset": "testgame",
            "seats": seats,
            "private": False,
            "options": {"rounds": rounds},
            "undo": mode,
        },
    )
    assert r.status_code == 201, r.text
    room = r.json()
    assert room["undo"] == mode
    for p in players[1:]:
        assert client.post(f"/api/rooms/{room['id']}/join", headers=p["headers"], json={}).status_code == 200
    r = client.post(f"/api/rooms/{room['id']}/start", headers=players[0]["headers"])
    assert r.status_code == 200, r.text
    return r.json()["game_id"], players


def _move(client, game_id, player, move, version):
    r = client.post(
        f"/api/games/{game_id}/moves", headers=player["headers"], json={"version": version, "move": move}
    )
    assert r.status_code == 200, r.text
    return r.json()["version"]


def _undo(client, game_id, player, version, moves=None, **extra):
    body = {"version": version, **extra}
    if moves is not None:
        body["moves"] = moves
    return client.post(f"/api/games/{game_id}/undo", headers=player["headers"], json=body)


def _log(client, game_id, player=None):
    r = client.get(f"/api/games/{game_id}/log", headers=player["headers"] if player else {})
    assert r.status_code == 200, r.text
    return r.json()["moves"]


def _to_draw_phase(client, game_id, a, b):
    """Both bid (the last bid rolls the die): the draw phase, seat 0 to act, at version 2."""
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    return _move(client, game_id, b, legal(client, game_id, b)["moves"][0], 1)


def test_a_bid_taken_back_leaves_every_document_as_before(client):
    """Ann's sealed bid, taken back: a new version whose documents equal those before the bid
    for her, for Ben and for spectators; the log keeps the bid and adds one line."""
    game_id, (a, b) = _undo_game(client)
    before = {who: doc(client, game_id, p) for who, p in (("a", a), ("b", b), ("spec", None))}
    assert legal(client, game_id, a)["undo"] == 0  # nothing played yet
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    assert legal(client, game_id, a)["undo"] == 1
    assert legal(client, game_id, b)["undo"] == 0  # Ben has nothing of his to take back
    r = _undo(client, game_id, a, 1)
    assert r.status_code == 200, r.text
    assert r.json() == {"version": 2, "undone": 1}
    for who, p in (("a", a), ("b", b), ("spec", None)):
        now = doc(client, game_id, p)
        assert now["version"] == 2
        assert {**now, "version": 0} == before[who]
    log_b = _log(client, game_id, b)
    assert [e["seq"] for e in log_b] == [1, 2]  # the bid's row stays: nothing is deleted
    assert log_b[0]["move"] == {"type": "bid"}  # still sealed for Ben
    assert log_b[1]["move"] == {"undo": 1} and log_b[1]["takes_back"] == [1]
    assert log_b[1]["text"] == "P0 took back 1 move."
    assert legal(client, game_id, a)["undo"] == 0  # the run is empty again
    # The game goes on from the earlier state: Ann bids again, at version 2.
    assert _move(client, game_id, a, legal(client, game_id, a)["moves"][-1], 2) == 3


def test_a_reload_from_the_database_rebuilds_the_take_back(client):
    """The take-back is a stored row: a copy loaded afresh (another instance, a restart) reaches
    the same state, whether it replays the log or starts from the take-back's snapshot."""
    game_id, (a, b) = _undo_game(client)
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    assert _undo(client, game_id, a, 1).status_code == 200
    expected = doc(client, game_id, a)
    games = client.app.state.platform.games
    live = games.loaded(game_id)
    state = live.state
    games.forget(game_id)
    assert doc(client, game_id, a) == expected
    assert games.loaded(game_id).state == state


def test_refusals_are_sentences_and_change_nothing(client):
    """Off, nothing to take back, too many, bad bodies, strangers: 4xx with a sentence, and the
    game's version never moves."""
    game_id, (a, b) = _undo_game(client, mode="off")
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    assert "undo" not in legal(client, game_id, a)
    r = _undo(client, game_id, a, 1)
    assert r.status_code == 403 and "does not let players take moves back" in r.json()["detail"]
    assert r.json()["code"] == "undo/off"
    assert doc(client, game_id)["version"] == 1

    game_id, (a, b) = _undo_game(client)
    r = _undo(client, game_id, a, 0)
    assert r.status_code == 409 and r.json()["detail"] == "You have no move of this turn to take back."
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    r = _undo(client, game_id, a, 1, moves=2)
    assert r.status_code == 409 and r.json()["code"] == "undo/too_far"
    assert "You can take back 1 of your moves now, not 2" in r.json()["detail"]
    for body, fragment in (
        ({"version": 1, "moves": 0}, "moves"),
        ({"version": 1, "moves": "2"}, "moves"),
        ({"moves": 1}, "version"),
        ({"version": 1, "extra": True}, "extra"),
    ):
        r = client.post(f"/api/games/{game_id}/undo", headers=a["headers"], json=body)
        assert r.status_code == 422 and fragment in r.json()["detail"], (body, r.text)
    stranger = new_player(client, "Stranger")
    r = _undo(client, game_id, stranger, 1)
    assert r.status_code == 403 and r.json()["detail"] == "You do not hold a seat in this game."
    assert client.post(f"/api/games/{game_id}/undo", json={"version": 1}).status_code == 401
    r = _undo(client, "nosuchgame", a, 1)
    assert r.status_code == 404
    assert doc(client, game_id)["version"] == 1
    assert legal(client, game_id, a)["undo"] == 1  # still Ann's to take back


def test_no_take_back_after_another_seat_acted_or_after_a_reveal(client):
    """Once Ben has bid (his bid rolls the die), Ann's bid is his to keep and his own bid showed
    him the roll: neither may be taken back. In the draw phase a pass may be, a draw not."""
    game_id, (a, b) = _undo_game(client)
    version = _to_draw_phase(client, game_id, a, b)
    r = _undo(client, game_id, a, version)
    assert r.status_code == 409
    assert r.json()["detail"] == "Seat 1 has acted since your last move, so it can no longer be taken back."
    r = _undo(client, game_id, b, version)
    assert r.status_code == 409 and "showed you something that was hidden" in r.json()["detail"]
    assert legal(client, game_id, b)["undo"] == 0
    # Draw phase, seat 0 to act: a pass may be taken back, a draw (a card seen) not.
    version = _move(client, game_id, a, {"type": "pass"}, version)
    assert _undo(client, game_id, a, version).status_code == 200
    version = _move(client, game_id, a, {"type": "draw"}, version + 1)
    r = _undo(client, game_id, a, version)
    assert r.status_code == 409 and r.json()["code"] == "undo/nothing"
    assert doc(client, game_id)["version"] == version


def test_a_take_back_racing_another_seats_move_is_refused_in_words(client):
    """Ann asks to take her bid back at version 1 while Ben's bid has already made version 2:
    409, naming Ben, with the current version; Ben's move stands."""
    game_id, (a, b) = _undo_game(client)
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    _move(client, game_id, b, legal(client, game_id, b)["moves"][0], 0)  # simultaneous: still accepted
    r = _undo(client, game_id, a, 1)
    assert r.status_code == 409 and r.json()["version"] == 2
    assert r.json()["detail"] == "Seat 1 has acted since, so your moves can no longer be taken back."
    assert doc(client, game_id)["version"] == 2


def test_misclick_mode_takes_back_the_last_move_once(client):
    """In `misclick` mode a player takes back one move, and not a second one in a row."""
    game_id, (a, b, c) = _undo_game(client, mode="misclick", seats=3)
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    assert legal(client, game_id, a)["undo"] == 1
    assert _undo(client, game_id, a, 1).status_code == 200
    r = _undo(client, game_id, a, 2)
    assert r.status_code == 409
    table = client.get(f"/api/games/{game_id}/table", headers=a["headers"]).json()
    assert table["undo"] == "misclick"


def test_retried_take_back_with_an_id_is_answered_once(client):
    """The same take-back sent twice with one id makes one row."""
    game_id, (a, b) = _undo_game(client)
    _move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0)
    first = _undo(client, game_id, a, 1, id="u1")
    again = _undo(client, game_id, a, 1, id="u1")
    assert first.status_code == again.status_code == 200
    assert first.json()["version"] == again.json()["version"] == 2
    assert doc(client, game_id)["version"] == 2


def _frame(ws, kind):
    """The next frame of `kind`, skipping the others (heartbeats, the table's news, acks)."""
    for _ in range(50):
        frame = ws.receive_json()
        if frame["type"] == kind:
            return frame
    raise AssertionError(f"no {kind} frame")


def test_undo_frame_acks_and_patches_the_others(client):
    """An `undo` frame is acked like a move; the other seat's patch turns its document back."""
    game_id, (a, b) = _undo_game(client)
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws_a,
        client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws_b,
    ):
        _frame(ws_a, "snapshot")
        doc_b = _frame(ws_b, "snapshot")["game"]
        before_b = dict(doc_b)
        move = legal(client, game_id, a)["moves"][0]
        ws_a.send_json({"type": "move", "version": 0, "move": move, "id": "m1"})
        doc_b = jsonpatch.apply_patch(doc_b, _frame(ws_b, "patch")["ops"])
        assert doc_b["view"]["bids"][0] is True
        ws_a.send_json({"type": "undo", "version": 1, "moves": 1, "id": "u1", "extra": 1})
        error = _frame(ws_a, "error")
        assert error["id"] == "u1" and error["status"] == 422 and "undo frame" in error["detail"]
        ws_a.send_json({"type": "undo", "version": 1, "id": "u2"})
        seen = {}
        while "ack" not in seen:
            frame = ws_a.receive_json()
            seen.setdefault(frame["type"], frame)
        assert seen["ack"] == {"type": "ack", "id": "u2", "version": 2}
        patch = _frame(ws_b, "patch")
        assert patch["version"] == 2
        doc_b = jsonpatch.apply_patch(doc_b, patch["ops"])
        assert {**doc_b, "version": 0} == before_b
        ws_b.send_json({"type": "undo", "version": 2, "id": "u3"})
        error = _frame(ws_b, "error")
        assert error["status"] == 409 and error["code"] == "undo/nothing"


def test_replay_and_its_index_step_through_take_backs(client):
    """The replay API rebuilds every version of a game with take-backs, from setup and from the
    take-backs' snapshots, as its players saw them; the index counts the take-back as a turn."""
    game_id, (a, b) = _undo_game(client)
    seen = {0: doc(client, game_id, a)}

    def after(version):
        seen[version] = doc(client, game_id, a)
        return version

    version = after(_move(client, game_id, a, legal(client, game_id, a)["moves"][0], 0))
    version = after(_undo(client, game_id, a, version).json()["version"])
    version = after(_move(client, game_id, a, legal(client, game_id, a)["moves"][-1], version))
    version = after(_move(client, game_id, b, legal(client, game_id, b)["moves"][0], version))
    for _ in range(4):  # the draw phase: a pass, taken back, again, until 8 recent states are gone
        version = after(_move(client, game_id, a, {"type": "pass"}, version))
        version = after(_undo(client, game_id, a, version).json()["version"])
    version = after(_move(client, game_id, a, {"type": "pass"}, version))
    platform = client.app.state.platform
    # Oldest first, each version is rebuilt from the one before (through the take-back rows);
    # newest first, from the stored snapshots.
    for order in (sorted(seen), sorted(seen, reverse=True)):
        platform.games.forget(game_id)
        platform.replays.forget(game_id)
        for at in order:
            r = client.get(f"/api/games/{game_id}/replay/{at}", headers=a["headers"])
            assert r.status_code == 200, r.text
            assert r.json()["view"] == seen[at]["view"] and r.json()["version"] == at
    index = client.get(f"/api/games/{game_id}/replay", headers=a["headers"]).json()
    assert index["movers"] == [0, 0, 0, 1] + [0] * 9


def test_an_instance_loaded_after_the_moves_began_can_take_them_back(settings):
    """Two instances on one database, a snapshot at every version: the second loads the game
    after Ann's bid, from a snapshot before her run of moves, so it holds the state before the bid
    and takes it back itself; the first catches up and agrees."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = settings.model_copy(update={"snapshot_every": 1, "bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        game_id, (a, b) = _undo_game(one)
        _move(one, game_id, a, legal(one, game_id, a)["moves"][0], 0)
        assert doc(two, game_id, a)["version"] == 1
        assert legal(two, game_id, a)["undo"] == 1
        assert _undo(two, game_id, a, 1).status_code == 200
        assert doc(one, game_id, a) == doc(two, game_id, a)
        assert doc(one, game_id, a)["version"] == 2


def test_a_copy_without_the_run_catches_up_from_the_take_backs_snapshot(settings):
    """A copy that does not hold the states a take-back returns to (its run was cut short, as
    when the run is longer than the copy keeps) reads the state stored with the take-back's row."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = settings.model_copy(update={"bot_watchdog_seconds": 3600})
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        game_id, (a, b) = _undo_game(one)
        _move(one, game_id, a, legal(one, game_id, a)["moves"][0], 0)
        assert doc(two, game_id, a)["version"] == 1
        two.app.state.platform.games.loaded(game_id).line.reset()
        assert legal(two, game_id, a)["undo"] == 0  # this copy cannot tell; the first one can
        assert _undo(one, game_id, a, 1).status_code == 200
        assert doc(two, game_id, a) == doc(one, game_id, a)
        assert doc(two, game_id, b)["version"] == 2
        assert _move(two, game_id, a, legal(two, game_id, a)["moves"][0], 2) == 3


def test_bots_never_take_back(client):
    """A bot seat in a room that allows take-backs: a take-back for the bot's seat is refused in
    words right after its move, and in a game played to the end no row of the log is a
    take-back."""
    from app.engine.errors import GameError
    from tests.support.api import play_to_end
    from tests.support.wait import wait_for

    ann = new_player(client, "Ann")
    room = client.post(
        "/api/rooms",
        headers=ann["headers"],
        json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 2}, "undo": "turn"},
    ).json()
    assert client.post(f"/api/rooms/{room['id']}/bots", headers=ann["headers"], json={}).status_code == 200
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=ann["headers"]).json()["game_id"]
    _move(client, game_id, ann, legal(client, game_id, ann)["moves"][0], 0)
    wait_for(lambda: doc(client, game_id)["version"] >= 2)  # the bot's bid
    platform = client.app.state.platform
    version = doc(client, game_id)["version"]
    try:
        client.portal.call(platform.games.take_back, game_id, 1, version, 1)
    except GameError as exc:
        assert exc.code.value == "undo/nothing"
        assert exc.detail == "Bots never take moves back."
    else:
        raise AssertionError("a bot seat's take-back was accepted")
    play_to_end(client, game_id, [ann])
    assert not [e for e in _log(client, game_id) if "undo" in e["move"]]
