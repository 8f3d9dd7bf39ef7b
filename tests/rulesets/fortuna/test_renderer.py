"""The browser renderer (static/rulesets/fortuna.js) in headless Chromium: it draws real views
(road to Rome, sides, favour cards, provinces), highlights what the seat may do and turns clicks
into legal moves; it fits a 390 px phone. Served through Playwright routing, no server needed."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.helpers import arrange, at, favours, game, province, seat_to_act
from tests.support.renderer import open_renderer

pytestmark = pytest.mark.browser


def open_page(browser, state, seat, width=1280):
    return open_renderer(
        browser,
        R,
        state,
        seat,
        ready=".fo",
        width=width,
        names={str(i): f"P{i}" for i in range(state["player_count"])},
    )


def played(page):
    return page.evaluate("window.played")


def test_play_a_card_then_choose_how_to_execute_it(browser):
    """Phase 2 in the browser: the seat's three cards glow; clicking one offers its legal
    executions (and not executing); the click sends that legal move."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(arrange(s, {me: ["harvest_grain", "building", "water"]}), me, water=2)
    page, legal, errors = open_page(browser, s, me)
    assert page.locator(".fo-card.can").count() == 3
    assert page.locator(".fo-road .fo-pawn").count() == 2 and page.locator(".fo-fav").count() == 7
    page.click(f".fo-card.can[data-side='{me}'][data-slot='0']")
    assert page.locator("[data-choice]").count() == 4  # none, 0, 1, 2 water
    page.locator("[data-choice]", has_text="spend 2 water").click()
    assert played(page) == [{"type": "play", "slot": 0, "args": {"water": 2}}]
    assert played(page)[0] in legal and not errors
    page.close()


def test_exchange_targets_glow_and_face_down_cards_do_not(browser):
    """Phase 2 exchange: only face-up cards of the other sides are offered."""
    s = game(3, seed=1)
    me = seat_to_act(s)
    s = R.apply(s, me, {"type": "play", "slot": 0, "args": None})
    page, legal, errors = open_page(browser, s, me)
    glowing = page.locator(".fo-card.can")
    assert glowing.count() == sum(1 for m in legal if m["type"] == "exchange")
    assert page.locator(".fo-card.can.down").count() == 0
    down = page.locator(".fo-card.down").first
    down.click()
    assert played(page) == [] and "protected" in page.evaluate("window.explained")[0]
    glowing.first.click()
    assert played(page)[0] in legal and played(page)[0]["type"] == "exchange" and not errors
    page.close()


def test_favour_cards_and_declining_by_die(browser):
    """Phase 4 in the browser: favour cards usable with the dice glow; one with several step
    counts asks how many; declining names the die and whether tax is due."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[2, 5], chosen_slot=0), used=(1,), tokens={3: 2}),
        me,
        wine=2,
        grain=2,
        centurions=0,
    )
    page, legal, errors = open_page(browser, s, me)
    assert sorted(
        int(x) for x in page.locator(".fo-fav.can").evaluate_all("els => els.map(e => e.dataset.favour)")
    ) == [2, 3]
    assert page.locator(".fo-fav[data-favour='3'] .fo-token").count() == 2
    page.click(".fo-fav.can[data-favour='2']")
    page.locator("[data-choice]", has_text="2 steps").click()
    page.click("[data-die='2']")
    assert played(page) == [{"type": "favour", "card": 2, "n": 2}, {"type": "pass", "die": 2}]
    assert "(1 money tax)" in page.inner_text("[data-die='5']") and not errors
    page.click(".fo-fav[data-favour='6']")
    assert page.evaluate("window.explained") == ["You need a die of 6 or more for this card."]
    page.close()


def test_privilege_cards_are_secret_and_playable_by_their_owner(browser):
    """Privilege cards: the owner sees and can play A/B cards; others see only how many."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[1], chosen_slot=0)), me, hand=["B2", "C5"])
    page, legal, errors = open_page(browser, s, me)
    page.click("[data-privilege='B2'].can")
    assert played(page) == [{"type": "privilege", "card": "B2"}] and not errors
    assert page.locator("[data-privilege='C5'].can").count() == 0
    page.close()
    page, _, errors = open_page(browser, s, 1 - me)
    assert "2 secret privilege cards" in page.inner_text(f"[data-province='{me}']")
    assert "B2" not in page.content() and not errors
    page.close()


