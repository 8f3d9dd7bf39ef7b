"""Issue 30 at the table, in Chromium at 1366x900 and on a 390 px touch phone: "How to play" with
its glossary and the rulebook link, hints in a first game against bots, tooltips on a long press,
one click one move, a race refused without an error, a silent connection noticed and replaced (a
move clicked meanwhile shown as waiting, then played), the result kept readable after a rematch,
and a countdown before a bot steps in for an absent player. Screenshots go to var/screenshots/.

A wrapper around the page's WebSocket (installed before the page's scripts) counts the move
frames the page sends, and can hold or cut what existing sockets receive: a cut socket stays open
but silent both ways, as on a network cut that never closes the socket."""

from __future__ import annotations

import re
import time

import pytest

from tests.browser.test_table_browser import (
    VIEWPORTS,
    _no_sideways_scroll,
    _open,
    _player,
    _ready,
    _rest_moves,
    _room,
    shot,
)
from tests.support import http
from tests.support.server import ServerProcess

SOCKET_WRAPPER = r"""(() => {
  const Native = window.WebSocket;
  const onmessage = Object.getOwnPropertyDescriptor(Native.prototype, "onmessage");
  const probe = { sockets: [], moves: [] };
  probe.cut = () => { for (const s of probe.sockets) s.__cut = true; };
  probe.hold = () => { for (const s of probe.sockets) if (!s.__held) s.__held = []; };
  probe.release = () => {
    for (const s of probe.sockets) {
      const due = s.__held || [];
      s.__held = null;
      for (const ev of due) if (s.__fn) s.__fn.call(s, ev);
    }
  };
  window.__ws = probe;
  class Wrapped extends Native {
    constructor(url, protocols) { super(url, protocols); this.__cut = false; this.__held = null; probe.sockets.push(this); }
    send(data) {
      if (this.__cut) return;
      try { const f = JSON.parse(data); if (f.type === "move") probe.moves.push(f); } catch { /* not JSON */ }
      super.send(data);
    }
  }
  Object.defineProperty(Wrapped.prototype, "onmessage", {
    get() { return this.__fn || null; },
    set(fn) {
      this.__fn = fn;
      const self = this;
      onmessage.set.call(this, fn ? (ev) => {
        if (self.__cut) return;
        if (self.__held) { self.__held.push(ev); return; }
        fn.call(self, ev);
      } : null);
    },
  });
  window.WebSocket = Wrapped;
})();"""


@pytest.fixture(scope="module")
def learn_server(tmp_path_factory):
    """Heartbeats every second (the watchdog's interval), bots that wait a little, a 60 s grace
    for absent players (the countdown), clocks swept often."""
    db = tmp_path_factory.mktemp("learn") / "civitas.db"
    with ServerProcess(
        {
            "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
            "CIVITAS_BOT_DELAY_MS": "200",
            "CIVITAS_HEARTBEAT_SECONDS": "1",
            "CIVITAS_ABSENCE_GRACE_SECONDS": "60",
            "CIVITAS_CLOCK_SWEEP_SECONDS": "0.5",
        }
    ) as server:
        yield server


@pytest.fixture(params=list(VIEWPORTS))
def viewport(request):
    return request.param


