"""Accounts (issue 27): a guest claims its name, verifies the address by the link mailed to a real
SMTP server, signs in on another device as the same player (password or one-time code), resets
a forgotten password; lists and ends sessions, renames, deletes. Every path refuses bad input
with a sentence, answers the same for known and unknown addresses, and is limited (429)."""

from __future__ import annotations

import logging
import re
import secrets
import time
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import AccountCode, Player, PlayerSession, utcnow
from app.main import create_app
from tests.support.api import new_player, new_room, play_first_legal, started_game
from tests.support.services import REDIS_URL, needs_redis
from tests.support.smtp import SmtpServer

PASSWORD = "correct horse battery"


@pytest.fixture
def smtp():
    """A real SMTP server in the test process."""
    with SmtpServer() as server:
        yield server


@pytest.fixture
def mail_settings(settings, smtp):
    """The test settings, mailing through the test SMTP server, with a cheap Argon2id."""
    return settings.model_copy(
        update={
            "smtp_host": "127.0.0.1",
            "smtp_port": smtp.port,
            "public_url": "https://civitas.test",
            "password_time_cost": 1,
            "password_memory_kib": 1024,
        }
    )


@pytest.fixture
def app_client(mail_settings):
    """A running app that mails through the test SMTP server."""
    with TestClient(create_app(mail_settings)) as client:
        yield client


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _code_in(message) -> str:
    """The code= of the link in a mail."""
    link = re.search(r"https://civitas\.test/\S+", message.get_content()).group(0)
    return parse_qs(urlparse(link).query)["code"][0]


def _claimed(client, smtp, name: str = "Ann", email: str = "ann@example.test") -> dict:
    """A guest that claimed its name and followed the verification link."""
    player = new_player(client, name)
    before = len(smtp.messages)
    r = client.post(
        "/api/players/me/account", headers=player["headers"], json={"email": email, "password": PASSWORD}
    )
    assert r.status_code == 202, r.text
    message = smtp.wait_for(before + 1)[before]
    assert message["To"] == email
    r = client.post("/api/accounts/verify", json={"code": _code_in(message)})
    assert r.status_code == 200, r.text
    return player


def _sign_in(client, email: str, password: str = PASSWORD, headers=None):
    return client.post(
        "/api/accounts/sign-in", headers=headers or {}, json={"email": email, "password": password}
    )


def test_a_claimed_name_signs_in_on_another_device_as_the_same_player(app_client, smtp):
    """Claim, verify, sign in elsewhere: the same player id, its rooms, and its chat history."""
    player = new_player(app_client, "Ann")
    r = app_client.post(
        "/api/players/me/account",
        headers=player["headers"],
        json={"email": " Ann@Example.TEST ", "password": PASSWORD},
    )
    assert r.status_code == 202
    assert r.json() == {
        "id": player["id"],
        "name": "Ann",
        "email": "ann@example.test",
        "email_verified": False,
        "claimed": True,
    }
    [message] = smtp.wait_for(1)
    assert "Confirm" in message["Subject"] and "Ann" in message.get_content()
    assert _sign_in(app_client, "ann@example.test").status_code == 401  # not verified yet
    verified = app_client.post("/api/accounts/verify", json={"code": _code_in(message)})
    assert verified.json()["email_verified"] is True
    room = new_room(app_client, player)

    other = _sign_in(app_client, "ANN@example.test")
    assert other.status_code == 200, other.text
    body = other.json()
    assert body["id"] == player["id"] and body["name"] == "Ann" and body["token"] != player["token"]
    rooms = app_client.get("/api/players/me/rooms", headers=_auth(body["token"])).json()
    assert [r["id"] for r in rooms] == [room["id"]]
    # The first device is still signed in: two sessions.
    assert app_client.get("/api/players/me/rooms", headers=player["headers"]).status_code == 200
    listed = app_client.get("/api/players/me/sessions", headers=_auth(body["token"])).json()
    assert len(listed) == 2 and [s["current"] for s in listed] == [True, False]


