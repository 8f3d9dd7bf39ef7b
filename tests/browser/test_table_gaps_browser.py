"""Issue 8's last gaps, each checked in Chromium: text contrast (WCAG, computed against the
background each text is drawn on) on the lobby, a room and every game's table; no sideways
scrolling at 360 px; Tiny Towns' names never cut; the your-turn sound and notification (and their
absence when turned off); Tiny Towns' buildable cards marked and the prompt moving on while a
pattern is picked; player panels; other seats' clocks counting down; spectators' chat under its
own heading; Suburbia's hex labels readable at 1366 px; Fortune City's corner markers clear of
the names on a phone. Screenshots go to var/screenshots/."""

from __future__ import annotations

import pytest

from tests.browser.test_table_browser import _open, _player, _rest_moves, _room, shot
from tests.support import http

RULESETS = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]
# Something of the renderer's own drawing, to wait for before measuring.
DRAWN = {
    "suburbia": ".sb-player",
    "tiny-towns": ".tt-town",
    "fortune-city": ".fc-player",
    "fortuna": ".fo-area",
    "city-council": ".cc-panel",
}

# WCAG 2.x contrast of every visible text against what is behind it: HTML text against the
# composited background colours of its ancestors (opacity applied), SVG text against the shape
# drawn under it in its group. Text in a disabled control is exempt (WCAG 1.4.3). Returns the
# failures: [text, ratio, needed, foreground, background].
CONTRAST_JS = r"""() => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const f = (x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // The backgrounds behind a node: one colour, or each colour of a gradient it sits on (the text
  // may stand on any of them, so each is checked).
  const htmlBackgrounds = (node) => {
    const layers = [];
    let base = [[255, 255, 255, 1]];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const st = getComputedStyle(n);
      if (/gradient/.test(st.backgroundImage)) {
        base = (st.backgroundImage.match(/rgba?\([^)]+\)/g) || []).map((c) => over(parse(c), [255, 255, 255, 1]));
        break;
      }
      const c = parse(st.backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) { base = [[255, 255, 255, 1]]; break; } }
    }
    return base.map((b) => layers.reduceRight((bg, c) => over(c, bg), b));
  };
  const htmlBackground = (node) => htmlBackgrounds(node)[0];
  const opacity = (node) => {
    let o = 1;
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const SHAPES = new Set(["polygon", "rect", "circle", "ellipse", "path"]);
  const svgBackground = (text) => {
    for (let n = text.previousElementSibling; n; n = n.previousElementSibling) {
      if (!SHAPES.has(n.tagName)) continue;
      const st = getComputedStyle(n);
      const fill = parse(st.fill);
      if (!fill) continue;
      fill[3] *= Number(st.fillOpacity);
      return over(fill, htmlBackground(text.ownerSVGElement));
    }
    return htmlBackground(text.ownerSVGElement);
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (!t.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    if (el.closest("script, style, title, option, [hidden], [aria-hidden='true']")) continue;
    if (el.closest("button:disabled, input:disabled, select:disabled, fieldset:disabled")) continue;
    const box = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (!box.width || !box.height || st.visibility === "hidden" || (el.checkVisibility && !el.checkVisibility())) continue;
    const svg = el instanceof SVGElement;
    const size = parseFloat(st.fontSize) * (svg && el.getScreenCTM() ? el.getScreenCTM().a : 1);
    const large = size >= 24 || (size >= 18.66 && Number(st.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    for (const bg of svg ? [svgBackground(el.closest("text") || el)] : htmlBackgrounds(el)) {
      let fg = parse(svg ? st.fill : st.color);
      if (!fg) continue;
      fg = over(fg, bg);
      fg = over([...fg.slice(0, 3), opacity(el)], bg);
      const r = ratio(fg, bg);
      if (r < need) failures.push([t.textContent.trim().slice(0, 40), Math.round(r * 100) / 100, need,
                                   fg.slice(0, 3).map(Math.round).join(","), bg.slice(0, 3).map(Math.round).join(",")]);
    }
  }
  return failures;
}"""


def _context(browser, width, height, **kw):
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True, **kw)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def _sign_in(page, server, player):
    page.goto(server.url + "/")
    page.evaluate(
        "p => localStorage.setItem('civitas.player', JSON.stringify(p))",
        {k: player[k] for k in ("id", "name", "token")},
    )


def _doc(server, game, player=None):
    return http.get(f"{server.url}/api/games/{game}", headers=player["headers"] if player else {}).json()


