"""Private means private (issue 26 item 7, issue 33 item 3): a private room's game, its log, its
table, its socket and so its chat answer 404 (the answer for a game that does not exist) to
anyone who is not seated in it and does not present the invite code; nothing public names a
private room or its game; outsiders get the same 404 on every private-room path."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.support.api import doc, new_player, new_room, play_to_end


def _private_game(client):
    """A started private 2-seat game: (game id, room, host, guest)."""
    host, guest = new_player(client, "Host"), new_player(client, "Guest")
    room = new_room(client, host, private=True)
    assert (
        client.post(
            f"/api/rooms/{room['id']}/join",
            headers=guest["headers"],
            json={"invite_code": room["invite_code"]},
        ).status_code
        == 200
    )
    r = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    return r.json()["game_id"], room, host, guest


def _offer(player):
    return ["civitas", f"bearer.{player['token']}"] if player else ["civitas"]


def test_a_private_game_is_404_to_outsiders_on_every_path(client):
    """Before: the document and the socket (with its chat) reached anyone with the game link."""
    game_id, room, host, guest = _private_game(client)
    stranger = new_player(client, "Stranger")
    for who in (None, stranger):
        headers = who["headers"] if who else {}
        for path in ("", "/legal-moves", "/log", "/table"):
            r = client.get(f"/api/games/{game_id}{path}", headers=headers)
            assert r.status_code == 404, (path, r.text)
            assert r.json()["detail"] == "No game with that id exists (or it is not visible to you)."
        with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(who)) as ws:
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["status"] == 404
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
    move = {"version": 0, "move": {"type": "bid", "card": "K001"}}
    for path, body in (("/moves", move), ("/reclaim", None)):
        r = client.post(f"/api/games/{game_id}{path}", headers=stranger["headers"], json=body)
        assert r.status_code == 404, (path, r.text)
    r = client.post(f"/api/rooms/{room['id']}/rematch", headers=stranger["headers"])
    assert r.status_code == 404  # before: 409 (the game is not over), which told it exists
    for player in (host, guest):  # the seated players see everything
        assert doc(client, game_id, player)["seat"] is not None
        assert client.get(f"/api/games/{game_id}/table", headers=player["headers"]).status_code == 200


def test_the_invite_code_makes_a_spectator_of_a_private_game(client):
    """Whoever holds the code may watch (REST and socket, `?invite_code=`) and chat there; a
    wrong code is the same 404."""
    game_id, room, host, guest = _private_game(client)
    watcher = new_player(client, "Watcher")
    code = room["invite_code"]
    assert client.get(f"/api/games/{game_id}?invite_code=wrong").status_code == 404
    spectator_doc = client.get(f"/api/games/{game_id}?invite_code={code}").json()
    assert spectator_doc["seat"] is None and spectator_doc["id"] == game_id
    assert client.get(f"/api/games/{game_id}/log?invite_code={code}").status_code == 200
    with (
        client.websocket_connect(
            f"/ws/games/{game_id}?invite_code={code}", subprotocols=_offer(watcher)
        ) as ws,
        client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(host)) as seat,
    ):
        assert ws.receive_json()["type"] == "snapshot"
        assert seat.receive_json()["type"] == "snapshot"
        seat.send_json({"type": "chat", "text": "hello table"})
        while (frame := ws.receive_json())["type"] != "chat":
            pass
        assert frame["message"]["text"] == "hello table"


def test_a_player_who_leaves_a_private_game_loses_its_socket(client):
    """Leaving gives the seat to a bot; the leaver's open socket would have gone on as a
    spectator of a table it may no longer see: it is told and closed."""
    game_id, room, host, guest = _private_game(client)
    with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(guest)) as ws:
        assert ws.receive_json()["type"] == "snapshot"
        assert client.post(f"/api/rooms/{room['id']}/leave", headers=guest["headers"]).status_code == 204
        last = None
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                last = ws.receive_json()
        assert closed.value.code == 4404 and last["status"] == 404
    assert client.get(f"/api/games/{game_id}", headers=guest["headers"]).status_code == 404


def test_nothing_public_names_a_private_rematch(client):
    """Before: `GET /api/games/{id}/table` of any finished game showed anyone its rematch room
    (always private) and the rematch game's id. Now only the game's players see it."""
    host, guest = new_player(client, "Host"), new_player(client, "Guest")
    room = new_room(client, host)
    client.post(f"/api/rooms/{room['id']}/join", headers=guest["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=host["headers"]).json()["game_id"]
    play_to_end(client, game_id, [host, guest])
    rematch = client.post(f"/api/rooms/{room['id']}/rematch", headers=host["headers"]).json()
    stranger = new_player(client, "Stranger")
    for who in ({}, stranger["headers"]):
        assert client.get(f"/api/games/{game_id}/table", headers=who).json()["rematch"] is None
    seen = client.get(f"/api/games/{game_id}/table", headers=guest["headers"]).json()["rematch"]
    assert seen["room_id"] == rematch["room_id"]
    assert client.get(f"/api/rooms/{rematch['room_id']}", headers=stranger["headers"]).status_code == 404