def test_wrong_password_and_unknown_address_get_the_same_answer(app_client, smtp):
    """No account enumeration: a wrong password and an address nobody has read alike."""
    _claimed(app_client, smtp)
    wrong = _sign_in(app_client, "ann@example.test", "not the password")
    unknown = _sign_in(app_client, "nobody@example.test", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert (
        wrong.json()
        == unknown.json()
        == {"detail": "That e-mail address and password do not match an account."}
    )


def test_reset_request_answers_alike_and_mails_only_a_known_address(app_client, smtp):
    """The same 202 for a known and an unknown address; only the account's address gets mail."""
    _claimed(app_client, smtp)
    sent = len(smtp.messages)
    known = app_client.post("/api/accounts/reset-request", json={"email": "ann@example.test"})
    unknown = app_client.post("/api/accounts/reset-request", json={"email": "bob@example.test"})
    assert known.status_code == unknown.status_code == 202
    assert known.json() == unknown.json()
    app_client.portal.call(app_client.app.state.platform.accounts.drain)
    assert [m["To"] for m in smtp.messages[sent:]] == ["ann@example.test"]


def test_a_reset_link_works_once_and_ends_every_session(app_client, smtp):
    """The link sets a new password, signs this device in, ends the other sessions; used again
    it is refused with a sentence, and the old password no longer works."""
    player = _claimed(app_client, smtp)
    sent = len(smtp.messages)
    app_client.post("/api/accounts/reset-request", json={"email": "ann@example.test"})
    code = _code_in(smtp.wait_for(sent + 1)[sent])
    r = app_client.post("/api/accounts/reset", json={"code": code, "password": "a new password"})
    assert r.status_code == 200 and r.json()["id"] == player["id"]
    assert app_client.get("/api/players/me/rooms", headers=player["headers"]).status_code == 401
    again = app_client.post("/api/accounts/reset", json={"code": code, "password": "third one!"})
    assert again.status_code == 400 and "already used" in again.json()["detail"]
    assert _sign_in(app_client, "ann@example.test").status_code == 401
    assert _sign_in(app_client, "ann@example.test", "a new password").status_code == 200


def test_an_expired_reset_link_is_refused(app_client, smtp):
    """A link past its hour is refused, and the password stays."""
    _claimed(app_client, smtp)
    sent = len(smtp.messages)
    app_client.post("/api/accounts/reset-request", json={"email": "ann@example.test"})
    code = _code_in(smtp.wait_for(sent + 1)[sent])
    platform = app_client.app.state.platform

    async def expire() -> None:
        async with platform.sessions() as session:
            await session.execute(update(AccountCode).values(expires_at=utcnow() - timedelta(seconds=1)))
            await session.commit()

    app_client.portal.call(expire)
    r = app_client.post("/api/accounts/reset", json={"code": code, "password": "a new password"})
    assert r.status_code == 400 and "expired" in r.json()["detail"]
    assert _sign_in(app_client, "ann@example.test").status_code == 200


def test_a_device_code_signs_in_once(app_client, smtp):
    """A signed-in device shows a short code; another device signs in with it as the same
    player (no password, no verified address needed); the code works once."""
    player = new_player(app_client, "Guest")
    r = app_client.post("/api/players/me/device-code", headers=player["headers"])
    assert r.status_code == 201
    code = r.json()["code"]
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    other = app_client.post("/api/accounts/code-sign-in", json={"code": code.lower()})
    assert other.status_code == 200 and other.json()["id"] == player["id"]
    again = app_client.post("/api/accounts/code-sign-in", json={"code": code})
    assert again.status_code == 400 and "already used" in again.json()["detail"]


def test_signing_in_ends_the_session_the_device_held(app_client, smtp):
    """Session tokens rotate on sign-in: the token the device sent stops working."""
    _claimed(app_client, smtp)
    guest = new_player(app_client, "Someone")
    r = _sign_in(app_client, "ann@example.test", headers=guest["headers"])
    assert r.status_code == 200
    assert app_client.get("/api/players/me/rooms", headers=guest["headers"]).status_code == 401
    # A dead token is no obstacle to signing in.
    assert _sign_in(app_client, "ann@example.test", headers=guest["headers"]).status_code == 200


def test_sign_out_one_device_or_all(app_client, smtp):
    """Ending one session leaves the others; logout-all ends every one."""
    player = _claimed(app_client, smtp)
    second = _sign_in(app_client, "ann@example.test").json()
    third = _sign_in(app_client, "ann@example.test").json()
    listed = app_client.get("/api/players/me/sessions", headers=player["headers"]).json()
    assert len(listed) == 3
    second_id = next(
        s["id"]
        for s in app_client.get("/api/players/me/sessions", headers=_auth(second["token"])).json()
        if s["current"]
    )
    r = app_client.delete(f"/api/players/me/sessions/{second_id}", headers=player["headers"])
    assert r.status_code == 204
    assert app_client.get("/api/players/me/rooms", headers=_auth(second["token"])).status_code == 401
    assert app_client.get("/api/players/me/rooms", headers=_auth(third["token"])).status_code == 200
    missing = app_client.delete(f"/api/players/me/sessions/{second_id}", headers=player["headers"])
    assert missing.status_code == 404 and "no session" in missing.json()["detail"]
    assert app_client.post("/api/players/me/logout-all", headers=player["headers"]).status_code == 204
    for token in (player["token"], third["token"]):
        assert app_client.get("/api/players/me/rooms", headers=_auth(token)).status_code == 401


def test_rename_shows_everywhere_the_log_and_chat_included(app_client):
    """The name lives in one place: the room, the game's log and old chat lines show the new one."""
    game_id, (a, b) = started_game(app_client)
    room_id = app_client.get(f"/api/games/{game_id}", headers=a["headers"]).json()["room_id"]
    platform = app_client.app.state.platform
    app_client.portal.call(platform.chat.post, room_id, a["id"], "P0", False, "hello")
    r = app_client.patch("/api/players/me", headers=a["headers"], json={"name": "  Anna  "})
    assert r.status_code == 200 and r.json() == {"id": a["id"], "name": "Anna"}
    room = app_client.get(f"/api/rooms/{room_id}", headers=b["headers"]).json()
    assert room["seats"][0]["player"]["name"] == "Anna"

    async def history() -> list:
        async with platform.sessions() as session:
            return await platform.chat.history(room_id, session)

    assert [m["name"] for m in app_client.portal.call(history)] == ["Anna"]
    for player in (a, b):
        play_first_legal(app_client, game_id, player)
    log = app_client.get(f"/api/games/{game_id}/log", headers=b["headers"]).json()
    assert log["moves"][0]["text"].startswith("Anna") and "P0" not in str(log["moves"])
    # Chat sent on with the old token's cached identity still carries the name from its place.
    line = app_client.portal.call(platform.chat.post, room_id, a["id"], "P0", False, "again")
    assert line["name"] == "Anna"


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(app_client, smtp):
    """Delete needs the password once claimed; then the token, address and name are gone."""
    game_id, (a, b) = started_game(app_client)
    room_id = app_client.get(f"/api/games/{game_id}", headers=a["headers"]).json()["room_id"]
    r = app_client.post(
        "/api/players/me/account",
        headers=a["headers"],
        json={"email": "p0@example.test", "password": PASSWORD},
    )
    assert r.status_code == 202
    app_client.post("/api/accounts/verify", json={"code": _code_in(smtp.wait_for(1)[0])})
    wrong = app_client.post("/api/players/me/delete", headers=a["headers"], json={"password": "x"})
    assert wrong.status_code == 401 and "not deleted" in wrong.json()["detail"]
    assert (
        app_client.post(
            "/api/players/me/delete", headers=a["headers"], json={"password": PASSWORD}
        ).status_code
        == 204
    )
    assert app_client.get("/api/players/me/rooms", headers=a["headers"]).status_code == 401
    room = app_client.get(f"/api/rooms/{room_id}", headers=b["headers"]).json()
    assert room["seats"][0]["player"]["name"] == "Former player"
    assert _sign_in(app_client, "p0@example.test").status_code == 401
    # The address is free again.
    assert _claimed(app_client, smtp, "New", "p0@example.test")["name"] == "New"


def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(app_client, smtp):
    """Each refusal says what is wrong; none stores anything."""
    player = new_player(app_client)
    h = player["headers"]
    cases = [
        (
            "post",
            "/api/players/me/account",
            {"email": "not-an-address", "password": PASSWORD},
            422,
            "e-mail address",
        ),
        ("post", "/api/players/me/account", {"email": "a@b.test", "password": "short"}, 422, "at least 8"),
        (
            "post",
            "/api/players/me/account",
            {"email": "a@b.test", "password": PASSWORD, "x": 1},
            422,
            "Unknown field",
        ),
        ("post", "/api/accounts/verify", {"code": "made-up"}, 400, "expired or was already"),
        ("post", "/api/accounts/code-sign-in", {"code": "ABCD-2345"}, 400, "wrong, expired"),
        ("post", "/api/accounts/reset", {"code": "made-up", "password": PASSWORD}, 400, "expired"),
        ("patch", "/api/players/me", {"name": "   "}, 422, "1 to 40"),
        ("patch", "/api/players/me", {"name": "Former player"}, 422, "kept for deleted"),
        ("delete", "/api/players/me/sessions/nope", None, 404, "no session"),
    ]
    for method, path, body, status, words in cases:
        r = app_client.request(method.upper(), path, headers=h, json=body)
        assert r.status_code == status, (path, r.text)
        assert words in r.json()["detail"], (path, r.json())
    account = app_client.get("/api/players/me/account", headers=h).json()
    assert account == {
        "id": player["id"],
        "name": "Ann",
        "email": None,
        "email_verified": False,
        "claimed": False,
    }
    assert smtp.messages == []
    assert app_client.get("/api/players/me/account").status_code == 401


def test_a_claimed_address_of_another_account_tells_its_owner_not_the_claimer(app_client, smtp):
    """Claiming an address another account has answers like a free one; the owner is mailed a
    notice (no link), and the claimer cannot sign in with it."""
    _claimed(app_client, smtp)
    mallory = new_player(app_client, "Mallory")
    sent = len(smtp.messages)
    r = app_client.post(
        "/api/players/me/account",
        headers=mallory["headers"],
        json={"email": "ann@example.test", "password": "mallory's password"},
    )
    assert r.status_code == 202
    assert r.json()["email"] == "ann@example.test" and r.json()["email_verified"] is False
    notice = smtp.wait_for(sent + 1)[sent]
    assert notice["To"] == "ann@example.test" and "code=" not in notice.get_content()
    assert _sign_in(app_client, "ann@example.test", "mallory's password").status_code == 401


def test_passwords_never_reach_the_log(app_client, smtp, caplog):
    """Neither a claim, a sign-in nor a failed one writes the password anywhere in the log."""
    with caplog.at_level(logging.DEBUG):
        _claimed(app_client, smtp)
        _sign_in(app_client, "ann@example.test")
        _sign_in(app_client, "ann@example.test", "wrong password 123")
    assert PASSWORD not in caplog.text and "wrong password 123" not in caplog.text


def test_sign_in_attempts_are_limited_per_account_and_per_address(mail_settings, smtp):
    """The sixth attempt at one address within the window gets a 429 with a sentence (an
    unknown address too: the limit says nothing about existence), and so does an address that
    tries too many accounts."""
    limited = mail_settings.model_copy(
        update={"limits_scale": 1, "rate_sign_in_account": "5/300", "rate_sign_in_address": "12/300"}
    )
    with TestClient(create_app(limited)) as client:
        for email in ("ann@example.test", "nobody@example.test"):
            answers = [_sign_in(client, email, "wrong password").status_code for _ in range(6)]
            assert answers[:5] == [401] * 5 and answers[5] == 429, (email, answers)
        r = _sign_in(client, "third@example.test", "wrong password")
        assert r.status_code == 429  # the address's 12 are spent, whatever the account
        assert "Too many sign-in attempts" in r.json()["detail"] and int(r.headers["retry-after"]) > 0


def test_signing_a_device_out_closes_its_sockets_and_spares_the_others(app_client):
    """A session ended from another device loses its game socket at once (4401); the socket of
    the device that asked stays."""
    from tests.api.test_sessions import _ended, _offer

    game_id, (a, _) = started_game(app_client)
    code = app_client.post("/api/players/me/device-code", headers=a["headers"]).json()["code"]
    phone = app_client.post("/api/accounts/code-sign-in", json={"code": code}).json()
    phone_id = next(
        s["id"]
        for s in app_client.get("/api/players/me/sessions", headers=_auth(phone["token"])).json()
        if s["current"]
    )
    with (
        app_client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(phone)) as gone,
        app_client.websocket_connect(f"/ws/games/{game_id}", subprotocols=_offer(a)) as kept,
    ):
        assert gone.receive_json()["type"] == "snapshot"
        assert kept.receive_json()["type"] == "snapshot"
        r = app_client.delete(f"/api/players/me/sessions/{phone_id}", headers=a["headers"])
        assert r.status_code == 204
        frame, close = _ended(gone)
        assert close == 4401 and frame["code"] == "token/ended"
        kept.send_json({"type": "ping"})
        while (got := kept.receive_json())["type"] == "heartbeat":
            pass
        assert got["type"] == "pong"


