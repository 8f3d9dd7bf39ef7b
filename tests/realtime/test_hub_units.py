"""Hub details: a socket that cannot keep up is closed (and will resync), never allowed to grow."""

from __future__ import annotations

import asyncio
import json

from app.realtime.hub import SEND_QUEUE, Audience, Connection


async def _count_turns(turn: list[int]) -> None:
    """Count turns of the event loop in turn[0] (until cancelled)."""
    while True:
        await asyncio.sleep(0)
        turn[0] += 1


class _SlowSocket:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.release = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.release.wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed_with = code


def test_a_socket_that_falls_too_far_behind_is_closed():
    """Past SEND_QUEUE unsent frames the connection drops its backlog and closes with 1013."""

    async def scenario():
        socket = _SlowSocket()
        conn = Connection(socket, "g", 0, "p")
        for i in range(SEND_QUEUE + 5):
            conn.send(f"frame {i}")
        await asyncio.sleep(0)
        assert conn.closed and not conn.queue
        conn.send("after the drop")  # ignored: the socket is closing
        socket.release.set()
        for _ in range(100):
            if socket.closed_with is not None:
                break
            await asyncio.sleep(0.01)
        return socket

    socket = asyncio.run(scenario())
    assert socket.closed_with == 1013 and len(socket.sent) <= 1


class _YieldingSocket(_SlowSocket):
    """A transport that pushes back: every send gives the loop a few turns first."""

    async def send_text(self, text: str) -> None:
        for _ in range(3):
            await asyncio.sleep(0)
        self.sent.append(text)


def test_frames_written_at_once_when_the_transport_takes_them():
    """A socket whose transport never pushes back gets each frame written inline, in order,
    with no flush task at all."""

    async def scenario():
        socket = _SlowSocket()
        socket.release.set()
        conn = Connection(socket, "g", 0, "p")
        for i in range(5):
            conn.send(f"frame {i}")
            assert conn._flusher is None
        return socket

    assert asyncio.run(scenario()).sent == [f"frame {i}" for i in range(5)]


def test_an_idle_socket_holds_no_task_and_a_busy_one_sends_in_order():
    """Frames go out in the order queued; once the backlog is sent no flush task is left behind."""

    async def scenario():
        socket = _YieldingSocket()
        conn = Connection(socket, "g", 0, "p")
        for i in range(5):
            conn.send(f"frame {i}")
        assert conn._flusher is not None and socket.sent == []
        for _ in range(100):
            if conn._flusher is None:
                break
            await asyncio.sleep(0.01)
        return socket, conn

    socket, conn = asyncio.run(scenario())
    assert socket.sent == [f"frame {i}" for i in range(5)] and conn._flusher is None


def test_frames_after_a_version_or_none_when_gone():
    """An audience answers sync with the kept patches after a version, or None when they are gone."""
    audience = Audience(seat=0, version=5, doc={"version": 5})
    audience.patches.extend([(4, "p4"), (5, "p5")])
    assert audience.frames_after(5) == []
    assert audience.frames_after(3) == ["p4", "p5"]
    assert audience.frames_after(4) == ["p5"]
    assert audience.frames_after(2) is None and audience.frames_after(9) is None


def test_an_audience_too_far_behind_the_kept_states_starts_over_from_a_snapshot():
    """When the states between an audience's version and now are gone, it jumps to now: its
    snapshot is the current document, and no patch pretends to bridge the gap."""
    from app.services.live import LiveGame, game_document
    from tests.support.testgame import TEST_GAME

    state = TEST_GAME.setup(2, TEST_GAME.Options(), 7)
    live = LiveGame(
        id="g",
        room_id="r",
        ruleset=TEST_GAME,
        players=2,
        options={},
        seed=7,
        seed_hash="h",
        version=5,
        state=state,
        to_act_at=[],
        movers=[],
    )
    live.states[5] = state  # the instance holds only the current state
    audience = Audience(seat=1, version=2, doc={"stale": True})
    audience.patches.append((2, "p2"))
    audience.advance(live, keep=8)
    assert (audience.version, list(audience.patches)) == (5, [])
    assert audience.doc == game_document(live, state, 5, 1)
    assert audience.frames_after(2) is None
    assert json.loads(audience.snapshot()) == {"type": "snapshot", "game": audience.doc}


def test_players_get_a_patch_before_the_spectators():
    """With many spectators, the seats' sockets are written first: a player's patch never waits
    behind the spectators' (the channel's set lists sockets in no useful order)."""
    from collections import deque

    from app.realtime.hub import Channel, Hub

    order: list[str] = []

    class _Recording:
        def __init__(self, name: str) -> None:
            self.name = name

        async def send_text(self, text: str) -> None:
            order.append(self.name)

    async def scenario():
        channel = Channel()
        for seat in (None, 0, 1):
            channel.audiences[seat] = Audience(seat, 1, {}, deque([(1, f"patch for {seat}")]))
        for i in range(50):
            channel.connections.add(Connection(_Recording(f"spectator {i}"), "g", None, None))
        for seat in (0, 1):
            channel.connections.add(Connection(_Recording(f"seat {seat}"), "g", seat, f"p{seat}"))
        for conn in channel.connections:
            conn.version = 0
        hub = Hub(games=None)  # type: ignore[arg-type]  # these paths never read the games
        hub._audience = lambda *args: None  # the audiences above are already at version 1
        hub._push(channel, None)  # type: ignore[arg-type]  # no game: _audience is stubbed

    asyncio.run(scenario())
    assert len(order) == 52
    assert sorted(order[:2]) == ["seat 0", "seat 1"]


