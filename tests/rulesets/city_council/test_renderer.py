"""The browser renderer (static/rulesets/city-council.js) in headless Chromium, fed real views:
the end shows each member's breakdown; a click on a highlighted tile becomes the listed move."""

from __future__ import annotations

import pytest

from app.rulesets.city_council.council import available_tiles
from bench.city_council_bot import play
from tests.rulesets.city_council.helpers import R, clone, game, play_until
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser
NAMES = {"0": "Ann", "1": "Bob", "2": "Cy"}


def test_end_shows_each_members_breakdown(browser):
    """End (RB Victory): the result lists every player with VP, cards in hand and private funds
    (the tie-breaks) and the cards each scored, as the outcome has them."""
    s, _ = play(3, 10_001, {0, 1, 2})
    out = R.outcome(s)
    assert out is not None and not s["defeat"]
    page, _legal, errors = open_renderer(browser, R, s, 0, ready=".cc-outcome", names=NAMES)
    rows = page.locator(".cc-outcome tbody tr")
    assert rows.count() == 3
    for seat in range(3):
        cells = [rows.nth(seat).locator("td").nth(i).inner_text() for i in range(5)]
        b = out.breakdown[seat]
        assert cells[1] == str(b["vp"]) and cells[2] == str(b["cards_in_hand"])
        assert cells[3] == f"${b['private_funds']}"
        for x in b["scored"]:
            assert f"{x['name']} ({x['vp']})" in cells[4]
    assert not errors
    page.close()


def test_defeat_end_says_everyone_loses(browser):
    """RB Defeat: when the city fails the end says that everyone loses (beside the breakdown)."""
    s = clone(game(3, 2))
    s["crime"] = 6
    from app.rulesets.city_council import production

    production.add_crime(s, 1)
    assert s["defeat"] == "crime"
    page, _legal, errors = open_renderer(browser, R, s, 1, ready=".cc-outcome", names=NAMES)
    assert "everyone loses" in page.locator(".cc-outcome").inner_text()
    assert not errors
    page.close()


def test_clicking_a_highlighted_planning_tile_plays_that_plan(browser):
    """RB City Planning: the tiles the seat may propose are highlighted; a click on one sends
    exactly the listed plan move for that tile."""
    s = play_until(game(3, 4), "plan", seed=4)
    seat = R.to_act(s)[0]
    page, legal, errors = open_renderer(browser, R, s, seat, ready=".cc", names=NAMES)
    tiles = page.locator(".cc-tile.can")
    builds = [m for m in legal if m["type"] == "plan" and m["kind"] == "build"]
    assert tiles.count() == len(builds) > 0
    tile = tiles.first.get_attribute("data-tile")
    tiles.first.click()
    assert page.evaluate("window.played") == [{"type": "plan", "kind": "build", "target": tile}]
    assert tile in available_tiles(s)
    assert not errors
    page.close()


def _seat_the_committees(page, legal):
    """Click the first offered committee at every step until a move leaves the page; returns
    the number of steps and the largest number of choices one step offered."""
    steps, widest = 0, 0
    while not page.evaluate("window.played").__len__():
        options = page.locator(".cc-stage [data-option]")
        widest = max(widest, options.count())
        assert options.count() >= 2, page.locator(".cc-stage").inner_text()
        options.first.click()
        steps += 1
        assert steps <= 5
    return steps, widest


def test_committees_are_seated_member_by_member(browser):
    """RB Committees phase, turn 1 (3 players: 12 seatings): the chairman is asked one member at a
    time, with the committees that member can still take (never a button per permutation); the
    move sent is the listed seating with the committees picked, and Back takes a pick back."""
    s = game(3, 1)
    assert s["phase"] == "committees"
    seat = R.to_act(s)[0]
    page, legal, errors = open_renderer(browser, R, s, seat, ready=".cc-stage", width=390, names=NAMES)
    assert len(legal) == 12
    assert page.locator(".cc-prompt [data-move]").count() == 0  # no wall of permutations
    first = page.locator(".cc-stage [data-option]")
    assert first.count() == 4  # the four committees other than Election
    chosen = first.first.get_attribute("data-committee")
    first.first.click()
    assert "Back one step" in page.locator(".cc-stage").inner_text()
    page.get_by_role("button", name="Back one step").click()
    assert page.locator(".cc-stage [data-option]").count() == 4
    steps, widest = _seat_the_committees(page, legal)
    played = page.evaluate("window.played")
    assert len(played) == 1 and played[0] in legal
    assert steps == 2 and widest == 4
    others = [m for m in range(3) if m != seat]
    assert played[0]["seats"][others[0]] == chosen and played[0]["seats"][seat] == "election"
    # the seating so far is told in words, with names
    assert "Seating so far" in page.locator(".cc-stage").inner_text()
    assert not errors
    page.close()


def test_city_is_named_cells_with_readable_labels_on_a_phone(browser):
    """The city is a group of named cells ("B3: ..."), each building named with its blocks; on a
    390 px phone its labels are drawn at 11 px or more (they were 9.4 px), and the favour
    cards' buttons are 24x24 px or more."""
    s = play_until(game(3, 4), "draw", seed=4)
    seat = R.to_act(s)[0]
    page, _legal, errors = open_renderer(browser, R, s, seat, ready=".cc", width=390, names=NAMES)
    city = page.locator(".cc-city svg")
    assert city.get_attribute("role") == "group"
    assert page.locator(".cc-cell[role]").count() == 81
    label = page.locator(".cc-cell[data-cell='0,0']").get_attribute("aria-label")
    assert label.startswith("A1: ") and len(label) > 5
    buildings = page.locator(".cc-bld").evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    assert buildings and all(" at " in b for b in buildings), buildings
    font = page.evaluate("""() => { const t = document.querySelector('.cc-label'); const svg = t.ownerSVGElement;
        return parseFloat(getComputedStyle(t).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; }""")
    assert font >= 11, font
    for box in page.locator(".cc-card .cc-btn").evaluate_all(
        "els => els.map((e) => e.getBoundingClientRect().toJSON())"
    ):
        assert box["width"] >= 24 and box["height"] >= 24, box
    assert not errors
    page.close()
