"""Seats first and a clock that cannot be gamed (issue 33 items 5, 6 and 7): a seat never has a
player and a bot driving it at once (rematch included); a seat held because its time ran out
cannot be reclaimed until its bot has played that turn (each reclaim used to restart the clock:
a game stalled for ever); and without a clock a player who never moves loses the seat to a bot
after `CIVITAS_IDLE_SEAT_HOURS`, connected or not (before: the whole game was abandoned)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db.models import Game, MoveRow, Seat, SeatClock
from app.main import create_app
from app.services.clocks import now
from tests.support.api import in_db, doc, legal, new_player, new_room, paced_game, play_to_end
from tests.support.wait import wait_for


@pytest.fixture
def client(settings):
    """No background clock sweeps: the tests sweep when they choose."""
    with TestClient(create_app(settings.model_copy(update={"clock_sweep_seconds": 0}))) as c:
        yield c


def _seat(client, room_id, seat):
    async def read(session):
        return (
            await session.execute(
                select(Seat.player_id, Seat.bot).where(Seat.room_id == room_id, Seat.seat == seat)
            )
        ).one()

    return tuple(in_db(client, read))


def test_a_rematch_seat_never_has_a_player_and_a_bot(client):
    """Before: the rematch host seated a bot in the other player's seat; when that player
    accepted, both drove the seat (the bot played all its moves). Now the bot gives way."""
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, a)
    client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={})
    game_id = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"]).json()["game_id"]
    play_to_end(client, game_id, [a, b])
    rematch = client.post(f"/api/rooms/{room['id']}/rematch", headers=a["headers"]).json()
    r = client.post(f"/api/rooms/{rematch['room_id']}/bots", headers=a["headers"], json={"seat": 1})
    assert r.status_code == 200 and r.json()["seats"][1]["bot"] == "Bot"
    accepted = client.post(f"/api/rooms/{room['id']}/rematch", headers=b["headers"])
    assert accepted.status_code == 200, accepted.text
    assert _seat(client, rematch["room_id"], 1) == (b["id"], None)
    new_game = (
        accepted.json()["game_id"]
        or client.post(f"/api/rooms/{rematch['room_id']}/start", headers=a["headers"]).json()["game_id"]
    )
    live = client.portal.call(client.app.state.platform.games.live, new_game)
    assert live.bot_seats() == [] and live.seat_of(b["id"]) == 1


def test_a_seat_whose_time_ran_out_stays_held_until_its_bot_has_played(client):
    """Before: reclaiming a seat whose clock ran out restarted the clock with the full move
    time, so reclaiming each time it ran out stalled the game for ever (0 moves in 60 s). Now the
    reclaim waits for the turn the bot plays; the player's own move meanwhile is refused; after
    the bot's move the seat comes back."""
    bots = client.app.state.platform.bots
    kick = bots.kick
    bots.kick = lambda game_id: None  # hold the bot until the test lets it play
    game_id, room_id, a, b = paced_game(
        client, {"kind": "realtime", "move_minutes": 0.05, "reserve_minutes": 0}
    )
    seat = doc(client, game_id)["to_act"][0]
    owner = a if seat == 0 else b
    version = doc(client, game_id)["version"]

    async def run_out(session):
        await session.execute(
            update(SeatClock)
            .where(SeatClock.game_id == game_id, SeatClock.seat == seat)
            .values(deadline=now() - timedelta(seconds=1))
        )

    in_db(client, run_out)
    assert client.portal.call(client.app.state.platform.clocks.sweep) == [(game_id, room_id)]
    move = legal(client, game_id, owner)
    r = client.post(
        f"/api/games/{game_id}/moves",
        headers=owner["headers"],
        json={"version": move["version"], "move": move["moves"][0]},
    )
    assert r.status_code == 409 and "bot is playing seat" in r.json()["detail"]
    for _ in range(3):  # reclaiming again and again changes nothing
        r = client.post(f"/api/games/{game_id}/reclaim", headers=owner["headers"])
        assert r.status_code == 409 and "ran out" in r.json()["detail"]
    with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
        assert ws.receive_json()["type"] == "snapshot"  # joining does not reclaim it either
    assert _seat(client, room_id, seat) == (owner["id"], "Bot")
    bots.kick = kick
    client.portal.call(kick, game_id)
    wait_for(lambda: doc(client, game_id)["version"] > version)  # the bot played the turn

    async def mover_seats(session):
        return (await session.execute(select(MoveRow.seat).where(MoveRow.game_id == game_id))).all()

    assert seat in [row.seat for row in in_db(client, mover_seats)]
    r = client.post(f"/api/games/{game_id}/reclaim", headers=owner["headers"])
    assert r.status_code == 200, r.text
    assert _seat(client, room_id, seat) == (owner["id"], None)


def test_without_a_clock_a_player_who_never_moves_loses_the_seat_to_a_bot(settings):
    """Before: with no clock, one connected player who never moved kept the seat, and after
    72 h the whole game was ended as abandoned. Now the cleanup sweep hands the idle seat to a
    bot (connected or not), the game goes on, and nothing is abandoned."""
    quick = settings.model_copy(update={"clock_sweep_seconds": 0, "idle_seat_hours": 1})
    with TestClient(create_app(quick)) as client:
        game_id, room_id, a, b = paced_game(client)
        seat = doc(client, game_id)["to_act"][0]
        owner = a if seat == 0 else b
        version = doc(client, game_id)["version"]
        with client.websocket_connect(f"/ws/games/{game_id}?token={owner['token']}") as ws:
            assert ws.receive_json()["type"] == "snapshot"  # connected all along
            cleanup = client.app.state.platform.cleanup
            assert client.portal.call(cleanup.sweep)["held"] == []  # not idle yet

            async def two_hours_idle(session):
                await session.execute(
                    update(Game).where(Game.id == game_id).values(created_at=now() - timedelta(hours=2))
                )
                await session.execute(
                    update(MoveRow)
                    .where(MoveRow.game_id == game_id)
                    .values(created_at=now() - timedelta(hours=2))
                )

            in_db(client, two_hours_idle)
            swept = client.portal.call(cleanup.sweep)
            assert swept["held"] == [game_id] and swept["games"] == []  # both seats were idle
            wait_for(lambda: doc(client, game_id)["version"] > version)  # its bot moved
        final = doc(client, game_id)
        assert "ended" not in final  # played on by the bots (here both were idle), not abandoned
        assert _seat(client, room_id, seat) == (owner["id"], "Bot")  # still theirs to take back
