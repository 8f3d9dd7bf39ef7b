"""The table's shared client kit and accessibility (issue 30): every game's table on a 390 px
phone has no clickable thing under 24x24 px and no word cut in two; a whole turn of each game is
played with the keyboard only; the page names the game, has a heading and a skip link; smaller
items (the name dialog's Escape, "Your tables" first on a phone, City Council's VP)."""

from __future__ import annotations

import pytest

from tests.browser.a11y import BROKEN_WORDS, SMALL_TARGETS, KeyPage, key_click
from tests.browser.test_city_council_browser import _click as cc_click
from tests.browser.test_rulesets_browser import (
    SETTLED,
    TT_AUTO_DONE,
    _decide,
    _finished_as,
    _fortuna_click,
    _fortune_city_click,
    _moved,
    _my_turn,
    _start,
    _tiny_towns_click,
)
from tests.support import http

PHONE = {"width": 390, "height": 844}
GAMES = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]
NAMES = {
    "suburbia": "Suburbia",
    "tiny-towns": "Tiny Towns",
    "fortune-city": "Fortune City",
    "fortuna": "Fortuna",
    "city-council": "City Council",
}


@pytest.fixture
def phone(browser):
    """A page at a 390 px phone's size that fails on any script error."""
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def _table_is_clean(page, when):
    """No clickable thing under 24x24 on the table, no word drawn on two lines, no sideways scroll."""
    small = page.evaluate(SMALL_TARGETS, ".table-main")
    assert not small, f"{when}: targets under 24x24 px: {small}"
    broken = page.evaluate(BROKEN_WORDS, ".table-main")
    assert not broken, f"{when}: words cut in two: {broken}"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], when


@pytest.mark.parametrize("ruleset", GAMES)
def test_phone_table_has_big_targets_and_whole_words(live_server, phone, ruleset):
    """At 390 px, on the first decision and after one more, every clickable thing of the table
    is at least 24x24 CSS px (WCAG 2.2) and no word breaks in the middle."""
    _start(live_server, phone, ruleset, seats=3 if ruleset == "city-council" else 2)
    _my_turn(phone)
    _table_is_clean(phone, f"{ruleset}, first decision")
    click = {
        "suburbia": lambda p: p.click(".sb-keep-goal >> nth=0"),
        "tiny-towns": _tiny_towns_click,
        "fortune-city": _fortune_city_click,
        "fortuna": _fortuna_click,
        "city-council": cc_click,
    }[ruleset]
    _decide(phone, click, TT_AUTO_DONE if ruleset == "tiny-towns" else "false")
    _my_turn(phone)
    _table_is_clean(phone, f"{ruleset}, second decision")


def test_page_names_the_game_with_a_heading_and_a_skip_link(live_server, page):
    """The tab title and the page's <h1> name the game; the first Tab stop is a skip link that
    takes the keyboard to the table."""
    _start(live_server, page, "fortune-city")
    page.wait_for_function("document.title.includes('Fortune City')")
    assert page.locator("h1").count() == 1
    assert page.locator("h1").inner_text() == "Fortune City"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.goto(live_server.url + "/")
    assert page.locator("h1").count() == 1


def test_escape_in_the_name_dialog_creates_nothing(live_server, page):
    """Escape in the name dialog closes it; no player called "Player" is made and no room is
    created."""
    before = len(http.get(f"{live_server.url}/api/rooms").json())
    page.goto(live_server.url + "/")
    page.locator("#create-button").click()
    page.locator("#name-dialog").wait_for(state="visible")
    page.keyboard.press("Escape")
    page.locator("#name-dialog").wait_for(state="hidden")
    page.wait_for_timeout(300)  # room for a request the page should not make
    assert page.evaluate("localStorage.getItem('civitas.player')") is None
    assert len(http.get(f"{live_server.url}/api/rooms").json()) == before
    # With a name, the same form creates the room.
    page.locator("#create-button").click()
    page.locator("#name-input").fill("Ann")
    page.locator("#name-input").press("Enter")
    page.wait_for_url("**/rooms/**")
    assert len(http.get(f"{live_server.url}/api/rooms").json()) == before + 1