@needs_redis
def test_sign_in_limits_are_shared_between_instances(mail_settings):
    """Through Redis, attempts on one instance count on the other: no instance-hopping around
    the per-account limit."""
    shared = mail_settings.model_copy(
        update={"broker_url": REDIS_URL, "limits_scale": 1, "rate_sign_in_account": "4/300"}
    )
    email = f"hop-{secrets.token_hex(4)}@example.test"  # Redis keeps counts between runs
    with TestClient(create_app(shared)) as one, TestClient(create_app(shared)) as two:
        answers = [
            _sign_in(client, email, "wrong password").status_code for client in (one, two, one, two, two)
        ]
    assert answers == [401, 401, 401, 401, 429]


def test_the_cleanup_sweep_deletes_expired_sessions_and_codes(app_client):
    """Expired sessions and codes do not pile up: the sweep deletes them, and only them."""
    old, kept = new_player(app_client, "Old"), new_player(app_client, "Kept")
    app_client.post("/api/players/me/device-code", headers=old["headers"])
    platform = app_client.app.state.platform

    async def age_and_sweep() -> list[str]:
        async with platform.sessions() as session:
            past = utcnow() - timedelta(seconds=1)
            await session.execute(
                update(PlayerSession).where(PlayerSession.player_id == old["id"]).values(expires_at=past)
            )
            await session.execute(update(AccountCode).values(expires_at=past))
            await session.commit()
        await platform.cleanup.sweep()
        async with platform.sessions() as session:
            codes = (await session.execute(select(AccountCode.code_hash))).all()
            assert codes == []
            return list((await session.execute(select(PlayerSession.player_id))).scalars())

    assert app_client.portal.call(age_and_sweep) == [kept["id"]]


