"""The replay viewer in Chromium (issue 29): finish a game, open its replay from the end panel,
step with the buttons and the keys, jump by turn, follow a deep link from a log line, switch the
viewpoint after the end (everything revealed shows each seat's board)."""

from __future__ import annotations

import pytest

from tests.browser.test_table_browser import _open, _page, _player, _rest_moves, _room, shot
from tests.support import http

VERSION = "window.civitasReplay && window.civitasReplay.ready && window.civitasReplay.version"


def _at(page, version):
    page.wait_for_function(
        f"window.civitasReplay.version === {version} && window.civitasReplay.doc.version === {version}",
        timeout=15000,
    )


@pytest.mark.parametrize("viewport", ["wide", "phone"])
def test_replay_from_the_end_panel_steps_jumps_and_deep_links(quick_server, browser, viewport):
    server = quick_server
    host = _player(server, "Alice")
    _, game = _room(server, host, "tiny-towns")
    _rest_moves(server, game, host, 10_000)
    final = http.get(f"{server.url}/api/games/{game}").json()
    assert final["status"] == "finished"
    last = final["version"]
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    page.locator("#open-replay").click()
    page.wait_for_url(f"**/games/{game}/replay#v={last}&seat=0", timeout=15000)
    page.wait_for_function(VERSION + f" === {last}", timeout=30000)
    assert "matches the hash" in page.inner_text("#seed-check")
    assert page.locator("#board").inner_text().strip()  # the renderer drew the final board
    shot(page, f"replay-{viewport}-1-end")

    page.click("#r-back")
    _at(page, last - 1)
    page.keyboard.press("ArrowLeft")
    _at(page, last - 2)
    page.keyboard.press("Home")
    _at(page, 0)
    assert page.is_disabled("#r-back") and page.is_disabled("#r-first")
    page.keyboard.press("ArrowRight")
    _at(page, 1)
    index = http.get(f"{server.url}/api/games/{game}/replay").json()
    next_turn = next(t["version"] for t in index["turns"] if t["version"] > 1)
    page.click("#r-next-turn")
    _at(page, next_turn)
    page.keyboard.press("End")
    _at(page, last)

    # Everything revealed after the end: one board per seat.
    page.select_option("#r-seat", "all")
    page.wait_for_function("window.civitasReplay.doc.views !== undefined", timeout=15000)
    assert page.locator(".replay-seat").count() == 2
    assert "seat=all" in page.url
    shot(page, f"replay-{viewport}-2-all")

    # A deep link from the log: that version, that viewpoint.
    target = last // 2
    page.locator(f'#log li[data-seq="{target}"] a.log-link').click()
    _at(page, target)
    assert page.locator("#log li.current").get_attribute("data-seq") == str(target)
    page.goto(f"{server.url}/games/{game}/replay#v=3&seat=1")
    _at(page, 3)
    assert page.evaluate("window.civitasReplay.doc.seat") == 1
    page.click("#r-play")
    page.wait_for_function("window.civitasReplay.version >= 5", timeout=15000)
    page.click("#r-play")
    shot(page, f"replay-{viewport}-3-deep-link")
    page.context.close()
    assert not errors, errors


def test_during_a_game_the_replay_offers_only_the_players_own_seat(quick_server, browser):
    """A player's replay during the game is from their seat only; asking for another seat in the
    link falls back to their own with the server's sentence."""
    server = quick_server
    host, guest = _player(server, "Ann"), _player(server, "Ben")
    _, game = _room(server, host, "tiny-towns", bots=0, guests=[guest])
    page, errors = _page(browser, "wide")
    _open(page, server, host, game)
    page.goto(f"{server.url}/games/{game}/replay#v=0&seat=1")
    page.wait_for_function(VERSION + " === 0", timeout=30000)
    page.wait_for_function("window.civitasReplay.doc.seat === 0", timeout=15000)
    assert "own seat" in page.inner_text("#replay-error")
    assert page.locator("#r-seat option").count() == 1
    # The game goes on: "last" reads the index again and reaches the newest version.
    _rest_moves(server, game, host, 2)
    _rest_moves(server, game, guest, 2)
    now = http.get(f"{server.url}/api/games/{game}").json()["version"]
    assert now > 0
    page.click("#r-last")
    page.wait_for_function(f"window.civitasReplay.version >= {now}", timeout=15000)
    page.context.close()
    assert not errors, errors


def test_a_profile_opens_from_the_players_panel_and_links_to_replays(quick_server, browser):
    """Names in the players panel link to profiles; the profile lists the game with its replay."""
    server = quick_server
    host = _player(server, "Alice")
    _, game = _room(server, host, "tiny-towns")
    _rest_moves(server, game, host, 10_000)
    page, errors = _page(browser, "phone")
    _open(page, server, host, game)
    page.locator("#players a.profile-link", has_text="Alice").click()
    page.wait_for_url(f"**/players/{host['id']}", timeout=15000)
    page.wait_for_selector(f'#games li[data-game-id="{game}"]', timeout=15000)
    assert page.inner_text("#player-name") == "Alice"
    assert "Games played" in page.inner_text("#record")
    assert "against bots" in page.inner_text("#ratings")
    shot(page, "profile-phone")
    page.locator("#ratings a").first.click()  # the game's leaderboard, against-bots pool
    page.wait_for_selector("#leaders tbody a", timeout=15000)
    assert page.locator("#leaders tbody a").first.inner_text() == "Alice"
    assert page.input_value("#pool") == "bots" and "fixed ratings" in page.inner_text("#bot-ratings")
    page.go_back()
    page.wait_for_selector(f'#games li[data-game-id="{game}"] a.replay-link', timeout=15000)
    page.locator(f'#games li[data-game-id="{game}"] a.replay-link').click()
    page.wait_for_function(VERSION + " >= 0", timeout=30000)
    assert page.url.split("#")[0].endswith(f"/games/{game}/replay")
    page.context.close()
    assert not errors, errors
