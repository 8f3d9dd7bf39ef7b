"""The table around a game: seat names and kinds, chat, rematch, clocks and absent players."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select, update

from app.db.models import Seat, SeatClock
from app.services.clocks import now, parse_pace
from app.services.errors import Refusal, ServiceError
from tests.support.api import in_db, doc, new_player, play_first_legal, play_to_end, started_game
from tests.support.wait import wait_for


@pytest.fixture
def client(settings):
    """The app without its background clock sweeper: these tests sweep when they choose, so the
    sweeper never races them to a hold."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(settings.model_copy(update={"clock_sweep_seconds": 0}))) as test_client:
        yield test_client


def _table(client, game_id, player=None):
    r = client.get(f"/api/games/{game_id}/table", headers=player["headers"] if player else {})
    assert r.status_code == 200, r.text
    return r.json()


def test_table_names_every_seat_the_same_way_as_the_room(client):
    """Names agree (issue 8 finding 11): players by name, bots as 'Bot N' in the table and the room."""
    game_id, (a,) = started_game(client, bots=1)
    table = _table(client, game_id)
    assert [(s["name"], s["kind"]) for s in table["seats"]] == [("P0", "player"), ("Bot 2", "bot")]
    assert table["pace"] == {"kind": "none"} and table["rematch"] is None
    assert all(s["clock"] is None for s in table["seats"])


def test_chat_between_two_players_and_a_spectator_over_the_game_sockets(client):
    """Chat: a line goes to everyone at the table, is stored with the room, and a spectator's line
    is marked as a spectator's; markup is kept as plain text for the browser to show as text."""
    game_id, (a, b) = started_game(client)
    room_id = doc(client, game_id)["room_id"]
    watcher = new_player(client, "Watcher")
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as wa,
        client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as wb,
        client.websocket_connect(f"/ws/games/{game_id}?token={watcher['token']}") as ww,
    ):
        for ws in (wa, wb, ww):
            assert ws.receive_json()["type"] == "snapshot"
        wa.send_json({"type": "chat", "text": "  hello <b>Bob</b>  "})
        got = wb.receive_json()
        assert got["type"] == "chat" and got["message"]["name"] == "P0"
        assert got["message"]["text"] == "hello <b>Bob</b>" and got["message"]["spectator"] is False
        assert wa.receive_json()["message"]["text"] == "hello <b>Bob</b>"
        assert ww.receive_json()["message"]["text"] == "hello <b>Bob</b>"
        ww.send_json({"type": "chat", "text": "nice game"})
        line = wa.receive_json()["message"]
        assert line["name"] == "Watcher" and line["spectator"] is True
    history = client.get(f"/api/rooms/{room_id}/chat").json()
    assert [(m["name"], m["text"], m["spectator"]) for m in history] == [
        ("P0", "hello <b>Bob</b>", False),
        ("Watcher", "nice game", True),
    ]


def test_chat_limits_length_and_rate_with_a_sentence(client):
    """Chat limits: over 300 characters, empty text, unknown fields, and a sixth line within 10 s
    are refused with a sentence; nothing is stored for them."""
    game_id, (a, b) = started_game(client)
    room_id = doc(client, game_id)["room_id"]
    with client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as wa:
        wa.receive_json()
        wa.send_json({"type": "chat", "text": "x" * 301, "id": "chat-1"})
        err = wa.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and "300" in err["detail"]
        assert err["id"] == "chat-1"
        wa.send_json({"type": "chat", "text": "   "})
        assert wa.receive_json()["status"] == 422
        wa.send_json({"type": "chat", "text": "hi", "to": "everyone", "colour": "red"})
        err = wa.receive_json()
        assert err["status"] == 422 and err["detail"] == ("Unknown fields in a chat frame: ['colour', 'to'].")
        for i in range(5):
            wa.send_json({"type": "chat", "text": f"line {i}"})
            assert wa.receive_json()["type"] == "chat"
        wa.send_json({"type": "chat", "text": "one too many"})
        err = wa.receive_json()
        assert err["status"] == 429 and "5 messages" in err["detail"]
    assert len(client.get(f"/api/rooms/{room_id}/chat").json()) == 5


