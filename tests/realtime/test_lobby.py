"""The lobby: an in-memory projection shared by every viewer, paged, pushed as patches; room
events on their own path (issue 12 finding 1, issue 14 defects 3 and 5)."""

from __future__ import annotations

import asyncio
import contextlib

import jsonpatch
import orjson
from sqlalchemy import event

from tests.support.api import new_player, new_room, play_first_legal, started_game
from tests.support.wait import wait_for


@contextlib.contextmanager
def counting_statements(client):
    """Count the SQL statements the app's engine runs inside the block."""
    engine = client.app.state.platform.engine.sync_engine
    seen: list[str] = []

    def before(conn, cursor, statement, *args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", before)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", before)


def _rooms(client, count):
    hosts = [new_player(client, f"H{i}") for i in range(3)]
    return [new_room(client, hosts[i % 3]) for i in range(count)], hosts


def test_lobby_reads_and_lobby_sockets_run_no_queries(client):
    """Finding 1: GET /api/rooms and a /ws/lobby connect read the projection, not the database,
    so many rooms and many readers cost the database nothing."""
    _rooms(client, 30)
    with counting_statements(client) as seen:
        for _ in range(20):
            assert len(client.get("/api/rooms").json()) == 30
        sockets = [client.websocket_connect("/ws/lobby") for _ in range(5)]
        try:
            for ws in sockets:
                frame = ws.__enter__().receive_json()
                assert frame["type"] == "rooms" and len(frame["rooms"]) == 30
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
    assert seen == []


def test_a_room_change_costs_the_same_few_queries_however_many_rooms_and_viewers(client):
    """Finding 1: one room change reloads that room once (three queries), not the whole lobby per
    viewer; the old path ran about two queries per room for every change and every socket."""
    rooms, hosts = _rooms(client, 40)
    platform = client.app.state.platform
    with client.websocket_connect("/ws/lobby") as ws1, client.websocket_connect("/ws/lobby") as ws2:
        ws1.receive_json(), ws2.receive_json()
        with counting_statements(client) as seen:
            client.portal.call(platform.lobby.apply, [rooms[0]["id"]])
        assert len(seen) <= 3, seen
        with counting_statements(client) as seen:
            client.portal.call(platform.lobby.apply, [r["id"] for r in rooms])
        assert len(seen) <= 3, seen  # a batch of changed rooms is still one reload


def test_lobby_socket_gets_patches_that_rebuild_the_page(client):
    """Finding 1: changes are pushed as versioned patches; applied in order they give exactly
    what GET /api/rooms answers (new room, a seat taken, a game started, a room closed)."""
    with client.websocket_connect("/ws/lobby") as ws:
        first = ws.receive_json()
        assert first["type"] == "rooms" and first["rooms"] == []
        rooms, version = first["rooms"], first["version"]
        ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
        steps = [
            lambda: new_room(client, ann),
            lambda: new_room(client, ann, seats=3),
            lambda: client.post(f"/api/rooms/{room_ids()[1]}/join", headers=bob["headers"], json={}),
            lambda: client.post(f"/api/rooms/{room_ids()[0]}/bots", headers=ann["headers"], json={}),
            lambda: client.post(f"/api/rooms/{room_ids()[0]}/start", headers=ann["headers"]),
            lambda: client.post(f"/api/rooms/{room_ids()[0]}/leave", headers=bob["headers"]),
            lambda: client.post(f"/api/rooms/{room_ids()[0]}/leave", headers=ann["headers"]),
        ]

        def room_ids():
            return [r["id"] for r in reversed(client.get("/api/rooms").json())]  # oldest first

        for step in steps:
            step()
            frame = ws.receive_json()
            assert frame["type"] == "rooms_patch" and frame["version"] == version + 1
            version = frame["version"]
            rooms = jsonpatch.apply_patch(rooms, frame["ops"])
            listed = client.get("/api/rooms").json()
            assert rooms == [{k: v for k, v in r.items() if k != "invite_code"} for r in listed]
        assert rooms == []  # one room started, the other closed when its last player left


