"""Each product ruleset played by clicking in the real game page, against a bot, through the server."""

from __future__ import annotations

import httpx


def _start(server, page, ruleset, seats=2, options=None):
    """Host a room with bots in the other seats, start it, and open the game page as the host."""
    host = httpx.post(f"{server.url}/api/players", json={"name": "Host"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = httpx.post(f"{server.url}/api/rooms", headers=auth, json={
        "ruleset": ruleset, "seats": seats, "options": options or {}}).json()
    for _ in range(seats - 1):
        httpx.post(f"{server.url}/api/rooms/{room['id']}/bots", headers=auth, json={})
    game = httpx.post(f"{server.url}/api/rooms/{room['id']}/start", headers=auth).json()["game_id"]
    page.goto(server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    page.goto(f"{server.url}/games/{game}")
    page.wait_for_function("window.civitas && window.civitas.doc")
    return game, auth


def _my_turn(page):
    page.wait_for_function("window.civitas.doc.to_act.includes(window.civitas.doc.seat) && "
                           "window.civitas.legalVersion === window.civitas.doc.version", timeout=30000)
    return page.evaluate("window.civitas.doc.version")


def _moved(page, version):
    page.wait_for_function(f"window.civitas.doc.version > {version}", timeout=30000)


def test_suburbia_goal_choice_and_turns_by_clicking(live_server, page):
    """Keep a secret goal, then on each turn place a market tile as a lake on a highlighted hex."""
    game, auth = _start(live_server, page, "suburbia")
    version = _my_turn(page)
    page.click(".sb-keep-goal >> nth=0")
    _moved(page, version)
    for _ in range(2):
        version = _my_turn(page)
        page.click(".sb-lake-btn >> nth=0")
        page.locator(".sb-cell.legal").first.click()
        _moved(page, version)
    _my_turn(page)  # the bot has moved and stopped: the game waits for us
    log = httpx.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    mine = [m["move"]["type"] for m in log if m["seat"] == 0]
    assert mine[0] == "keep_goal" and mine.count("lake") == 2
    _same_as_server(live_server, page, game, auth)


def _same_as_server(server, page, game, auth):
    """The document the page rebuilt from patches equals the server's."""
    served = httpx.get(f"{server.url}/api/games/{game}", headers=auth).json()
    assert page.evaluate("window.civitas.doc") == served
