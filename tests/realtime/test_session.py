"""Detached sockets (app/realtime/session.py): frames handled one at a time in order, reading paused
while a backlog waits, the cleanup run once after the last frame, and the socket's place given
back only when it really ends (a real server with the socket caps at their everyday values)."""

from __future__ import annotations

import asyncio

import httpx
import websockets

from app.realtime.session import MAX_BACKLOG, LiveSessions, SocketSession
from tests.support.server import ServerProcess


class _Protocol:
    """What a session needs of the protocol: pause, resume and send (a close)."""

    def __init__(self) -> None:
        self.paused = False
        self.pauses = 0
        self.sent: list[dict] = []

    def pause(self) -> None:
        self.paused = True
        self.pauses += 1

    def resume(self) -> None:
        self.paused = False

    async def send(self, message: dict) -> None:
        self.sent.append(message)


def test_frames_are_handled_in_order_one_at_a_time_and_the_cleanup_runs_once_after_them():
    """Messages handed over faster than they are handled queue up (reading pauses at the
    backlog's limit and resumes as it drains); each is handled after the one before has
    finished; the end, told while frames still wait, lets them be handled first; `finish` and
    then the closers run once; no task is left."""
    handled: list[str] = []
    running: list[int] = []
    events: list[str] = []

    async def handle(text):
        running.append(1)
        assert len(running) == 1  # never two at once
        await asyncio.sleep(0)
        handled.append(text)
        running.pop()
        return True

    async def finish():
        events.append(f"finish after {len(handled)}")

    async def closer():
        events.append("closer")

    async def scenario():
        protocol = _Protocol()
        session = SocketSession(protocol, handle, finish)
        session.closers.append(closer)
        for i in range(MAX_BACKLOG + 8):
            session.on_message(f"f{i}", None)
        assert protocol.paused and protocol.pauses >= 1
        session.on_close(1000)
        session.on_close(1006)  # told twice: still one cleanup
        session.on_message("after the end", None)
        while session.worker is not None:
            await asyncio.sleep(0)
        return protocol, session

    protocol, session = asyncio.run(scenario())
    assert handled == [f"f{i}" for i in range(MAX_BACKLOG + 8)]
    assert not protocol.paused
    assert events == [f"finish after {MAX_BACKLOG + 8}", "closer"]
    assert session.finished and session.worker is None


def test_a_frame_that_needs_no_wait_is_handled_at_once_without_a_task():
    """A frame arriving at an idle session is handled inside on_message (no task, no turn of
    the loop); one whose handling waits continues in a task, and frames arriving meanwhile are
    handled after it, in order."""
    handled: list[str] = []
    gate: list[asyncio.Future] = []

    async def handle(text):
        if text == "slow":
            gate.append(asyncio.get_running_loop().create_future())
            await gate[0]
        handled.append(text)
        return True

    async def finish():
        pass

    async def scenario():
        session = SocketSession(_Protocol(), handle, finish)
        session.on_message("quick", None)
        at_once = (list(handled), session.worker)
        session.on_message("slow", None)
        session.on_message("after", None)
        waiting = (list(handled), session.worker is not None)
        await asyncio.sleep(0)
        gate[0].set_result(None)
        while session.worker is not None:
            await asyncio.sleep(0)
        return at_once, waiting

    at_once, waiting = asyncio.run(scenario())
    assert at_once == (["quick"], None)
    assert waiting == (["quick"], True)
    assert handled == ["quick", "slow", "after"]