def test_changing_the_password_needs_the_current_one_and_signs_out_the_other_devices(app_client, smtp):
    """A wrong current password changes nothing (401); the right one sets the new password,
    keeps this device and ends the others."""
    player = _claimed(app_client, smtp)
    other = _sign_in(app_client, "ann@example.test").json()
    wrong = app_client.post(
        "/api/players/me/password",
        headers=player["headers"],
        json={"current_password": "nope", "password": "a new password"},
    )
    assert wrong.status_code == 401 and "nothing changed" in wrong.json()["detail"]
    assert (
        app_client.post(
            "/api/players/me/password",
            headers=player["headers"],
            json={"current_password": PASSWORD, "password": "a new password"},
        ).status_code
        == 204
    )
    assert app_client.get("/api/players/me/rooms", headers=player["headers"]).status_code == 200
    assert app_client.get("/api/players/me/rooms", headers=_auth(other["token"])).status_code == 401
    assert _sign_in(app_client, "ann@example.test").status_code == 401
    assert _sign_in(app_client, "ann@example.test", "a new password").status_code == 200
    guest = new_player(app_client, "Guest")
    none = app_client.post(
        "/api/players/me/password",
        headers=guest["headers"],
        json={"current_password": "x", "password": "a new password"},
    )
    assert none.status_code == 409 and "claim the name" in none.json()["detail"]