def _page(browser, viewport, errors=None):
    """A page with the socket wrapper; the phone is a touch device."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(
        viewport={"width": width, "height": height}, bypass_csp=True, has_touch=viewport == "phone"
    )
    context.add_init_script(SOCKET_WRAPPER)
    page = context.new_page()
    seen = errors if errors is not None else []
    page.on("pageerror", lambda exc: seen.append(str(exc)))
    return page, seen


def test_how_to_play_glossary_rulebook_and_hints_against_bots(learn_server, browser, viewport):
    """Suburbia against a bot: "How to play" opens the turn, the end and scoring and a glossary
    in a dialog that fits the screen, with a link to the full rulebook; hints are on for this
    first game against bots and say why the offered moves are legal; turned off, they go, and the
    choice is remembered."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "suburbia")
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    _ready(page)
    button = page.locator("#how-to-play")
    button.wait_for()
    box = button.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    button.click()
    dialog = page.locator("#guide-dialog")
    dialog.wait_for(state="visible")
    text = dialog.inner_text()
    assert "How to play Suburbia" in text and "Your turn" in text and "How the game ends and scores" in text
    assert "Reputation" in page.locator("#guide-glossary").inner_text()
    size = dialog.bounding_box()
    assert size["x"] >= 0 and size["x"] + size["width"] <= VIEWPORTS[viewport][0]
    assert _no_sideways_scroll(page)
    shot(page, f"learn-{viewport}-1-how-to-play")
    href = page.get_attribute("#guide-rulebook", "href")
    assert href == "/rules/suburbia"
    page.click("#guide-close")
    dialog.wait_for(state="hidden")
    # Hints: the first decision is the secret goal; the hint says what keeping one does.
    hint = page.locator("#hint")
    page.locator("#hint .hint-line").first.wait_for(state="visible")
    assert "secret goal" in hint.inner_text() and hint.inner_text().startswith("Hint:")
    assert page.is_checked("#opt-hints")
    shot(page, f"learn-{viewport}-2-hint")
    page.click("#opt-hints")
    hint.wait_for(state="hidden")
    page.reload()
    page.wait_for_function("window.civitas && window.civitas.guide")
    assert not page.is_checked("#opt-hints") and page.is_hidden("#hint")
    # The rules page: our summary, then the rulebook, readable on the phone.
    page.goto(server.url + href)
    assert page.locator("h1").inner_text() == "Suburbia: how to play"
    assert "The full rulebook" in page.inner_text("#rules") and _no_sideways_scroll(page)
    page.context.close()
    assert not errors, errors


def test_the_hint_tells_the_move_kinds_offered_now(learn_server, browser):
    """Hints are per kind of move: in a first Tiny Towns game against a bot, the hint lines are the
    guide's sentence for each kind of move offered at that moment (naming a resource as Master
    Builder, placing one, building, finishing), the most wanted kind first (the guide's
    hint_order: building before finishing), and they change as the decision changes."""
    server = learn_server
    ann = _player(server, "Ann")
    _room_id, game = _room(server, ann, "tiny-towns")
    guide = http.get(f"{server.url}/api/rulesets/tiny-towns/guide").json()
    hints, order = guide["hints"], guide["hint_order"]
    page, errors = _page(browser, "wide")
    _open(page, server, ann, game)
    shown: dict[tuple, list] = {}
    for _ in range(12):
        _ready(page)
        page.wait_for_function("window.civitas.guide && document.querySelector('#hint .hint-line')")
        now = page.evaluate(
            "(() => { const s = window.civitas; return { fresh: s.legalVersion === s.doc.version, "
            "version: s.doc.version, kinds: [...new Set(s.legal.map((m) => m.type))], "
            "lines: [...document.querySelectorAll('#hint .hint-line')].map((n) => n.textContent) }; })()"
        )
        if now["fresh"]:
            kinds = sorted(now["kinds"], key=order.index)
            assert now["lines"] == [f"Hint: {hints[k]}" for k in kinds][:4], now
            shown[tuple(now["kinds"])] = now["lines"]
        if len(shown) >= 2:
            break
        _rest_moves(server, game, ann, 1)
        page.wait_for_function(f"window.civitas.doc.version > {now['version']}")
    assert len(shown) >= 2, shown  # two decisions of different kinds, two different hints
    assert len({tuple(lines) for lines in shown.values()}) == len(shown)
    page.context.close()
    assert not errors, errors


def _play_until_kinds(server, game, player, wanted: set[str], most: int = 400) -> None:
    """Play the player's first legal moves over REST until the decision offered to them is exactly
    the kinds `wanted` (fails after `most` moves)."""
    for _ in range(most):
        legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=player["headers"]).json()
        if {m["type"] for m in legal["moves"]} == wanted:
            return
        assert http.get(f"{server.url}/api/games/{game}").json()["status"] == "active"
        if not _rest_moves(server, game, player, 1):
            time.sleep(0.05)
    raise AssertionError(f"no decision of {sorted(wanted)} in {most} moves")


