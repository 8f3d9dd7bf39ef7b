"""The browser renderer (static/rulesets/suburbia.js) in headless Chromium: it draws real views
and turns clicks into legal moves. Served through Playwright routing, no server needed."""

from __future__ import annotations

import re

import pytest

from app.engine.rng import Rng
from tests.rulesets.suburbia.helpers import R, put
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser


def doc(state, seat):
    out = R.outcome(state)
    return {
        "id": "g",
        "ruleset": "suburbia",
        "version": 1,
        "status": "finished" if out else "active",
        "to_act": R.to_act(state),
        "seat": seat,
        "view": R.view(state, seat),
        "outcome": out.to_json() if out else None,
    }


def open_page(browser, state, seat):
    return open_renderer(browser, R, state, seat, ready=".sb", height=1000)


def played(page):
    return page.evaluate("window.played")


def midgame(players=2, seed=2, moves=8):
    s = R.setup(players, R.Options(), seed)
    rng = Rng(seed)
    for _ in range(moves):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    while s["phase"] != "play":
        s = R.apply(s, s["turn"], R.legal_moves(s, s["turn"])[0])
    return s


def test_goal_choice_buttons_send_keep_goal(browser):
    """Set-Up: each player keeps 1 of 2 secret goals; the buttons send that move."""
    s = R.setup(2, R.Options(), 1)
    page, legal, errors = open_page(browser, s, 1)
    page.click(".sb-keep-goal >> nth=1")
    assert played(page) == [legal[1]] and not errors
    page.close()


def test_market_tile_as_lake_then_click_a_highlighted_hex(browser):
    """A turn: pick a market tile (as a lake), then a highlighted space next to your tiles."""
    s = midgame()
    seat = s["turn"]
    page, legal, errors = open_page(browser, s, seat)
    page.click(".sb-lake-btn >> nth=0")
    cells = page.locator(".sb-cell.legal")
    assert cells.count() == sum(
        1 for m in legal if m["type"] == "lake" and m["slot"] == legal_lake_slot(legal)
    )
    cells.first.click()
    move = played(page)[0]
    assert move in legal and move["type"] == "lake" and not errors
    page.close()


def legal_lake_slot(legal):
    return min(m["slot"] for m in legal if m["type"] == "lake")


def test_discard_and_invest_are_clickable(browser):
    """After a basic tile, market tiles carry their discard move; investing highlights tiles."""
    s = midgame()
    seat = s["turn"]
    basic = next(m for m in R.legal_moves(s, seat) if m["type"] == "basic")
    after = R.apply(s, seat, basic)
    page, legal, errors = open_page(browser, after, seat)
    page.click(".sb-discard-btn >> nth=0")
    assert played(page)[0] in legal and not errors
    page.close()
    s = put(s, seat, money=40, markers=3)
    page, legal, errors = open_page(browser, s, seat)
    page.click(".sb-invest-btn")
    page.locator(".sb-investable").first.click()
    assert played(page)[0]["type"] == "invest" and played(page)[0] in legal
    assert not errors
    page.close()


def test_spectator_sees_boroughs_and_final_scores(browser):
    """Final Scoring: the breakdown table shows each player's components and total, best rank
    first (issue 30: not in seat order)."""
    s = R.setup(3, R.Options(), 4)
    rng = Rng(4)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    page, _, errors = open_page(browser, s, None)
    assert page.locator(".sb-player").count() == 3
    # Each player's row shows exactly that player's total in the Total column (a substring match
    # over the whole table would pass with totals swapped or one total inside another number).
    headers = page.locator(".sb-outcome thead th").all_inner_texts()
    total_col = headers.index("Total")
    rows = page.locator(".sb-outcome tbody tr")
    outcome = R.outcome(s)
    assert rows.count() == 3
    ranks = []
    for k in range(3):
        i = int(rows.nth(k).get_attribute("data-seat"))
        cells = rows.nth(k).locator("td").all_inner_texts()
        assert cells[1] == f"Seat {i + 1}"  # the kit's one rule for a seat without a name
        assert cells[total_col] == str(outcome.scores[i])
        assert cells[0] == str(outcome.ranks[i])
        ranks.append(outcome.ranks[i])
    assert ranks == sorted(ranks)
    assert not errors
    page.close()


def test_end_table_names_dale_when_he_wins(browser):
    """Solo 2 / Winning: when Dale's population is higher he wins; the end table ranks him 1st
    (his row first), you 2nd, and says so."""
    from app.rulesets.suburbia import scoring

    s = dict(R.setup(1, R.Options(solo_mode="dale"), 0), goals=[], phase="over")
    s = scoring.finalize(put(put(s, 0, pop=40, money=0), 1, pop=87, money=0))
    page, _, errors = open_page(browser, s, 0)
    rows = page.locator(".sb-outcome tbody tr")
    assert rows.nth(1).locator("td").first.inner_text() == "2"
    dale_row = rows.nth(0)
    assert "Dale the Bot" in dale_row.inner_text()
    assert dale_row.locator("td").first.inner_text() == "1"
    assert "sb-winner" in (dale_row.get_attribute("class") or "")
    assert page.inner_text(".sb-winners") == "Dale the Bot wins"
    assert "did not beat" in page.inner_text(".sb-outcome") and not errors
    page.close()