def test_room_socket_chat_reaches_the_game_later(client):
    """Chat is stored with the room: a line sent in the room before the start is in the game's
    chat, from a seated player, not a spectator."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    room = client.post(
        "/api/rooms", headers=ann["headers"], json={"ruleset": "testgame", "seats": 2, "options": {}}
    ).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={})
    with (
        client.websocket_connect(f"/ws/rooms/{room['id']}?token={ann['token']}") as ra,
        client.websocket_connect(f"/ws/rooms/{room['id']}?token={bob['token']}") as rb,
    ):
        ra.receive_json(), rb.receive_json()
        rb.send_json({"type": "chat", "text": "ready?"})
        wait_for(lambda: len(client.get(f"/api/rooms/{room['id']}/chat").json()) == 1)
    line = client.get(f"/api/rooms/{room['id']}/chat").json()[0]
    assert line["name"] == "Bob" and line["spectator"] is False  # Bob has a seat in the room


def test_rematch_starts_a_new_game_with_the_same_seats_once_everyone_accepts(client):
    """Rematch: same ruleset, options and seats; the bot accepts at once, the humans each accept,
    and the new game starts when the last one does."""
    game_id, (a, b) = started_game(client, seats=3, bots=1)
    play_to_end(client, game_id, [a, b])
    room_id = doc(client, game_id)["room_id"]
    first = client.post(f"/api/rooms/{room_id}/rematch", headers=b["headers"])
    assert first.status_code == 200 and first.json()["game_id"] is None
    table = _table(client, game_id, b)
    assert table["rematch"]["by"] == 1 and sorted(table["rematch"]["accepted"]) == [1, 2]
    second = client.post(f"/api/rooms/{room_id}/rematch", headers=a["headers"]).json()
    assert second["game_id"] and second["room_id"] == first.json()["room_id"]
    new = client.get(f"/api/rooms/{second['room_id']}", headers=a["headers"]).json()
    old = client.get(f"/api/rooms/{room_id}", headers=a["headers"]).json()
    assert [(s["player"] or {}).get("id") for s in new["seats"]] == [
        (s["player"] or {}).get("id") for s in old["seats"]
    ]
    assert [s["bot"] for s in new["seats"]] == [None, None, "Bot"]
    assert _table(client, game_id, a)["rematch"]["game_id"] == second["game_id"]
    assert _table(client, game_id)["rematch"] is None  # the rematch room is private
    assert doc(client, second["game_id"], a)["seat"] == 0


def test_rematch_is_refused_before_the_end_and_to_outsiders(client):
    """Rematch needs a finished game and a player of it; each refusal says why."""
    game_id, (a, b) = started_game(client)
    room_id = doc(client, game_id)["room_id"]
    r = client.post(f"/api/rooms/{room_id}/rematch", headers=a["headers"])
    assert r.status_code == 409 and "over" in r.json()["detail"]
    play_to_end(client, game_id, [a, b])
    stranger = new_player(client, "Stranger")
    r = client.post(f"/api/rooms/{room_id}/rematch", headers=stranger["headers"])
    assert r.status_code == 403 and "players of this game" in r.json()["detail"]


def test_pace_values_are_checked_with_a_sentence(client):
    """Room pace: unknown kinds and out-of-range numbers are a 422 naming the value."""
    ann = new_player(client, "Ann")
    for pace, words in [
        ({"kind": "blitz"}, "pace must be one of"),
        ({"kind": "realtime", "move_minutes": 0, "reserve_minutes": 1}, "move_minutes"),
        ({"kind": "turn", "move_hours": "x"}, "move_hours"),
    ]:
        r = client.post(
            "/api/rooms",
            headers=ann["headers"],
            json={"ruleset": "testgame", "seats": 2, "options": {}, "pace": pace},
        )
        assert r.status_code == 422 and words in r.json()["detail"], r.text
    assert parse_pace({"kind": "realtime", "move_minutes": 2, "reserve_minutes": 5}) == ("realtime", 120, 300)
    assert parse_pace({"kind": "turn", "move_hours": 24}) == ("turn", 86400, 0)
    try:
        parse_pace({"kind": "turn"})
    except ServiceError as exc:
        assert "move_hours" in exc.detail
    else:
        raise AssertionError("a turn-based pace without hours was accepted")


def _clocked_game(client, move_minutes=5, reserve_minutes=1):
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = client.post(
        "/api/rooms",
        headers=a["headers"],
        json={
            "ruleset": "testgame",
            "seats": 2,
            "options": {},
            "pace": {"kind": "realtime", "move_minutes": move_minutes, "reserve_minutes": reserve_minutes},
        },
    ).json()
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    return game_id, room["id"], a, b


def test_clocks_run_for_the_seats_asked_to_act_and_stop_after_their_move(client):
    """Real-time pace: a seat asked to act has a running clock of move time plus reserve; once it
    has moved its clock stops, keeping its reserve (a quick move uses no reserve)."""
    game_id, _room, a, b = _clocked_game(client, move_minutes=5, reserve_minutes=1)
    table = _table(client, game_id)
    assert table["pace"] == {"kind": "realtime", "move_seconds": 300, "reserve_seconds": 60}
    clocks = {s["seat"]: s["clock"] for s in table["seats"]}
    acting = doc(client, game_id)["to_act"]
    for seat in acting:
        assert clocks[seat]["deadline"] is not None and clocks[seat]["reserve_seconds"] == 60
    mover = a if 0 in acting else b
    play_first_legal(client, game_id, mover)
    seat = 0 if mover is a else 1
    if seat not in doc(client, game_id)["to_act"]:
        clock = next(s["clock"] for s in _table(client, game_id)["seats"] if s["seat"] == seat)
        assert clock["deadline"] is None and clock["reserve_seconds"] == 60


def test_a_run_out_clock_hands_the_seat_to_a_bot_until_the_player_returns(client):
    """Clock rule: when a seat's clock runs out, a bot plays it while the seat is held for its
    player (the table says so); the player's socket joining again takes the seat back."""
    game_id, room_id, a, b = _clocked_game(client)
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b
    version = doc(client, game_id)["version"]

    async def expire(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(deadline=now() - timedelta(seconds=1))
        )

    in_db(client, expire)
    held = client.portal.call(client.app.state.platform.clocks.sweep)
    assert held == [(game_id, room_id)]
    info = next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)
    assert info["held"] is True and info["kind"] == "held" and info["held_for"] == owner["name"]
    wait_for(lambda: doc(client, game_id)["version"] > version)  # the bot played the seat
    assert doc(client, game_id, owner)["seat"] == seat  # the seat is still the player's
    with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"
        wait_for(
            lambda: next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)["held"] is False
        )
        # ... and the server's copy of the game no longer has a bot play that seat.
        games = client.app.state.platform.games
        wait_for(lambda: seat not in client.portal.call(games.live, game_id).bot_seats())

    async def seat_row(session):
        return (
            await session.execute(select(Seat).where(Seat.room_id == room_id, Seat.seat == seat))
        ).scalar_one()

    row = in_db(client, seat_row)
    assert row.player_id == owner["id"] and row.bot is None