def test_on_a_phone_the_hint_shown_is_the_kind_most_wanted(learn_server, browser):
    """A phone shows one hint line: at City Council's turn end, where a player may discard a
    favour card or be done, that line is Done's (the usual action; discarding is needed only above
    seven cards), Discard's sits behind "+1 more", which opens it over the board and closes again."""
    server = learn_server
    ann = _player(server, "Ann")
    _room_id, game = _room(server, ann, "city-council")
    hints = http.get(f"{server.url}/api/rulesets/city-council/guide").json()["hints"]
    _play_until_kinds(server, game, ann, {"discard", "done"})
    page, errors = _page(browser, "phone")
    _open(page, server, ann, game)
    _ready(page)  # the bots may have answered the same window meanwhile: the decision is Ann's still
    assert sorted({m["type"] for m in page.evaluate("window.civitas.legal")}) == ["discard", "done"]
    first = page.locator("#hint .hint-line").first
    first.wait_for(state="visible")
    assert first.text_content() == f"Hint: {hints['done']}"
    discard = page.locator("#hint .hint-line").nth(1)
    assert discard.text_content() == f"Hint: {hints['discard']}" and discard.is_hidden()
    more = page.locator("#hint-more")
    assert more.inner_text() == "+1 more" and more.get_attribute("aria-expanded") == "false"
    box = more.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24
    board_top = page.evaluate("document.getElementById('board').getBoundingClientRect().top")
    shot(page, "learn-phone-9-hint-done-first")
    more.click()
    discard.wait_for(state="visible")
    assert more.inner_text() == "Less" and more.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.getElementById('board').getBoundingClientRect().top") == board_top
    shot(page, "learn-phone-10-hint-open")
    page.keyboard.press("Escape")  # the focus is on the button: Escape closes
    discard.wait_for(state="hidden")
    assert page.evaluate("document.activeElement.id") == "hint-more"
    assert _no_sideways_scroll(page)
    page.context.close()
    assert not errors, errors


BOARD_TOP = "document.getElementById('board').getBoundingClientRect().top + window.scrollY"


def test_the_board_stays_put_while_the_hint_changes(learn_server, browser):
    """Desktop, Suburbia against a bot: the secret goal's one-line hint, the wait while the bot plays
    and the four kinds of a market turn (once three lines that pushed the board down), each
    keeping the hint one line high and the board's top where it was; the market turn's first line is
    buying a tile, the others behind "+3 more", which lays them over the board without moving it."""
    server = learn_server
    ann = _player(server, "Ann")
    _room_id, game = _room(server, ann, "suburbia")
    hints = http.get(f"{server.url}/api/rulesets/suburbia/guide").json()["hints"]
    page, errors = _page(browser, "wide")
    _open(page, server, ann, game)
    _ready(page)
    page.locator("#hint .hint-line").first.wait_for(state="visible")
    top = page.evaluate(BOARD_TOP)
    height = page.locator("#hint").bounding_box()["height"]
    tops = page.evaluate(
        """() => { const tops = []; const board = document.getElementById('board');
        new MutationObserver(() => tops.push(board.getBoundingClientRect().top + window.scrollY))
          .observe(document.getElementById('hint-lines'), { childList: true, subtree: true });
        window.__tops = tops; return tops; }"""
    )
    assert tops == []
    seen = {page.evaluate("document.querySelector('#hint .hint-line').textContent")}
    page.locator(".sb-keep-goal").first.click()
    # On to a market turn: buy, a basic tile, invest or a lake.
    page.wait_for_function(
        "window.civitas.legalVersion === window.civitas.doc.version && "
        "new Set(window.civitas.legal.map((m) => m.type)).has('buy') && "
        "document.querySelectorAll('#hint .hint-line').length > 2",
        timeout=30000,
    )
    seen.add(page.evaluate("document.querySelector('#hint .hint-line').textContent"))
    assert len(seen) == 2  # the hint did change
    assert page.evaluate("document.querySelector('#hint .hint-line').textContent") == f"Hint: {hints['buy']}"
    changes = page.evaluate("window.__tops")
    assert changes and set(changes) == {top}, (top, changes)
    assert page.evaluate(BOARD_TOP) == top
    assert page.locator("#hint").bounding_box()["height"] == height
    count = page.locator("#hint .hint-line").count()
    more = page.locator("#hint-more")
    assert more.inner_text() == f"+{count - 1} more"
    shot(page, "learn-wide-9-hint-one-line")
    more.click()
    last = page.locator("#hint .hint-line").last
    last.wait_for(state="visible")
    # Laid over the board: the list reaches below the hint row, and nothing below moved.
    lines_box = page.locator("#hint-lines").bounding_box()
    row = page.locator("#hint").bounding_box()
    assert lines_box["y"] + lines_box["height"] > row["y"] + row["height"]
    assert page.evaluate(BOARD_TOP) == top and page.locator("#hint").bounding_box()["height"] == height
    shot(page, "learn-wide-10-hint-open")
    page.locator("#hint-lines").click()  # a click on the open hint closes it
    last.wait_for(state="hidden")
    assert page.evaluate(BOARD_TOP) == top
    page.context.close()
    assert not errors, errors


