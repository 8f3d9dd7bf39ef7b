"""Load through a URL (nginx, for `make deploy-test`): two-seat games whose seats read their legal
moves over REST and move over websockets, a lobby burst beside them, and the bookkeeping that
shows no acknowledged move was lost and every game is consistent.

    .venv/bin/python scripts/deploy_load.py --url http://127.0.0.1:8000 --games 100 --duration 20

Each seat keeps its own socket and its game document (the snapshot, then each patch applied); a
seat asked to act reads `GET /api/games/{id}/legal-moves`, sends one of them with an id, and waits
for the ack. A socket that drops (a replica killed) reconnects through the URL, takes the new
snapshot, and sends its unacknowledged move again with the same id (the server answers a retried
id with the version it first stored). A move refused for a moment (503: the database away) is
sent again after a pause. At the end the driver stops moving and checks every game: the versions
acknowledged to its seats are exactly 1..V, V being the game's version (so no acknowledged move
was lost or stored twice), and each socket's patched document equals `GET /api/games/{id}` for
that seat. The lobby burst opens lobby sockets while new players open, join and leave rooms over
REST: every lobby socket must get its snapshot and the patches. Not part of `make test`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import jsonpatch
import websockets

RETRY_STATUSES = {502, 503, 504}  # the proxy or the database away for a moment: try again


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


class MoveRefused(Exception):
    """An error frame answering one of our moves."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"{status} {detail}")
        self.status = status


@dataclass
class Figures:
    """What the load measured; `errors` are failures, `refused` expected refusals by status."""

    acks: list[float] = field(default_factory=list)  # ms, first send -> ack, no reconnect between
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    refused: Counter[str] = field(default_factory=Counter)
    retried: int = 0  # moves sent again after a reconnect or a 503
    reconnects: list[float] = field(default_factory=list)  # s, socket lost -> new snapshot
    resyncs: int = 0
    rest_reads: int = 0

    def error(self, text: str) -> None:
        """Note a failure (the first 20 are kept word for word)."""
        if len(self.errors) < 20:
            print(f"  error: {text}", file=sys.stderr, flush=True)
        self.errors.append(text)

    def summary(self, seconds: float) -> dict[str, Any]:
        """The figures as one JSON-able dict."""
        return {
            "moves": self.moves,
            "seconds": round(seconds, 1),
            "moves_per_s": round(self.moves / seconds, 1) if seconds else 0.0,
            "ack_p50_ms": round(percentile(self.acks, 50), 1),
            "ack_p99_ms": round(percentile(self.acks, 99), 1),
            "errors": len(self.errors),
            "refused": dict(self.refused),
            "retried": self.retried,
            "reconnects": len(self.reconnects),
            "reconnect_p50_s": round(percentile(self.reconnects, 50), 2),
            "reconnect_max_s": round(max(self.reconnects, default=0.0), 2),
            "resyncs": self.resyncs,
            "rest_reads": self.rest_reads,
        }