def test_one_code_used_by_two_devices_at_once_signs_in_only_one(app_client):
    """Codes are spent by a guarded update: of concurrent sign-ins with one code, one wins and
    the others get the code's refusal."""
    import asyncio

    from app.services.errors import Refusal, ServiceError

    player = new_player(app_client)
    accounts = app_client.app.state.platform.accounts
    for _ in range(3):
        code = app_client.post("/api/players/me/device-code", headers=player["headers"]).json()

        async def race(code: str = code["code"]) -> list:
            return await asyncio.gather(
                *(accounts.code_sign_in(code, f"10.0.0.{i}", None, "x") for i in range(4)),
                return_exceptions=True,
            )

        results = app_client.portal.call(race)
        won = [r for r in results if not isinstance(r, BaseException)]
        assert len(won) == 1 and won[0].identity.id == player["id"]
        assert all(
            isinstance(r, ServiceError) and r.code is Refusal.ACCOUNT_CODE_INVALID
            for r in results
            if r is not won[0]
        )


@needs_redis
def test_a_rename_reaches_the_token_cache_of_every_instance(mail_settings):
    """Instance two caches who a token is (name included) for an hour; a rename on instance
    one makes it forget that answer at once (the broker's event) and read the new name."""
    shared = mail_settings.model_copy(update={"broker_url": REDIS_URL, "token_cache_seconds": 3600})
    with TestClient(create_app(shared)) as one, TestClient(create_app(shared)) as two:
        ann = new_player(one, "Ann")
        tokens = two.app.state.platform.tokens

        def cached_name() -> str:
            return two.portal.call(tokens.authenticate, ann["token"]).name

        assert cached_name() == "Ann"
        reads = tokens.reads
        assert one.patch("/api/players/me", headers=ann["headers"], json={"name": "Anna"}).status_code == 200
        deadline = time.monotonic() + 10
        while cached_name() != "Anna":
            assert time.monotonic() < deadline, "instance two kept the old name"
            time.sleep(0.05)
        assert tokens.reads == reads + 1  # read again once, then cached