def test_hints_stay_off_with_another_person_at_the_table(learn_server, browser, viewport):
    """A game with another person is no first game against bots: hints are off unless asked for."""
    server = learn_server
    ann, bob = _player(server, "Ann"), _player(server, "Bob")
    _room_id, game = _room(server, ann, "tiny-towns", bots=0, guests=[bob])
    page, errors = _page(browser, viewport)
    _open(page, server, ann, game)
    _ready(page)
    page.wait_for_function("window.civitas.guide")
    assert not page.is_checked("#opt-hints") and page.is_hidden("#hint")
    page.click("#opt-hints")
    page.locator("#hint").wait_for(state="visible")
    page.context.close()
    assert not errors, errors


def test_a_long_press_shows_a_tooltip_on_touch_and_plays_nothing(learn_server, browser):
    """On a touch phone a long press on something with a title shows the title in a bubble; the
    press is not a click (nothing is sent); a short tap still clicks."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "suburbia")
    page, errors = _page(browser, "phone")
    _open(page, server, host, game)
    _ready(page)
    target = page.locator(".player .order").first
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)  # the press itself: a long press is a duration by definition
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    tip = page.locator("#touch-tip")
    tip.wait_for(state="visible")
    assert tip.inner_text() == "turn order"
    shot(page, "learn-phone-3-long-press")
    assert page.evaluate("window.__ws.moves.length") == 0
    # A tap elsewhere hides it.
    page.tap("#turn-status")
    tip.wait_for(state="hidden")
    page.context.close()
    assert not errors, errors


def test_one_click_one_move_and_no_error_after_a_double_click(learn_server, browser, viewport):
    """A double click on "Keep" sends one move: the second click finds the first still on its
    way and sends nothing, so no refusal ("version 7, not 6") ever shows."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "suburbia")
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    _ready(page)
    version = page.evaluate("window.civitas.doc.version")
    page.locator(".sb-keep-goal").first.dblclick()
    page.wait_for_function(f"window.civitas.doc.version > {version} && window.civitas.awaiting === null")
    page.wait_for_timeout(500)  # room for a second answer, were a second move sent
    sent = page.evaluate("window.__ws.moves.filter((m) => m.move.type === 'keep_goal').length")
    assert sent == 1
    assert page.is_hidden("#move-error"), page.inner_text("#move-error")
    page.context.close()
    assert not errors, errors


def _held_legal_moves(page, change=None):
    """Hold the page's next legal-moves request until `release()` (a slow answer), and answer it
    through `change(body)` when given. Returns release."""
    import json

    held: list = []

    def route(r):
        if not held:
            held.append(r)  # the first one only: later requests go through
        else:
            r.continue_()

    page.route("**/legal-moves", route)

    def release():
        r = held.pop()
        if change is None:
            r.continue_()
        else:
            answer = r.fetch()
            r.fulfill(response=answer, body=json.dumps(change(answer.json())))
        held.append(None)  # nothing more is held

    return release


def _click_while_fetching(server, page, guest, game, change=None):
    """The other player moves (REST) while this page still shows the old decision; the page's
    fetch of the new version's legal moves is held; the player clicks a goal meanwhile. Returns
    the clicked goal and the release of the fetch."""
    version = page.evaluate("window.civitas.doc.version")
    release = _held_legal_moves(page, change)
    legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=guest["headers"]).json()
    r = http.post(
        f"{server.url}/api/games/{game}/moves",
        headers=guest["headers"],
        json={"version": legal["version"], "move": legal["moves"][0]},
    )
    assert r.status_code == 200, r.text
    page.wait_for_function(
        f"window.civitas.doc.version === {version + 1} && window.civitas.legalVersion === {version}"
    )
    button = page.locator(".sb-keep-goal").first
    goal = page.evaluate("window.civitas.legal[0].goal")
    button.click()
    return goal, release