def test_a_thousand_spectators_are_written_a_chunk_per_turn_each_patch_once_and_in_order():
    """A game with 1,000 spectators: the seats and the first SPECTATOR_CHUNK spectators get the
    patch in the push itself, the rest a chunk per turn of the loop (other games' moves go in
    between). A second move pushed while the first is still being written reaches every
    spectator too, and no spectator gets a patch twice or out of order."""
    from collections import deque

    from app.realtime.hub import SPECTATOR_CHUNK, Channel, Hub

    turn = [0]

    class _Recording:
        def __init__(self) -> None:
            self.frames: list[tuple[str, int]] = []

        async def send_text(self, text: str) -> None:
            self.frames.append((text, turn[0]))

    async def scenario():
        counter = asyncio.create_task(_count_turns(turn))
        channel = Channel()
        for seat in (None, 0, 1):
            channel.audiences[seat] = Audience(seat, 1, {}, deque([(1, f"v1 {seat}")]))
        watchers = [Connection(_Recording(), "g", None, None) for _ in range(1000)]
        seats = [Connection(_Recording(), "g", seat, f"p{seat}") for seat in (0, 1)]
        channel.connections.update(watchers + seats)
        for conn in channel.connections:
            conn.version = 0
        hub = Hub(games=None)  # type: ignore[arg-type]  # these paths never read the games
        hub._audience = lambda *args: None  # the audiences are set by hand below
        hub._push(channel, None)  # type: ignore[arg-type]  # no game: _audience is stubbed
        at_once = sum(1 for c in watchers if c.websocket.frames)
        assert all(c.websocket.frames for c in seats) and at_once == SPECTATOR_CHUNK
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        # the second move, while the first is still on its way to most spectators
        for seat in (None, 0, 1):
            audience = channel.audiences[seat]
            audience.version = 2
            audience.patches.append((2, f"v2 {seat}"))
        hub._push(channel, None)  # type: ignore[arg-type]  # no game: _audience is stubbed
        while hub._later:
            await asyncio.sleep(0)
        counter.cancel()
        return watchers

    watchers = asyncio.run(scenario())
    for conn in watchers:
        assert [text for text, _ in conn.websocket.frames] == ["v1 None", "v2 None"]
    first_turns = [conn.websocket.frames[0][1] for conn in watchers]
    assert len(set(first_turns)) >= 2  # the first patch was spread over turns of the loop
    # per turn at most: a chunk of each move's later writes, and the second push's own chunk
    assert max(first_turns.count(t) for t in set(first_turns)) <= 3 * SPECTATOR_CHUNK


def test_a_heartbeat_to_a_thousand_games_is_written_a_chunk_per_turn():
    """1,000 games with two sockets each: every socket gets one heartbeat naming its game's
    version, spread over turns of the loop (at most HEARTBEAT_CHUNK and one game's sockets per
    turn), so moves arriving meanwhile are not held behind 2,000 writes."""
    from app.realtime.hub import HEARTBEAT_CHUNK, Channel, Hub

    turn = [0]

    class _Recording:
        def __init__(self) -> None:
            self.frames: list[tuple[dict, int]] = []

        async def send_text(self, text: str) -> None:
            self.frames.append((json.loads(text), turn[0]))

    class _Live:
        def __init__(self, version: int) -> None:
            self.version = version

    class _Games:
        def __init__(self, versions: dict[str, int]) -> None:
            self.stored = versions

        async def versions(self, game_ids):
            return {g: self.stored[g] for g in game_ids}

        def loaded(self, game_id):
            return _Live(self.stored[game_id])

    async def scenario():
        counter = asyncio.create_task(_count_turns(turn))
        games = _Games({f"g{i}": i % 7 for i in range(1000)})
        hub = Hub(games=games)  # type: ignore[arg-type]  # a stand-in with the versions only
        sockets: dict[str, list[Connection]] = {}
        for game_id in games.stored:
            channel = Channel()
            sockets[game_id] = [Connection(_Recording(), game_id, seat, None) for seat in (0, 1)]
            channel.connections.update(sockets[game_id])
            hub.channels[game_id] = channel
        await asyncio.sleep(0)  # the turn counter is running before the beat starts
        await hub.beat()
        counter.cancel()
        return games, sockets

    games, sockets = asyncio.run(scenario())
    turns = []
    for game_id, conns in sockets.items():
        for conn in conns:
            frames = conn.websocket.frames
            assert [f for f, _ in frames] == [
                {"type": "heartbeat", "version": games.stored[game_id], "every": 15.0}
            ]  # the default interval
            turns.append(frames[0][1])
    assert HEARTBEAT_CHUNK <= 128  # a turn's writes stay short (~2-4 ms here at 128)
    assert len(set(turns)) >= 2000 // (HEARTBEAT_CHUNK + 2)
    assert max(turns.count(t) for t in set(turns)) <= HEARTBEAT_CHUNK + 2
