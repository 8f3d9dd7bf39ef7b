"""Issue 27 in Chromium: a player turns on push on the My games page (the real service worker
at /sw.js registers; the browser's push service is stubbed by a local one that decrypts what the
server sends with the subscription's keys), a game starts while no page of theirs is open, the
your-turn push arrives, Chromium's service worker receives it (delivered through DevTools, as a
push service would) and tells the open page, the tab title counts the game, and the player
plays the turn from there."""

from __future__ import annotations

import json

import httpx
import pytest

from tests.support.push import PushService, vapid_keys
from tests.support.server import ServerProcess

pytestmark = pytest.mark.browser


def _player(url, name):
    p = httpx.post(f"{url}/api/players", json={"name": name}).json()
    return p, {"Authorization": f"Bearer {p['token']}"}


def test_push_through_the_service_worker_then_the_turn_is_played(browser, tmp_path):
    private, public = vapid_keys()
    with (
        PushService() as push,
        ServerProcess(
            {
                "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'civitas.db'}",
                "CIVITAS_BOT_DELAY_MS": "50",
                "CIVITAS_VAPID_PRIVATE_KEY": private,
                "CIVITAS_VAPID_PUBLIC_KEY": public,
            }
        ) as server,
    ):
        ann, ann_h = _player(server.url, "Ann")
        _bob, bob_h = _player(server.url, "Bob")
        context = browser.new_context(bypass_csp=True)
        context.grant_permissions(["notifications"], origin=server.url)
        subscription = push.subscribe("ann")
        # Headless Chromium has no push service to subscribe with: subscribe() answers what a
        # browser would, pointing at the local push service.
        context.add_init_script(
            "PushManager.prototype.subscribe = async function () { const s = "
            + json.dumps(subscription)
            + "; return { endpoint: s.endpoint, toJSON: () => s }; };"
        )
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/account")
        page.evaluate("p => localStorage.setItem('civitas.player', JSON.stringify(p))", ann)
        page.goto(f"{server.url}/me/games")
        page.wait_for_selector("#push-button:not([hidden])")
        page.click("#push-button")
        page.wait_for_function("document.getElementById('push-note').textContent !== ''", timeout=20000)
        assert page.text_content("#push-note") == "Push is on for this device.", page.text_content(
            "#push-note"
        )
        assert page.evaluate(
            "navigator.serviceWorker.controller !== null || "
            "navigator.serviceWorker.getRegistration().then(r => !!r.active)"
        )
        settings = httpx.get(f"{server.url}/api/players/me/notifications", headers=ann_h).json()
        assert settings["ready"]["push"] is True
        page.evaluate(
            "window.pushes = []; navigator.serviceWorker.addEventListener('message', "
            "e => window.pushes.push(e.data))"
        )
        # Bob hosts; Ann joins; the game starts while Ann has no game page open.
        room = httpx.post(
            f"{server.url}/api/rooms",
            headers=bob_h,
            json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 1}},
        ).json()
        httpx.post(f"{server.url}/api/rooms/{room['id']}/join", headers=ann_h, json={})
        game_id = httpx.post(f"{server.url}/api/rooms/{room['id']}/start", headers=bob_h).json()["game_id"]
        got = push.wait_for(2, timeout=20)  # game started, your turn (both bid at once)
        assert all("error" not in g for g in got), got
        turn = next(g["json"] for g in got if g["json"]["event"] == "your_turn")
        assert turn["url"].endswith(f"/games/{game_id}")
        # The push service hands the message to Chromium, which wakes the service worker.
        cdp = context.new_cdp_session(page)
        registrations: list[dict] = []
        cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
        cdp.send("ServiceWorker.enable")
        page.wait_for_timeout(500)
        ours = [r for r in registrations if r["scopeURL"].startswith(server.url) and not r["isDeleted"]]
        assert ours, registrations
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": server.url, "registrationId": ours[0]["registrationId"], "data": json.dumps(turn)},
        )
        page.wait_for_function("window.pushes.length > 0", timeout=20000)
        heard = page.evaluate("window.pushes[0]")
        assert heard["type"] == "push" and heard["data"]["title"].startswith("Your turn")
        # The page lists the game first, as Ann's turn, and counts it in the tab title.
        page.reload()
        page.wait_for_selector(f"tr[data-game-id='{game_id}'][data-state='your_turn']")
        assert page.title().startswith("(1) ")
        page.click(f"tr[data-game-id='{game_id}'] a")
        page.wait_for_url(f"**/games/{game_id}")
        ready = (
            "window.civitas && window.civitas.doc && window.civitas.legalVersion === "
            "window.civitas.doc.version && document.querySelector('.legal-move') !== null"
        )
        page.wait_for_function(ready, timeout=30000)
        version = page.evaluate("window.civitas.doc.version")
        box = page.locator(".legal-move").first.bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(f"window.civitas.doc.version > {version}", timeout=30000)
        played = httpx.get(f"{server.url}/api/games/{game_id}/log", headers=ann_h).json()
        assert any(entry.get("seat") == 1 for entry in played["moves"]), played  # Ann's bid
        context.close()
        assert not errors, errors