class Seat:
    """One seat of one game: its socket through the URL, its document, its pending move."""

    def __init__(self, load: Load, game: Game, seat: int, token: str) -> None:
        self.load, self.game, self.seat, self.token = load, game, seat, token
        self.doc: dict[str, Any] | None = None
        self.ws: Any = None
        self.changed = asyncio.Event()
        self.ack: asyncio.Future[int] | None = None
        self.ack_id: str | None = None
        self.pending: dict[str, Any] | None = None  # the move frame sent and not yet acked
        self.sent_at = 0.0
        self.interrupted = False  # the pending move's socket dropped before its answer
        self.lost_at: float | None = None
        self.count = 0
        self.seen = 0  # the newest version acked to this seat: its next move waits for it
        self.rng = random.Random(f"{game.id}:{seat}")

    @property
    def headers(self) -> dict[str, str]:
        """REST authorization for this seat."""
        return {"Authorization": f"Bearer {self.token}"}

    async def connect(self) -> None:
        """Open the socket and take the snapshot; a socket that was lost, or a try that failed,
        waits first as the browser does (static/js/api.js: exponential backoff from 0.5 s to
        15 s with full jitter, so a replica's seats do not all come back in the same instant)."""
        deadline = time.monotonic() + self.load.reconnect_deadline
        url = f"{self.load.ws_url}/ws/games/{self.game.id}"
        attempt = 0 if self.lost_at is None else 1
        while True:
            if attempt:
                await asyncio.sleep(self.rng.random() * min(15.0, 0.5 * 2 ** (attempt - 1)))
            attempt += 1
            try:
                ws = await websockets.connect(
                    url,
                    subprotocols=["civitas", f"bearer.{self.token}"],
                    open_timeout=10,
                    max_size=None,
                    compression=None,
                    ping_interval=None,
                )
                frame = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if frame.get("type") != "snapshot":
                    await ws.close()
                    raise RuntimeError(f"first frame {frame.get('type')}: {frame}")
                break
            except (TimeoutError, OSError, RuntimeError, websockets.exceptions.WebSocketException) as exc:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"game {self.game.id} seat {self.seat}: no socket "
                        f"within {self.load.reconnect_deadline:.0f} s: {exc}"
                    ) from exc
        self.ws, self.doc = ws, frame["game"]
        if self.pending is not None:  # its ack time would measure the reconnection
            self.interrupted = True
        if self.lost_at is not None:
            self.load.figures.reconnects.append(time.monotonic() - self.lost_at)
            self.lost_at = None
        self.changed.set()
        asyncio.get_running_loop().create_task(self.read(ws))

    async def reconnect(self) -> str | None:
        """`connect`, answering why it failed instead of raising."""
        try:
            await self.connect()
        except RuntimeError as exc:
            return str(exc)
        return None

    async def read(self, ws: Any) -> None:
        """Apply this socket's frames until it closes; then mark the seat to reconnect."""
        try:
            async for raw in ws:
                self.on_frame(json.loads(raw))
        except websockets.exceptions.ConnectionClosed:
            pass
        finally:
            if ws is self.ws:
                self.ws = None
                self.lost_at = time.monotonic()
                if self.ack is not None and not self.ack.done():
                    self.ack.set_exception(ConnectionError("socket closed before the ack"))
                self.changed.set()

    def on_frame(self, frame: dict[str, Any]) -> None:
        """One frame: a snapshot or patch updates the document, an ack or error ends a move."""
        kind = frame.get("type")
        if kind == "snapshot":
            self.doc = frame["game"]
        elif kind == "patch":
            assert self.doc is not None
            if frame["version"] == self.doc["version"] + 1:
                self.doc = jsonpatch.apply_patch(self.doc, frame["ops"])
            elif frame["version"] > self.doc["version"] + 1:  # a gap: ask for what was missed
                self.sync()
        elif kind == "heartbeat":  # the game's stored version: behind it, ask (as browsers do)
            if self.doc is not None and frame.get("version", 0) > self.doc["version"]:
                self.sync()
        elif kind in ("ack", "error") and frame.get("id") and frame["id"] == self.ack_id:
            if self.ack is not None and not self.ack.done():
                if kind == "ack":
                    self.ack.set_result(frame["version"])
                else:
                    self.ack.set_exception(MoveRefused(frame.get("status", 0), frame.get("detail", "")))
        elif kind == "error":
            self.load.figures.error(f"game {self.game.id} seat {self.seat}: error frame {frame}")
        self.changed.set()

    def sync(self) -> None:
        """Ask the server for what this socket missed since its document's version."""
        assert self.doc is not None
        self.load.figures.resyncs += 1
        asyncio.get_running_loop().create_task(self.send({"type": "sync", "version": self.doc["version"]}))

    async def send(self, frame: dict[str, Any]) -> None:
        """Send a frame if the socket is open (a closed one reconnects in `run`)."""
        ws = self.ws
        if ws is not None:
            try:
                await ws.send(json.dumps(frame))
            except websockets.exceptions.ConnectionClosed:
                pass

    async def wait_changed(self, timeout: float) -> None:
        """Until a frame arrives or the socket drops (or `timeout`)."""
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            pass

    async def run(self) -> None:
        """Play while the load runs; then leave any pending move settled."""
        figures = self.load.figures
        while True:
            if self.ws is None:
                failed = await self.reconnect()
                if failed:
                    figures.error(failed)
                    return
            if self.pending is not None:
                await self.settle()
                continue
            if self.load.stopping.is_set():
                return
            doc = self.doc
            if doc is None or doc.get("status") != "active" or self.seat not in doc["to_act"]:
                await self.wait_changed(1.0)
                continue
            if doc["version"] < self.seen:  # its own last move's patch is still on its way
                await self.wait_changed(1.0)
                continue
            legal = await self.legal()
            if legal is None or not legal["moves"] or legal["version"] < doc["version"]:
                await self.wait_changed(0.5)
                continue
            self.count += 1
            move_id = f"{self.game.id[:8]}-{self.seat}-{self.count}"
            self.pending = {
                "type": "move",
                "version": legal["version"],
                "move": self.rng.choice(legal["moves"]),
                "id": move_id,
            }
            self.sent_at, self.interrupted = time.perf_counter(), False
            await self.settle(first=True)
            if self.load.think:
                await asyncio.sleep(self.load.think)

    async def settle(self, first: bool = False) -> None:
        """Send the pending move and wait for its answer; on a lost socket or a 5xx it stays
        pending (sent again, same id, once reconnected); any other refusal drops it."""
        frame = self.pending
        assert frame is not None
        loop = asyncio.get_running_loop()
        self.ack, self.ack_id = loop.create_future(), frame["id"]
        # A socket that drops after we stopped waiting fails this future with no one to read it:
        # read it here, so asyncio does not print "Future exception was never retrieved".
        self.ack.add_done_callback(lambda f: f.cancelled() or f.exception())
        if not first:
            self.load.figures.retried += 1
        await self.send(frame)
        figures = self.load.figures
        try:
            version = await asyncio.wait_for(asyncio.shield(self.ack), self.load.ack_timeout)
        except ConnectionError:
            return  # reconnect, then send it again
        except MoveRefused as exc:
            if exc.status in RETRY_STATUSES:
                figures.refused[str(exc.status)] += 1
                await asyncio.sleep(0.5)
                return
            if exc.status == 409:  # another seat's move got in first: read again
                figures.refused["409"] += 1
            else:
                figures.error(f"game {self.game.id} seat {self.seat}: move {frame} refused: {exc}")
            self.pending = None
            return
        except TimeoutError:
            # No answer yet (a busy replica): send it again with the same id, which the server
            # answers with the version it stored, if it did; past the deadline it is a failure.
            if self.ws is None or time.perf_counter() - self.sent_at < self.load.move_deadline:
                return
            figures.error(
                f"game {self.game.id} seat {self.seat}: no answer to {frame['id']} "
                f"in {self.load.move_deadline:.0f} s"
            )
            self.pending = None
            return
        self.pending = None
        self.seen = max(self.seen, version)
        if not self.interrupted and self.load.measuring:  # resent after a timeout counts too
            figures.acks.append((time.perf_counter() - self.sent_at) * 1000)
        figures.moves += 1
        other = self.game.acked.setdefault(version, frame["id"])
        if other != frame["id"]:
            figures.error(f"game {self.game.id}: version {version} acked for {other} and {frame['id']}")

    async def legal(self) -> dict[str, Any] | None:
        """This seat's legal moves over REST; None while the service is away for a moment."""
        self.load.figures.rest_reads += 1
        try:
            response = await self.load.http.get(
                f"/api/games/{self.game.id}/legal-moves", headers=self.headers
            )
        except httpx.HTTPError as exc:
            self.load.figures.refused[type(exc).__name__] += 1
            await asyncio.sleep(0.5)
            return None
        if response.status_code in RETRY_STATUSES:
            self.load.figures.refused[f"GET {response.status_code}"] += 1
            await asyncio.sleep(0.5)
            return None
        if response.status_code != 200:
            self.load.figures.error(
                f"GET legal-moves {self.game.id}: {response.status_code} {response.text[:200]}"
            )
            await asyncio.sleep(1)
            return None
        return response.json()


