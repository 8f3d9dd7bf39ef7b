"""static/js/kit.js alone in headless Chromium (no server): the staged legal-move picker and the
soft hyphens that keep words whole."""

from __future__ import annotations

import json

import pytest

from tests.support.renderer import KIT_JS

ORIGIN = "http://kit.test"


@pytest.fixture
def kit(browser):
    """A blank page that has imported the kit as window.kit."""
    page = browser.new_page()
    page.route(
        f"{ORIGIN}/index.html",
        lambda route: route.fulfill(
            body="<!doctype html><script type=module>import * as kit from './kit.js'; window.kit = kit;</script>",
            content_type="text/html",
        ),
    )
    page.route(
        f"{ORIGIN}/kit.js",
        lambda route: route.fulfill(body=KIT_JS.read_text(), content_type="text/javascript"),
    )
    page.goto(f"{ORIGIN}/index.html")
    page.wait_for_function("!!window.kit")
    yield page
    page.close()


# Seatings of three members on committees a-d: a made-up legal list for the picker.
LEGAL = [{"seats": s} for s in (["a", "b", "c"], ["a", "c", "b"], ["a", "b", "d"], ["b", "a", "c"])]
STEPS = "[0, 1, 2].map((i) => ({ name: `m${i}`, of: (m) => m.seats[i] }))"


def test_picker_narrows_step_by_step_and_returns_a_listed_move(kit):
    """Each step offers only the values some remaining move has; a step with one value left is
    skipped; the move returned is the listed object itself once one is left."""
    out = kit.evaluate(
        f"""(legal) => {{
      const p = new kit.Picker({STEPS}).sync("v1", legal);
      const first = p.next();
      const r1 = p.pick(first.step, "a");
      const second = p.next();
      const r2 = p.pick(second.step, "b");
      const third = p.next();
      const r3 = p.pick(third.step, "d");
      return {{ first: [first.step, first.options.map((o) => o.value)], r1,
               second: [second.step, second.options.map((o) => o.value)], r2,
               third: [third.step, third.options.map((o) => o.value)], r3, listed: legal.indexOf(r3) }};
    }}""",
        LEGAL,
    )
    assert out["first"] == [0, ["a", "b"]] and out["r1"] is None
    assert out["second"] == [1, ["b", "c"]] and out["r2"] is None
    assert out["third"] == [2, ["c", "d"]]
    assert out["r3"] == {"seats": ["a", "b", "d"]} and out["listed"] == 2


def test_picker_refuses_a_value_no_move_has_and_forgets_on_a_new_key(kit):
    """A pick that no legal move agrees with is not kept (nothing can be made up from picks);
    the same key keeps the picks, a new key (a new version) starts again."""
    out = kit.evaluate(
        f"""(legal) => {{
      const p = new kit.Picker({STEPS}).sync("v1", legal);
      const bad = p.pick(0, "z");
      const afterBad = p.picks.length;
      p.pick(0, "b");
      const single = p.decided();
      p.sync("v1", legal);
      const kept = p.picks.length;
      p.sync("v2", legal);
      return {{ bad, afterBad, single, kept, fresh: p.picks.length }};
    }}""",
        LEGAL,
    )
    assert out["bad"] is None and out["afterBad"] == 0
    assert out["single"] == {"seats": ["b", "a", "c"]}  # "b" first leaves one seating
    assert out["kept"] == 1 and out["fresh"] == 0


def test_hyphenate_breaks_long_words_at_readable_places_only(kit):
    """Soft hyphens go into long words only, between consonants, never inside "th" / "tr"."""
    words = ["Slaughterhouse", "Electronics Store", "Steakhouse", "Bookstore", "Park", "Construction"]
    out = kit.evaluate("(ws) => ws.map((w) => kit.hyphenate(w, 8).replaceAll('\\u00ad', '-'))", words)
    assert out == [
        "Slaugh-terhouse",
        "Elec-tronics Store",
        "Steak-house",
        "Book-store",
        "Park",
        "Construc-tion",
    ]
    assert json.dumps(out).count("-") == 5


def test_hyphenate_falls_back_to_a_break_between_vowels(kit):
    """A long word with no break between consonants or before a syllable breaks between two
    vowels that are not said as one ("Appli-ance"), so it never runs out of its box."""
    out = kit.evaluate(
        "(ws) => ws.map((w) => kit.hyphenate(w, 7).replaceAll('\\u00ad', '-'))", ["Appliance", "Stationery"]
    )
    assert out == ["Appli-ance", "Statio-nery"]


def test_the_broken_word_check_sees_a_cut_word_but_not_a_soft_hyphen_break(kit):
    """tests/browser/a11y.py's check, which the phone tests rely on: a word cut anywhere in a
    narrow box is reported; the same word broken at its soft hyphen ("News-" / "stand") is not
    (the hyphen drawn at the line's end once made the next part look cut)."""
    from tests.browser.a11y import BROKEN_WORDS

    kit.evaluate("""() => { document.body.innerHTML =
      '<div id=cut style="width:30px;font:10px sans-serif;overflow-wrap:anywhere">Newsstand</div>' +
      '<div id=soft style="width:30px;font:10px sans-serif;hyphens:manual">News\\u00adstand</div>'; }""")
    assert kit.evaluate(BROKEN_WORDS, "#cut") == ["Newsstand"]
    assert kit.evaluate(BROKEN_WORDS, "#soft") == []
