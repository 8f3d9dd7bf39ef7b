"""The replay API (issue 29): `GET /api/games/{id}/replay` (an index of turns, rounds and scoring
moments) and `GET /api/games/{id}/replay/{version}?seat=S`, with its access rules, and the leak
test: during a game no replay answer for a seat holds anything `view(state, seat)` does not."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import Game, MoveRow
from app.engine import registry
from app.engine.rng import seed_hash
from app.engine.runner import parse_options
from app.main import create_app
from tests.support.api import doc, in_db, legal, new_player, new_room, play_to_end, started_game

PRODUCT = ["suburbia", "tiny-towns", "fortune-city", "fortuna", "city-council"]
SAMPLES = 500  # random versions asked per game
DOCUMENT_KEYS = {
    "id",
    "room_id",
    "ruleset",
    "version",
    "status",
    "to_act",
    "seat",
    "seed_hash",
    "view",
    "outcome",
    "replay",
}


@pytest.fixture
def client(settings):
    """Snapshots every 7 moves, so replays start from stored snapshots as well as from setup."""
    import app.rulesets  # noqa: F401  (registers the product rulesets)

    with TestClient(create_app(settings.model_copy(update={"snapshot_every": 7}))) as c:
        yield c


def _two_player_game(client, ruleset):
    a, b = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, a, ruleset=ruleset)
    assert client.post(f"/api/rooms/{room['id']}/join", headers=b["headers"], json={}).status_code == 200
    r = client.post(f"/api/rooms/{room['id']}/start", headers=a["headers"])
    assert r.status_code == 200, r.text
    return r.json()["game_id"], [a, b]


def _play_randomly(client, game_id, humans, moves, rng):
    """Random legal moves by whoever is asked, until `moves` were made or the game would end."""
    ruleset = registry.get(doc(client, game_id)["ruleset"])
    state = _states(client, game_id)[-1]
    for _ in range(moves):
        asked = [(p, legal(client, game_id, p)) for p in humans]
        player, options = next((p, o) for p, o in asked if o["moves"])
        move = rng.choice(options["moves"])
        after = ruleset.apply(state, options["seat"], move)
        if ruleset.outcome(after) is not None:
            break  # keep the game going: the leak test is about games in progress
        r = client.post(
            f"/api/games/{game_id}/moves",
            headers=player["headers"],
            json={"version": options["version"], "move": move},
        )
        assert r.status_code == 200, r.text
        state = after


def _states(client, game_id):
    """Every version's state, rebuilt here from setup and the stored moves (not the server's way)."""

    async def read(session):
        game = await session.get(Game, game_id)
        rows = (
            await session.execute(
                select(MoveRow.seat, MoveRow.move).where(MoveRow.game_id == game_id).order_by(MoveRow.seq)
            )
        ).all()
        return game.ruleset, game.players, game.options, int(game.seed), rows

    ruleset_id, players, options, seed, rows = in_db(client, read)
    ruleset = registry.get(ruleset_id)
    state = ruleset.setup(players, parse_options(ruleset, options), seed)
    states = [state]
    for row in rows:
        state = ruleset.apply(state, row.seat, row.move)
        states.append(state)
    return states


def _replay(client, game_id, version, player=None, seat=None):
    params = {} if seat is None else {"seat": seat}
    return client.get(
        f"/api/games/{game_id}/replay/{version}", params=params, headers=player["headers"] if player else {}
    )


@pytest.mark.parametrize("ruleset_id", PRODUCT)
def test_no_replay_answer_during_a_game_holds_more_than_the_seats_own_view(client, ruleset_id):
    """Leak test: 500 random versions of a game in progress, each asked by a seat or a spectator:
    the answer's view is exactly `view(state, seat)` of that version (the spectator's: seat None),
    no other key carries anything (no other seat's view, no seed), and asking for another seat's
    view or everything revealed is refused."""
    rng = random.Random(f"leak-{ruleset_id}")
    game_id, humans = _two_player_game(client, ruleset_id)
    _play_randomly(client, game_id, humans, 40, rng)
    states = _states(client, game_id)
    ruleset = registry.get(ruleset_id)
    last = len(states) - 1
    assert last >= 10, "the game ended too soon to be worth replaying"
    assert doc(client, game_id)["status"] == "active"
    for _ in range(SAMPLES):
        version = rng.randrange(last + 1)
        who = rng.choice([0, 1, None])
        r = _replay(client, game_id, version, humans[who] if who is not None else None)
        assert r.status_code == 200, r.text
        body = r.json()
        assert set(body) <= DOCUMENT_KEYS, set(body) - DOCUMENT_KEYS
        assert body["view"] == ruleset.view(states[version], who)
        assert body["seat"] == who and body["version"] == version
        assert body["to_act"] == ruleset.to_act(states[version])
        assert set(body["replay"]) == {"version", "last", "seat", "finished"}
    for who, other in ((0, "1"), (1, "0"), (None, "0")):
        player = humans[who] if who is not None else None
        assert _replay(client, game_id, 1, player, other).status_code == 403
        assert _replay(client, game_id, 1, player, "all").status_code == 403


def test_a_finished_game_replays_from_any_seat_and_everything_revealed_with_its_seed(client):
    """After the end: any seat, the spectator's view and every view at once; the seed is given and
    matches the hash published from the start; the index marks turns, rounds and the end."""
    game_id, (a, b) = started_game(client)
    play_to_end(client, game_id, [a, b])
    states = _states(client, game_id)
    ruleset = registry.get("testgame")
    last = len(states) - 1
    index = client.get(f"/api/games/{game_id}/replay").json()
    assert index["finished"] and index["version"] == last
    assert index["viewpoints"] == [0, 1, None, "all"]
    assert len(index["movers"]) == last
    assert index["rounds"][0] == {"version": 0, "round": 1}
    assert [r["round"] for r in index["rounds"]] == list(range(1, 1 + len(index["rounds"])))
    assert all(states[m["version"]]["round"] == m["round"] for m in index["rounds"])
    assert index["scoring"][-1] == {"version": last, "phase": "end"}
    turn_starts = [t["version"] for t in index["turns"]]
    assert turn_starts[0] == 1
    assert all(index["movers"][v - 1] != index["movers"][v - 2] for v in turn_starts[1:])
    for version in (0, last // 2, last):
        for seat in ("0", "1", "spectator"):
            body = _replay(client, game_id, version, a, seat).json()
            shown = None if seat == "spectator" else int(seat)
            assert body["view"] == ruleset.view(states[version], shown)
            assert body["replay"]["seed_ok"] is True
        everything = _replay(client, game_id, version, None, "all").json()
        assert everything["views"] == {str(s): ruleset.view(states[version], s) for s in (0, 1)}
        assert seed_hash(everything["replay"]["seed"]) == everything["seed_hash"]
    assert _replay(client, game_id, last, None).json()["status"] == "finished"
    assert _replay(client, game_id, last - 1, None).json()["status"] == "active"


def test_bad_replay_requests_get_a_sentence(client):
    """Versions out of range, unknown seats and a private game's outsiders."""
    game_id, (a, _) = started_game(client)
    for version, status in ((-1, 404), (1, 404), (0, 200)):
        r = _replay(client, game_id, version, a)
        assert r.status_code == status, r.text
        if status != 200:
            assert "versions 0 to 0" in r.json()["detail"]
    for seat, status in (("7", 422), ("x", 422), ("0", 200), ("1", 403)):
        r = _replay(client, game_id, 0, a, seat)
        assert r.status_code == status and (status == 200 or r.json()["detail"].endswith(".")), r.text
    assert client.get(f"/api/games/{game_id}/replay/abc").status_code == 422
    c = new_player(client, "Cy")
    room = new_room(client, c, private=True)
    d = new_player(client, "Di")
    assert (
        client.post(
            f"/api/rooms/{room['id']}/join", headers=d["headers"], json={"invite_code": room["invite_code"]}
        ).status_code
        == 200
    )
    private = client.post(f"/api/rooms/{room['id']}/start", headers=c["headers"]).json()["game_id"]
    assert _replay(client, private, 0, a).status_code == 404
    assert client.get(f"/api/games/{private}/replay", headers=a["headers"]).status_code == 404
    assert _replay(client, private, 0, c).status_code == 200


def test_the_replay_cache_and_snapshots_agree_with_a_replay_from_setup(client):
    """Stepping back and forth, jumping, and forgetting the cache (so stored snapshots are used)
    always give the state rebuilt from setup."""
    game_id, humans = _two_player_game(client, "tiny-towns")
    _play_randomly(client, game_id, humans, 30, random.Random(3))
    states = _states(client, game_id)
    ruleset = registry.get("tiny-towns")
    replays = client.app.state.platform.replays
    order = [*range(len(states)), *reversed(range(len(states))), 5, 29, 0, 17]
    for step, version in enumerate(order):
        if step % 9 == 0:
            replays.forget(game_id)
        if version < len(states):
            body = _replay(client, game_id, version, None).json()
            assert body["view"] == ruleset.view(states[version], None), version


def test_checkpoints_spaced_by_cost_cover_the_game_evenly_and_jumps_start_from_them(client, monkeypatch):
    """The index's pass over the game keeps a state wherever the moves since the last one cost
    CHECKPOINT_SECONDS; when MAX_CHECKPOINTS are taken, every other one goes and the spacing
    doubles. A jump then re-applies only the moves after the nearest checkpoint, and gives the
    state rebuilt from setup."""
    from app.services import replay as replay_module

    ticks = iter(range(10**6))
    monkeypatch.setattr(replay_module, "_clock", lambda: next(ticks) / 2)  # each move costs 0.5
    monkeypatch.setattr(replay_module, "CHECKPOINT_SECONDS", 1.0)
    monkeypatch.setattr(replay_module, "MAX_CHECKPOINTS", 4)
    game_id, humans = _two_player_game(client, "tiny-towns")
    _play_randomly(client, game_id, humans, 30, random.Random(3))
    states = _states(client, game_id)
    assert len(states) == 31
    platform = client.app.state.platform
    replays = platform.replays
    replays.forget(game_id)
    assert client.get(f"/api/games/{game_id}/replay", headers=humans[0]["headers"]).status_code == 200
    data = replays._games[game_id]
    # Every 2 moves, thinned at 10 and 18: every 8 from the second.
    assert sorted(data.checkpoints) == [2, 10, 18, 26] and data.spacing == 4.0

    live = client.portal.call(platform.games.live, game_id)
    ruleset = live.ruleset
    applied = []
    real_apply = ruleset.apply
    monkeypatch.setattr(ruleset, "apply", lambda *a: applied.append(1) or real_apply(*a))
    for version in (25, 3, 17, 9, 12, 2):
        data.states.clear()  # no recent step to start from
        applied.clear()
        body = _replay(client, game_id, version, humans[0]).json()
        assert body["view"] == ruleset.view(states[version], 0), version
        nearest = max(c for c in data.checkpoints if c <= version)
        assert len(applied) == (0 if live.state_at(version) is not None else version - nearest), version
