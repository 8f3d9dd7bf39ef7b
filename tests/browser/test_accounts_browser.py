"""Accounts in Chromium (issue 27): a guest plays, claims its name, follows the mailed link; a
second browser signs in with the password and a third with a one-time code, and each sees the
same tables and game, seated as the same player, and plays its turn there."""

from __future__ import annotations

import re
import time

import pytest

from tests.support import http
from tests.support.server import ServerProcess, free_port
from tests.support.smtp import SmtpServer


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory):
    """A server on SQLite that mails through an SMTP server in the test process."""
    db = tmp_path_factory.mktemp("accounts") / "civitas.db"
    port = free_port()
    with (
        SmtpServer() as smtp,
        ServerProcess(
            {
                "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
                "CIVITAS_BOT_DELAY_MS": "50",
                "CIVITAS_SMTP_HOST": "127.0.0.1",
                "CIVITAS_SMTP_PORT": str(smtp.port),
                "CIVITAS_PUBLIC_URL": f"http://127.0.0.1:{port}",
                "CIVITAS_PASSWORD_TIME_COST": "1",
                "CIVITAS_PASSWORD_MEMORY_KIB": "8192",
            },
            port=port,
        ) as server,
    ):
        server.smtp = smtp
        yield server


def _page(browser, errors):
    """A fresh browser (own localStorage), under the app's CSP."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


def test_claim_then_sign_in_elsewhere_by_password_and_by_code(mail_server, browser):
    """The guest's game is on every browser it signs in to."""
    errors: list[str] = []
    url = mail_server.url
    first = _page(browser, errors)
    first.goto(url + "/")
    first.select_option("#ruleset-select", "testgame")
    first.fill("#seats-input", "2")
    first.click("#create-button")
    first.fill("#name-input", "Ann")
    first.click("#name-form button[type=submit]")
    first.wait_for_url("**/rooms/*")
    room_id = first.url.rsplit("/", 1)[1]
    first.click(".add-bot[data-seat='1']")
    first.wait_for_selector(".remove-bot[data-seat='1']")
    first.click("#start-button")
    first.wait_for_url("**/games/*")
    game_id = first.url.rsplit("/", 1)[1]
    game_path = f"/games/{game_id}"

    first.click("a.account-link")
    first.wait_for_selector("#account-status[data-state=guest]")
    first.fill("#claim-email", "ann@example.test")
    first.fill("#claim-password", "a long password")
    first.click("#claim-form button[type=submit]")
    first.wait_for_selector("#account-status[data-state=pending]")
    [message] = mail_server.smtp.wait_for(1)
    link = re.search(r"http://\S+/account\?action=verify&code=\S+", message.get_content()).group(0)
    first.goto(link)
    first.wait_for_selector("#account-status[data-state=verified]")
    assert "ann@example.test" in first.text_content("#account-status")
    assert "is confirmed" in first.text_content("#link-note")

    second = _page(browser, errors)
    second.goto(url + "/account")
    second.fill("#signin-email", "ann@example.test")
    second.fill("#signin-password", "a long password")
    second.click("#signin-form button[type=submit]")
    second.wait_for_selector("#account-status[data-state=verified]")
    second.goto(url + "/")
    second.wait_for_selector(f"tr[data-mine-id='{room_id}']")
    second.click(f"tr[data-mine-id='{room_id}'] a.button")
    second.wait_for_url("**" + game_path)
    second.wait_for_selector("#turn-status:has-text('Your turn')")
    # The second browser plays the turn: the move is Ann's (seat 0) in the log.
    token = second.evaluate("JSON.parse(localStorage.getItem('civitas.player')).token")
    auth = {"Authorization": f"Bearer {token}"}
    second.wait_for_selector(".legal-move")
    box = second.locator(".legal-move").first.bounding_box()
    second.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    deadline = time.monotonic() + 30
    while not (
        mine := [
            m
            for m in http.get(f"{url}/api/games/{game_id}/log", headers=auth).json()["moves"]
            if m["seat"] == 0
        ]
    ):
        assert time.monotonic() < deadline, "the second browser's move never arrived"
        time.sleep(0.1)
    assert mine[0]["text"].startswith("Ann")

    first.goto(url + "/account")
    first.click("#device-code-button")
    first.wait_for_selector("#device-code:not([hidden])")
    code = re.search(r"[A-Z2-9]{4}-[A-Z2-9]{4}", first.text_content("#device-code")).group(0)
    third = _page(browser, errors)
    third.goto(url + "/account")
    third.fill("#code-signin-input", code)
    third.click("#code-signin-form button[type=submit]")
    third.wait_for_selector("#account-status[data-state=verified]")
    third.wait_for_selector("#sessions-body tr >> nth=2")
    assert third.locator("#sessions-body tr").count() == 3
    third.goto(url + game_path)
    third.wait_for_selector("#turn-status")
    deadline = time.monotonic() + 30
    while third.evaluate("window.civitas && window.civitas.doc ? window.civitas.doc.seat : null") != 0:
        assert time.monotonic() < deadline, "the third browser is not seated as Ann"
        time.sleep(0.1)

    # Signing the second browser out from the third ends its session there.
    third.goto(url + "/account")
    third.wait_for_selector("#sessions-body tr >> nth=2")
    third.locator("#sessions-body button").first.click()
    third.locator("#sessions-body tr").nth(2).wait_for(state="detached")
    for page in (first, second, third):
        page.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"
