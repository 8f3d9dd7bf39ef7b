"""Each product ruleset played by clicking in the real game page, against a bot, through the server."""

from __future__ import annotations

import os

import pytest

from tests.support import http
from tests.support.server import ServerProcess


def _start(server, page, ruleset, seats=2, options=None):
    """Host a room with bots in the other seats, start it, and open the game page as the host."""
    host = http.post(f"{server.url}/api/players", json={"name": "Host"}).json()
    auth = {"Authorization": f"Bearer {host['token']}"}
    room = http.post(
        f"{server.url}/api/rooms",
        headers=auth,
        json={"ruleset": ruleset, "seats": seats, "options": options or {}},
    ).json()
    for _ in range(seats - 1):
        http.post(f"{server.url}/api/rooms/{room['id']}/bots", headers=auth, json={})
    game = http.post(f"{server.url}/api/rooms/{room['id']}/start", headers=auth).json()["game_id"]
    page.goto(server.url + "/")
    page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", host)
    page.goto(f"{server.url}/games/{game}")
    page.wait_for_function("window.civitas && window.civitas.doc")
    return game, auth


def _finished_as(server, page, ruleset, outcome, ready):
    """Start a `ruleset` game and show its page as if the game had finished with `outcome`: the
    server's snapshot is rewritten on its way to the page (and its patches dropped). For ends the
    API cannot reach quickly (a failed city, a game stopped by a round guard). Waits for the
    result panel and the renderer's `ready` selector in it; returns the panel."""
    import json

    def route(ws):
        server = ws.connect_to_server()

        def from_server(message):
            frame = json.loads(message)
            if frame["type"] == "snapshot":
                frame["game"].update(status="finished", outcome=outcome, to_act=[])
                ws.send(json.dumps(frame))
            elif frame["type"] != "patch":
                ws.send(message)

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    page.route_web_socket("**/ws/games/**", route)
    page.civitas_staged = True  # the page's document is made up: conftest must not compare it
    _start(server, page, ruleset)
    result = page.locator("#outcome")
    result.wait_for(state="visible")
    result.locator(ready).wait_for()
    return result


# The page has taken in the answer to its last move: none in flight, and an accepted move's own
# version reached (the ack comes before the move's patch; another seat's patch in between moves
# the version too, so a later version alone does not say our move is in).
SETTLED = (
    "(() => { const s = window.civitas, a = s.lastAnswer; return s.awaiting === null && "
    "(!s.sent || (a && a.id === s.sent.id && (!a.ok || s.doc.version >= a.version))); })()"
)


def _my_turn(page):
    """Wait until the page asks us for a decision with this version's legal moves, our last move
    answered and in; return the version."""
    page.wait_for_function(
        "window.civitas.doc.to_act.includes(window.civitas.doc.seat) && "
        f"window.civitas.legalVersion === window.civitas.doc.version && {SETTLED}",
        timeout=30000,
    )
    return page.evaluate("window.civitas.doc.version")


