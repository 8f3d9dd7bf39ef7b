"""The browser renderer (static/rulesets/tiny-towns.js) in headless Chromium, fed real views:
clicks become exactly the legal move the player chose. Served through Playwright routing."""

from __future__ import annotations

import pytest

from tests.rulesets.tiny_towns.helpers import R, name, new_game, with_player
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser


def open_page(browser, state, seat, names=None):
    return open_renderer(
        browser, R, state, seat, ready=".tt", height=1000, version=3, names=names or {"0": "Ann", "1": "Bob"}
    )


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


def test_focus_ring_shows_over_the_legal_outline(browser):
    """Keyboard focus on a playable square shows the kit's focus ring (3 px, focus blue), not the
    green dashed outline that marks a legal square."""
    from tests.browser.a11y import FOCUS_RGB, focus_ring

    st = with_player(name(new_game(2, fortune=True), "wood"), 1, coins=2)
    page, _legal, errors = open_page(browser, st, 1)
    ring = focus_ring(page, page.locator(".tt-sq.click[data-seat='1']").first)
    assert ring["style"] == "solid" and ring["width"] >= 3 and ring["colour"] == FOCUS_RGB, ring
    assert not errors
    page.close()


def test_squares_are_named_cells_and_patterns_readable(browser):
    """A town is a group of named squares ("A1 of your town: brick"), a playable one a button;
    the pattern letters on the cards are at least 10 px."""
    st = name(new_game(2), "wood")
    st = with_player(st, 1, grid=["brick"] + [None] * 15)
    page, _legal, errors = open_page(browser, st, 1)
    sq = page.locator("[data-seat='1'][data-cell='0']")
    assert sq.get_attribute("role") == "img" and sq.get_attribute("aria-label") == "A1 of your town: brick"
    assert page.locator("[data-seat='1'][data-cell='1']").get_attribute("role") == "button"
    assert page.locator(".tt-grid[role='group']").count() == 2
    sizes = page.evaluate(
        "[...document.querySelectorAll('.tt-pat span')].filter((n) => n.textContent)"
        ".map((n) => parseFloat(getComputedStyle(n).fontSize))"
    )
    assert sizes and min(sizes) >= 10, sizes
    assert not errors
    page.close()


def _played_out(fortune: bool):
    """A whole game with random legal moves (a fixed seed), to its end."""
    import random

    rng = random.Random(5)
    st = R.setup(2, R.Options(fortune=fortune), 5)
    while R.outcome(st) is None:
        seat = R.to_act(st)[0]
        st = R.apply(st, seat, rng.choice(R.legal_moves(st, seat)))
    return st


@pytest.mark.parametrize("fortune", [False, True])
def test_result_lists_coins_only_with_fortune(browser, fortune):
    """The base game has no coins: its score table has no "Coins" row; Fortune's has one."""
    st = _played_out(fortune)
    page, _legal, errors = open_page(browser, st, 0)
    rows = page.locator(".tt-score tbody tr td:first-child").all_inner_texts()
    assert ("Coins" in rows) == fortune, rows
    assert "Empty squares" in rows and "Total" in rows
    assert not errors
    page.close()