def test_a_click_while_the_legal_moves_are_fetched_waits_and_is_played(learn_server, browser, viewport):
    """Another player's move lands and the page fetches the new version's legal moves (slowly: the
    answer is held); a click meanwhile is not dropped: the page says "One moment…", sends
    nothing yet, and plays the move once the legal moves are in and it is still legal."""
    server = learn_server
    ann, bob = _player(server, "Ann"), _player(server, "Bob")
    _room_id, game = _room(server, ann, "suburbia", bots=0, guests=[bob])
    page, errors = _page(browser, viewport)
    _open(page, server, ann, game)
    _ready(page)
    goal, release = _click_while_fetching(server, page, bob, game)
    waiting = page.locator("#move-waiting")
    waiting.wait_for(state="visible")
    assert "One moment" in waiting.inner_text(), waiting.inner_text()
    shot(page, f"learn-{viewport}-6-one-moment")
    assert page.evaluate("window.__ws.moves.length") == 0  # nothing is sent on the old table
    release()
    page.wait_for_function("window.__ws.moves.length === 1 && window.civitas.awaiting === null")
    page.wait_for_function("window.civitas.lastAnswer && window.civitas.lastAnswer.ok")
    log = http.get(f"{server.url}/api/games/{game}/log", headers=ann["headers"]).json()["moves"]
    assert [m["move"] for m in log if m["seat"] == 0] == [{"type": "keep_goal", "goal": goal}]
    assert page.is_hidden("#move-waiting") and page.is_hidden("#move-error")
    page.context.close()
    assert not errors, errors


def test_a_click_no_longer_legal_after_the_fetch_is_refused_in_words(learn_server, browser):
    """The same, but the new version no longer allows the clicked move: nothing is sent and the
    page says so in words (a notice, not an error), asking the player to choose again."""
    server = learn_server
    ann, bob = _player(server, "Ann"), _player(server, "Bob")
    _room_id, game = _room(server, ann, "suburbia", bots=0, guests=[bob])
    page, errors = _page(browser, "wide")
    _open(page, server, ann, game)
    _ready(page)
    first = page.evaluate("window.civitas.legal[0]")
    without = lambda body: {**body, "moves": [m for m in body["moves"] if m != first]}  # noqa: E731
    _goal, release = _click_while_fetching(server, page, bob, game, change=without)
    page.locator("#move-waiting").wait_for(state="visible")
    release()
    error = page.locator("#move-error")
    error.wait_for(state="visible")
    assert "was not sent" in error.inner_text() and "choose again" in error.inner_text(), error.inner_text()
    assert page.evaluate("document.getElementById('move-error').dataset.kind") == "notice"
    assert page.evaluate("window.__ws.moves.length") == 0 and page.is_hidden("#move-waiting")
    page.context.close()
    assert not errors, errors


def test_a_move_crossed_by_another_device_is_no_error(learn_server, browser, viewport):
    """The player's second device moves first; this page, still behind, sends its own move for
    the old table; the server refuses it as stale, and the page shows no error, in words or
    otherwise: it catches up."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "suburbia")
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    _ready(page)
    # This page hears nothing for now (and its watchdog is told to be patient meanwhile).
    page.evaluate("window.civitas.heartbeatEvery = 60; window.__ws.hold()")
    legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=host["headers"]).json()
    r = http.post(
        f"{server.url}/api/games/{game}/moves",
        headers=host["headers"],
        json={"version": legal["version"], "move": legal["moves"][0]},
    )
    assert r.status_code == 200, r.text
    # The page still shows the old decision: a click on it goes out at the old version.
    page.locator(".sb-keep-goal").last.click()
    page.wait_for_function("window.__ws.moves.length === 1")
    page.evaluate("window.__ws.release()")
    page.wait_for_function("window.civitas.lastAnswer && window.civitas.lastAnswer.ok === false")
    # Stale, or (when the other device's move ended a simultaneous step) no longer this seat's turn.
    assert page.evaluate("window.civitas.lastAnswer.code") in ("move/stale_version", "move/not_your_turn")
    shown = page.evaluate(
        "[document.getElementById('move-error').hidden, document.getElementById('move-error').dataset.kind || '', "
        "document.getElementById('move-error').textContent]"
    )
    assert shown[0] or shown[1] == "notice", shown
    assert "version" not in shown[2]
    page.context.close()
    assert not errors, errors


def test_a_silent_connection_is_noticed_and_a_move_meanwhile_waits(learn_server, browser, viewport):
    """The network is cut without the socket closing: with no heartbeat for two intervals the page
    says it is offline and reconnects; a move clicked meanwhile is shown as waiting and is played
    once the connection is back."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "suburbia")
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    _ready(page)
    page.wait_for_function("window.civitas.heartbeatEvery === 1")  # a heartbeat said its interval
    version = page.evaluate("window.civitas.doc.version")
    page.evaluate("window.__ws.cut()")
    page.locator(".sb-keep-goal").first.click()
    waiting = page.locator("#move-waiting")
    waiting.wait_for(state="visible")
    assert "on its way" in waiting.inner_text() or "waiting" in waiting.inner_text()
    shot(page, f"learn-{viewport}-4-move-waiting")
    page.wait_for_function("window.civitas.watchdogFired === 1", timeout=15000)
    page.wait_for_function("document.getElementById('conn-status').dataset.state === 'online'", timeout=30000)
    # The kept move goes out on the new socket (the cut one never left the page) and is answered.
    page.wait_for_function(
        "window.__ws.moves.length === 1 && window.civitas.awaiting === null && !window.civitas.pending",
        timeout=30000,
    )
    log = http.get(f"{server.url}/api/games/{game}/log", headers=host["headers"]).json()["moves"]
    assert [m["move"]["type"] for m in log if m["seat"] == 0] == ["keep_goal"]
    assert page.evaluate("window.civitas.doc.version") > version
    assert page.is_hidden("#move-waiting") and page.is_hidden("#move-error")
    page.context.close()
    assert not errors, errors