def test_pace_ranges_include_their_ends():
    """Room pace: the ranges include their ends: 0.05-60 minutes a move with 0-120 minutes of
    reserve in real time, 1 hour to 14 days a move turn by turn; just outside is a 422."""
    assert parse_pace({"kind": "realtime", "move_minutes": 0.05, "reserve_minutes": 0}) == ("realtime", 3, 0)
    assert parse_pace({"kind": "realtime", "move_minutes": 60, "reserve_minutes": 120}) == (
        "realtime",
        3600,
        7200,
    )
    assert parse_pace({"kind": "turn", "move_hours": 1}) == ("turn", 3600, 0)
    assert parse_pace({"kind": "turn", "move_hours": 336}) == ("turn", 336 * 3600, 0)
    for pace, key in [
        ({"kind": "realtime", "move_minutes": 0.04, "reserve_minutes": 0}, "move_minutes"),
        ({"kind": "realtime", "move_minutes": 1, "reserve_minutes": 120.5}, "reserve_minutes"),
        ({"kind": "turn", "move_hours": 0.9}, "move_hours"),
    ]:
        with pytest.raises(ServiceError) as refused:
            parse_pace(pace)
        assert refused.value.code is Refusal.INVALID and key in refused.value.detail


def test_the_sweeper_stays_armed_exactly_while_some_seat_is_watched(client):
    """Clock sweeps: a sweep that holds nothing leaves the sweeper armed (sweeping every pass)
    while some player's seat in a game in progress has a clock row, and idle (only a full look
    now and then) when no seat has one."""
    clocks = client.app.state.platform.clocks
    clocks.armed = True
    assert client.portal.call(clocks.sweep) == [] and clocks.armed is False  # nothing to watch
    _clocked_game(client)
    clocks.armed = False
    assert client.portal.call(clocks.sweep) == [] and clocks.armed is True


