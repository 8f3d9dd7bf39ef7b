"""History that tells the truth (issue 29): each log line keeps who moved as it happened, seat
changes are said in words, and names are read from one place when the log is read."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import Player, SeatClock
from app.main import create_app
from app.services.clocks import now
from app.services.history import FORMER_PLAYER, Holder, label
from tests.support.api import doc, in_db, legal, paced_game, play_first_legal
from tests.support.wait import wait_for


@pytest.fixture
def client(settings):
    """No background clock sweeps: the tests sweep when they choose."""
    with TestClient(create_app(settings.model_copy(update={"clock_sweep_seconds": 0}))) as c:
        yield c


def _log(client, game_id, player=None):
    r = client.get(f"/api/games/{game_id}/log", headers=player["headers"] if player else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_player_who_leaves_keeps_their_past_moves_and_the_leave_is_said(client):
    """Before: after Bob left, every one of his past lines was renamed to the bot. Now his lines
    stay his, the bot's moves are the bot's, and the leave is a line in words."""
    game_id, room_id, a, b = paced_game(client)
    play_first_legal(client, game_id, a)
    play_first_legal(client, game_id, b)  # both bids: the round goes on
    before = _log(client, game_id)["moves"]
    bob_lines = [e for e in before if e["seat"] == 1]
    assert bob_lines and all(e["text"].startswith("Bob") for e in bob_lines)
    assert bob_lines[0]["actor"] == {"kind": "player", "player": {"id": b["id"], "name": "Bob"}}
    left_at = doc(client, game_id)["version"]
    assert client.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
    for _ in range(6):  # Ann plays on; the bot plays Bob's seat
        if doc(client, game_id)["status"] != "active":
            break
        if legal(client, game_id, a)["moves"]:
            play_first_legal(client, game_id, a)
        wait_for(
            lambda: 1 not in doc(client, game_id)["to_act"] or doc(client, game_id)["status"] != "active"
        )
    body = _log(client, game_id)
    after = body["moves"]
    assert [e["text"] for e in after[: len(before)]] == [e["text"] for e in before]
    bot_lines = [e for e in after if e["seat"] == 1 and e["seq"] > left_at]
    assert bot_lines, "the bot never moved for the seat"
    assert all(e["text"].startswith("Bot 2") and e["actor"]["kind"] == "bot" for e in bot_lines)
    assert [(e["kind"], e["version"], e["text"]) for e in body["events"]] == [
        ("left", left_at, "Bob left the game; a bot plays the seat from now on.")
    ]


def test_a_held_seat_moves_as_the_bot_for_its_player_and_the_return_is_said(client):
    """A seat whose time ran out is played by 'Bot for Ann' (not 'Ann'), the time-out and the
    return are lines in words, and Ann's own moves before and after stay hers."""
    bots = client.app.state.platform.bots
    game_id, room_id, a, b = paced_game(
        client, {"kind": "realtime", "move_minutes": 0.05, "reserve_minutes": 0}
    )
    seat = doc(client, game_id)["to_act"][0]
    owner, name = (a, "Ann") if seat == 0 else (b, "Bob")
    version = doc(client, game_id)["version"]

    async def run_out(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(deadline=now() - timedelta(seconds=1))
        )

    in_db(client, run_out)
    assert client.portal.call(client.app.state.platform.clocks.sweep) == [(game_id, room_id)]
    client.portal.call(bots.kick, game_id)
    wait_for(lambda: any(e["seat"] == seat for e in _log(client, game_id)["moves"]))
    r = client.post(f"/api/games/{game_id}/reclaim", headers=owner["headers"])
    assert r.status_code == 200, r.text
    body = _log(client, game_id)
    held = [e for e in body["moves"] if e["seat"] == seat]
    assert held[0]["text"].startswith(f"Bot for {name}")
    assert held[0]["actor"] == {"kind": "held", "player": {"id": owner["id"], "name": name}, "bot": "Bot"}
    assert [(e["kind"], e.get("reason"), e["text"]) for e in body["events"]] == [
        ("held", "timeout", f"{name}'s time ran out; a bot plays the seat until they return."),
        ("returned", None, f"{name} is back and plays the seat again."),
    ]
    assert body["events"][0]["version"] == version
    # Back in the seat, the owner's next move is theirs again (the other player plays on).
    other = b if owner is a else a
    for _ in range(10):
        if doc(client, game_id)["status"] != "active":
            break
        if legal(client, game_id, owner)["moves"]:
            mine = play_first_legal(client, game_id, owner)
            line = next(e for e in _log(client, game_id)["moves"] if e["seq"] == mine)
            assert line["text"].startswith(name) and line["actor"]["kind"] == "player"
            break
        if legal(client, game_id, other)["moves"]:
            play_first_legal(client, game_id, other)
    else:
        raise AssertionError("the owner was never asked to move again")


def test_a_rename_reaches_every_past_line_and_a_missing_player_reads_neutrally(client):
    """Names come from the players table when read: renaming a player renames their past lines
    (and only theirs); a player whose row is gone reads as a former player."""
    game_id, _, a, b = paced_game(client)
    play_first_legal(client, game_id, a)

    async def rename(session):
        await session.execute(update(Player).where(Player.id == a["id"]).values(name="Annabel"))

    in_db(client, rename)
    lines = _log(client, game_id, b)["moves"]
    assert lines[0]["text"].startswith("Annabel") and lines[0]["actor"]["player"]["name"] == "Annabel"
    assert label(0, Holder("gone", None), {}) == FORMER_PLAYER
    assert label(2, Holder("gone", "Bot"), {}) == f"Bot for {FORMER_PLAYER}"
    assert label(2, Holder(None, "Bot"), {}) == "Bot 3"
    assert label(1, None, {}) == "Seat 2"


def test_the_socket_log_frame_carries_the_events_too(client):
    """The table socket's `log` frame has the same events as the REST log."""
    game_id, room_id, a, b = paced_game(client)
    play_first_legal(client, game_id, a)
    assert client.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "log", "after": 0})
        frame = ws.receive_json()
        while frame["type"] != "log":
            frame = ws.receive_json()
    assert [e["kind"] for e in frame["events"]] == ["left"]
    assert frame["entries"][0]["actor"]["player"]["name"] == "Ann"