def _decide(page, click, auto="false"):
    """One decision: wait until the page asks us (as `_my_turn`), then `click(page)` clicks what
    the renderer offers and names the step. `auto` is a condition on the page's state
    (`s` = window.civitas) under which the page makes the only possible move by itself; then
    nothing is clicked and the step is "auto". The wait and that condition are read in one go:
    read apart, the page's own move could come and go in between, leaving nothing to click.
    Returns (step, sent): sent is False when the clicks only chose something (no move left the
    page). A move the server refused fails the test with the server's sentence: these clicks
    follow the page's highlights, so a refusal is a bug."""
    for _ in range(5):
        ready = page.wait_for_function(
            "() => { const s = window.civitas; if (!(s.doc.to_act.includes(s.doc.seat) && "
            f"s.legalVersion === s.doc.version && {SETTLED})) return false; "
            f"return {{ v: s.doc.version, last: s.sent ? s.sent.id : null, auto: !!({auto}) }}; }}",
            timeout=30000,
        ).json_value()
        if ready["auto"]:
            step = "auto"  # any move sent at this version or later is the page's own
            page.wait_for_function(
                "v => { const s = window.civitas.sent; return !!s && s.version >= v; }",
                arg=ready["v"],
                timeout=30000,
            )
            break
        step = click(page)
        now = page.evaluate(
            "[window.civitas.sent ? window.civitas.sent.id : null, window.civitas.doc.version]"
        )
        if now[0] != ready["last"]:
            break
        if now[1] == ready["v"]:
            return step, False  # the clicks only chose something
        # Another seat moved between the wait and the click: the page was fetching the new
        # version's legal moves and kept the click (sent once they are in, if still legal, or
        # told as not sent). Decide again once that is settled.
    else:
        raise AssertionError(f"the clicks kept racing other seats' moves: {_page_state(page)}")
    page.wait_for_function(SETTLED, timeout=30000)
    answer = page.evaluate("window.civitas.lastAnswer")
    assert answer["ok"], f"the page's move was refused ({step}): {answer.get('detail')}"
    return step, True


# Tiny Towns sends a lone Done by itself (nothing can be constructed).
TT_AUTO_DONE = "s.legal.length === 1 && s.legal[0].type === 'done'"


def _moved(page, version):
    page.wait_for_function(f"window.civitas.doc.version > {version}", timeout=30000)


def test_suburbia_goal_choice_and_turns_by_clicking(live_server, page):
    """Keep a secret goal, then on each turn place a market tile as a lake on a highlighted hex."""
    game, auth = _start(live_server, page, "suburbia")
    version = _my_turn(page)
    page.click(".sb-keep-goal >> nth=0")
    _moved(page, version)
    for _ in range(2):
        version = _my_turn(page)
        page.click(".sb-lake-btn >> nth=0")
        page.locator(".sb-cell.legal").first.click()
        _moved(page, version)
    _my_turn(page)  # the bot has moved and stopped: the game waits for us
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    mine = [m["move"]["type"] for m in log if m["seat"] == 0]
    assert mine[0] == "keep_goal" and mine.count("lake") == 2
    _same_as_server(live_server, page, game, auth)


def _same_as_server(server, page, game, auth):
    """The document the page rebuilt from patches equals the server's at the same version (bots
    may still be moving: wait for the page to reach the server's version, and compare the two
    documents of one version, never a document with a newer one)."""
    for _ in range(20):
        served = http.get(f"{server.url}/api/games/{game}", headers=auth).json()
        page.wait_for_function(f"window.civitas.doc.version >= {served['version']}", timeout=30000)
        mine = page.evaluate("window.civitas.doc")
        if mine["version"] == served["version"]:
            assert mine == served
            return
    raise AssertionError("the game kept moving; no version was seen by both the page and the server")


def _tiny_towns_click(page):
    """One decision by clicking what the renderer offers: a monument, a resource to name, a square
    to place on, a building (card, its squares, its target), a choice, or Done."""
    phase = page.evaluate("window.civitas.doc.view.phase")
    own = "[data-seat='0']"
    if page.locator("[data-monument].can").count():
        page.locator("[data-monument].can").first.click()
    elif page.locator("[data-action='name']").count():
        page.locator("[data-action='name']").first.click()
    elif phase == "build" and page.locator(".tt-card.can").count():
        page.locator(".tt-card.can").first.click(timeout=3000)
        for _ in range(8):
            if page.locator(f".tt-sq.target{own}").count():
                page.locator(f".tt-sq.target{own}").first.click(timeout=3000)
                return "constructed"
            page.locator(f".tt-sq.click{own}").first.click(timeout=3000)
        raise AssertionError("a glowing building card led to no target square")
    elif page.locator(f".tt-sq.click{own}").count():
        page.locator(f".tt-sq.click{own}").first.click()
    elif page.locator("[data-choice]").count():
        page.locator("[data-choice]").first.click()
    elif page.locator("[data-action='done']").count():
        page.locator("[data-action='done']").click()
        return "done"
    elif page.locator("[data-move]").count():
        page.locator("[data-move]").first.click()
    else:
        raise AssertionError(f"nothing to click: {_page_state(page)}")
    return phase