def test_your_tables_come_before_the_form_on_a_phone(live_server, phone):
    """On a phone a player's own tables are the first thing in the lobby, above the create form."""
    host = http.post(f"{live_server.url}/api/players", json={"name": "Mo"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    http.post(
        f"{live_server.url}/api/rooms", headers=auth, json={"ruleset": "fortuna", "seats": 2, "options": {}}
    )
    phone.goto(live_server.url + "/")
    phone.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    phone.goto(live_server.url + "/")
    phone.locator("#mine-panel").wait_for(state="visible")
    mine = phone.locator("#mine-panel").bounding_box()
    form = phone.locator("#create-panel").bounding_box()
    assert mine["y"] < form["y"]


def test_city_council_ranking_says_vp(live_server, page):
    """City Council counts victory points: the result and the player panels say VP, not points."""
    from app.rulesets.city_council import RULESET as R
    from bench.city_council_bot import play

    s, _ = play(2, 10_001, {0, 1})
    outcome = R.outcome(s).to_json()
    result = _finished_as(live_server, page, "city-council", outcome, ".cc-outcome")
    text = result.locator(".ranking").inner_text()
    assert "VP" in text and "points" not in text, text


# ---- keyboard only ---------------------------------------------------------------------------


def test_keyboard_only_turns_suburbia(live_server, page):
    """Suburbia with Tab and Enter: keep a goal, then take a market tile as a lake and place it
    on a highlighted hex of the borough."""
    game, auth = _start(live_server, page, "suburbia")
    keys = KeyPage(page)
    version = _my_turn(page)
    keys.click(".sb-keep-goal >> nth=0")
    _moved(page, version)
    version = _my_turn(page)
    keys.click(".sb-lake-btn >> nth=0")
    keys.locator(".sb-cell.legal").first.click()
    _moved(page, version)
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    assert [m["move"]["type"] for m in log if m["seat"] == 0] == ["keep_goal", "lake"]


@pytest.mark.parametrize(
    "ruleset,click,steps",
    [
        ("tiny-towns", _tiny_towns_click, 3),
        ("fortune-city", _fortune_city_click, 3),
        ("fortuna", _fortuna_click, 2),
        ("city-council", cc_click, 4),
    ],
)
def test_keyboard_only_turns(live_server, page, ruleset, click, steps):
    """Each game's clicking helper, its clicks made with Tab and Enter only: the moves go
    through (none refused) and the first decisions of the game are played."""
    game, auth = _start(live_server, page, ruleset)
    keys = KeyPage(page)
    sent = 0
    for _ in range(steps * 3):
        _step, ok = _decide(keys, click, TT_AUTO_DONE if ruleset == "tiny-towns" else "false")
        sent += ok
        if sent >= steps:
            break
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    assert sent >= steps and len([m for m in log if m["seat"] == 0]) >= 1


def test_key_click_fails_on_a_mouse_only_control(live_server, page):
    """The keyboard helper is honest: a thing Tab cannot reach is not pressed."""
    _start(live_server, page, "fortuna")
    # Outside the board (a redraw would remove it), after everything Tab can reach there.
    page.evaluate(
        "() => document.querySelector('.table-main').append(Object.assign(document.createElement('div'), {id: 'mouse-only', textContent: 'x'}))"
    )
    with pytest.raises(AssertionError):
        key_click(page, page.locator("#mouse-only"), most=60)


def test_suburbia_last_move_highlight_keeps_tile_text_readable(live_server, page):
    """The highlight of a move on the board (the last move's, or a hovered log line's) strokes the
    tile's hexagon only: its text keeps no stroke (it was stroked into a blob) and the group draws
    no box across its neighbours."""
    _start(live_server, page, "suburbia")
    version = _my_turn(page)
    page.click(".sb-keep-goal >> nth=0")
    _moved(page, version)
    version = _my_turn(page)
    page.click(".sb-lake-btn >> nth=0")
    page.locator(".sb-cell.legal").first.click()
    _moved(page, version)
    # Our lake's log line: hovering it highlights the tile it built (as the last move would).
    seq = page.wait_for_function(
        "(window.civitas.log.find((e) => e.seat === 0 && e.move.type === 'lake') || {}).seq", timeout=30000
    ).json_value()
    page.locator(f"#log li[data-seq='{seq}']").hover()
    page.wait_for_selector("svg g.civ-hl", state="attached")
    look = page.evaluate("""() => { const g = document.querySelector('svg g.civ-hl');
      const st = getComputedStyle(g);
      return { outline: st.outlineStyle, texts: [...g.querySelectorAll('text')].map((t) => getComputedStyle(t).stroke),
               hex: getComputedStyle(g.querySelector('polygon')).strokeWidth }; }""")
    assert look["outline"] == "none", look
    assert look["texts"] and all(s == "none" for s in look["texts"]), look
    assert look["hex"] == "4px", look


def _rest_until_hire(server, game, auth):
    """Play the host's moves over REST (construct, else buy, else the first legal move) until it
    is asked to hire; returns the hire moves offered."""
    import time

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=auth).json()
        hires = [m for m in legal["moves"] if m["type"] == "hire"]
        if hires:
            return hires
        if not legal["moves"]:
            time.sleep(0.05)  # the bot's turn
            continue
        move = next(
            (m for kind in ("construct", "buy") for m in legal["moves"] if m["type"] == kind),
            legal["moves"][0],
        )
        http.post(
            f"{server.url}/api/games/{game}/moves",
            headers=auth,
            json={"version": legal["version"], "move": move},
        )
    raise AssertionError("the host was never asked to hire")


@pytest.mark.parametrize("size", [{"width": 1366, "height": 900}, PHONE], ids=["wide", "phone"])
def test_fortune_city_hires_in_steps_with_the_picker(live_server, browser, size):
    """Fortune City's hire is built in steps (the kit's staged picker): a citizen in the park,
    then one of the highlighted buildings of its colour; no list of hire buttons, one per
    combination, ever appears, and the hire made by those two clicks is the one played."""
    context = browser.new_context(viewport=size, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    game, auth = _start(live_server, page, "fortune-city")
    offered = _rest_until_hire(live_server, game, auth)
    page.reload()
    page.wait_for_function("window.civitas && window.civitas.doc")
    _my_turn(page)
    page.locator("button[data-citizen]").first.wait_for()
    # Nothing but the highlighted squares of the player's own city carries a hire move.
    hire_targets = "[data-move*='\"hire\"']"
    outside = page.locator(f"{hire_targets}:not(.fc-cell[data-seat='0'])").count()
    assert outside == 0 and page.locator(hire_targets).count() <= 6
    assert not page.locator("button", has_text="hire").count()
    chip = page.locator("button[data-citizen]").first
    citizen = chip.get_attribute("data-citizen")
    chip.click()
    assert page.get_attribute(f"button[data-citizen='{citizen}']", "aria-pressed") == "true"
    assert "highlighted building" in page.inner_text(".fc-prompt")
    cells = page.locator(".fc-cell.legal[data-seat='0']")
    assert 1 <= cells.count() <= 6
    if size == PHONE:
        _table_is_clean(page, "fortune-city hire")
    cell = cells.first
    at = [int(v) for v in cell.get_attribute("data-cell").split(",")]
    cell.click()
    page.wait_for_function(f"{SETTLED} && window.civitas.lastAnswer && window.civitas.lastAnswer.ok")
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    hired = [m["move"] for m in log if m["seat"] == 0 and m["move"]["type"] == "hire"]
    assert hired == [{"type": "hire", "citizen": citizen, "at": at}] and hired[0] in offered
    context.close()
    assert not errors, errors