def _play_first(server, game, player, pick=None):
    """Play the player's first legal move (or the one `pick` chooses) over REST; True if played."""
    legal = http.get(f"{server.url}/api/games/{game}/legal-moves", headers=player["headers"]).json()
    if not legal["moves"]:
        return False
    move = pick(legal["moves"]) if pick else legal["moves"][0]
    r = http.post(
        f"{server.url}/api/games/{game}/moves",
        headers=player["headers"],
        json={"version": legal["version"], "move": move},
    )
    return r.status_code == 200


def _until_turn_of(server, game, players, seat):
    """Play first legal moves for whoever is asked (all over REST) until only `seat` is."""
    for _ in range(60):
        doc = _doc(server, game)
        if doc["to_act"] == [seat]:
            return doc
        for s in doc["to_act"]:
            _play_first(server, game, players[s])
    raise AssertionError(f"seat {seat} never came to act: {doc['to_act']}")


def _suburbia_duel(server, pace=None):
    """Ann (seat 0) and Bob (seat 1) in Suburbia, both goals kept over REST."""
    ann, bob = _player(server, "Ann"), _player(server, "Bob")
    _room_id, game = _room(server, ann, "suburbia", bots=0, guests=[bob], pace=pace)
    for who in (ann, bob):
        assert _play_first(server, game, who)
    return ann, bob, game


# ---- contrast ------------------------------------------------------------------------------------


def test_text_contrast_on_the_lobby_and_a_room(live_server, browser):
    """WCAG contrast of every visible text on the lobby (with an open table) and a room page:
    at least 4.5:1 (3:1 for large text)."""
    host = _player(live_server, "Alice")
    room = http.post(
        f"{live_server.url}/api/rooms", headers=host["headers"], json={"ruleset": "tiny-towns", "seats": 3}
    ).json()
    context, page, errors = _context(browser, 1366, 900)
    _sign_in(page, live_server, host)
    page.goto(live_server.url + "/")
    page.wait_for_selector(f"tr[data-room-id='{room['id']}']")
    page.wait_for_selector("#options-fields [data-option]")
    assert page.evaluate(CONTRAST_JS) == []
    shot(page, "contrast-lobby")
    page.goto(f"{live_server.url}/rooms/{room['id']}")
    page.wait_for_selector("#invite:not([hidden])")
    page.wait_for_selector(".seat[data-seat='2']")
    assert page.evaluate(CONTRAST_JS) == []
    shot(page, "contrast-room")
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("ruleset", RULESETS)
def test_text_contrast_on_every_games_table(live_server, browser, ruleset):
    """WCAG contrast of every visible text on each game's table, a few moves in (tiles, cards and
    tokens on the boards), at 1366x900: at least 4.5:1, 3:1 for large text."""
    host = _player(live_server, "Alice")
    _room_id, game = _room(live_server, host, ruleset)
    _rest_moves(live_server, game, host, 4)
    context, page, errors = _context(browser, 1366, 900)
    _open(page, live_server, host, game)
    page.wait_for_selector(DRAWN[ruleset])
    page.wait_for_selector("#log li[data-seq]")
    failures = page.evaluate(CONTRAST_JS)
    shot(page, f"contrast-{ruleset}")
    assert failures == [], failures
    context.close()
    assert not errors, errors


# ---- 360 px --------------------------------------------------------------------------------------


@pytest.mark.parametrize("where", ["lobby", *RULESETS])
def test_no_sideways_scroll_at_360_px(live_server, browser, where):
    """A 360 px wide phone: the lobby (and a room) and every ruleset's table fit the width."""
    host = _player(live_server, "Alice")
    context, page, errors = _context(browser, 360, 740)
    if where == "lobby":
        room = http.post(
            f"{live_server.url}/api/rooms", headers=host["headers"], json={"ruleset": "suburbia", "seats": 2}
        ).json()
        _sign_in(page, live_server, host)
        page.goto(live_server.url + "/")
        page.wait_for_selector(f"tr[data-room-id='{room['id']}']")
        page.wait_for_selector("#options-fields [data-option]")
        width = page.evaluate("document.documentElement.scrollWidth")
        shot(page, "narrow-360-lobby")
        assert width <= 360, f"the lobby is {width} px wide"
        page.goto(f"{live_server.url}/rooms/{room['id']}")
        page.wait_for_selector("#invite:not([hidden])")
        name = "room"
    else:
        _room_id, game = _room(live_server, host, where)
        _rest_moves(live_server, game, host, 4)
        _open(page, live_server, host, game)
        page.wait_for_selector(DRAWN[where])
        page.wait_for_selector("#log li[data-seq]")
        name = where
    width = page.evaluate("document.documentElement.scrollWidth")
    shot(page, f"narrow-360-{name}")
    assert width <= 360, f"{name} is {width} px wide in a 360 px screen"
    context.close()
    assert not errors, errors


