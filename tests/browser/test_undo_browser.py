"""Undo at the table (issue 30): the lobby's take-back option, the Undo button shown only while
the server allows a take-back, the other player's page turned back by the patch, and the log
line that says so, with the move taken back struck through but kept."""

from __future__ import annotations

from tests.support import http


def _player(server, name):
    p = http.post(f"{server.url}/api/players", json={"name": name}).json()
    p["headers"] = {"Authorization": f"Bearer {p['token']}"}
    return p


def _open(page, server, player, path):
    page.goto(server.url + "/")
    page.evaluate(
        "p => localStorage.setItem('civitas.player', JSON.stringify(p))",
        {k: player[k] for k in ("id", "name", "token")},
    )
    page.goto(server.url + path)


def test_the_lobby_offers_the_take_back_option(live_server, page):
    """The host picks "A misclick" in the create form: the room carries it and its page says so."""
    host = _player(live_server, "Host")
    _open(page, live_server, host, "/")
    page.select_option("#ruleset-select", "testgame")
    page.select_option("#undo-select", "misclick")
    page.click("#create-button")
    page.wait_for_url("**/rooms/*")
    room_id = page.url.rsplit("/", 1)[1]
    room = http.get(f"{live_server.url}/api/rooms/{room_id}", headers=host["headers"]).json()
    assert room["undo"] == "misclick"
    page.wait_for_selector("#room-meta:has-text('take-backs: a misclick')")


def test_undo_button_takes_the_last_move_back(live_server, page):
    """Ann bids by clicking, sees Undo, clicks it: her bid is back in her hand, Bob's document is
    as before, the log says "Ann took back 1 move." and strikes the bid through. Once Bob has bid,
    Ann's next bid cannot be taken back and Undo stays hidden."""
    ann, bob = _player(live_server, "Ann"), _player(live_server, "Bob")
    room = http.post(
        f"{live_server.url}/api/rooms",
        headers=ann["headers"],
        json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 2}, "undo": "turn"},
    ).json()
    http.post(f"{live_server.url}/api/rooms/{room['id']}/join", headers=bob["headers"], json={})
    game = http.post(f"{live_server.url}/api/rooms/{room['id']}/start", headers=ann["headers"]).json()[
        "game_id"
    ]
    bob_before = http.get(f"{live_server.url}/api/games/{game}", headers=bob["headers"]).json()
    _open(page, live_server, ann, f"/games/{game}")
    page.wait_for_function(
        "window.civitas.doc && window.civitas.table && window.civitas.legalVersion === 0"
        " && document.querySelector('.legal-move')"
    )
    assert page.is_hidden("#undo")  # nothing played yet
    hand = page.evaluate("window.civitas.doc.view.hand")
    page.locator(".legal-move").first.click()
    page.wait_for_function("window.civitas.doc.version === 1 && window.civitas.legalVersion === 1")
    page.wait_for_selector("#undo", state="visible")
    page.click("#undo")
    page.wait_for_function("window.civitas.doc.version === 2")
    assert page.evaluate("window.civitas.doc.view.hand") == hand
    bob_now = http.get(f"{live_server.url}/api/games/{game}", headers=bob["headers"]).json()
    assert {**bob_now, "version": 0} == bob_before
    page.wait_for_selector("#log li.taken-back[data-seq='1']")
    assert "Ann took back 1 move." in page.locator("#log li[data-seq='2']").inner_text()
    page.wait_for_function("window.civitas.legalVersion === 2")
    assert page.is_hidden("#undo")
    # Ann bids again, then Bob bids (the die is rolled): nothing is Ann's to take back now.
    page.wait_for_function("document.querySelector('.legal-move')")
    page.locator(".legal-move").first.click()
    page.wait_for_function("window.civitas.doc.version === 3")
    legal = http.get(f"{live_server.url}/api/games/{game}/legal-moves", headers=bob["headers"]).json()
    assert (
        http.post(
            f"{live_server.url}/api/games/{game}/moves",
            headers=bob["headers"],
            json={"version": 3, "move": legal["moves"][0]},
        ).status_code
        == 200
    )
    page.wait_for_function("window.civitas.doc.version === 4 && window.civitas.legalVersion === 4")
    assert page.is_hidden("#undo") and page.evaluate("window.civitas.undo") == 0
