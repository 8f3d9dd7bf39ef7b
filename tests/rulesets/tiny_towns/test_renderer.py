"""The browser renderer (static/rulesets/tiny-towns.js) in headless Chromium, fed real views:
clicks become exactly the legal move the player chose. Served through Playwright routing."""

from __future__ import annotations

import pytest

from tests.rulesets.tiny_towns.helpers import R, name, new_game, with_player
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser


def open_page(browser, state, seat, names=None):
    return open_renderer(browser, R, state, seat, ready=".tt", height=1000, version=3,
                         names=names or {"0": "Ann", "1": "Bob"})


def test_the_resource_the_player_picked_is_placed_not_the_named_one(browser):
    """Fortune (RB-F): a player who is not the Master Builder may pay 1 coin to place another
    resource than the named one; the browser must send the picked resource (issue 14)."""
    st = with_player(name(new_game(2, fortune=True), "wood"), 1, coins=2)
    page, legal, errors = open_page(browser, st, 1)
    assert {m["resource"] for m in legal if m["type"] == "place"} > {"wood"}
    page.click("button[data-resource='glass']")
    page.click(".tt-sq.click[data-seat='1'][data-cell='5']")
    played = page.evaluate("window.played")
    assert played == [{"type": "place", "resource": "glass", "cell": 5}] and not errors
    page.close()


def test_without_picking_the_named_resource_is_placed(browser):
    """Placing (RB): with no other choice made, the named resource goes on the clicked square."""
    st = with_player(name(new_game(2, fortune=True), "wood"), 1, coins=2)
    page, _legal, errors = open_page(browser, st, 1)
    page.click(".tt-sq.click[data-seat='1'][data-cell='0']")
    assert page.evaluate("window.played") == [{"type": "place", "resource": "wood", "cell": 0}]
    assert not errors
    page.close()


def test_illegal_clicks_are_explained_and_send_nothing(browser):
    """An occupied square or another player's town: the renderer says why, in words with names,
    instead of sending a move the server would refuse."""
    st = name(new_game(2), "wood")
    st = with_player(st, 1, grid=["brick"] + [None] * 15)
    page, _legal, errors = open_page(browser, st, 1)
    page.click("[data-seat='1'][data-cell='0']")
    page.click("[data-seat='0'][data-cell='3']")
    assert page.evaluate("window.played") == []
    hints = page.evaluate("window.hints")
    assert hints[0].startswith("That square is taken")
    assert hints[1] == "That is Ann's town: you can only place and build in your own."
    assert not errors
    page.close()


def test_board_is_labelled_like_the_log(browser):
    """The log names squares A1-D4: the grid shows those column letters and row numbers."""
    st = name(new_game(2), "wood")
    page, _legal, errors = open_page(browser, st, 0)
    town = page.locator(".tt-town[data-town='0']")
    assert town.locator(".tt-cols span").all_inner_texts() == ["A", "B", "C", "D"]
    assert town.locator(".tt-rows span").all_inner_texts() == ["1", "2", "3", "4"]
    assert town.locator("[data-cell='9']").get_attribute("aria-label").startswith("B3 ")
    assert not errors
    page.close()