# ---- Tiny Towns: names never cut ------------------------------------------------------------------

# Every building square and card name: nothing hidden (scroll sizes within the box) and no word
# broken over two lines ("Schoolhou|se"); the text at least 10 px. Returns the failures.
LABELS_JS = r"""() => {
  const out = [];
  const labels = [...document.querySelectorAll("#board .tt-sq.bld, #board .tt-card h4")];
  for (const el of labels) {
    if (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight) out.push(["cut", el.textContent, el.scrollWidth, el.clientWidth, el.scrollHeight, el.clientHeight]);
    if (parseFloat(getComputedStyle(el).fontSize) < 10) out.push(["small", el.textContent]);
    const text = [...el.childNodes].find((n) => n.nodeType === 3);
    if (!text) continue;
    const re = /\S+/g;
    for (let m = re.exec(text.data); m; m = re.exec(text.data)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) out.push(["broken word", m[0], el.textContent]);
    }
  }
  return [labels.length, out];
}"""


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)], ids=["wide", "phone"])
def test_tiny_towns_names_are_never_cut(live_server, browser, size):
    """Tiny Towns at 1366x900 and 390x844: a town full of the buildings and monuments with the
    longest names, and the seven cards with the longest names in play: every name is shown whole
    (no hidden overflow, no word split over two lines) and readable against its tile colour."""
    from app.rulesets.tiny_towns import data
    from tests.rulesets.tiny_towns.helpers import R, new_game, with_player

    def longest(kind):
        ids = [
            cid for cid, row in data.CARDS.items() if (row["colour"] == "monument") == (kind == "monument")
        ]
        return sorted(
            ids, key=lambda c: (-max(map(len, data.CARDS[c]["name"].split())), -len(data.CARDS[c]["name"]), c)
        )

    buildings, monuments = longest("building"), longest("monument")
    # One card per colour pile with the longest name it has (the cards in play are one a pile).
    piles: dict[str, str] = {}
    for cid in buildings:
        piles.setdefault(data.CARDS[cid]["colour"], cid)
    in_play = list(piles.values())[:7]
    st = new_game(2, buildings=in_play, monuments=[monuments[0], monuments[1]])
    st = with_player(st, 0, grid=(buildings[:10] + monuments[:6])[:16])
    view = R.view(st, 0)
    ann, bob = _player(live_server, "Ann"), _player(live_server, "Bob")
    _room_id, game = _room(live_server, ann, "tiny-towns", bots=0, guests=[bob])
    context, page, errors = _context(browser, *size)
    _open(page, live_server, ann, game)
    page.wait_for_selector(".tt-town.me")
    # The page draws this town as if the server had sent it (same version: nothing else changes).
    page.evaluate(
        "view => window.civitas.receive({type: 'snapshot', game: {...window.civitas.doc, view}})", view
    )
    page.wait_for_function("document.querySelectorAll('.tt-town.me .tt-sq.bld').length === 16")
    count, failures = page.evaluate(LABELS_JS)
    page.locator(".tt-town.me").scroll_into_view_if_needed()
    shot(page, f"tiny-towns-long-names-{'wide' if size[0] > 1000 else 'phone'}")
    assert count >= 16 + 7 and failures == [], failures
    assert page.evaluate(CONTRAST_JS) == []
    context.close()
    assert not errors, errors


# ---- your turn: sound and notification ----------------------------------------------------------

# Stand-ins for the browser's Notification and AudioContext that count what the page does, and a
# document.hidden the test can set (headless Chromium's tab is never hidden otherwise).
SIGNAL_STUBS = r"""
window.__signals = { asked: 0, notes: [], contexts: 0, beeps: 0 };
window.__hidden = false;
Object.defineProperty(Document.prototype, "hidden", { configurable: true, get() { return window.__hidden; } });
Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
  get() { return window.__hidden ? "hidden" : "visible"; } });
function FakeNotification(title, options) { window.__signals.notes.push({ title, body: options && options.body }); }
FakeNotification.permission = "default";
FakeNotification.requestPermission = () => { window.__signals.asked += 1; FakeNotification.permission = "granted"; return Promise.resolve("granted"); };
window.Notification = FakeNotification;
window.AudioContext = class {
  constructor() { window.__signals.contexts += 1; this.currentTime = 0; this.destination = {}; }
  createOscillator() { return { frequency: {}, connect: (n) => n, start: () => { window.__signals.beeps += 1; }, stop() {} }; }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (n) => n }; }
};
"""


