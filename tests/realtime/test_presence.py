"""Issue 26 item 8: the heartbeat, not just its parts, keeps a connected player's seat. A real
app with short settings (a heartbeat every 0.25 s, the absence grace 2 s, a clock sweep every
0.2 s) and the real `Hub.beat`: the player whose socket stays open keeps the seat however long
they think, while the one whose socket closed loses it to a bot. A planted bug that handed
presence the wrong sockets (so the connected player's presence went stale) survived every
earlier test and then let a bot take a connected player's seat."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from app.main import create_app
from tests.support.api import doc, new_player
from tests.support.wait import wait_for


def _table(client, game_id):
    return {s["seat"]: s for s in client.get(f"/api/games/{game_id}/table").json()["seats"]}


def test_heartbeats_keep_a_connected_players_seat(settings):
    quick = settings.model_copy(
        update={"heartbeat_seconds": 0.25, "absence_grace_seconds": 2, "clock_sweep_seconds": 0.2}
    )
    with TestClient(create_app(quick)) as client:
        a, b = new_player(client, "Ann"), new_player(client, "Bob")
        room = client.post(
            "/api/rooms",
            headers=a["headers"],
            json={
                "ruleset": "testgame",
                "seats": 2,
                "options": {},
                "pace": {"kind": "realtime", "move_minutes": 60, "reserve_minutes": 0},
            },
        ).json()
        client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
        game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
        assert sorted(doc(client, game_id)["to_act"]) == [0, 1]  # both bid: both asked to act
        with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ann:
            assert ann.receive_json()["type"] == "snapshot"
            with client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as bob:
                assert bob.receive_json()["type"] == "snapshot"
            # Bob's socket is gone; Ann's stays open and says nothing for three grace periods.
            wait_for(lambda: _table(client, game_id)[1]["held"], timeout=30)
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline:
                seat = _table(client, game_id)[0]
                assert not seat["held"] and seat["kind"] == "player", seat
                assert seat["connected"] is True
                time.sleep(0.2)
