"""Issue 27, notifications: a your-turn notice to an offline player reaches a real SMTP server,
a Web Push service (which decrypts it with the subscriber's keys) and a webhook within seconds;
nobody with the game open is told (unless they chose always); a hand-over is told once however
often it is reported; the outbox survives a restart and two senders never both send a row."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select, update

from app.db.models import OutboxRow, Player
from app.services.outbox import Outbox
from tests.support.api import doc, in_db, new_player, play_first_legal, play_to_end
from tests.support.push import PushService, WebhookServer, vapid_keys
from tests.support.smtp import SmtpServer
from tests.support.wait import wait_for


@pytest.fixture
def world():
    """An SMTP server, a push service and a webhook receiver, all local."""
    with SmtpServer() as smtp, PushService() as push, WebhookServer() as hook:
        yield smtp, push, hook


@pytest.fixture
def client(settings, world):
    from fastapi.testclient import TestClient

    from app.main import create_app

    smtp, _push, _hook = world
    private, public = vapid_keys()
    app = create_app(
        settings.model_copy(
            update={
                "smtp_host": "127.0.0.1",
                "smtp_port": smtp.port,
                "vapid_private_key": private,
                "vapid_public_key": public,
                "clock_sweep_seconds": 0,
                "notify_seconds": 0.5,
            }
        )
    )
    with TestClient(app) as test_client:
        yield test_client


def _verified(client, player, address):
    async def set_email(session):
        await session.execute(
            update(Player).where(Player.id == player["id"]).values(email=address, email_verified=True)
        )

    in_db(client, set_email)


def _outbox(client):
    async def read(session):
        return list((await session.execute(select(OutboxRow).order_by(OutboxRow.id))).scalars())

    return in_db(client, read)


def _room(client, a, b, pace=None):
    body = {"ruleset": "testgame", "seats": 2, "options": {}}
    if pace:
        body["pace"] = pace
    room = client.post("/api/rooms", headers=a["headers"], json=body).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    return room["id"]


def test_settings_defaults_and_bad_input(client):
    a = new_player(client, "Ann")
    r = client.get("/api/players/me/notifications", headers=a["headers"])
    assert r.status_code == 200
    got = r.json()
    assert got["events"]["your_turn"] == ["push", "email", "webhook"] and got["always"] is False
    assert got["ready"] == {"push": False, "email": False, "webhook": False}
    assert got["vapid_public_key"]
    for body, words in [
        ({"events": {"teatime": ["push"]}}, "no event"),
        ({"events": {"your_turn": ["pigeon"]}}, "channels"),
        ({"webhook_url": "http://example.com/hook"}, "https"),
        ({"webhook_url": "ftp://x"}, "https"),
        ({"always": "yes"}, "true or false"),
        ({"colour": "red"}, "Unknown"),
    ]:
        r = client.put("/api/players/me/notifications", headers=a["headers"], json=body)
        assert r.status_code == 422 and words in r.json()["detail"], (body, r.text)
    assert client.get("/api/players/me/notifications", headers=a["headers"]).json()["events"][
        "your_turn"
    ] == ["push", "email", "webhook"]
    r = client.post(
        "/api/players/me/push-subscriptions",
        headers=a["headers"],
        json={"endpoint": "http://10.0.0.1/push", "keys": {"p256dh": "x" * 40, "auth": "y" * 16}},
    )
    assert r.status_code == 422 and "https" in r.json()["detail"]
    r = client.post(
        "/api/players/me/push-subscriptions",
        headers=a["headers"],
        json={"endpoint": "https://push.example/1", "keys": {"p256dh": "<script>" * 5, "auth": "y" * 16}},
    )
    assert r.status_code == 422 and "base64url" in r.json()["detail"]


def test_your_turn_reaches_email_push_and_webhook_of_an_offline_player(client, world):
    """Ann has every channel set up and no page open: the game's start (both bid at once) tells
    her it has started (by e-mail, as she chose) and that it is her turn (on all three)."""
    smtp, push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    _verified(client, a, "ann@example.test")
    r = client.post("/api/players/me/push-subscriptions", headers=a["headers"], json=push.subscribe("ann"))
    assert r.status_code == 201, r.text
    r = client.put(
        "/api/players/me/notifications",
        headers=a["headers"],
        json={
            "events": {"your_turn": ["push", "email", "webhook"], "game_started": ["email"]},
            "webhook_url": hook.url + "/ann",
        },
    )
    assert r.status_code == 200, r.text
    ready = client.get("/api/players/me/notifications", headers=a["headers"]).json()["ready"]
    assert ready == {"push": True, "email": True, "webhook": True}
    room_id = _room(client, a, b)
    game_id = client.post(f"/api/rooms/{room_id}/start", headers=a["headers"]).json()["game_id"]
    # The start: "game started" by e-mail only; "your turn" (both bid at once) on all three.
    mails = smtp.wait_for(2)
    subjects = sorted(m["Subject"] for m in mails)
    assert len(subjects) == 2
    assert any("has started" in s for s in subjects) and any("Your turn" in s for s in subjects)
    assert all(m["To"] == "ann@example.test" for m in mails)
    assert f"/games/{game_id}" in mails[0].get_content()
    pushed = push.wait_for(1)[0]
    assert "error" not in pushed, pushed
    assert pushed["json"]["event"] == "your_turn" and pushed["json"]["url"].endswith(f"/games/{game_id}")
    hooked = hook.wait_for(1)[0]
    assert hooked["path"] == "/ann" and hooked["json"]["event"] == "your_turn"
    assert "Your turn" in hooked["json"]["content"] and hooked["json"]["text"] == hooked["json"]["content"]
    # Bob has nothing set up: nothing was written for him.
    assert {row.player_id for row in _outbox(client)} == {a["id"]}
    wait_for(lambda: all(row.status == "sent" for row in _outbox(client)))
    # Nothing hidden in what went out: no seed, no hand.
    assert "seed" not in str(pushed["json"]) and "hand" not in hooked["json"]["content"].lower()


def test_nobody_with_the_game_open_is_told_unless_always(client, world):
    _smtp, _push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    client.put(
        "/api/players/me/notifications",
        headers=a["headers"],
        json={"events": {"your_turn": ["webhook"]}, "webhook_url": hook.url + "/ann"},
    )
    room_id = _room(client, a, b)
    game_id = client.post(f"/api/rooms/{room_id}/start", headers=a["headers"]).json()["game_id"]
    hook.wait_for(1)  # the start's your-turn: Ann had no page open yet
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        wait_for(lambda: client.get(f"/api/games/{game_id}/table").json()["seats"][0]["connected"])
        platform = client.app.state.platform
        live = client.portal.call(platform.games.live, game_id)
        # Report a fresh hand-over to Ann while her page is open: nothing is written.
        from app.services.notices import GameNotices

        notice = GameNotices._turn(platform.notices, live, 0, a["id"], 99)
        assert client.portal.call(platform.notifier.send, [notice]) == 0
        client.put(
            "/api/players/me/notifications",
            headers=a["headers"],
            json={"events": {"your_turn": ["webhook"]}, "webhook_url": hook.url + "/ann", "always": True},
        )
        assert client.portal.call(platform.notifier.send, [notice]) == 1
        assert client.portal.call(platform.notifier.send, [notice]) == 0  # once per hand-over
    assert len(hook.wait_for(2)) == 2


def test_a_hand_over_after_a_move_and_a_chat_mention(client, world):
    _smtp, _push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    client.put(
        "/api/players/me/notifications",
        headers=a["headers"],
        json={"events": {"your_turn": ["webhook"], "mention": ["webhook"]}, "webhook_url": hook.url + "/ann"},
    )
    room_id = _room(client, a, b)
    game_id = client.post(f"/api/rooms/{room_id}/start", headers=a["headers"]).json()["game_id"]
    hook.wait_for(1)
    # Play until a move hands Ann a turn she did not have.
    platform = client.app.state.platform
    turns = 1
    for _ in range(12):
        live = client.portal.call(platform.games.live, game_id)
        if live.finished:
            break
        acting = live.to_act_at[-1]
        mover = a if 0 in acting else b
        version = play_first_legal(client, game_id, mover)
        live = client.portal.call(platform.games.live, game_id)
        if 0 in live.to_act_at[version] and 0 not in live.to_act_at[version - 1]:
            turns += 1
    got = hook.wait_for(turns)
    assert sorted(r["json"]["tag"] for r in got) == sorted({r["json"]["tag"] for r in got})
    assert turns >= 2 and len(got) == turns
    with client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "chat", "text": "good move @ann!"})
        late = hook.wait_for(turns + 1)
    mention = [r for r in late if r["json"]["event"] == "mention"]
    assert len(mention) == 1 and "Bob mentioned you" in mention[0]["json"]["content"]


def test_twelve_hours_left_is_told_once_per_deadline(client, world, monkeypatch):
    from datetime import timedelta

    from app.services import clocks

    _smtp, _push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    client.put(
        "/api/players/me/notifications",
        headers=a["headers"],
        json={"events": {"deadline": ["webhook"]}, "webhook_url": hook.url + "/ann"},
    )
    room_id = _room(client, a, b, {"kind": "turn", "move_hours": 48})
    client.post(f"/api/rooms/{room_id}/start", headers=a["headers"])
    sweep = client.app.state.platform.clocks.sweep
    monkeypatch.setattr(clocks, "SKEW", timedelta(hours=30))
    client.portal.call(sweep)
    assert hook.received == []  # 18 h left: not yet
    monkeypatch.setattr(clocks, "SKEW", timedelta(hours=37))
    client.portal.call(sweep)
    client.portal.call(sweep)
    got = hook.wait_for(1)
    assert got[0]["json"]["event"] == "deadline" and "12 hours" in got[0]["json"]["title"]
    client.portal.call(sweep)
    assert len(hook.received) == 1


def test_the_outbox_survives_a_restart_and_two_senders_never_share_a_row(client, world):
    """Rows claimed by a sender that died are sent by another once the claim's lease ran out;
    two senders racing over the same rows send each exactly once."""
    _smtp, _push, hook = world
    platform = client.app.state.platform
    players = [new_player(client, f"P{i}") for i in range(30)]
    for p in players:
        client.put(
            "/api/players/me/notifications",
            headers=p["headers"],
            json={"events": {"your_turn": ["webhook"]}, "webhook_url": f"{hook.url}/{p['id']}"},
        )

    async def write_rows(session):
        for i, p in enumerate(players):
            session.add(
                OutboxRow(
                    key=f"test:{i}",
                    player_id=p["id"],
                    channel="webhook",
                    event="your_turn",
                    payload={"title": "t", "body": "b", "url": "u", "tag": f"test:{i}"},
                    status="pending",
                    attempts=0,
                )
            )
        # One row a dead instance had claimed: its lease has run out.
        from datetime import timedelta

        from app.services.clocks import now

        session.add(
            OutboxRow(
                key="test:dead",
                player_id=players[0]["id"],
                channel="webhook",
                event="your_turn",
                payload={"title": "t", "body": "b", "url": "u", "tag": "test:dead"},
                status="sending",
                claimed_by="dead",
                attempts=1,
                lease_until=now() - timedelta(seconds=1),
            )
        )

    client.portal.call(platform.outbox.stop)  # only the two senders below may send
    in_db(client, write_rows)
    senders = [
        Outbox(platform.sessions, name, platform.outbox.senders, 0, 60, 3, platform.write_turn)
        for name in ("one", "two")
    ]

    async def race():
        return await asyncio.gather(*(s.run_once() for s in senders))

    sent = client.portal.call(race)
    assert sum(sent) == 31
    got = hook.wait_for(31)
    tags = [r["json"]["tag"] for r in got]
    assert len(tags) == 31 and len(set(tags)) == 31
    assert all(r.status == "sent" for r in _outbox(client))


def test_the_end_of_a_game_is_told_to_every_player_once(client, world):
    _smtp, _push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    for p in (a, b):
        client.put(
            "/api/players/me/notifications",
            headers=p["headers"],
            json={"events": {"game_finished": ["webhook"]}, "webhook_url": f"{hook.url}/{p['name']}"},
        )
    room = client.post(
        "/api/rooms", headers=a["headers"], json={"ruleset": "testgame", "seats": 2, "options": {"rounds": 1}}
    ).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    play_to_end(client, game_id, [a, b])
    got = hook.wait_for(2)
    assert sorted(r["path"] for r in got) == ["/Ann", "/Bob"]
    assert all(r["json"]["event"] == "game_finished" and "is over" in r["json"]["title"] for r in got)
    platform = client.app.state.platform
    client.portal.call(platform.notices.after_move, game_id, doc(client, game_id)["version"])
    import time

    time.sleep(1)
    assert len(hook.received) == 2  # reported again: told once


def test_cleanup_forgets_notifications_sent_a_week_ago(client, world, monkeypatch):
    from datetime import timedelta

    from app.services import clocks

    a = new_player(client, "Ann")

    async def add(session):
        for key, status in (("old-sent", "sent"), ("old-pending", "pending")):
            session.add(
                OutboxRow(
                    key=key,
                    player_id=a["id"],
                    channel="webhook",
                    event="your_turn",
                    payload={},
                    status=status,
                    attempts=0,
                    not_before=clocks.now() + timedelta(days=30),
                )
            )

    in_db(client, add)
    monkeypatch.setattr(clocks, "SKEW", timedelta(days=8))
    client.portal.call(client.app.state.platform.cleanup.sweep)
    assert [r.key for r in _outbox(client)] == ["old-pending"]  # unsent rows are kept


def test_a_player_without_channels_is_not_looked_up_again_until_they_set_one_up(client, world):
    """Most players set nothing up: once found so, their hand-overs cost no query (for
    QUIET_SECONDS); setting a channel up through this instance is heard at the very next one."""
    from tests.realtime.test_lobby import counting_statements

    _smtp, _push, hook = world
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room_id = _room(client, a, b)
    game_id = client.post(f"/api/rooms/{room_id}/start", headers=a["headers"]).json()["game_id"]
    platform = client.app.state.platform
    live = client.portal.call(platform.games.live, game_id)
    from app.services.notices import GameNotices

    def turn(version: int):
        return GameNotices._turn(platform.notices, live, 0, a["id"], version)

    assert client.portal.call(platform.notifier.send, [turn(50)]) == 0  # looked up: no channel
    with counting_statements(client) as seen:
        assert client.portal.call(platform.notifier.send, [turn(51)]) == 0
    assert seen == []
    r = client.put(
        "/api/players/me/notifications",
        headers=a["headers"],
        json={"events": {"your_turn": ["webhook"]}, "webhook_url": hook.url + "/ann"},
    )
    assert r.status_code == 200
    assert client.portal.call(platform.notifier.send, [turn(52)]) == 1
    assert hook.wait_for(1)[0]["json"]["tag"] == f"turn:{game_id}:0:52"