def test_your_turn_sound_and_notification_after_a_click_and_not_when_turned_off(live_server, browser):
    """Your turn: the tab title changes; once a click has allowed them, a short sound plays and,
    while the tab is hidden, a browser notification shows (not while it is visible). Turned off,
    neither happens, and the choice survives a reload."""
    ann, bob, game = _suburbia_duel(live_server)
    players = {0: ann, 1: bob}
    _until_turn_of(live_server, game, players, 1)
    context, page, errors = _context(browser, 1366, 900)
    context.add_init_script(SIGNAL_STUBS)
    _open(page, live_server, ann, game)
    page.wait_for_function("window.civitas.doc.to_act.length === 1 && window.civitas.doc.to_act[0] === 1")
    signals = lambda: page.evaluate("window.__signals")  # noqa: E731

    def turn_comes_back(hidden):
        """Bob moves (over REST) until it is Ann's turn again; the page must see the change."""
        page.evaluate(
            f"window.__hidden = {str(hidden).lower()}; document.dispatchEvent(new Event('visibilitychange'))"
        )
        page.wait_for_function("!window.civitas.doc.to_act.includes(0)")
        version = _until_turn_of(live_server, game, players, 0)["version"]
        page.wait_for_function(
            f"window.civitas.doc.version >= {version} && window.civitas.doc.to_act.includes(0)"
        )
        page.wait_for_function("document.title.startsWith('▶ Your turn')")
        page.wait_for_timeout(300)  # anything the turn sets off has happened by now

    def hand_over():
        _until_turn_of(live_server, game, players, 1)
        page.wait_for_function("!window.civitas.doc.to_act.includes(0)")
        page.wait_for_function("!document.title.startsWith('▶')")

    # Before any click: the title only (browsers allow sound and notifications after a gesture).
    turn_comes_back(hidden=True)
    assert signals() == {"asked": 0, "notes": [], "contexts": 0, "beeps": 0}
    hand_over()
    page.click("#players")  # any click allows them
    assert signals()["asked"] == 1 and signals()["contexts"] == 1
    # Visible tab: the sound, no notification.
    turn_comes_back(hidden=False)
    assert signals()["beeps"] == 1 and signals()["notes"] == []
    hand_over()
    # Hidden tab: the sound and a notification.
    turn_comes_back(hidden=True)
    assert signals()["beeps"] == 2
    assert signals()["notes"] == [
        {"title": "Civitas: your turn", "body": "The table is waiting for your move."}
    ]
    shot(page, "your-turn-signals-on")
    # Turned off: remembered after a reload, and neither sound nor notification comes.
    page.evaluate("window.__hidden = false")
    page.uncheck("#opt-sound")
    page.uncheck("#opt-notify")
    hand_over()
    page.reload()
    page.wait_for_function("window.civitas && window.civitas.doc && window.civitas.table")
    assert (
        not page.is_checked("#opt-sound")
        and not page.is_checked("#opt-notify")
        and page.is_checked("#opt-title")
    )
    page.click("#players")
    turn_comes_back(hidden=True)
    assert signals()["beeps"] == 0 and signals()["notes"] == []
    assert page.title().startswith("▶ Your turn")
    context.close()
    assert not errors, errors


# ---- Tiny Towns: a buildable card, and the prompt while picking squares -------------------------

COTTAGE = {"wheat": 1, "brick": 4, "glass": 5}  # ". Wh" / "Br Gl" in the top-left corner (B1, A2, B2)


def _tiny_towns_cottage_ready(server):
    """A two-player base game (Ann, Bob; all over REST) in which Ann has placed wheat, brick and
    glass as a Cottage and is asked to construct. Bob never builds."""
    ann, bob = _player(server, "Ann"), _player(server, "Bob")
    players = {0: ann, 1: bob}
    _room_id, game = _room(server, ann, "tiny-towns", bots=0, guests=[bob])
    plan = list(COTTAGE.items())
    placed = 0
    for _ in range(200):
        doc = _doc(server, game, ann)
        phase = doc["view"]["phase"]
        if placed == len(plan) and phase == "build" and 0 in doc["to_act"]:
            return ann, bob, game
        for seat in doc["to_act"]:
            legal = http.get(
                f"{server.url}/api/games/{game}/legal-moves", headers=players[seat]["headers"]
            ).json()
            moves = legal["moves"]
            if not moves:
                continue
            kind = moves[0]["type"]
            if kind == "name":
                move = {"type": "name", "resource": plan[placed][0]}
            elif kind == "place" and seat == 0:
                move = {"type": "place", "resource": plan[placed][0], "cell": plan[placed][1]}
            elif {"type": "done"} in moves:
                move = {"type": "done"}
            else:
                move = moves[0]
            r = http.post(
                f"{server.url}/api/games/{game}/moves",
                headers=players[seat]["headers"],
                json={"version": legal["version"], "move": move},
            )
            assert r.status_code == 200, (move, r.text)
            placed += kind == "place" and seat == 0
            break  # read the game again: one move changes who is asked
    raise AssertionError("the Cottage was never ready to build")