def test_lobby_pages_newest_first_and_members_see_their_codes(client):
    """Finding 1: GET /api/rooms is paged (offset, limit up to 200); members see their invite code."""
    rooms, hosts = _rooms(client, 12)
    everything = client.get("/api/rooms", params={"limit": 200}).json()
    assert [r["id"] for r in everything] == [r["id"] for r in reversed(rooms)]
    pages = [client.get("/api/rooms", params={"offset": o, "limit": 5}).json() for o in (0, 5, 10)]
    assert [r["id"] for page in pages for r in page] == [r["id"] for r in everything]
    assert [len(p) for p in pages] == [5, 5, 2]
    assert client.get("/api/rooms", params={"limit": 201}).status_code == 422
    assert all(r["invite_code"] is None for r in everything)
    mine = client.get("/api/rooms", headers=hosts[0]["headers"]).json()
    codes = {r["id"]: r["invite_code"] for r in mine}
    assert all((codes[r["id"]] is not None) == (r["host"]["id"] == hosts[0]["id"]) for r in mine)


def test_private_and_started_rooms_stay_out_of_the_lobby(client):
    """Only public rooms waiting for players are listed."""
    ann = new_player(client, "Ann")
    new_room(client, ann, private=True)
    game_id, _ = started_game(client)
    assert client.get("/api/rooms").json() == []


def test_room_events_do_not_hold_up_game_patches(client):
    """Issue 14 defect 5: a room event another instance announced is handled on the lobby's own
    path; while it is stuck, a game's version events still reach the hub."""
    platform = client.app.state.platform
    game_id, (a, b) = started_game(client)
    stuck = asyncio.Event()

    async def blocked_apply(room_ids):
        await stuck.wait()

    heard: list[int] = []
    real_on_version = platform.hub.on_version

    async def on_version(gid, version):
        heard.append(version)
        await real_on_version(gid, version)

    platform.lobby.apply = blocked_apply
    platform.hub.on_version = on_version
    try:
        client.portal.call(platform.broker.publish, {"type": "room", "room_id": "r1", "origin": "other"})
        version = play_first_legal(client, game_id, a)
        wait_for(lambda: version in heard, timeout=10)
    finally:
        client.portal.call(stuck.set)


def test_a_stuck_room_event_does_not_hold_up_another_instances_game_event(client):
    """Issue 14 defect 5: room and game events from other instances arrive through the one
    broker; a room event still being applied (here: stuck) must not delay the game event
    published after it (it goes to the lobby's own queue, not awaited on the broker's loop)."""
    platform = client.app.state.platform
    stuck = asyncio.Event()

    async def blocked_apply(room_ids):
        await stuck.wait()

    posted: list[tuple[str, int]] = []
    platform.lobby.apply = blocked_apply
    platform.hub.post = lambda game_id, version: posted.append((game_id, version))
    try:
        client.portal.call(platform.broker.publish, {"type": "room", "room_id": "r1", "origin": "other"})
        client.portal.call(
            platform.broker.publish,
            {"type": "game", "game_id": "g-elsewhere", "version": 7, "origin": "other"},
        )
        wait_for(lambda: ("g-elsewhere", 7) in posted, timeout=10)
    finally:
        client.portal.call(stuck.set)


def test_room_sockets_are_forgotten_when_they_close(client):
    """Issue 14 defect 3: `lobby.rooms` is pruned when a room's last socket closes."""
    ann = new_player(client, "Ann")
    room = new_room(client, ann)
    lobby = client.app.state.platform.lobby
    with client.websocket_connect(f"/ws/rooms/{room['id']}?token={ann['token']}") as ws:
        frame = ws.receive_json()
        assert frame["room"]["invite_code"] == room["invite_code"]
        assert room["id"] in lobby.rooms
    wait_for(lambda: room["id"] not in lobby.rooms, timeout=10)


def test_room_socket_members_get_the_code_and_others_do_not(client):
    """A room change sends each room socket the room as that viewer may see it."""
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    room = new_room(client, ann)
    with (
        client.websocket_connect(f"/ws/rooms/{room['id']}?token={ann['token']}") as host_ws,
        client.websocket_connect(f"/ws/rooms/{room['id']}") as guest_ws,
    ):
        host_ws.receive_json(), guest_ws.receive_json()
        client.post(f"/api/rooms/{room['id']}/join", headers=bob["headers"], json={})
        host_frame, guest_frame = host_ws.receive_json(), guest_ws.receive_json()
        assert host_frame["room"]["invite_code"] == room["invite_code"]
        assert "invite_code" not in guest_frame["room"]
        assert guest_frame["room"]["seats"][1]["player"]["id"] == bob["id"]