def test_tracks_red_line_and_an_unaffordable_tile_are_shown_in_words(browser):
    """Issue 8: the board shows each player's income, reputation and the next red line; a market
    tile the player cannot pay for says by how much, and clicking it explains instead of playing."""
    s = midgame()
    seat = s["turn"]
    s["p"][seat]["money"] = 0  # with no money only a tile priced $0 could still be bought
    page, legal, errors = open_page(browser, s, seat)
    me = page.locator(f".sb-player[data-seat='{seat}']")
    assert me.locator(".sb-income").inner_text().startswith("Income")
    assert me.locator(".sb-rep").inner_text().startswith("Reputation")
    assert re.fullmatch(r"Next red line at \d+", me.locator(".sb-redline").inner_text())
    unaffordable = [
        slot
        for slot, t in enumerate(R.view(s, seat)["market"])
        if t and not any(m["type"] == "buy" and m["slot"] == slot for m in legal)
    ]
    assert unaffordable
    slot = page.locator(f".sb-market-slot[data-slot='{unaffordable[0]}']")
    assert re.fullmatch(r"needs \$\d+ more", slot.locator(".sb-short").inner_text())
    slot.locator(".sb-surcharge").click()
    assert played(page) == [] and "needs $" in page.evaluate("window.explained.join(' ')")
    # No word is cut off: nothing on the board hides overflowing text.
    clipped = page.evaluate("""[...document.querySelectorAll('.sb *')].filter((n) => {
        const st = getComputedStyle(n);
        return n.children.length === 0 && n.textContent.trim() && ['hidden', 'clip'].includes(st.overflowX)
          && n.scrollWidth > n.clientWidth + 1; }).map((n) => n.textContent)""")
    assert clipped == [] and not errors
    page.close()


def test_every_tile_name_fits_inside_its_hex(browser):
    """Every tile's name, drawn on a borough, stays inside the hexagon itself (not only inside
    the hexagon's bounding box): "Mobile Home Community" once ran over the slanted edges."""
    s = midgame()
    names = sorted(R.catalogue()["tiles"])
    specs = [(kind, 5 + i % 8, i // 8) for i, kind in enumerate(names)]
    s = put(s, 0, tiles=specs)
    page, _legal, errors = open_page(browser, s, 0)
    out = page.evaluate("""() => {
        const HEX = 30, R = HEX - 1, out = [];
        for (const t of document.querySelectorAll(".sb-player[data-seat='0'] .sb-hex-text")) {
          const poly = t.parentNode.querySelector("polygon");
          const pts = poly.getAttribute("points").split(" ").map((p) => p.split(",").map(Number));
          const cx = pts.reduce((a, p) => a + p[0], 0) / 6, cy = pts.reduce((a, p) => a + p[1], 0) / 6;
          const b = t.getBBox();
          for (const [x, y] of [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]) {
            const dx = Math.abs(x - cx), dy = Math.abs(y - cy);
            // A flat-top hexagon of radius R: |dy| <= R*sqrt(3)/2 and |dx| <= R - |dy|/sqrt(3).
            if (dy > R * Math.sqrt(3) / 2 + 0.5 || dx > R - dy / Math.sqrt(3) + 0.5) { out.push(t.textContent); break; }
          }
        }
        return [document.querySelectorAll(".sb-player[data-seat='0'] .sb-hex-text").length, out];
    }""")
    count, outside = out
    assert count >= len(names)
    assert outside == [] and not errors
    page.close()


def test_placing_spaces_are_named_in_words(browser):
    """The highlighted spaces a picked tile may go on are named by what they touch ("Build here,
    next to the Suburbs"), never by raw coordinates; the borough's tiles are named cells."""
    import re

    s = R.setup(2, R.Options(), 3)
    while R.to_act(s) and s["phase"] != "play":
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.legal_moves(s, seat)[0])
    seat = R.to_act(s)[0]
    page, _legal, errors = open_page(browser, s, seat)
    page.click(".sb-lake-btn >> nth=0")
    labels = page.locator(".sb-cell.legal").evaluate_all(
        "els => els.map((e) => e.getAttribute('aria-label'))"
    )
    assert labels and all(label.startswith("Build here, ") for label in labels), labels
    assert not any(re.search(r"-?\d+\s*,\s*-?\d+", label) for label in labels), labels
    assert any("Suburbs" in label for label in labels), labels
    tiles = page.locator(f".sb-player[data-seat='{seat}'] g[role='img']")
    assert tiles.count() >= 3 and "Suburbs" in " ".join(
        tiles.evaluate_all("els => els.map((e) => e.getAttribute('aria-label'))")
    )
    assert not errors
    page.close()