def test_a_deleted_account_leaves_the_rooms_still_in_their_lobby(app_client):
    """Its lobby seats free up and the host's role passes on (a room left empty closes); a game
    in play keeps its seat, under the neutral name."""
    ann, bob = new_player(app_client, "Ann"), new_player(app_client, "Bob")
    shared = new_room(app_client, ann, seats=3)
    assert (
        app_client.post(f"/api/rooms/{shared['id']}/join", headers=bob["headers"], json={}).status_code == 200
    )
    alone = new_room(app_client, ann)
    assert app_client.post("/api/players/me/delete", headers=ann["headers"], json={}).status_code == 204
    room = app_client.get(f"/api/rooms/{shared['id']}", headers=bob["headers"]).json()
    assert room["host"]["id"] == bob["id"]
    assert ann["id"] not in [s["player"]["id"] for s in room["seats"] if s["player"]]
    assert app_client.get(f"/api/rooms/{alone['id']}", headers=bob["headers"]).status_code == 404


def test_a_rotated_token_carries_the_name_from_its_one_place(app_client):
    """A token rotated while the instance's cached answer still has an old name (its rename
    event not here yet) gets the stored name, not the stale one."""
    ann = new_player(app_client, "Ann")
    platform = app_client.app.state.platform
    assert app_client.portal.call(platform.tokens.authenticate, ann["token"]).name == "Ann"

    async def rename_behind_the_cache() -> None:
        async with platform.sessions() as session:
            await session.execute(update(Player).where(Player.id == ann["id"]).values(name="Anna"))
            await session.commit()

    app_client.portal.call(rename_behind_the_cache)
    fresh = app_client.post("/api/players/me/token", headers=ann["headers"]).json()
    assert fresh["name"] == "Anna"
    assert app_client.portal.call(platform.tokens.authenticate, fresh["token"]).name == "Anna"
