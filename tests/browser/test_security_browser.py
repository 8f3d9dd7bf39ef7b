"""The browser client under its own Content-Security-Policy, token renewal and socket auth."""

from __future__ import annotations

from tests.support import http


def test_pages_work_under_the_csp_and_sockets_carry_no_token_in_the_url(live_server, browser):
    """Lobby, room and a Suburbia game page (a renderer that injects styles) load and go live
    with CSP enforced: no violation, no script error; every socket URL is free of tokens; and a
    stored token near its expiry is renewed silently (issue 12 finding 2, security headers)."""
    api = live_server.url
    host = http.post(f"{api}/api/players", json={"name": "Ann"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{api}/api/rooms", headers=auth, json={"ruleset": "suburbia", "seats": 2, "options": {}}
    ).json()
    http.post(f"{api}/api/rooms/{room['id']}/bots", headers=auth, json={})
    game_id = http.post(f"{api}/api/rooms/{room['id']}/start", headers=auth).json()["game_id"]

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    sockets: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on("console", lambda msg: "Content Security Policy" in msg.text and problems.append(msg.text))
    page.on("websocket", lambda ws: sockets.append(ws.url))
    stale = dict(host, expires_at="2000-01-01T00:00:00+00:00")  # renew at once
    page.goto(f"{api}/")
    page.evaluate("(p) => localStorage.setItem('civitas.player', JSON.stringify(p))", stale)
    for path in ("/", f"/rooms/{room['id']}", f"/games/{game_id}"):
        page.goto(api + path)
        page.wait_for_load_state("networkidle")
    page.wait_for_selector("#board *")
    stored = page.evaluate("JSON.parse(localStorage.getItem('civitas.player'))")
    context.close()
    assert problems == []
    assert sockets and all("token=" not in url for url in sockets)
    assert stored["id"] == host["id"] and stored["token"] != host["token"]
    assert stored["expires_at"] > "2026"