@dataclass
class Game:
    """One game and what its seats were acknowledged (version -> move id)."""

    id: str
    seats: list[Seat] = field(default_factory=list)
    acked: dict[int, str] = field(default_factory=dict)


class Load:
    """Games through one URL, their seats' tasks, and the figures."""

    def __init__(
        self,
        url: str,
        ruleset: str,
        think: float = 0.0,
        ack_timeout: float = 10.0,
        reconnect_deadline: float = 90.0,
        move_deadline: float = 60.0,
    ) -> None:
        self.url = url.rstrip("/")
        self.ws_url = self.url.replace("http", "ws", 1)
        self.ruleset, self.think = ruleset, think
        self.ack_timeout, self.reconnect_deadline = ack_timeout, reconnect_deadline
        self.move_deadline = move_deadline  # a move unanswered this long (resent or not) fails
        self.http = httpx.AsyncClient(base_url=self.url, timeout=30, limits=httpx.Limits(max_connections=64))
        self.games: list[Game] = []
        self.figures = Figures()
        self.stopping = asyncio.Event()
        self.measuring = True
        self.tasks: list[asyncio.Task[None]] = []

    async def post(self, path: str, token: str | None = None, body: Any = None, expect: int = 200) -> Any:
        """A REST call that must answer `expect`."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = await self.http.post(path, json=body if body is not None else {}, headers=headers)
        if response.status_code != expect:
            raise RuntimeError(f"POST {path}: {response.status_code} {response.text[:300]}")
        return response.json() if response.content else None

    async def new_game(self, i: int) -> Game:
        """Two new players, a room of theirs and its started game."""
        players = [await self.post("/api/players", body={"name": f"Load {i}{c}"}, expect=201) for c in "ab"]
        room = await self.post(
            "/api/rooms", players[0]["token"], {"ruleset": self.ruleset, "seats": 2}, expect=201
        )
        await self.post(f"/api/rooms/{room['id']}/join", players[1]["token"])
        started = await self.post(f"/api/rooms/{room['id']}/start", players[0]["token"])
        game = Game(started["game_id"])
        game.seats = [Seat(self, game, s, p["token"]) for s, p in enumerate(players)]
        return game

    async def start(self, games: int) -> None:
        """Create the games (10 at a time), open every seat's socket, and start playing."""
        for first in range(0, games, 10):
            self.games += await asyncio.gather(
                *(self.new_game(i) for i in range(first, min(games, first + 10)))
            )
        seats = [seat for game in self.games for seat in game.seats]
        for first in range(0, len(seats), 20):
            await asyncio.gather(*(seat.connect() for seat in seats[first : first + 20]))
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(seat.run()) for seat in seats]

    async def stop(self) -> None:
        """Stop sending new moves; wait for every pending one to be settled."""
        self.stopping.set()
        for seat in (s for g in self.games for s in g.seats):
            seat.changed.set()
        await asyncio.wait_for(asyncio.gather(*self.tasks), self.reconnect_deadline + 30)
        self.tasks = []
        self.stopping.clear()

    def resume(self) -> None:
        """Start playing again after `stop`."""
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(seat.run()) for g in self.games for seat in g.seats]

    async def check(self) -> list[str]:
        """After `stop`: every game's acknowledged versions are 1..V and every seat's patched
        document equals the game as `GET /api/games/{id}` gives it to that seat. Problems found."""
        problems: list[str] = []
        for game in self.games:
            for seat in game.seats:
                failed = await seat.reconnect() if seat.ws is None else None
                if failed:
                    problems.append(failed)
            fetched = []
            for seat in game.seats:
                try:
                    response = await self.http.get(f"/api/games/{game.id}", headers=seat.headers)
                except httpx.HTTPError as exc:
                    problems.append(f"GET /api/games/{game.id}: {type(exc).__name__}")
                    break
                if response.status_code != 200:
                    problems.append(f"GET /api/games/{game.id}: {response.status_code} {response.text[:200]}")
                    break
                fetched.append(response.json())
            if len(fetched) != len(game.seats):
                continue
            version = fetched[0]["version"]
            if sorted(game.acked) != list(range(1, version + 1)):
                missing = sorted(set(range(1, version + 1)) - set(game.acked))
                extra = sorted(set(game.acked) - set(range(1, version + 1)))
                problems.append(
                    f"game {game.id}: version {version}, acked versions missing "
                    f"{missing[:10]}, beyond it {extra[:10]}"
                )
            for seat, doc in zip(game.seats, fetched, strict=True):
                for attempt in range(100):  # the last patches may still be on their way
                    if seat.doc is not None and seat.doc["version"] >= doc["version"]:
                        break
                    if attempt == 20:  # 2 s behind: ask, as a client does on a heartbeat
                        seat.sync()
                    await seat.wait_changed(0.1)
                if seat.doc != doc:
                    mine = seat.doc["version"] if seat.doc else None
                    problems.append(
                        f"game {game.id} seat {seat.seat}: the socket's document "
                        f"(version {mine}) differs from GET (version {doc['version']})"
                    )
        return problems

    async def close(self) -> None:
        """Close every socket and the REST client."""
        for seat in (s for g in self.games for s in g.seats):
            ws, seat.ws = seat.ws, None
            if ws is not None:
                await ws.close()
        await self.http.aclose()