def test_the_cards_a_seat_saw_shuffled_into_the_deck_are_listed_for_it_only(browser):
    """NOTES decision 10/23: after a reshuffle a player still knows which of its discards (and of
    the face-up ones) went into the deck; its province lists them, nobody else's page does."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = at(s, known_in_deck=[["C5", "B2"] if seat == me else [] for seat in range(2)])
    page, _, errors = open_page(browser, s, me)
    text = page.inner_text(f"[data-province='{me}'] [data-shuffled]")
    assert "Shuffled into the deck" in text and "B" in text and not errors
    page.close()
    page, _, errors = open_page(browser, s, 1 - me)
    assert page.locator("[data-shuffled]").count() == 0 and not errors
    page.close()


def _finished(n, seed):
    s = R.setup(n, R.Options(), seed)
    rng = Rng(seed)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.bot_move(s, seat, rng))
    return s


def test_final_breakdown_and_phone_width(browser):
    """The end: each player's steps, privilege points and total; the page fits 390 px."""
    s = _finished(4, 3)
    page, _, errors = open_page(browser, s, None, width=390)
    out = R.outcome(s)
    order = sorted(range(len(out.scores)), key=lambda seat: out.ranks[seat])  # as the table sorts
    rows = page.locator("[data-outcome] tbody tr")
    assert rows.count() == len(order)
    for i, seat in enumerate(order):  # each row's own Total cell, not a number anywhere
        cells = rows.nth(i).locator("td")
        assert cells.nth(0).inner_text().startswith(f"{out.ranks[seat]}. ")
        assert cells.nth(5).inner_text() == str(out.breakdown[seat]["total"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("[data-nowinner]").count() == 0
    assert not errors
    page.close()


def test_nobody_in_rome_the_end_table_ranks_nobody(browser):
    """The Winner of the Game ("A player cannot win the game if his marker is outside Rome"):
    when the round guard ends a game with nobody inside Rome, the final table says that no one
    won, marks no row as the winner and numbers no ranks."""
    s = at(game(3, seed=2), round=40)
    rng = Rng(7)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, R.bot_move(s, seat, rng))
    assert R.outcome(s).to_json()["winners"] == []
    page, _, errors = open_page(browser, s, 0)
    assert "No one wins" in page.inner_text("[data-outcome] [data-nowinner]")
    rows = page.locator("[data-outcome] tbody tr")
    assert rows.count() == 3 and page.locator("[data-outcome] tr.win").count() == 0
    for i in range(3):
        assert rows.nth(i).locator("td").nth(0).inner_text() in ("P0", "P1", "P2")
    assert not errors
    page.close()


def test_mid_game_fits_a_phone_with_the_own_board_first(browser):
    """Table layout (docs/UX.md): prompt, then the viewer's own cards and province in the first
    screen of a 390x844 phone, no sideways scrolling; hooks give the turn order and public score."""
    s = game(4, seed=2)
    me = s["order"][0]
    page, legal, errors = open_page(browser, s, me, width=390)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 and not errors
    first = page.locator(".fo > *").nth(1)
    assert first.get_attribute("data-seat") == str(me) and "(you)" in first.inner_text()
    assert page.locator(f".fo-area[data-seat='{me}'] .fo-card.can").first.bounding_box()["y"] < 844
    hooks = page.evaluate("window.hooks")
    assert hooks["order"] == s["order"] and hooks["score"] == "step 0"
    assert (
        page.evaluate("window.hooks.changed({seat: 1, move: {type: 'favour', card: 3, n: 1}})")[0]
        == '.fo-fav[data-favour="3"]'
    )
    page.close()


def test_a_card_that_cannot_be_executed_says_why(browser):
    """Unaffordable actions are marked in words: Marriage without 4 money offers only playing it
    without executing, and says what is missing."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(arrange(s, {me: ["marriage", "water", "clerus"]}), me, money=1)
    page, legal, errors = open_page(browser, s, me)
    page.click(f".fo-card.can[data-side='{me}'][data-slot='0']")
    assert page.locator("[data-choice]").count() == 1
    assert "needs 4 money (you have 1)" in page.inner_text("[data-hint]") and not errors
    page.close()


def test_the_start_player_is_told_why_the_fortuna_card_does_not_move_them(browser):
    """The Fortuna card (version 4, NOTES "Adjusted after simulation") moves only a player who is
    not the start player: the start player is offered only playing it without executing, and the
    hint says why; another player gets the step."""
    s = game(3, seed=2)
    me = seat_to_act(s)
    assert me == s["order"][0]
    s = arrange(s, {me: ["fortuna", "water", "clerus"]})
    page, legal, errors = open_page(browser, s, me)
    page.click(f".fo-card.can[data-side='{me}'][data-slot='0']")
    assert page.locator("[data-choice]").count() == 1
    assert "start player" in page.inner_text("[data-hint]") and not errors
    page.close()
    second = s["order"][1]
    t = at(arrange(game(3, seed=2), {second: ["fortuna", "water", "clerus"]}), turn=1)
    page, legal, errors = open_page(browser, t, second)
    page.click(f".fo-card.can[data-side='{second}'][data-slot='0']")
    assert page.locator("[data-choice]").count() == 2 and page.locator("[data-hint]").count() == 0
    page.close()


def test_favour_step_says_why_an_action_card_does_nothing(browser):
    """In the favour step a click on an action card (any side) says what the step asks instead
    of doing nothing (issue 30)."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[2, 5], chosen_slot=0), used=(1,), tokens={3: 2}),
        me,
        wine=2,
        grain=2,
        centurions=0,
    )
    page, _legal, errors = open_page(browser, s, me)
    other = 1 - me
    page.click(f".fo-card[data-side='{other}'][data-slot='0']")
    page.click(f".fo-card[data-side='{me}'][data-slot='1']")
    assert played(page) == []
    assert (
        page.evaluate("window.explained")
        == ["Now the Emperor's favour: click a highlighted favour card, or decline with a die."] * 2
    )
    assert not errors
    page.close()


def test_focus_ring_shows_on_cards_over_the_legal_outline(browser):
    """Keyboard focus on a playable action card or favour card shows the kit's focus ring, not the
    green outline that marks it playable."""
    from tests.browser.a11y import FOCUS_RGB, focus_ring

    s = game(2, seed=0)
    me = seat_to_act(s)
    s = province(arrange(s, {me: ["harvest_grain", "building", "water"]}), me, water=2)
    page, _legal, errors = open_page(browser, s, me)
    ring = focus_ring(page, page.locator(".fo-card.can").first)
    assert ring["style"] == "solid" and ring["width"] >= 3 and ring["colour"] == FOCUS_RGB, ring
    s = province(
        favours(at(game(2, seed=0), phase="favour", rolled=[2, 5], chosen_slot=0), used=(1,)),
        me,
        wine=2,
        grain=2,
    )
    page, _legal, errors2 = open_page(browser, s, me)
    ring = focus_ring(page, page.locator(".fo-fav.can").first)
    assert ring["style"] == "solid" and ring["colour"] == FOCUS_RGB, ring
    assert not errors and not errors2
    page.close()