def test_tiny_towns_buildable_card_is_marked_and_the_prompt_moves_on(live_server, browser):
    """Tiny Towns: a card that can be built carries a "✓ Buildable" label and a thick outline
    (other cards neither); choosing it, then each square of its pattern, moves the prompt on
    ("1 of 3 chosen"...), and once the pattern is complete it asks where the building goes."""
    ann, _bob, game = _tiny_towns_cottage_ready(live_server)
    context, page, errors = _context(browser, 1366, 900)
    _open(page, live_server, ann, game)
    page.wait_for_function("window.civitas.legal.some((m) => m.type === 'build' && m.card === 'cottage')")
    card = page.locator(".tt-card.can[data-card='cottage']")
    card.wait_for()
    label = card.locator(".tt-can")
    assert label.is_visible() and label.inner_text() == "✓ Buildable"
    mark = page.evaluate("""() => { const s = getComputedStyle(document.querySelector(".tt-card.can[data-card='cottage']"));
        return [s.outlineStyle, parseFloat(s.outlineWidth)]; }""")
    assert mark[0] == "solid" and mark[1] >= 3, mark
    buildable = set(
        page.evaluate(
            "[...new Set(window.civitas.legal.filter((m) => m.type === 'build').map((m) => m.card))]"
        )
    )
    for other in page.locator(".tt-cards .tt-card").all():
        has_label = other.locator(".tt-can").count() == 1
        assert has_label == (other.get_attribute("data-card") in buildable)
    shot(page, "tiny-towns-buildable")
    prompt = page.locator(".tt-prompt")
    before = prompt.inner_text()
    card.click()
    seen = [prompt.inner_text()]
    assert seen[0] != before and "0 of 3" in seen[0], seen
    for cell in sorted(COTTAGE.values()):
        page.click(f".tt-town.me .tt-sq.click[data-cell='{cell}']")
        page.wait_for_function("t => document.querySelector('.tt-prompt').innerText !== t", arg=seen[-1])
        seen.append(prompt.inner_text())
    assert "1 of 3" in seen[1] and "2 of 3" in seen[2], seen
    assert "Now click where the Cottage goes" in seen[3], seen
    targets = page.locator(".tt-town.me .tt-sq.target")
    assert targets.count() >= 1
    shot(page, "tiny-towns-pattern-picked")
    at = int(targets.first.get_attribute("data-cell"))
    version = page.evaluate("window.civitas.doc.version")
    targets.first.click()
    page.wait_for_function(f"window.civitas.doc.version > {version}")
    assert _doc(live_server, game, ann)["view"]["towns"][0]["grid"][at] == "cottage"
    context.close()
    assert not errors, errors


# ---- player panels, clocks, chat -----------------------------------------------------------------


def test_player_panels_show_connection_score_and_turn_order_and_update(live_server, browser):
    """Players panel (Suburbia): each seat's connection dot (coloured and with a symbol), the
    public score ("pop. N"), the turn order from the start player, and "▶ to play"; the dot turns
    on when the player opens the game and off when they leave, the score follows the game."""
    ann, bob, game = _suburbia_duel(live_server)
    players = {0: ann, 1: bob}
    context, page, errors = _context(browser, 1366, 900)
    _open(page, live_server, ann, game)
    page.wait_for_selector(".player[data-seat='1']")

    def panels():
        return page.evaluate("""() => [...document.querySelectorAll('#players .player')].map((li) => ({
            seat: Number(li.dataset.seat), order: li.querySelector('.order').textContent,
            dot: li.querySelector('.dot').className, dotText: li.querySelector('.dot').textContent,
            dotColour: getComputedStyle(li.querySelector('.dot')).color,
            score: (li.querySelector('.score') || {}).textContent || null,
            acting: !!li.querySelector('.to-play') }))""")

    view = page.evaluate("window.civitas.doc.view")
    shown = panels()
    assert [p["seat"] for p in shown] == [(view["start"] + k) % 2 for k in range(2)]
    assert [p["order"] for p in shown] == ["1", "2"]
    by_seat = {p["seat"]: p for p in shown}
    assert by_seat[0]["dot"] == "dot on" and by_seat[0]["dotText"] == "●"
    assert by_seat[1]["dot"] == "dot off" and by_seat[1]["dotText"] == "○"
    assert by_seat[0]["dotColour"] != by_seat[1]["dotColour"]
    for seat in (0, 1):
        assert by_seat[seat]["score"] == f"pop. {view['players'][seat]['pop']}"
    to_act = page.evaluate("window.civitas.doc.to_act")
    assert [p["seat"] for p in shown if p["acting"]] == to_act
    shot(page, "panels-1")
    # Bob opens the game: his dot turns on (the table is re-read at least every 10 s).
    bob_context, bob_page, bob_errors = _context(browser, 1366, 900)
    _open(bob_page, live_server, bob, game)
    page.wait_for_function(
        "document.querySelector(\".player[data-seat='1'] .dot\").classList.contains('on')", timeout=20000
    )
    bob_context.close()
    page.wait_for_function(
        "document.querySelector(\".player[data-seat='1'] .dot\").classList.contains('off')", timeout=20000
    )
    # Moves: "▶ to play" follows the turn and each score follows the seat's population.
    for _ in range(3):
        mover = _doc(live_server, game)["to_act"][0]
        _until_turn_of(live_server, game, players, 1 - mover)
        doc = _doc(live_server, game)
        page.wait_for_function(f"window.civitas.doc.version >= {doc['version']}")
        page.wait_for_function(
            """want => [...document.querySelectorAll('#players .player')]
            .filter((li) => li.querySelector('.to-play')).map((li) => Number(li.dataset.seat)).join() === want""",
            arg=",".join(map(str, doc["to_act"])),
        )
        for seat in (0, 1):
            page.wait_for_function(
                "([seat, text]) => (document.querySelector(`.player[data-seat='${seat}'] .score`) || {}).textContent === text",
                arg=[seat, f"pop. {doc['view']['players'][seat]['pop']}"],
            )
    shot(page, "panels-2")
    context.close()
    assert not errors and not bob_errors, errors + bob_errors