async def lobby_burst(url: str, sockets: int = 50, rooms: int = 20) -> dict[str, Any]:
    """`sockets` lobby sockets open while `rooms` new hosts each open a room that another new
    player joins (every other one then leaves): each socket must get its snapshot and at least
    one patch per room opened, and every REST call its expected answer."""
    ws_url = url.replace("http", "ws", 1) + "/ws/lobby"
    received: list[Counter[str]] = [Counter() for _ in range(sockets)]
    problems: list[str] = []
    opened = asyncio.Event()
    done = asyncio.Event()

    async def watch(i: int, ready: list[int]) -> None:
        async with websockets.connect(
            ws_url, subprotocols=["civitas"], open_timeout=20, max_size=None, compression=None
        ) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 20))
            received[i][first["type"]] += 1
            ready.append(i)
            if len(ready) == sockets:
                opened.set()
            while not done.is_set():
                try:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                except TimeoutError:
                    continue
                received[i][frame["type"]] += 1

    async def churn(http: httpx.AsyncClient, i: int) -> None:
        try:
            await open_room(http, i)
        except httpx.HTTPError as exc:  # a request that hangs is a failure to report, not a crash
            problems.append(f"room {i}: {type(exc).__name__} {exc}")

    async def open_room(http: httpx.AsyncClient, i: int) -> None:
        host, guest = [(await http.post("/api/players", json={"name": f"Lobby {i}{c}"})).json() for c in "ab"]
        response = await http.post(
            "/api/rooms",
            json={"ruleset": "fortuna", "seats": 2},
            headers={"Authorization": f"Bearer {host['token']}"},
        )
        if response.status_code != 201:
            problems.append(f"POST /api/rooms: {response.status_code} {response.text[:200]}")
            return
        room = response.json()["id"]
        auth = {"Authorization": f"Bearer {guest['token']}"}
        response = await http.post(f"/api/rooms/{room}/join", json={}, headers=auth)
        if response.status_code != 200:
            problems.append(f"join: {response.status_code} {response.text[:200]}")
        elif i % 2:
            response = await http.post(f"/api/rooms/{room}/leave", headers=auth)
            if response.status_code != 204:
                problems.append(f"leave: {response.status_code} {response.text[:200]}")

    started = time.monotonic()
    ready: list[int] = []
    watchers = [asyncio.create_task(watch(i, ready)) for i in range(sockets)]
    try:
        await asyncio.wait_for(opened.wait(), 60)
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            await asyncio.gather(*(churn(http, i) for i in range(rooms)))
            try:
                listed = await http.get("/api/rooms")
                if listed.status_code != 200:
                    problems.append(f"GET /api/rooms: {listed.status_code}")
            except httpx.HTTPError as exc:
                problems.append(f"GET /api/rooms: {type(exc).__name__}")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(c["rooms_patch"] < rooms for c in received):
            await asyncio.sleep(0.2)
    except TimeoutError:
        problems.append(f"{len(ready)} of {sockets} lobby sockets opened within 60 s")
    finally:
        done.set()
        results = await asyncio.gather(*watchers, return_exceptions=True)
    problems += [f"lobby socket: {r!r}" for r in results if isinstance(r, BaseException)]
    short = [c["rooms_patch"] for c in received if c["rooms_patch"] < rooms]
    if short:
        problems.append(f"{len(short)} lobby sockets got fewer than {rooms} patches: {short[:10]}")
    patches = [c["rooms_patch"] for c in received]
    return {
        "sockets": sockets,
        "rooms": rooms,
        "seconds": round(time.monotonic() - started, 1),
        "patches_min": min(patches, default=0),
        "patches_median": statistics.median(patches) if patches else 0,
        "problems": problems,
    }


async def main_async(args: argparse.Namespace) -> int:
    """The standalone run: start, play for --duration with a lobby burst, stop, check."""
    load = Load(args.url, args.ruleset, think=args.think)
    try:
        await load.start(args.games)
        t0 = time.monotonic()
        burst = asyncio.create_task(lobby_burst(args.url, args.lobby, args.rooms))
        await asyncio.sleep(args.duration)
        lobby = await burst
        await load.stop()
        seconds = time.monotonic() - t0
        problems = await load.check()
        print(
            json.dumps(
                {"load": load.figures.summary(seconds), "lobby": lobby, "problems": problems[:20]}, indent=1
            )
        )
        return 1 if problems or load.figures.errors or lobby["problems"] else 0
    finally:
        await load.close()


def main() -> int:
    """Command line: see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--ruleset", default="rollgame")
    parser.add_argument("--think", type=float, default=0.0, help="seconds between a seat's moves")
    parser.add_argument("--lobby", type=int, default=50, help="lobby sockets in the burst")
    parser.add_argument("--rooms", type=int, default=20, help="rooms opened in the burst")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
