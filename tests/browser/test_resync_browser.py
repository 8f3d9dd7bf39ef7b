"""The game page never silently drops a patch: a missing patch or a heartbeat ahead of its
document makes it ask for sync, and it ends equal to the server's document."""

from __future__ import annotations

import json

from tests.support import http


def _player(server, name):
    p = http.post(f"{server.url}/api/players", json={"name": name}).json()
    return p, {"Authorization": f"Bearer {p['token']}"}


def _two_seat_game(server):
    (a, ha), (b, hb) = _player(server, "A"), _player(server, "B")
    room = http.post(
        f"{server.url}/api/rooms",
        headers=ha,
        json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 3}},
    ).json()
    http.post(f"{server.url}/api/rooms/{room['id']}/join", headers=hb, json={})
    game = http.post(f"{server.url}/api/rooms/{room['id']}/start", headers=ha).json()["game_id"]
    return game, (a, ha), (b, hb)


def _move(server, game, headers):
    legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=headers).json()
    r = http.post(
        f"{server.url}/api/games/{game}/moves",
        headers=headers,
        json={"version": legal["version"], "move": legal["moves"][0]},
    )
    assert r.status_code == 200


def _open_as(page, server, player, game):
    page.goto(server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", player)
    page.goto(f"{server.url}/games/{game}")
    page.wait_for_function("window.civitas && window.civitas.doc && window.civitas.doc.version === 0")


def test_a_dropped_patch_is_noticed_and_resynced(live_server, page):
    """The proxy drops the first patch; the next one reveals the gap, the page asks for sync."""
    game, (a, ha), (b, hb) = _two_seat_game(live_server)
    client_frames: list[dict] = []
    dropped: list[dict] = []

    def route(ws):
        server = ws.connect_to_server()

        def from_server(message):
            frame = json.loads(message)
            if frame["type"] == "patch" and not dropped:
                dropped.append(frame)
                return
            ws.send(message)

        def from_client(message):
            client_frames.append(json.loads(message))
            server.send(message)

        server.on_message(from_server)
        ws.on_message(from_client)

    page.route_web_socket("**/ws/games/**", route)
    _open_as(page, live_server, b, game)
    _move(live_server, game, ha)
    _move(live_server, game, hb)
    page.wait_for_function("window.civitas.doc.version === 2")
    assert dropped and dropped[0]["version"] == 1
    assert {"type": "sync", "version": 0} in client_frames
    server_doc = http.get(f"{live_server.url}/api/games/{game}", headers=hb).json()
    assert page.evaluate("window.civitas.doc") == server_doc


def test_a_heartbeat_ahead_of_the_document_triggers_sync(live_server, page):
    """A patch lost with nothing after it (say the broker was down) is caught by the heartbeat's version."""
    game, (a, ha), (b, hb) = _two_seat_game(live_server)
    losing = {"patches": True}
    lost: list[int] = []

    def from_server(message):
        frame = json.loads(message)
        if losing["patches"] and frame["type"] == "patch":
            lost.append(frame["version"])
        else:
            ws_of["page"].send(message)

    ws_of = {}

    def route(ws):
        ws_of["page"] = ws
        server = ws.connect_to_server()
        server.on_message(from_server)
        ws.on_message(lambda m: server.send(m))

    page.route_web_socket("**/ws/games/**", route)
    _open_as(page, live_server, b, game)
    _move(live_server, game, ha)
    for _ in range(3000):  # Playwright hands the proxy its frames while the page is waited on
        if lost:
            break
        page.wait_for_timeout(20)
    assert lost == [1]
    assert page.evaluate("window.civitas.doc.version") == 0  # the patch was lost
    losing["patches"] = False
    page.evaluate("window.civitas.receive({type: 'heartbeat', version: 1})")
    page.wait_for_function("window.civitas.doc.version === 1")
    server_doc = http.get(f"{live_server.url}/api/games/{game}", headers=hb).json()
    assert page.evaluate("window.civitas.doc") == server_doc