def test_a_frame_that_closes_the_socket_drops_the_rest_and_a_failing_one_closes_with_1011():
    """A handler that answers False (the frame budget's door) ends the session: later frames are
    not handled. A handler that raises is logged and the socket closed with 1011."""

    async def scenario(fail: bool):
        seen: list[str] = []

        async def handle(text):
            seen.append(text)
            if text == "stop":
                if fail:
                    raise RuntimeError("a bug")
                return False
            return True

        finished: list[bool] = []

        async def finish():
            finished.append(True)

        protocol = _Protocol()
        session = SocketSession(protocol, handle, finish)
        for text in ("a", "stop", "b"):
            session.on_message(text, None)
        while session.worker is not None:
            await asyncio.sleep(0)
        return seen, finished, protocol.sent

    seen, finished, sent = asyncio.run(scenario(fail=False))
    assert seen == ["a", "stop"] and finished == [True] and sent == []
    seen, finished, sent = asyncio.run(scenario(fail=True))
    assert seen == ["a", "stop"] and finished == [True]
    assert sent == [{"type": "websocket.close", "code": 1011, "reason": ""}]


def test_stopping_the_platform_finishes_idle_and_busy_sessions():
    """LiveSessions.stop ends every session, idle or handling a frame, and waits for each
    cleanup (presence and socket caps are given back before the database goes)."""

    async def scenario():
        live = LiveSessions()
        finished: list[str] = []
        gate = asyncio.Event()

        def make(name: str) -> SocketSession:
            async def handle(text):
                await gate.wait()
                return True

            async def finish():
                finished.append(name)

            session = SocketSession(_Protocol(), handle, finish)
            live.sessions.add(session)
            return session

        make("idle")
        make("busy").on_message("slow frame", None)
        await asyncio.sleep(0)
        stopping = asyncio.ensure_future(live.stop())
        await asyncio.sleep(0.01)
        gate.set()
        await stopping
        return sorted(finished)

    assert asyncio.run(scenario()) == ["busy", "idle"]


def test_a_detached_sockets_place_is_given_back_when_it_closes(tmp_path):
    """A real server (its sockets detached) with at most 2 spectator sockets per game: a third one is
    refused (4429), and once one of the two closes, a new one is let in; the place was held
    while the socket lived, after the app's handler had returned."""
    env = {
        "CIVITAS_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'caps.db'}",
        "CIVITAS_LIMITS_SCALE": "1",
        "CIVITAS_SPECTATORS_PER_GAME": "2",
        "CIVITAS_BOT_DELAY_MS": "0",
    }

    async def scenario(url: str) -> tuple[int | None, bool]:
        ws = url.replace("http", "ws")
        async with httpx.AsyncClient() as http:
            a = (await http.post(f"{url}/api/players", json={"name": "A"})).json()
            b = (await http.post(f"{url}/api/players", json={"name": "B"})).json()
            ha = {"Authorization": f"Bearer {a['token']}"}
            room = (
                await http.post(f"{url}/api/rooms", headers=ha, json={"ruleset": "testgame", "seats": 2})
            ).json()
            await http.post(
                f"{url}/api/rooms/{room['id']}/join",
                headers={"Authorization": f"Bearer {b['token']}"},
                json={},
            )
            game_id = (await http.post(f"{url}/api/rooms/{room['id']}/start", headers=ha)).json()["game_id"]
        path = f"{ws}/ws/games/{game_id}"
        first = await websockets.connect(path)
        second = await websockets.connect(path)
        for sock in (first, second):
            assert '"snapshot"' in await asyncio.wait_for(sock.recv(), 10)
        third = await websockets.connect(path)
        try:
            await asyncio.wait_for(third.recv(), 10)  # the refusal's error frame
            await asyncio.wait_for(third.recv(), 10)
        except websockets.ConnectionClosed as closed:
            refused = closed.rcvd.code if closed.rcvd else None
        else:
            refused = None
        await first.close()
        let_in = False
        for _ in range(50):
            fourth = await websockets.connect(path)
            try:
                let_in = '"snapshot"' in await asyncio.wait_for(fourth.recv(), 10)
            except websockets.ConnectionClosed:
                let_in = False
            await fourth.close()
            if let_in:
                break
            await asyncio.sleep(0.1)
        await second.close()
        return refused, let_in

    with ServerProcess(env) as server:
        refused, let_in = asyncio.run(scenario(server.url))
    assert refused == 4429
    assert let_in
