"""The browser renderer (static/rulesets/fortune-city.js) in headless Chromium, fed real views:
it highlights what the seat may do, turns clicks into legal moves, explains a good it cannot buy,
shows the end breakdown and fits a 390 px phone. Served through Playwright routing, no server."""

from __future__ import annotations

import pytest

from app.rulesets.fortune_city import RULESET as R
from tests.rulesets.fortune_city.helpers import BAKERY, BOOKS, build, cell, game, pass_all
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser


def open_page(browser, state, seat, width=1280):
    return open_renderer(
        browser,
        R,
        state,
        seat,
        ready=".fc",
        width=width,
        names={str(i): f"P{i}" for i in range(state["player_count"])},
    )


def test_buying_by_clicking_a_market_good_and_explaining_a_dear_one(browser):
    """Buy Goods in the browser: affordable goods glow and a click sends the legal buy; a good the
    seat cannot pay for is greyed with what it lacks and a click explains instead of sending."""
    st = game()
    st["players"][0]["silver"] = 2
    page, _legal, errors = open_page(browser, st, 0)
    cheap = [i for i, m in enumerate(st["market"]) if m["tile"] != "stationery"]
    dear = [m["tile"] for m in st["market"]].index("stationery")
    assert page.locator(".fc-good.can").count() == len(cheap)
    page.click(f".fc-good[data-slot='{cheap[0]}']")
    assert page.evaluate("window.played") == [{"type": "buy", "slot": cheap[0], "card": 0}]
    assert "needs $1 more" in page.locator(f".fc-good[data-slot='{dear}']").inner_text()
    page.click(f".fc-good[data-slot='{dear}']")
    assert (
        len(page.evaluate("window.played")) == 1 and "needs $1 more" in page.evaluate("window.explained")[0]
    )
    assert not errors


def test_construct_by_clicking_a_zone_then_a_highlighted_square(browser):
    """Construct in the browser: the zone glows; after clicking it exactly the legal squares are
    highlighted, and a click sends that construct move."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    build(st, 0, {(0, 1): "tea"})
    page, legal, errors = open_page(browser, st, 0)
    page.click(".fc-zone.can[data-zone='0'][data-seat='0']")
    cells = {
        c
        for c in page.eval_on_selector_all(
            ".fc-cell.legal[data-seat='0']", "els => els.map(e => e.dataset.cell)"
        )
    }
    assert cells == {f"{m['at'][0]},{m['at'][1]}" for m in legal if m["type"] == "construct"}
    assert "0,2" not in cells  # next to the tea house: same border colour
    page.click(".fc-cell[data-cell='0,1'][data-seat='0']")  # occupied: explained, not sent
    assert (
        page.evaluate("window.played") == [] and "same border colour" in page.evaluate("window.explained")[0]
    )
    page.click(".fc-cell.legal[data-cell='1,0'][data-seat='0']")
    assert page.evaluate("window.played") == [{"type": "construct", "zone": 0, "at": [1, 0], "card": 0}]
    assert not errors


def test_hire_and_drive_by_clicking(browser):
    """Hire Citizens and Move Delivery Truck in the browser: a park citizen then its building;
    the truck's legal squares are highlighted and a click drives there."""
    st = game()
    build(st, 0, {(0, 1): BAKERY, (1, 0): BOOKS}, tokens=True)
    st["players"][0]["park"]["red"] = 1
    st = pass_all(st)
    page, _, errors = open_page(browser, st, 0)
    page.click("button[data-citizen='red']")
    page.click(".fc-cell.legal[data-cell='0,1'][data-seat='0']")
    assert page.evaluate("window.played") == [{"type": "hire", "citizen": "red", "at": [0, 1]}]
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})
    page, _, errors = open_page(browser, st, 0)
    assert page.locator(".fc-cell.legal[data-seat='0']").count() == 2
    page.click(".fc-cell.legal[data-cell='1,0'][data-seat='0']")
    assert page.evaluate("window.played") == [{"type": "drive", "to": [1, 0]}]
    assert not errors


def test_end_breakdown_hooks_and_phone_width(browser):
    """Scoring in the browser: the breakdown lists each area per player; the public score, turn
    order and last-change hooks answer; nothing scrolls sideways at 390 px."""
    st = game(3)
    build(st, 0, {(0, 1): BAKERY, (1, 0): BOOKS}, tokens=True)
    cell(st, 0, 0, 1)["token"] = "garbage"
    st["phase"] = "over"
    st["start"] = 2
    page, _, errors = open_page(browser, st, 0, width=390)
    text = page.locator("[data-outcome]").inner_text()
    assert "Buildings" in text and "Garbage" in text and "P2" in text
    hooks = page.evaluate("window.hooks")
    assert hooks["order"] == [2, 0, 1] and hooks["score"] == R.outcome(st).scores[0]
    assert page.evaluate("window.hooks.changed({seat: 1, move: {type: 'drive', to: [2, 1]}})") == [
        '[data-cell="2,1"][data-seat="1"]'
    ]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors


def test_citizen_colours_carry_letters_in_the_park_the_bag_and_on_workers(browser):
    """Colour-blind play (docs/UX.md 'letters beside colours'): every citizen colour is also told
    by a letter: park citizens (R, Y, B, G, V for a VIP), the bag's counts and the worker on a
    building, not by colour alone."""
    st = game()
    build(st, 0, {(0, 1): BAKERY, (1, 0): BOOKS}, workers={(1, 0): "yellow"})
    st["players"][0]["park"].update(red=2, vip=1)
    st = pass_all(st)
    page, _, errors = open_page(browser, st, 0)
    assert page.locator("button[data-citizen='red']").inner_text().startswith("R")
    assert page.locator("button[data-citizen='vip']").inner_text().startswith("V")
    assert page.locator("button.fc-chip.can[data-citizen]").count() == 2  # both can be hired: highlighted
    bag = page.locator("[data-bag]").inner_text()
    assert all(letter in bag for letter in "RYBG")
    assert "Y" in page.locator(".fc-cell[data-cell='1,0'][data-seat='0'] .wk").inner_text()
    assert not errors


@pytest.mark.parametrize("width", [390, 1280])
def test_a_park_with_every_colour_shows_every_citizen(browser, width):
    """Hire Citizens in the browser: a park holding citizens of all four colours and a VIP shows
    each of them whole inside the park (none clipped away), so each can be clicked and then
    placed, on a phone and on a desktop."""
    st = game()
    city = {(0, 1): BAKERY, (1, 0): BOOKS, (-1, 0): "bus-pass", (1, 1): "lamp"}
    build(st, 0, city)
    st["players"][0]["park"].update(red=1, yellow=2, blue=1, green=1, vip=1)
    st = pass_all(st)
    page, _, errors = open_page(browser, st, 0, width=width)
    park = page.locator(".fc-cell[data-cell='-1,-1'][data-seat='0']").bounding_box()
    for c, at in (("red", "0,1"), ("yellow", "1,0"), ("blue", "-1,0"), ("green", "1,1"), ("vip", "0,1")):
        chip = page.locator(f"button[data-citizen='{c}']").bounding_box()
        assert park["y"] <= chip["y"] and chip["y"] + chip["height"] <= park["y"] + park["height"] + 0.5, c
        assert park["x"] <= chip["x"] and chip["x"] + chip["width"] <= park["x"] + park["width"] + 0.5, c
        page.click(f"button[data-citizen='{c}']")
        page.click(f".fc-cell.legal[data-cell='{at}'][data-seat='0']")
        assert page.evaluate("window.played")[-1] == {
            "type": "hire",
            "citizen": c,
            "at": [int(v) for v in at.split(",")],
        }
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not errors


def test_illegal_clicks_are_told_in_words(browser):
    """Another player's city, or your own City Hall with nothing picked: the page says why in
    words and sends nothing (issue 30: these clicks were silent)."""
    st = game()
    page, _legal, errors = open_page(browser, st, 0)
    page.click(".fc-cell.hall[data-seat='1']")
    page.click(".fc-cell.hall[data-seat='0']")
    assert page.evaluate("window.played") == []
    said = page.evaluate("window.explained")
    assert said[0] == "That is P1's city: you build, hire and drive in your own."
    assert said[1].startswith("First pick what to build")
    assert not errors


def test_phone_targets_and_named_squares(browser):
    """On a 390 px phone the construction zone and the park's citizen chips are at least 24x24 px;
    city squares are named in words (no raw coordinates)."""
    import re

    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    st["players"][0]["park"]["red"] = 1
    build(st, 0, {(0, 1): "tea"})
    page, _legal, errors = open_page(browser, st, 0, width=390)
    for sel in (
        ".fc-zone[data-zone='0'][data-seat='0']",
        ".fc-zone[data-zone='1'][data-seat='0']",
        ".fc-chip[data-citizen='red']",
    ):
        box = page.locator(sel).first.bounding_box()
        assert box["width"] >= 24 and box["height"] >= 24, (sel, box)
    page.click(".fc-zone.can[data-zone='0'][data-seat='0']")
    labels = page.locator(".fc-cell.legal[data-seat='0']").evaluate_all(
        "els => els.map((e) => e.getAttribute('aria-label'))"
    )
    assert labels and all("column" in x or "row" in x for x in labels), labels
    assert not any(re.search(r"\[-?\d+,-?\d+\]|\(-?\d+, ?-?\d+\)", x) for x in labels), labels
    assert "Tea" in (
        page.locator(".fc-cell[data-cell='0,1'][data-seat='0']").get_attribute("aria-label") or ""
    )
    assert not errors