def _page_state(page):
    """What the page shows and is asked, for a failure message."""
    return page.evaluate("""() => { const s = window.civitas; return { version: s.doc.version,
        to_act: s.doc.to_act, phase: s.doc.view.phase, legalVersion: s.legalVersion,
        legal: s.legal.slice(0, 6), awaiting: s.awaiting, sent: s.sent, lastAnswer: s.lastAnswer,
        prompt: (document.querySelector('#board') || {}).innerText.slice(0, 300) }; }""")


def _built(server, game, auth):
    """Whether the server stored a construction by seat 0."""
    log = http.get(f"{server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    return any(m["seat"] == 0 and m["move"]["type"] == "build" for m in log)


# The simple play below (first square, first resource) makes a building possible only when the
# named resources happen to fall into a pattern; with some seeds that never happens before the
# town is full. This seed's game is known to allow one (a fixed game, not luck; the server's
# CIVITAS_TEST_GAME_SEED replay setting still overrides it). Fortuna's clicking test plays it too.
TINY_TOWNS_SEED = "1"


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory):
    """A server whose every game uses TINY_TOWNS_SEED (Tiny Towns' and Fortuna's clicking tests)."""
    db = tmp_path_factory.mktemp("seeded") / "civitas.db"
    env = {"CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{db}", "CIVITAS_BOT_DELAY_MS": "50"}
    if not os.environ.get("CIVITAS_TEST_GAME_SEED"):
        env["CIVITAS_GAME_SEED"] = TINY_TOWNS_SEED
    with ServerProcess(env) as server:
        yield server


def test_tiny_towns_monument_naming_placing_and_building_by_clicking(seeded_server, page):
    """Keep a monument, then name, place and construct by clicking until some buildings stand."""
    live_server = seeded_server
    game, auth = _start(live_server, page, "tiny-towns")
    done = []
    for _ in range(60):
        # The bot plays at the same time: its patches redraw the page between and under our
        # clicks, and what we click is found again in the new drawing (a selection survives).
        step, sent = _decide(page, _tiny_towns_click, TT_AUTO_DONE)
        assert sent, f"the click for {step} sent no move: {_page_state(page)}"
        done.append(step)
        if "constructed" in done and done.count("place") >= 4:
            break
    assert done[0] == "monument" and "place" in done and _built(live_server, game, auth), done
    _my_turn(page)
    town = page.evaluate("window.civitas.doc.view.towns[0].grid")
    assert any(cell and cell not in ("wood", "wheat", "brick", "glass", "stone") for cell in town), (
        town,
        done,
    )
    _same_as_server(live_server, page, game, auth)


def _fortuna_click(page):
    """One decision by clicking what the Fortuna renderer highlights: an action card and how to
    execute it, a card to exchange, skipping military power, a favour card (and its steps) or a
    decline, the 2-player flip, privilege choices, or ending the turn."""
    step = page.evaluate("window.civitas.doc.view.step")
    if step == "play":
        page.locator(".fo-card.can:not([data-card='bribe'])").first.click()
        page.locator("[data-choice]").last.click()
    elif step == "exchange":
        page.locator(".fo-card.can").first.click()
    elif step == "military":
        page.locator("[data-action='skip']").click()
    elif step == "favour":
        if page.locator(".fo-fav.can").count():
            page.locator(".fo-fav.can").first.click()
            if page.locator("[data-choice]").count():
                page.locator("[data-choice]").first.click()
        else:
            page.locator("[data-die]").first.click()
    elif step == "flip":
        page.locator(".fo-fav.can").first.click()
    elif step == "keep":
        page.locator("[data-keep]").first.click()
    elif step == "palace":
        page.locator("[data-palace]").first.click()
    else:
        page.locator("[data-action='end']").click()
    return step