def test_turn_order_follows_the_tiny_towns_master_builder(live_server, browser):
    """Players panel (Tiny Towns): the turn order starts with the Master Builder, who names first,
    and when the token passes at the end of a round the numbers and the order follow it."""
    ann, bob = _player(live_server, "Ann"), _player(live_server, "Bob")
    players = {0: ann, 1: bob}
    _room_id, game = _room(live_server, ann, "tiny-towns", bots=0, guests=[bob])
    context, page, errors = _context(browser, 390, 844)
    _open(page, live_server, ann, game)

    def order_is(master):
        page.wait_for_function(
            """want => [...document.querySelectorAll('#players .player')]
            .map((li) => li.querySelector('.order').textContent + ':' + li.dataset.seat).join() === want""",
            arg=f"1:{master},2:{1 - master}",
        )

    masters = [_doc(live_server, game, ann)["view"]["master"]]
    order_is(masters[0])
    shot(page, "turn-order-round-1")
    for _ in range(2):
        # A round over REST: both place and decline to construct, until the token passes.
        for _ in range(40):
            doc = _doc(live_server, game, ann)
            if doc["view"]["master"] != masters[-1]:
                break
            for seat in doc["to_act"]:
                _play_first(
                    live_server,
                    game,
                    players[seat],
                    pick=lambda moves: {"type": "done"} if {"type": "done"} in moves else moves[0],
                )
        masters.append(doc["view"]["master"])
        order_is(masters[-1])
    assert masters == [masters[0], 1 - masters[0], masters[0]], masters
    shot(page, "turn-order-round-3")
    context.close()
    assert not errors, errors


def test_other_seats_clocks_count_down(live_server, browser):
    """Real-time pace: while Bob thinks, Ann's page shows Bob's clock in his panel counting down
    (its text changes within a couple of seconds); Ann's own clock does not run."""
    ann, bob, game = _suburbia_duel(
        live_server, pace={"kind": "realtime", "move_minutes": 2, "reserve_minutes": 0}
    )
    _until_turn_of(live_server, game, {0: ann, 1: bob}, 1)
    context, page, errors = _context(browser, 390, 844)
    _open(page, live_server, ann, game)
    clock = page.locator(".player[data-seat='1'] [data-clock-seat='1']")
    clock.wait_for(state="visible")
    first = clock.inner_text()
    assert first.startswith("◷ ")
    # The page redraws clocks every second: the text changes within ~2 s (5 s on a loaded machine).
    page.wait_for_function(
        "t => document.querySelector(\".player[data-seat='1'] [data-clock-seat='1']\").textContent !== t",
        arg=first,
        timeout=5000,
    )
    later = clock.inner_text()
    minutes = lambda text: int(text[2:].split(":")[0]) * 60 + int(text[2:].split(":")[1])  # noqa: E731
    assert minutes(later) < minutes(first) <= 120
    assert not page.locator(".player[data-seat='0'] [data-clock-seat='0']").is_visible()
    assert page.locator("#my-clock").is_hidden()
    shot(page, "clock-other-seat")
    context.close()
    assert not errors, errors