def test_a_player_takes_a_held_seat_back_over_rest(client):
    """Absence rule: POST /reclaim gives a seat held while its player was away back to them (the
    table says so, and the server's bot stops playing it); its clock resumes where it stood, not
    from a full move time; someone without a seat in the game gets a 403 sentence."""
    client.app.state.platform.bots.kick = lambda game_id: None  # keep the bot still
    game_id, room_id, a, b = _clocked_game(client, move_minutes=5, reserve_minutes=1)
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b

    async def away_with_two_minutes_left(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(
                deadline=now() + timedelta(seconds=120),
                connected=0,
                last_seen=now() - timedelta(seconds=3600),
            )
        )

    in_db(client, away_with_two_minutes_left)
    assert client.portal.call(client.app.state.platform.clocks.sweep) == [(game_id, room_id)]
    stranger = new_player(client, "Cy")
    r = client.post(f"/api/games/{game_id}/reclaim", headers=stranger["headers"])
    assert r.status_code == 403 and "seat" in r.json()["detail"]
    assert next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)["held"] is True
    r = client.post(f"/api/games/{game_id}/reclaim", headers=owner["headers"])
    assert r.status_code == 200, r.text
    info = next(s for s in r.json()["seats"] if s["seat"] == seat)
    assert info["held"] is False and info["kind"] == "player" and info["name"] == owner["name"]
    left = (datetime.fromisoformat(info["clock"]["deadline"]) - now()).total_seconds()
    assert 100 < left <= 121  # resumed: before, a reclaim restarted the full 360 s
    games = client.app.state.platform.games
    wait_for(lambda: seat not in client.portal.call(games.live, game_id).bot_seats())


def test_a_heartbeat_keeps_a_player_with_an_open_socket_present(client):
    """Absence rule: a seat whose socket is open is never "gone": each heartbeat (`seen`)
    refreshes its presence, so a presence gone stale is fresh again and no sweep holds the seat."""
    game_id, room_id, a, b = _clocked_game(client)
    clocks = client.app.state.platform.clocks
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b

    def last_seen():
        async def read(session):
            row = await session.get(SeatClock, (game_id, seat))
            return None if row is None else (row.connected, row.last_seen)

        return in_db(client, read)

    async def long_ago(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(last_seen=now() - timedelta(seconds=3600))
        )

    with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
        ws.receive_json()
        wait_for(lambda: (last_seen() or (0,))[0] == 1)
        in_db(client, long_ago)
        stale = last_seen()[1]
        client.portal.call(clocks.seen, [(game_id, seat)])
        assert last_seen()[1] > stale + timedelta(seconds=3000)
        assert client.portal.call(clocks.sweep) == []
        in_db(client, long_ago)  # without the heartbeat a stale presence counts as gone
        assert client.portal.call(clocks.sweep) == [(game_id, room_id)]


def test_an_absent_player_past_the_grace_period_is_replaced_while_asked_to_act(client):
    """Absence rule: a player whose sockets are all gone longer than the grace period while the
    seat is asked to act gets a bot holding the seat; a player who never used a socket does not."""
    game_id, room_id, a, b = _clocked_game(client)
    clocks = client.app.state.platform.clocks
    assert client.portal.call(clocks.sweep) == []  # REST-only players are never "absent"
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b
    with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
        ws.receive_json()
    wait_for(lambda: not next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)["connected"])
    assert client.portal.call(clocks.sweep) == []  # within the grace period: still the player's

    async def long_ago(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(last_seen=now() - timedelta(seconds=3600))
        )

    in_db(client, long_ago)
    assert client.portal.call(clocks.sweep) == [(game_id, room_id)]
    assert next(s for s in _table(client, game_id)["seats"] if s["seat"] == seat)["held"] is True


