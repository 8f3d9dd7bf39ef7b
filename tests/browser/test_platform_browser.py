"""The browser client: lobby, room, bots, start, and a game played to the end by clicking."""

from __future__ import annotations

import pytest

from tests.support import http


def _enter_name(page, name):
    page.fill("#name-input", name)
    page.click("#name-form button[type=submit]")


def test_create_room_add_bot_start_and_play_by_clicking(live_server, page):
    """A new user opens the lobby, creates a table, seats a bot, starts, and plays to the final scores."""
    page.goto(live_server.url + "/")
    page.select_option("#ruleset-select", "testgame")
    page.fill("#seats-input", "2")
    page.fill("input[name=rounds]", "2")
    page.click("#create-button")
    _enter_name(page, "Alice")
    page.wait_for_url("**/rooms/*")
    page.click(".add-bot[data-seat='1']")
    page.wait_for_selector(".remove-bot[data-seat='1']")
    page.click("#start-button")
    page.wait_for_url("**/games/*")
    page.wait_for_selector("#turn-status:has-text('Your turn')")
    clicks = 0
    # Wait for the state the click needs (our turn, legal moves of this version), never for a
    # button that the next redraw may replace.
    ready = (
        "window.civitas.doc.status === 'finished' || (window.civitas.doc.to_act.includes("
        "window.civitas.doc.seat) && window.civitas.legalVersion === window.civitas.doc.version"
        " && window.civitas.legal.length > 0 && document.querySelector('.legal-move') !== null)"
    )
    while True:
        page.wait_for_function(ready, timeout=30000)
        if page.evaluate("window.civitas.doc.status") == "finished":
            break
        # A real click, as a player makes it: the mouse pressed and released where the button
        # is (the page holds redraws while it is pressed, see the next test, so a patch arriving
        # mid-click cannot swallow it). Not Playwright's element click: when the page redraws
        # right after taking the click (the move sent, the button gone), that click reports the
        # element detached and clicks again, on whatever next turn's button appears.
        version = page.evaluate("window.civitas.doc.version")
        box = page.locator(".legal-move").first.bounding_box()
        if box is None:
            continue  # redrawn between the wait and the measure: wait for the state again
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        clicks += 1
        page.wait_for_function(f"window.civitas.doc.version > {version}", timeout=30000)
        assert clicks < 40
    page.wait_for_selector("#outcome:not([hidden])")
    assert clicks >= 2
    assert page.locator("table.scores tbody tr").count() == 2
    game_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate("JSON.parse(localStorage.getItem('civitas.player')).token")
    final = http.get(
        f"{live_server.url}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert final["status"] == "finished" and final["seat"] == 0
    # The document the page rebuilt from its snapshot and patches is exactly the server's.
    assert page.evaluate("window.civitas.doc") == final


def test_lobby_lists_public_rooms_live_and_join_by_link(live_server, browser):
    """A room another player opens appears in the lobby without reloading; its invite link seats a friend."""
    watcher = browser.new_context().new_page()
    watcher.goto(live_server.url + "/")
    watcher.wait_for_selector("#rooms-body")
    host = http.post(f"{live_server.url}/api/players", json={"name": "Host"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{live_server.url}/api/rooms",
        headers=auth,
        json={"ruleset": "testgame", "seats": 2, "private": False},
    ).json()
    watcher.wait_for_selector(f"tr[data-room-id='{room['id']}']")
    private = http.post(
        f"{live_server.url}/api/rooms",
        headers=auth,
        json={"ruleset": "testgame", "seats": 2, "private": True},
    ).json()
    friend = browser.new_context().new_page()
    friend.goto(f"{live_server.url}/r/{private['invite_code']}")
    friend.wait_for_url("**/rooms/*")
    friend.click("#join-button")
    _enter_name(friend, "Friend")
    friend.wait_for_selector(".seat[data-seat='1']:has-text('Friend')")
    assert watcher.locator(f"tr[data-room-id='{private['id']}']").count() == 0
    watcher.context.close()
    friend.context.close()


def test_room_page_shows_only_the_buttons_that_apply(live_server, browser):
    """The seated host sees Leave and Start (disabled until full), not Take a seat; a visitor sees
    Take a seat, not Start."""
    host = http.post(f"{live_server.url}/api/players", json={"name": "Host"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{live_server.url}/api/rooms", headers=auth, json={"ruleset": "testgame", "seats": 2}
    ).json()
    page = browser.new_context().new_page()
    page.goto(live_server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    page.goto(f"{live_server.url}/rooms/{room['id']}")
    page.wait_for_selector(".seat[data-seat='0']:has-text('Host')")
    assert page.is_hidden("#join-button") and page.is_visible("#leave-button")
    assert page.is_visible("#start-button") and page.is_disabled("#start-button")
    visitor = browser.new_context().new_page()
    visitor.goto(f"{live_server.url}/rooms/{room['id']}")
    visitor.wait_for_selector(".seat[data-seat='0']:has-text('Host')")
    assert visitor.is_visible("#join-button") and visitor.is_hidden("#start-button")
    assert visitor.is_hidden("#leave-button") and visitor.locator(".add-bot").count() == 0
    page.context.close()
    visitor.context.close()


def test_lobby_lists_your_tables(live_server, browser):
    """A returning player sees the tables they host or sit in, with a link back into each."""
    host = http.post(f"{live_server.url}/api/players", json={"name": "Back"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{live_server.url}/api/rooms",
        headers=auth,
        json={"ruleset": "testgame", "seats": 1, "private": True},
    ).json()
    game = http.post(f"{live_server.url}/api/rooms/{room['id']}/start", headers=auth).json()["game_id"]
    page = browser.new_context().new_page()
    page.goto(live_server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    page.goto(live_server.url + "/")
    link = page.locator(f"tr[data-mine-id='{room['id']}'] a")
    link.wait_for()
    link.click()
    page.wait_for_url(f"**/games/{game}")
    page.context.close()


@pytest.mark.parametrize("press", ["mouse", "touch", "keyboard"])
def test_a_click_is_not_lost_when_a_patch_arrives_between_press_and_release(live_server, browser, press):
    """A player presses a move button (a mouse button, a finger, or Space, which clicks on its
    release); before the release, another player's move arrives and the page has its new state.
    The page must not redraw under the pressed button (the release would land on a new node and
    the browser would fire no click): the click plays the move."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, bypass_csp=True, has_touch=press == "touch"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    a = http.post(f"{live_server.url}/api/players", json={"name": "Ann"}).json()
    b = http.post(f"{live_server.url}/api/players", json={"name": "Bob"}).json()
    ha, hb = ({"Authorization": f"Bearer {p['token']}"} for p in (a, b))
    room = http.post(
        f"{live_server.url}/api/rooms",
        headers=ha,
        json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 2}},
    ).json()
    http.post(f"{live_server.url}/api/rooms/{room['id']}/join", headers=hb, json={})
    game = http.post(f"{live_server.url}/api/rooms/{room['id']}/start", headers=ha).json()["game_id"]
    page.goto(live_server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", a)
    page.goto(f"{live_server.url}/games/{game}")
    # Both seats bid at once (the test game's first phase): Ann's buttons for version 0 are drawn,
    # and so is the log (its first line, "No moves yet.", moves the list of moves down: a press
    # aimed before it is drawn lands beside the button).
    page.wait_for_function(
        "window.civitas.doc && window.civitas.legalVersion === 0 && "
        "window.civitas.legal.length > 0 && document.querySelector('.legal-move') "
        "&& document.querySelector('#log li')"
    )
    box = page.locator(".legal-move").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate("""() => { window.pressedOn = null; for (const type of ['pointerdown', 'keydown'])
        document.addEventListener(type, (e) => { window.pressedOn = e.target.className; }, { capture: true, once: true }); }""")
    if press == "mouse":
        page.mouse.move(x, y)
        page.mouse.down()
    elif press == "touch":
        touch = context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    else:
        page.locator(".legal-move").first.focus()
        page.keyboard.down(" ")
    # The press is on the button (not beside it): what follows tests the page, not the aim.
    page.wait_for_function("window.pressedOn !== null")
    assert page.evaluate("window.pressedOn") == "legal-move"
    legal = http.get(f"{live_server.url}/api/games/{game}/legal-moves", headers=hb).json()
    assert (
        http.post(
            f"{live_server.url}/api/games/{game}/moves",
            headers=hb,
            json={"version": 0, "move": legal["moves"][0]},
        ).status_code
        == 200
    )
    # The page has Bob's move and Ann's legal moves of version 1 before the button is released.
    # ... and the log's line for Bob's move, which would push the button from under the pointer.
    page.wait_for_function(
        "window.civitas.doc.version === 1 && window.civitas.legalVersion === 1"
        " && window.civitas.log.some((entry) => entry.seat === 1)"
    )
    # The redraws for it are held back, still to run: the race really happened.
    assert page.evaluate("window.civitas.drawsWaiting()") > 0
    if press == "mouse":
        page.mouse.up()
    elif press == "touch":
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    else:
        page.keyboard.up(" ")
    page.wait_for_function("window.civitas.doc.version === 2", timeout=30000)
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=ha).json()["moves"]
    assert [m["seat"] for m in log] == [1, 0]
    # Once released, the page draws what it held back: the bids are in, nothing left to click.
    page.wait_for_function("window.civitas.drawsWaiting() === 0")
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
