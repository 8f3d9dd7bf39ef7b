"""Bot levels on the room page (issue 28): a newcomer's first table suggests Normal; the host
picks a level for each bot seat, sees it in the bot's name, and can change it."""

from __future__ import annotations

from tests.support import http


def test_the_host_picks_and_changes_bot_levels_and_a_newcomer_is_offered_normal(live_server, browser):
    host = http.post(f"{live_server.url}/api/players", json={"name": "Host"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{live_server.url}/api/rooms", headers=auth, json={"ruleset": "testgame", "seats": 3}
    ).json()
    page = browser.new_context().new_page()
    page.goto(live_server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    page.goto(f"{live_server.url}/rooms/{room['id']}")
    pick = ".bot-level[data-seat='1']"
    page.wait_for_selector(pick)
    assert page.input_value(pick) == "normal"
    assert page.locator(f"{pick} option[value='normal']").inner_text() == "Normal (suggested)"
    page.select_option(pick, "hard")
    page.click(".add-bot[data-seat='1']")
    page.wait_for_selector(".seat[data-seat='1']:has-text('Bot 2 (Hard)')")
    # the next empty seat offers the level chosen last, no longer marked as suggested
    assert page.input_value(".bot-level[data-seat='2']") == "hard"
    assert page.locator(".bot-level[data-seat='2'] option[value='normal']").inner_text() == "Normal"
    page.select_option(".bot-level[data-seat='1']", "expert")
    page.wait_for_selector(".seat[data-seat='1']:has-text('Bot 2 (Expert)')")
    seats = http.get(f"{live_server.url}/api/rooms/{room['id']}", headers=auth).json()["seats"]
    assert [s["level"] for s in seats] == [None, "expert", None]
    page.context.close()