def test_a_private_room_socket_needs_membership_or_the_code(client):
    """A private room's socket: an outsider without the code gets a 404 sentence and close code
    4404; with the invite code (or as a member) the room comes through."""
    from starlette.websockets import WebSocketDisconnect

    ann, eve = new_player(client, "Ann"), new_player(client, "Eve")
    room = new_room(client, ann, private=True)
    with client.websocket_connect(f"/ws/rooms/{room['id']}?token={eve['token']}") as ws:
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 404 and err["detail"]
        try:
            ws.receive_json()
            raise AssertionError("the socket stayed open")
        except WebSocketDisconnect as closed:
            assert closed.code == 4404
    with client.websocket_connect(
        f"/ws/rooms/{room['id']}?token={eve['token']}&invite_code={room['invite_code']}"
    ) as ws:
        assert ws.receive_json()["room"]["id"] == room["id"]
    with client.websocket_connect(f"/ws/rooms/{room['id']}?token={ann['token']}") as ws:
        assert ws.receive_json()["room"]["invite_code"] == room["invite_code"]


def test_another_instances_room_reaches_this_lobby_by_event_and_by_resync(settings):
    """Two instances on one database, brokers apart: a room opened through one shows in the
    other's lobby when the other hears the room event, and, if the event is lost, at its next
    resync."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    quick = settings.model_copy(update={"lobby_resync_seconds": 0.2})
    with (
        TestClient(create_app(settings)) as one,
        TestClient(create_app(settings)) as two,
        TestClient(create_app(quick)) as three,
    ):
        room = new_room(one, new_player(one, "Ann"))
        assert two.get("/api/rooms").json() == []  # the lobby is memory: two has not heard yet
        two.portal.call(_post, two.app.state.platform.lobby, room["id"])  # as its broker would
        wait_for(lambda: [r["id"] for r in two.get("/api/rooms").json()] == [room["id"]])
        wait_for(lambda: [r["id"] for r in three.get("/api/rooms").json()] == [room["id"]])


async def _post(lobby, room_id):
    lobby.post(room_id)


class _Recorder:
    """A stand-in lobby socket that records the frames written to it and the loop turn."""

    def __init__(self, turns: list[int]) -> None:
        self.frames: list[str] = []
        self.turns = turns
        self.at: list[int] = []

    def send(self, frame: str) -> None:
        self.frames.append(frame)
        self.at.append(self.turns[0])


def test_a_lobby_patch_reaches_a_thousand_sockets_a_chunk_at_a_time_in_order():
    """Two room changes in a row reach 1,000 lobby sockets in order, FANOUT_CHUNK sockets per
    turn of the loop, so a move arriving meanwhile waits for one chunk, not for the thousand; a
    socket opened after a change was made gets the next change, not that one (its snapshot
    already holds it)."""
    from app.realtime.lobby import FANOUT_CHUNK, LobbyHub

    async def run() -> None:
        turns = [0]
        lobby = LobbyHub(sessions=None, page_size=50)
        conns = [_Recorder(turns) for _ in range(1000)]
        lobby.lobby.update(conns)

        async def count_turns() -> None:
            while True:
                await asyncio.sleep(0)
                turns[0] += 1

        counter = asyncio.create_task(count_turns())
        # Two changes of the first page, made back to back before either is written.
        lobby._publish([{"id": "r1"}])
        lobby._publish([{"id": "r1"}, {"id": "r2"}])
        late = _Recorder(turns)
        lobby.lobby.add(late)  # opened now: its snapshot would be at version 2
        while lobby._outbox or (lobby._sender and not lobby._sender.done()):
            await asyncio.sleep(0)
        counter.cancel()
        for conn in conns:
            assert [orjson.loads(f)["version"] for f in conn.frames] == [1, 2]
        assert late.frames == []
        first_turns = sorted({conn.at[0] for conn in conns})
        assert len(first_turns) >= 1000 // FANOUT_CHUNK  # spread over many turns of the loop
        per_turn = {t: sum(1 for c in conns if c.at[0] == t) for t in first_turns}
        assert max(per_turn.values()) <= FANOUT_CHUNK

    asyncio.run(run())