def test_fortuna_turns_by_clicking(seeded_server, page):
    """Play Fortuna turns against a bot by clicking cards, exchange targets and favour cards;
    the log speaks in words and the page's document matches the server's. A fixed game (the seeded
    server's): with some seeds the bot reaches the palace and ends the game before our third
    favour decision (seed 1023560373071104090: over at move 78), and the test waited for a turn
    that never came."""
    live_server = seeded_server
    game, auth = _start(live_server, page, "fortuna")
    done = []
    for _ in range(40):
        # Our turn, or the end of the game (then the assertions below say what was missed).
        page.wait_for_function(
            "window.civitas.doc.status === 'finished' || (window.civitas.doc.to_act"
            ".includes(window.civitas.doc.seat) && window.civitas.legalVersion === "
            "window.civitas.doc.version)",
            timeout=30000,
        )
        if page.evaluate("window.civitas.doc.status") == "finished":
            break
        version = page.evaluate("window.civitas.doc.version")
        # Fortuna's turns are one seat's at a time: nothing redraws the page under these clicks
        # (a click that finds nothing to click is a failure, not something to retry).
        done.append(_fortuna_click(page))
        _moved(page, version)
        if done.count("favour") >= 3:
            break
    assert done.count("favour") >= 3 and {"play", "exchange"} <= set(done), done
    _my_turn(page)
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    mine = [m for m in log if m["seat"] == 0]
    assert [m["move"]["type"] for m in mine][:2] == ["play", "exchange"]
    assert any(" plays " in (m.get("text") or "") for m in mine), mine[:3]
    _same_as_server(live_server, page, game, auth)


def _fortune_city_click(page):
    """One decision by clicking: a market tile, a zone then a highlighted square, a citizen then a
    building, a truck square, Done or Pass."""
    view = page.evaluate("window.civitas.doc.view")
    me = view["players"][0]
    own = "[data-seat='0']"
    if view["phase"] == "actions":
        if page.locator(f".fc-zone.can{own}").count():
            page.locator(f".fc-zone.can{own}").first.click()
            page.locator(f".fc-cell.legal{own}").first.click()
            return "construct"
        if None in me["zone"] and page.locator(".fc-good.can").count():
            page.locator(".fc-good.can").first.click()
            return "buy"
        page.locator("[data-action='pass']").click()
        return "pass"
    if view["phase"] == "hire":
        if page.locator("button[data-citizen]").count():
            page.locator("button[data-citizen]").first.click()
            page.locator(f".fc-cell.legal{own}").first.click()
            return "hire"
        page.locator("[data-action='done']").click()
        return "done"
    page.locator(f".fc-cell.legal{own}").first.click()
    return "drive"


def test_fortune_city_buy_build_hire_and_drive_by_clicking(live_server, page):
    """Buy goods, construct on a highlighted square, hire the citizen and drive the truck by
    clicking, through the end of round 1; the page works at a 390 px phone width."""
    game, auth = _start(live_server, page, "fortune-city")
    done = []
    for _ in range(40):
        _my_turn(page)  # the round is read below at a decision of ours
        if page.evaluate("window.civitas.doc.view.round") >= 2 and "construct" in done:
            break
        step, sent = _decide(page, _fortune_city_click)
        assert sent, f"the click for {step} sent no move"
        done.append(step)
    assert "buy" in done and "construct" in done, done
    log = http.get(f"{live_server.url}/api/games/{game}/log", headers=auth).json()["moves"]
    mine = [m["move"]["type"] for m in log if m["seat"] == 0]
    assert "buy" in mine and "construct" in mine
    city = page.evaluate("window.civitas.doc.view.players[0].city")
    assert len(city) >= 2
    assert page.locator("[data-last]").count() == 1
    page.set_viewport_size({"width": 390, "height": 800})
    page.wait_for_function("window.innerWidth === 390")  # reading scrollWidth then lays out anew
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    _same_as_server(live_server, page, game, auth)