def test_clocks_live_in_the_database_and_survive_a_restart(settings):
    """Clocks are stored, not kept in memory: a clock that ran out while no server was up is
    found by the next server's first sweep, which hands the seat to a bot (held for the player)."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    quiet = settings.model_copy(update={"clock_sweep_seconds": 0})
    with TestClient(create_app(quiet)) as first:
        game_id, room_id, a, b = _clocked_game(first)
        seat = doc(first, game_id)["to_act"][0]
        deadline = _table(first, game_id)["seats"][seat]["clock"]["deadline"]
        assert deadline is not None

        async def expire(session):
            await session.execute(
                update(SeatClock)
                .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
                .values(deadline=now() - timedelta(seconds=5))
            )

        in_db(first, expire)
    with TestClient(create_app(settings)) as second:  # a new server: it sweeps on start
        wait_for(lambda: next(s for s in _table(second, game_id)["seats"] if s["seat"] == seat)["held"])
        info = next(s for s in _table(second, game_id)["seats"] if s["seat"] == seat)
        assert info["kind"] == "held" and info["held_for"] in ("Ann", "Bob")


def test_the_log_in_words_over_the_socket(client):
    """Log over the socket: a `log` frame answers with the entries after `after`, each with its
    sentence for this socket's seat (a sealed bid is hidden from the other seat)."""
    game_id, (a, b) = started_game(client)
    card = client.get(f"/api/games/{game_id}/legal-moves", headers=a["headers"]).json()["moves"][0]
    client.post(f"/api/games/{game_id}/moves", headers=a["headers"], json={"version": 0, "move": card})
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as wb,
        client.websocket_connect(f"/ws/games/{game_id}?token={a['token']}") as wa,
    ):
        wb.receive_json(), wa.receive_json()
        wa.send_json({"type": "log", "after": 0})
        mine = wa.receive_json()
        wb.send_json({"type": "log"})
        theirs = wb.receive_json()
        assert mine["type"] == "log" and [e["seq"] for e in mine["entries"]] == [1]
        assert mine["entries"][0]["text"].startswith("P0: ") and mine["entries"][0]["move"] == card
        assert (
            theirs["entries"][0]["move"] == {"type": "bid"}
            and f"card={card['card']}" not in theirs["entries"][0]["text"]
        )
        wa.send_json({"type": "log", "after": 1})
        assert wa.receive_json()["entries"] == []
        wa.send_json({"type": "log", "after": -1, "id": "log-1"})
        err = wa.receive_json()
        assert err["type"] == "error" and err["status"] == 422 and "after" in err["detail"]
        assert err["id"] == "log-1"  # the client matches the refusal to its frame


def test_a_socket_moved_off_a_seat_that_changed_hands_no_longer_counts_as_present(client):
    """Presence: b's open socket counts for seat 1; when b leaves (a bot takes the seat) the socket
    is moved to the spectators and seat 1's presence count drops back to 0, though the socket is
    still open (it no longer stands for anyone at that seat)."""
    client.app.state.platform.bots.kick = lambda game_id: None  # keep the bot still
    game_id, (a, b) = started_game(client, options={"rounds": 2})

    def connected(seat):
        async def read(session):
            row = await session.get(SeatClock, (game_id, seat))
            return None if row is None else row.connected

        return in_db(client, read)

    with client.websocket_connect(f"/ws/games/{game_id}?token={b['token']}") as ws:
        room_id = ws.receive_json()["game"]["room_id"]
        wait_for(lambda: connected(1) == 1)
        assert client.post(f"/api/rooms/{room_id}/leave", headers=b["headers"]).status_code == 204
        frame = ws.receive_json()
        assert frame["type"] == "snapshot" and frame["game"]["seat"] is None
        wait_for(lambda: connected(1) == 0)
        ws.send_json({"type": "ping"})  # the socket is still open while its seat is free
        assert ws.receive_json()["type"] == "pong"
    assert connected(1) == 0 and connected(0) == 0