def test_the_result_stays_readable_and_the_rematch_is_a_link(learn_server, browser, viewport):
    """At the end the status points at the result, which is in view; accepting a rematch keeps the
    finished game on screen with a link to the new game; the next game starts without hints."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "tiny-towns")
    _rest_moves(server, game, host, 10_000)
    assert http.get(f"{server.url}/api/games/{game}").json()["status"] == "finished"
    page, errors = _page(browser, viewport)
    _open(page, server, host, game)
    result = page.locator("#outcome")
    result.wait_for(state="visible")
    assert "result is just below" in page.inner_text("#turn-status")
    status_y = page.locator("#turn-status").bounding_box()["y"]
    box = result.bounding_box()
    assert box["y"] > status_y and box["y"] < VIEWPORTS[viewport][1] - 100
    # A finished game is no longer the first: hints start off next time (unless asked for).
    assert page.evaluate("JSON.parse(localStorage.getItem('civitas.hints'))['tiny-towns']") is False
    page.click("#rematch")
    link = page.locator("#rematch-go")
    link.wait_for(timeout=30000)
    assert re.search(r"/games/[0-9a-f]+$", link.get_attribute("href")) and game not in link.get_attribute(
        "href"
    )
    time.sleep(1)  # a page that would jump away does so at once
    assert page.url.endswith(f"/games/{game}") and page.is_visible("#outcome")
    shot(page, f"learn-{viewport}-5-rematch-link")
    link.click()
    page.wait_for_url(re.compile(r".*/games/(?!%s)[0-9a-f]+$" % game))
    page.context.close()
    assert not errors, errors


def test_an_absent_player_gets_a_countdown_before_a_bot_steps_in(learn_server, browser, viewport):
    """The player to act closes their page: the other's status says they are away and when a bot
    will play for them, counting down; their panel says "away"."""
    server = learn_server
    ben, ann = _player(server, "Ben"), _player(server, "Ann")
    _room_id, game = _room(server, ben, "fortune-city", bots=0, guests=[ann])
    doc = http.get(f"{server.url}/api/games/{game}").json()
    assert len(doc["to_act"]) == 1
    gone, stays = (ben, ann) if doc["to_act"] == [0] else (ann, ben)
    page_gone, errors = _page(browser, viewport)
    _open(page_gone, server, gone, game)
    page_gone.wait_for_function("window.civitas.online")
    page_gone.context.close()
    page, _ = _page(browser, viewport, errors)
    _open(page, server, stays, game)
    status = page.locator("#turn-status")
    away = f"{gone['name']} is away"
    page.wait_for_function(
        f"document.getElementById('turn-status').textContent.includes({away!r})", timeout=30000
    )
    first = status.inner_text()
    assert re.search(r"a bot will play for them in \d:\d\d unless they come back", first), first
    page.wait_for_function(f"document.getElementById('turn-status').textContent !== {first!r}")
    assert page.locator(f".player[data-seat='{doc['to_act'][0]}'] .away").is_visible()
    shot(page, f"learn-{viewport}-6-away-countdown")
    page.context.close()
    assert not errors, errors


def test_table_facts_before_joining(learn_server, browser, viewport):
    """Before anyone joins: the lobby and the room show the table's clock; City Council's "Hard
    mode budget" is offered and described only for Hard mode; the reason Start cannot be pressed
    is written beside it; Escape in the name dialog creates nothing; a visitor chats under a name
    they choose."""
    server = learn_server
    page, errors = _page(browser, viewport)
    page.goto(server.url + "/")
    page.select_option("#ruleset-select", "city-council")
    assert page.get_attribute("#ruleset-rules", "href") == "/rules/city-council"
    budget = page.locator("[data-option='hard_budget']")
    assert budget.is_hidden()
    page.select_option("select[name=mode]", "hard")
    assert budget.is_visible()
    page.select_option("select[name=mode]", "standard")
    assert budget.is_hidden()
    page.select_option("#pace-select", "realtime")
    page.fill("#pace-move-minutes", "2")
    page.fill("#pace-reserve-minutes", "5")
    page.click("#create-button")
    page.keyboard.press("Escape")  # no name: nothing is created, the lobby stays
    page.wait_for_timeout(300)
    assert page.evaluate("localStorage.getItem('civitas.player')") is None and "/rooms/" not in page.url
    page.click("#create-button")
    page.fill("#name-input", "Carla")
    page.click("#name-form button[type=submit]")
    page.wait_for_url("**/rooms/*")
    page.wait_for_function("document.getElementById('room-clock').textContent !== ''")
    assert page.inner_text("#room-clock") == "Clock: 2 min a move + 5 min reserve"
    meta = page.inner_text("#room-meta")
    assert "Standard" in meta and "budget" not in meta.lower(), meta
    reason = page.locator("#start-reason")
    assert reason.is_visible() and "Fill every seat" in reason.inner_text()
    assert page.is_disabled("#start-button")
    # How to play, before sitting down: the room links to the game's rules page.
    assert page.get_attribute("#room-rules", "href") == "/rules/city-council"
    assert page.inner_text("#room-rules") == "How to play City Council"
    shot(page, f"learn-{viewport}-7-room-facts")
    room_id = page.url.rsplit("/", 1)[1].split("?")[0]
    # A visitor sees the clock in the lobby's list, and that the host starts the game.
    other, _ = _page(browser, viewport, errors)
    other.goto(server.url + "/")
    row = other.locator(f"tr[data-room-id='{room_id}']")
    row.wait_for()
    assert "Clock: 2 min a move + 5 min reserve" in row.inner_text()
    assert _no_sideways_scroll(other)
    other.goto(f"{server.url}/rooms/{room_id}")
    other.wait_for_selector("#start-reason:not([hidden])")
    assert "The host, Carla, starts the game" in other.inner_text("#start-reason")
    # The visitor chats in the room under a name they choose; the host reads it.
    other.fill("#chat-input", "Room for one more?")
    other.press("#chat-input", "Enter")
    other.fill("#name-input", "Eve")
    other.click("#name-form button[type=submit]")
    page.wait_for_selector(".chat-line:has-text('Eve: Room for one more?')")
    page.click(".add-bot[data-seat='1']")
    page.wait_for_selector("#start-button:not([disabled])")
    assert page.is_hidden("#start-reason")
    other.context.close()
    page.context.close()
    assert not errors, errors


def test_a_spectator_chats_under_a_name_they_choose(learn_server, browser, viewport):
    """Someone watching without an identity writes in the chat: they are asked for a name, and
    the line appears under that name among the spectators' messages, for the players too."""
    server = learn_server
    host = _player(server, "Alice")
    _room_id, game = _room(server, host, "tiny-towns")
    player_page, errors = _page(browser, viewport)
    _open(player_page, server, host, game)
    page, _ = _page(browser, viewport, errors)
    page.goto(f"{server.url}/games/{game}")
    page.wait_for_function("window.civitas && window.civitas.doc && window.civitas.online")
    page.wait_for_selector("#watching:not([hidden])")
    page.fill("#chat-input", "Nice town!")
    page.press("#chat-input", "Enter")
    page.fill("#name-input", "Dora")
    page.click("#name-form button[type=submit]")
    line = "#chat-spectators .chat-line:has-text('Dora: Nice town!')"
    page.wait_for_selector(line)
    player_page.wait_for_selector(line)
    assert page.is_visible("#watching")  # still watching: choosing a name takes no seat
    shot(page, f"learn-{viewport}-8-spectator-chat")
    player_page.context.close()
    page.context.close()
    assert not errors, errors