def test_spectators_chat_under_their_own_heading(live_server, browser):
    """Chat: a spectator's line shows under a separate "Spectators" heading, below the players'
    lines, on the players' pages and the spectator's own; a player's line stays with the players."""
    ann, carl = _player(live_server, "Ann"), _player(live_server, "Carl")
    _room_id, game = _room(live_server, ann, "tiny-towns")
    a_context, a_page, errors = _context(browser, 1366, 900)
    c_context, c_page, c_errors = _context(browser, 390, 844)
    _open(a_page, live_server, ann, game)
    _open(c_page, live_server, carl, game)
    c_page.wait_for_selector("#watching:not([hidden])")
    for page in (a_page, c_page):
        page.wait_for_function("window.civitas.online")
        assert page.locator(".chat-spectators-title").is_hidden()
    a_page.fill("#chat-input", "Welcome, Carl")
    a_page.press("#chat-input", "Enter")
    c_page.fill("#chat-input", "Nice town, Ann")
    c_page.press("#chat-input", "Enter")
    for page in (a_page, c_page):
        page.wait_for_selector("#chat-spectators .chat-line:has-text('Carl: Nice town, Ann')")
        page.wait_for_selector("#chat-players .chat-line:has-text('Ann: Welcome, Carl')")
        title = page.locator(".chat-spectators-title")
        assert title.is_visible() and title.inner_text() == "Spectators"
        assert page.locator("#chat-players .chat-line:has-text('Carl:')").count() == 0
        assert page.locator("#chat-spectators .chat-line:has-text('Ann:')").count() == 0
        heading = title.bounding_box()
        assert (
            page.locator("#chat-players").bounding_box()["y"]
            < heading["y"]
            < page.locator("#chat-spectators .chat-line").first.bounding_box()["y"]
        )
    a_page.locator("#chat-panel").scroll_into_view_if_needed()
    shot(a_page, "chat-spectators")
    a_context.close()
    c_context.close()
    assert not errors and not c_errors, errors + c_errors


# ---- Suburbia's hex labels, Fortune City's corner markers ------------------------------------------


def test_suburbia_hex_labels_are_readable_at_1366(live_server, browser):
    """Suburbia at 1366x900, a dozen moves in: every label on a borough (tile names, kind letters,
    the player board's tracks) renders at 11 px or more, and each tile name fits its hex."""
    host = _player(live_server, "Alice")
    _room_id, game = _room(live_server, host, "suburbia")
    _rest_moves(live_server, game, host, 12)
    context, page, errors = _context(browser, 1366, 900)
    _open(page, live_server, host, game)
    page.wait_for_selector(".sb-player .sb-hex-text")
    sizes, cut = page.evaluate("""() => {
        const texts = [...document.querySelectorAll('.sb-player svg text')];
        const sizes = texts.map((t) => [t.textContent, parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a]);
        const cut = [];
        for (const t of document.querySelectorAll('.sb-player svg .sb-hex-text, .sb-player svg .sb-board-text')) {
          const hex = t.parentNode.querySelector('polygon').getBoundingClientRect();
          const box = t.getBoundingClientRect();
          if (box.left < hex.left - 0.5 || box.right > hex.right + 0.5 || box.top < hex.top - 0.5 || box.bottom > hex.bottom + 0.5) cut.push(t.textContent);
          const own = t.closest('.sb-player').getBoundingClientRect();
          if (box.top < own.top || box.bottom > own.bottom) cut.push(t.textContent);
        }
        return [sizes, cut];
    }""")
    assert len(sizes) > 10
    small = [(text, round(px, 1)) for text, px in sizes if px < 11 - 0.05]
    shot(page, "suburbia-hex-labels-wide")
    assert small == [], small
    assert cut == [], cut
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
    assert not errors, errors


def test_suburbia_borough_scrolls_in_its_box_and_keeps_the_place_on_a_phone(live_server, browser):
    """Suburbia at 390x844: a borough wider than the screen scrolls sideways inside its own box
    (the page does not), its labels stay at 10 px or more, and where the player scrolled it is
    kept when the board is drawn again after a move."""
    ann, bob, game = _suburbia_duel(live_server)
    context, page, errors = _context(browser, 390, 844)
    _open(page, live_server, ann, game)
    box = ".sb-player[data-seat='0'] .sb-scroll"
    page.wait_for_selector(box)
    wide = page.evaluate(
        f"(() => {{ const b = document.querySelector({box!r}); return [b.scrollWidth, b.clientWidth]; }})()"
    )
    assert wide[0] > wide[1], wide
    smallest = page.evaluate(
        "Math.min(...[...document.querySelectorAll('.sb-player svg text')].map((t) => "
        "parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"
    )
    assert smallest >= 10 - 0.05, smallest
    page.evaluate(f"document.querySelector({box!r}).scrollLeft = 37")
    version = page.evaluate("window.civitas.doc.version")
    mover = {0: ann, 1: bob}[_doc(live_server, game)["to_act"][0]]
    assert _play_first(live_server, game, mover)
    page.wait_for_function(f"window.civitas.doc.version > {version}")
    page.wait_for_timeout(300)  # the redraw after the patch has run
    assert page.evaluate(f"document.querySelector({box!r}).scrollLeft") == 37
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "suburbia-borough-scroll-phone")
    context.close()
    assert not errors, errors


# A building square's name against its corner markers (worker, truck, VP, type, token): the
# boxes of the name's text lines and of each marker must not meet, and the name stays inside.
MARKERS_JS = r"""() => {
  const out = [];
  let names = 0;
  for (const cell of document.querySelectorAll('.fc-cell.bld, .fc-cell.hall')) {
    const name = cell.querySelector('.nm') || cell;
    const range = document.createRange();
    range.selectNodeContents(name);
    const lines = [...range.getClientRects()];
    names += 1;
    const markers = [...cell.querySelectorAll('.wk, .vp, .ty, .truck, .fc-t')].map((m) => [m.className, m.getBoundingClientRect()]);
    for (const line of lines) {
      for (const [cls, b] of markers) {
        if (line.left < b.right && b.left < line.right && line.top < b.bottom && b.top < line.bottom) out.push([cell.title, cls]);
      }
      const own = cell.getBoundingClientRect();
      if (line.bottom > own.bottom || line.right > own.right || line.left < own.left) out.push([cell.title, 'outside']);
    }
  }
  return [names, out];
}"""


def test_fortune_city_corner_markers_never_cover_names_on_a_phone(live_server, browser):
    """Fortune City at 390x844, several rounds in (workers, the truck, tokens on the squares):
    no corner marker's box overlaps the box of a building's name, and no name leaves its square."""
    host = _player(live_server, "Alice")
    _room_id, game = _room(live_server, host, "fortune-city", seats=3, bots=2)
    _rest_moves(live_server, game, host, 14)
    context, page, errors = _context(browser, 390, 844)
    _open(page, live_server, host, game)
    page.wait_for_selector(".fc-player .fc-cell.bld")
    # Measure once the bots have moved and the game waits for Alice alone: a bot's move redraws
    # the page, and a board measured (or scrolled to) mid-redraw is gone from the DOM.
    page.wait_for_function(
        "(() => { const d = window.civitas.doc; return d.to_act.length === 1 && "
        "d.to_act[0] === d.seat && window.civitas.legalVersion === d.version; })()",
        timeout=60000,
    )
    names, overlaps = page.evaluate(MARKERS_JS)
    markers = page.locator(".fc-cell .wk, .fc-cell .truck, .fc-cell .fc-t").count()
    page.locator(".fc-player").last.scroll_into_view_if_needed()
    shot(page, "fortune-city-markers-phone")
    assert names >= 6 and markers >= 2, (names, markers)
    assert overlaps == [], overlaps
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()
    assert not errors, errors


def test_tiny_towns_selection_survives_another_seats_move(live_server, browser):
    """While Ann picks a building's squares, Bob's Done (a patch, a new version, a redraw) keeps
    her chosen card and squares: a simultaneous step never wipes what a player has started."""
    ann, bob, game = _tiny_towns_cottage_ready(live_server)
    context, page, errors = _context(browser, 1366, 900)
    _open(page, live_server, ann, game)
    page.wait_for_function("window.civitas.legal.some((m) => m.type === 'build' && m.card === 'cottage')")
    page.locator(".tt-card.can[data-card='cottage']").click()
    first = sorted(COTTAGE.values())[0]
    page.click(f".tt-town.me .tt-sq.click[data-cell='{first}']")
    page.wait_for_function("document.querySelector('.tt-prompt').innerText.includes('1 of 3')")
    version = page.evaluate("window.civitas.doc.version")
    assert _play_first(live_server, game, bob, pick=lambda moves: {"type": "done"})
    page.wait_for_function(
        f"window.civitas.doc.version > {version} && "
        "window.civitas.legalVersion === window.civitas.doc.version"
    )
    page.wait_for_timeout(300)  # the redraw after the legal moves' fetch
    assert page.locator(".tt-card.sel[data-card='cottage']").count() == 1
    assert "1 of 3" in page.locator(".tt-prompt").inner_text()
    context.close()
    assert not errors, errors
