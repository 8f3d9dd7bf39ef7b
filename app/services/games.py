"""Games: the one place that joins the engine, the database and the broker for a move.

Each instance keeps a `LiveGame` per game it has touched (see app.services.live). The database
is the truth: every move runs in one transaction guarded by `UPDATE games SET version = v + 1
WHERE version = v` and the (game, seq) primary key (see app.services.move_store), so two
instances racing on one game cannot both win; the loser catches up and re-checks the move
against the stale-version rule.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from contextlib import AbstractAsyncContextManager
from typing import Any, Awaitable, Callable, cast

import orjson
from sqlalchemy import Table, bindparam, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import Game, MoveRow, Room, Seat, Snapshot
from app.db.session import in_a_task
from app.engine import registry
from app.engine.errors import ErrorCode, GameError
from app.engine.rng import seed_hash
from app.engine.ruleset import CannotUpgrade, Move, State
from app.observability.metrics import MOVE_REFUSED, MOVE_SECONDS, MOVES
from app.observability.seeds import record_seed
from app.engine.runner import parse_options, play_canonical
from app.services.errors import Refusal, ServiceError, not_found
from app.engine.takeback import LineTooShort, run_start, undo_count
from app.services import undo as undo_rules
from app.services.live import LiveGame, fill_names, game_document
from app.services import history
from app.services.rooms import seat_names, seats_of
from app.services.move_store import MoveRecord, MoveStore, make_move_store

__all__ = ["GameService", "LiveGame", "game_document"]
log = logging.getLogger(__name__)
REWEIGH_EVERY = 8  # moves between re-estimates of a live game's memory
_STORED_VERSION = select(Game.version).where(Game.id == bindparam("game_id"))


class LazySession:
    """A session opened only if used: SQLite's move path never needs one (its writer has its own
    connection), and making and closing an unused AsyncSession is a tenth of a move's CPU."""

    def __init__(self, factory: async_sessionmaker) -> None:
        self._factory = factory
        self._session: AsyncSession | None = None

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    def __getattr__(self, name: str) -> Any:
        if self._session is None:
            self._session = self._factory()
        return getattr(self._session, name)


class GameService:
    """Starts games, loads them, applies moves, and tells listeners when a game moves on."""

    def __init__(
        self,
        sessions: async_sessionmaker,
        snapshot_every: int = 20,
        max_live_games: int = 5000,
        game_seed: int | None = None,
        max_live_bytes: int = 256 * 1024 * 1024,
        sqlite_synchronous: str = "normal",
    ) -> None:
        self.sessions = sessions
        self.game_seed = game_seed
        self.seed_log = ""  # tests only: where to note each new game's seed (Settings.seed_log)
        self.snapshot_every = snapshot_every
        self.max_live_games = max_live_games
        # A memory budget too: each live game is weighed (an estimate from its state's JSON
        # size) when loaded and after each move; the least recently used go first.
        self.max_live_bytes = max_live_bytes
        self._weights: dict[str, int] = {}
        self.live_bytes = 0
        # Least recently used games are dropped from memory; the database rebuilds them on demand.
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._load_locks: dict[str, asyncio.Lock] = {}
        # Games created in a transaction not yet known to have committed: id -> copy.
        self._created: OrderedDict[str, LiveGame] = OrderedDict()
        self._seat_epoch = 0  # bumped by every seat refresh
        self.listeners: list[Callable[[str, int], Awaitable[None]]] = []
        # Moves are stored through one store per backend (app/services/move_store.py).
        self.store: MoveStore = make_move_store(sessions, sqlite_synchronous)

    def write_turn(self) -> AbstractAsyncContextManager[Any]:
        """The turn of SQLite's one writer: other writes (rooms, players, clocks, chat) take it,
        holding no connection while they wait, so that they never sleep in SQLite's busy
        handler while moves commit (the move writer waits for them meanwhile, and commits the
        moves that queued together after); on PostgreSQL, no wait at all."""
        return self.store.turn()

    async def aclose(self) -> None:
        """Release the move store's connections and threads (a checkpoint in progress ends first)."""
        await self.store.aclose()

    # -- loading -----------------------------------------------------------------------------

    def loaded(self, game_id: str) -> LiveGame | None:
        """The game if this instance holds it in memory (no database access)."""
        return self._live.get(game_id)

    def loaded_count(self) -> int:
        """Games held in memory by this instance."""
        return len(self._live)

    async def live(self, game_id: str, *, fresh: bool = False, max_age: float = 0.0) -> LiveGame:
        """The game, loaded once per instance; with `fresh`, caught up with the database first
        (unless it was caught up less than `max_age` seconds ago)."""
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            if fresh and not (max_age and time.monotonic() - live.checked_at < max_age):
                # The stored version first, without the game's lock: a read then never queues
                # behind a move being stored here, and catches up only when another instance
                # moved the game on (the usual answer is "this copy is current").
                await in_a_task()
                # A plain connection, not an ORM session: nothing is loaded into one, and making
                # and closing a session costs more than this one-row read.
                async with self.sessions.kw["bind"].connect() as conn:
                    stored = await conn.scalar(_STORED_VERSION, {"game_id": game_id})
                if stored is not None and stored > live.version:
                    async with live.lock:
                        async with self.sessions() as session:
                            await self._catch_up(session, live)
                else:
                    live.checked_at = time.monotonic()
            return live
        await in_a_task()
        lock = self._load_locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                live = self._live.get(game_id)
                if live is None:
                    epoch = self._seat_epoch
                    async with self.sessions() as session:
                        live = await self._load(session, game_id)
                        if epoch != self._seat_epoch:
                            # Seats changed while this game was loading (a player left right
                            # after the start): the copy read before the change is stale.
                            live.seats = await self._seats(session, live.room_id)
                    self._live[game_id] = live
                    self._weigh(live)
        finally:
            self._load_locks.pop(game_id, None)
        return live

    async def versions(self, game_ids: list[str], chunk: int = 500) -> dict[str, int]:
        """The stored version of each of these games (absent ids are left out): one query per
        `chunk` games, for the heartbeat's look for moves whose broker event was missed."""
        out: dict[str, int] = {}
        if not game_ids:
            return out
        async with self.sessions() as session:
            for i in range(0, len(game_ids), chunk):
                rows = await session.execute(
                    select(Game.id, Game.version).where(Game.id.in_(game_ids[i : i + chunk]))
                )
                out.update((row.id, row.version) for row in rows)
        return out

    def forget(self, game_id: str) -> None:
        """Drop a game from this instance's cache (it reloads from the database when asked)."""
        if self._live.pop(game_id, None) is not None:
            self.live_bytes -= self._weights.pop(game_id, 0)

    def _weigh(self, live: LiveGame) -> None:
        """Re-estimate a live game's memory and evict least recently used games over budget."""
        try:
            size = len(orjson.dumps(live.state, default=list))
        except TypeError:
            size = 64 * 1024
        # The current state, a few recent states (sharing much of it) and the per-viewer log.
        weight = size * 4
        self.live_bytes += weight - self._weights.get(live.id, 0)
        self._weights[live.id] = weight
        while len(self._live) > 1 and (
            len(self._live) > self.max_live_games or self.live_bytes > self.max_live_bytes
        ):
            gone, _ = self._live.popitem(last=False)
            self.live_bytes -= self._weights.pop(gone, 0)

    async def _load(self, session: AsyncSession, game_id: str) -> LiveGame:
        game = await session.get(Game, game_id)
        if game is None:
            raise not_found("game")
        ruleset = registry.get(game.ruleset)
        if ruleset is None:
            raise ServiceError(
                Refusal.RULESET_MISSING, f"This server does not have the ruleset {game.ruleset!r}."
            )
        older = game.ruleset_version if ruleset.version != game.ruleset_version else None
        rows = (
            await session.execute(
                select(MoveRow.seq, MoveRow.seat, MoveRow.to_act, MoveRow.move, MoveRow.client_move_id)
                .where(MoveRow.game_id == game_id)
                .order_by(MoveRow.seq)
            )
        ).all()
        room = (
            await session.execute(
                select(Room.private, Room.invite_code, Room.undo).where(Room.id == game.room_id)
            )
        ).first()
        undo_mode = (room.undo if room is not None else None) or "off"
        # Where moves may be taken back, replay from before the current run of one seat's moves:
        # the copy then holds the states that run began from (engine.takeback.Line).
        upto = run_start([r.seat for r in rows]) if undo_mode != "off" else None
        snap = await self._snapshot(session, game, ruleset.version, upto)
        seed = int(game.seed)
        if snap is not None:
            state, base = snap.state, snap.version
            written = snap.ruleset_version or game.ruleset_version
            older = written if written != ruleset.version else None
            if older is not None:  # a rules change since: carry the stored state over
                upgraded = self._upgraded(ruleset, state, older)
                assert upgraded is not None  # a stored state upgrades to a state
                state = upgraded
        elif older is not None:
            self._upgraded(ruleset, None, older)  # no snapshot: the hook still decides (or refuses)
            opts = parse_options(ruleset, game.options)
            state, base = ruleset.setup(game.players, opts, seed), 0
        else:
            opts = parse_options(ruleset, game.options)
            state, base = ruleset.setup(game.players, opts, seed), 0
        live = LiveGame(
            id=game.id,
            room_id=game.room_id,
            ruleset=ruleset,
            players=game.players,
            options=game.options,
            seed=seed,
            seed_hash=game.seed_hash,
            version=base,
            state=state,
            to_act_at=[],
            movers=[],
            undo_mode=undo_mode,
        )
        # to_act at version 0 comes from setup; later versions are stored with each move.
        setup_state = (
            state if base == 0 else ruleset.setup(game.players, parse_options(ruleset, game.options), seed)
        )
        live.to_act_at = [ruleset.to_act(setup_state)] + [list(r.to_act) for r in rows[:base]]
        live.movers = [r.seat for r in rows[:base]]
        live.client_ids = {
            (r.seat, r.client_move_id): (r.move, r.seq) for r in rows[:base] if r.client_move_id is not None
        }
        live.states[base] = state
        for row in rows[base:]:
            live.advance(row.seat, row.move, await self._next_state(session, live, row), row.client_move_id)
        live.seats = await self._seats(session, game.room_id)
        if room is not None:
            live.private, live.invite_code = bool(room.private), room.invite_code
        live.checked_at = time.monotonic()
        live.abandoned = game.status == "abandoned"
        if older is not None:
            await self._record_upgrade(session, game, live)
        return live

    @staticmethod
    async def _snapshot(
        session: AsyncSession, game: Game, version: str, upto: int | None = None
    ) -> Snapshot | None:
        """The newest snapshot stored under rules `version`, else the newest of all (at or
        before version `upto`, when given). During a rolling deploy both versions write
        snapshots of one game, each in its own format: a snapshot is read as the version that
        wrote it, never as the game's latest version."""
        last = game.version if upto is None else min(upto, game.version)
        newest = (
            select(Snapshot)
            .where(Snapshot.game_id == game.id, Snapshot.version <= last)
            .order_by(Snapshot.version.desc())
            .limit(1)
        )
        mine = Snapshot.ruleset_version == version
        if game.ruleset_version == version:  # rows from before 0007 are in the game's version
            mine = or_(mine, Snapshot.ruleset_version.is_(None))
        snap = (await session.execute(newest.where(mine))).scalar_one_or_none()
        if snap is None:
            snap = (await session.execute(newest)).scalar_one_or_none()
        return snap

    @staticmethod
    def _upgraded(ruleset: Any, state: State | None, older: str) -> State | None:
        """The ruleset's upgrade of a stored state, or the old refusal when it cannot."""
        try:
            return ruleset.upgrade_state(state, older)
        except (CannotUpgrade, AttributeError):
            raise ServiceError(
                Refusal.RULESET_OUTDATED,
                f"This game was played with version {older} of its rules and this server has "
                f"version {ruleset.version}, which cannot carry it over; it cannot be replayed here.",
            ) from None

    async def _record_upgrade(self, session: AsyncSession, game: Game, live: LiveGame) -> None:
        """Store the upgraded state as a snapshot at the current version and the new rules
        version, so the upgrade runs once (a racing instance doing the same is harmless)."""
        try:
            await session.merge(
                Snapshot(
                    game_id=live.id,
                    version=live.version,
                    state=live.state,
                    ruleset_version=live.ruleset.version,
                )
            )
            game.ruleset_version = live.ruleset.version
            await session.commit()
        except IntegrityError:
            await session.rollback()

    async def _seats(self, session: AsyncSession, room_id: str) -> dict[int, dict[str, Any]]:
        rows = (await session.execute(select(Seat).where(Seat.room_id == room_id))).scalars()
        return {s.seat: {"player_id": s.player_id, "bot": s.bot} for s in rows}

    async def _catch_up(self, session: AsyncSession, live: LiveGame, *, seats: bool = False) -> None:
        """Apply moves other instances committed since this copy's version (and, with `seats`,
        reload who holds each seat even when no move came in)."""
        await in_a_task()
        rows = (
            await session.execute(
                select(MoveRow.seq, MoveRow.seat, MoveRow.move, MoveRow.client_move_id)
                .where(MoveRow.game_id == live.id, MoveRow.seq > live.version)
                .order_by(MoveRow.seq)
            )
        ).all()
        for row in rows:
            if row.seq != live.version + 1:
                break
            live.advance(row.seat, row.move, await self._next_state(session, live, row), row.client_move_id)
        if rows or seats:
            live.seats = await self._seats(session, live.room_id)
        if seats and not rows:  # nothing new yet a retry: maybe cleanup ended the game elsewhere
            live.abandoned = (
                await session.scalar(select(Game.status).where(Game.id == live.id)) == "abandoned"
            )
        live.checked_at = time.monotonic()

    @staticmethod
    async def _next_state(session: AsyncSession, live: LiveGame, row: Any) -> State:
        """The state after a stored row: the move applied, or the state a take-back returns
        to; when this copy does not hold that state (it was loaded from a snapshot taken
        after the moves taken back began), the row's own snapshot, stored with every take-back."""
        try:
            return live.next_state(row.seat, row.move)
        except LineTooShort:
            snap = await session.get(Snapshot, (live.id, row.seq))
            if snap is None:
                raise ServiceError(
                    Refusal.REPLAY_UNAVAILABLE,
                    "This game's log has a take-back whose state is missing; it cannot be replayed here.",
                ) from None
            state: State = snap.state
            return state

    async def seat_of(self, game_id: str, player_id: str) -> int | None:
        """The seat a player holds, asking the database before saying "none" (this copy's seats
        may be older than a change made through another instance)."""
        live = await self.live(game_id)
        seat = live.seat_of(player_id)
        if seat is None:
            await in_a_task()
            async with self.sessions() as session:
                live.seats = await self._seats(session, live.room_id)
            seat = live.seat_of(player_id)
        return seat

    async def refresh_seats_of_room(self, room_id: str) -> list[str]:
        """Reload who holds each seat of a room's loaded game (after a bot takes a seat over);
        returns the ids of the games refreshed."""
        self._seat_epoch += 1  # a load running now re-reads its seats (see `live`)
        for made in [g for g, live in self._created.items() if live.room_id == room_id]:
            del self._created[made]  # a copy made before the change is not adopted
        refreshed = []
        for live in list(self._live.values()):
            if live.room_id == room_id:
                async with self.sessions() as session:
                    live.seats = await self._seats(session, live.room_id)
                refreshed.append(live.id)
        return refreshed

    # -- starting ----------------------------------------------------------------------------

    async def create(
        self, session: AsyncSession, room: Room, players: int, seats: list[Seat] | None = None
    ) -> Game:
        """Insert a new game for a room (inside the caller's transaction) at version 0 (`seats`:
        the room's, in order, when the caller has just read them)."""
        ruleset = registry.get(room.ruleset)
        assert ruleset is not None
        # A fixed seed (CIVITAS_GAME_SEED) makes a test's or a bug report's games reproducible.
        seed = self.game_seed if self.game_seed is not None else secrets.randbits(63)
        state = ruleset.setup(players, parse_options(ruleset, room.options), seed)
        game = Game(
            id=secrets.token_hex(8),
            room_id=room.id,
            ruleset=ruleset.id,
            ruleset_version=ruleset.version,
            options=room.options,
            players=players,
            seed=str(seed),
            seed_hash=seed_hash(seed),
            version=0,
            status="active",
            to_act=ruleset.to_act(state),
            outcome=None,
        )
        session.add(game)
        seats = seats if seats is not None else await seats_of(session, room.id)
        history.record_seated(session, game, seats)
        if self.seed_log:
            record_seed(self.seed_log, game.id, ruleset.id, seed)
        # The copy the first reader would rebuild with five queries, made from what is in hand;
        # it joins the live games once the caller's transaction has committed (`adopt`).
        live = LiveGame(
            id=game.id,
            room_id=room.id,
            ruleset=ruleset,
            players=players,
            options=room.options,
            seed=seed,
            seed_hash=game.seed_hash,
            version=0,
            state=state,
            to_act_at=[list(game.to_act)],
            movers=[],
            seats={s.seat: {"player_id": s.player_id, "bot": s.bot} for s in seats},
            undo_mode=room.undo or "off",
            private=bool(room.private),
            invite_code=room.invite_code,
        )
        live.states[0] = state
        self._created[game.id] = live
        while len(self._created) > 256:  # a start whose transaction failed is never adopted
            self._created.popitem(last=False)
        return game

    def adopt(self, game_id: str) -> None:
        """A game made by `create` has committed: its copy becomes the live one (unless its seats
        changed meanwhile or a copy is loaded already; then the database's is the one)."""
        live = self._created.pop(game_id, None)
        if live is None or game_id in self._live:
            return
        live.checked_at = time.monotonic()
        self._live[game_id] = live
        self._weigh(live)

    # -- moves -------------------------------------------------------------------------------

    async def submit(
        self,
        game_id: str,
        seat: int,
        sent_version: Any,
        move: Any,
        client_id: str | None = None,
        *,
        player_id: str | None = None,
        on_stored: Callable[[int], None] | None = None,
    ) -> int:
        """Check and store one move; return the version it produced. Raises GameError/ServiceError.

        With `player_id`, the move is refused (403) unless that player still holds `seat`: a
        socket opened before its player left must not keep playing the seat a bot took over.
        `on_stored(version)` runs once the move is known stored (right after its commit, before
        the copy advances and the listeners run; for a retried id, before returning): a socket
        acks there, so nothing after the commit delays the ack.
        """
        start = time.perf_counter()
        try:
            version = await self._submit(game_id, seat, sent_version, move, client_id, player_id, on_stored)
        except GameError as exc:
            MOVE_REFUSED.inc(code=exc.code.value)
            log.debug(
                "move refused: %s",
                exc.code.value,
                extra={"game_id": game_id, "seat": seat, "code": exc.code.value, "version": exc.version},
            )
            raise
        MOVES.inc()
        MOVE_SECONDS.observe(time.perf_counter() - start)
        if log.isEnabledFor(logging.DEBUG):  # not even the record's fields, on every move, unless asked
            log.debug("move stored", extra={"game_id": game_id, "version": version, "seat": seat})
        return version

    async def take_back(
        self,
        game_id: str,
        seat: int,
        sent_version: Any,
        count: Any,
        client_id: str | None = None,
        *,
        player_id: str | None = None,
        on_stored: Callable[[int], None] | None = None,
    ) -> int:
        """Take back the last `count` moves of `seat` (made at `sent_version`, which must be the
        current version): a new row `{"undo": count}` and a new version whose state is the one
        before those moves. Refused with a sentence (GameError) when the table does not allow
        it, another seat acted since, or a move to take back showed the seat something hidden."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ServiceError(
                Refusal.INVALID, "Say how many of your moves to take back, as a whole number of at least 1."
            )
        if isinstance(sent_version, bool) or not isinstance(sent_version, int):
            raise ServiceError(
                Refusal.INVALID, "The take-back must name the version it was made at, as an integer."
            )

        def decide(live: LiveGame) -> tuple[int | None, State | None, Any]:
            self._check_holder(live, seat, player_id)
            return undo_rules.check(live, seat, sent_version, count, client_id)

        live = await self.live(game_id)
        # The re-deals off the loop first; the check under the game's lock then finds them
        # remembered for this version (or, if the game moved on meanwhile, refuses or redoes).
        await undo_rules.allowance_off_loop(live, seat)

        version = await self._submit(
            game_id, seat, sent_version, count, client_id, player_id, on_stored, decide=decide
        )
        log.info("moves taken back", extra={"game_id": game_id, "version": version, "seat": seat})
        return version

    async def undo_allowance(self, live: LiveGame, seat: int | None) -> int | None:
        """How many moves `seat` may take back now (None when the table does not allow it)."""
        if live.undo_mode not in ("misclick", "turn"):
            return None
        return await undo_rules.allowance_off_loop(live, seat)

    async def _submit(
        self,
        game_id: str,
        seat: int,
        sent_version: Any,
        move: Any,
        client_id: str | None,
        player_id: str | None,
        on_stored: Callable[[int], None] | None = None,
        decide: Callable[[LiveGame], tuple[int | None, State | None, Any]] | None = None,
    ) -> int:
        if isinstance(sent_version, bool) or not isinstance(sent_version, int):
            raise ServiceError(
                Refusal.INVALID, "The move must name the version it was made at, as an integer."
            )
        check = (
            decide
            if decide is not None
            else (lambda live: self._check(live, seat, sent_version, move, client_id, player_id))
        )
        live = await self.live(game_id)
        if live.abandoned:
            raise GameError(ErrorCode.GAME_OVER, ABANDONED_DETAIL)
        for attempt in range(3):
            async with live.lock:
                async with LazySession(self.sessions) as session:
                    fresh = bool(attempt)
                    if fresh:
                        await self._catch_up(session, live, seats=True)
                        if live.abandoned:
                            raise GameError(ErrorCode.GAME_OVER, ABANDONED_DETAIL)
                    try:
                        known, new_state, stored = check(live)
                    except (GameError, ServiceError):
                        if fresh:
                            raise
                        # This copy may be behind the database (another instance moved the game
                        # on, or the seat changed hands there): never refuse on stale knowledge.
                        await self._catch_up(session, live, seats=True)
                        known, new_state, stored = check(live)
                    if known is not None:
                        if on_stored is not None:
                            on_stored(known)
                        return known
                    assert new_state is not None  # a move not seen before has its new state
                    version = live.version + 1
                    to_act = live.ruleset.to_act(new_state)  # once: stored, and kept in the copy
                    if await self._store(
                        live, seat, stored, client_id, new_state, version, player_id, to_act
                    ):
                        if on_stored is not None:
                            on_stored(version)
                        live.advance(seat, stored, new_state, client_id, to_act)
                        if game_id in self._live and version % REWEIGH_EVERY == 0:
                            self._weigh(live)  # an estimate: serialising the state every move costs more
                        break
            # Another instance stored a move first: catch up and check this one again.
        else:
            raise GameError(
                ErrorCode.STALE_VERSION,
                "The game moved on while this move was being stored; try again.",
                version=live.version,
            )
        for listener in self.listeners:
            await listener(game_id, version)
        return version

    @staticmethod
    def _check(
        live: LiveGame, seat: int, sent_version: int, move: Any, client_id: str | None, player_id: str | None
    ) -> tuple[int | None, State | None, Any]:
        """(version of an earlier identical move, None, move) for a retry, else (None, the new
        state, the move as the ruleset lists it: the one to store)."""
        GameService._check_holder(live, seat, player_id)
        if client_id is not None:
            earlier = live.earlier(seat, client_id, move)
            if earlier is not None:
                return earlier, None, move
        with live.memo:  # what the listing of the legal moves left for `apply` (app/engine/memo.py)
            new_state, canonical = play_canonical(
                live.ruleset,
                live.state,
                seat,
                move,
                sent_version=sent_version,
                current_version=live.version,
                history=live.history(sent_version),
            )
        return None, new_state, canonical

    @staticmethod
    def _check_holder(live: LiveGame, seat: int, player_id: str | None) -> None:
        """403 unless `player_id` (when given) still holds `seat`; 409 while a bot holds it."""
        if player_id is not None and live.seats.get(seat, {}).get("player_id") != player_id:
            raise ServiceError(Refusal.SEAT_NOT_YOURS, f"You no longer hold seat {seat} in this game.")
        if player_id is not None and live.seats.get(seat, {}).get("bot"):
            # A held seat: its bot plays, never its player at the same time (take it back first).
            raise ServiceError(
                Refusal.SEAT_BOT_PLAYING,
                f"A bot is playing seat {seat} for you (your time ran out or "
                "you were away); take the seat back first (reopen the game, "
                "or POST /api/games/{id}/reclaim).",
            )

    async def _store(
        self,
        live: LiveGame,
        seat: int,
        move: Move,
        client_id: str | None,
        state: State,
        version: int,
        holder: str | None = None,
        to_act: list[int] | None = None,
    ) -> bool:
        """Append the move in one transaction; False if another writer got this version first
        (or, with `holder`, if that player no longer holds the seat)."""
        outcome = live.ruleset.outcome(state)
        return await self.store.append(
            MoveRecord(
                game_id=live.id,
                room_id=live.room_id,
                seat=seat,
                move=move,
                client_id=client_id,
                version=version,
                to_act=live.ruleset.to_act(state) if to_act is None else to_act,
                outcome=outcome.to_json() if outcome else None,
                # A take-back's row always keeps its state: a copy loaded from a later snapshot
                # never holds the states before the moves it takes back (see _next_state).
                snapshot=state if version % self.snapshot_every == 0 or undo_count(move) else None,
                ruleset_version=live.ruleset.version,
                holder=holder,
            )
        )

    # -- reading -----------------------------------------------------------------------------

    async def log(self, game_id: str, viewer: int | None) -> dict[str, Any]:
        """The moves as `viewer` may see them; every move and the seed once the game is over."""
        live = await self.live(game_id, fresh=True)
        finished = live.finished
        async with live.log.lock:
            async with self.sessions() as session:
                rows = (
                    await session.execute(
                        select(
                            MoveRow.seq,
                            MoveRow.seat,
                            MoveRow.move,
                            MoveRow.created_at,
                            MoveRow.actor_player,
                            MoveRow.actor_bot,
                        )
                        .where(
                            MoveRow.game_id == game_id,
                            MoveRow.seq > live.log.count,
                            MoveRow.seq <= live.version,
                        )
                        .order_by(MoveRow.seq)
                    )
                ).all()
                current = await seat_names(session, live.room_id)
                seats = await history.seating(session, game_id)
                names = await history.player_names(
                    session,
                    seats.player_ids() | {p for p, _ in live.log.holders} | {r.actor_player for r in rows},
                )
            # Each move is redacted for every viewer once, stepping one shared replay state,
            # so a log request costs only the moves made since the last one.
            live.log.extend(live, rows)
        own = live.log.entries.get(viewer, live.log.entries[None])
        if finished:
            # After the end every move shows as made; the sentence stays the viewer's own.
            entries = [
                dict(e, move=m, text=o.get("text", e.get("text")))
                for e, m, o in zip(live.log.entries[None], live.log.moves, own)
            ]
        else:
            entries = [e for e in own if e["move"] is not None]
        entries = [history_entry(e, live.log.holders[e["seq"] - 1], seats, names, current) for e in entries]
        body: dict[str, Any] = {
            "game_id": game_id,
            "version": live.version,
            "ruleset": live.ruleset.id,
            "seed_hash": live.seed_hash,
            "moves": entries,
            "events": [e for e in history.event_entries(seats, names) if e["version"] <= live.version],
        }
        if finished:
            body.update(
                seed=str(live.seed),
                players=live.players,
                options=live.options,
                ruleset_version=live.ruleset.version,
            )
        return body

    async def games_with_bots(self) -> list[str]:
        """Active games that have a bot seat."""
        async with self.sessions() as session:
            return list(
                (
                    await session.execute(
                        select(Game.id)
                        .join(Seat, Seat.room_id == Game.room_id)
                        .where(Game.status == "active", Seat.bot.is_not(None))
                        .distinct()
                    )
                ).scalars()
            )

    async def games_waiting_on_bots(self, owner: str) -> list[str]:
        """Active games where a bot seat is asked to act and no other instance holds a live bot
        lease: nobody is playing those seats (see BotRunner's watchdog)."""
        now = _now_ms()
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(Game.id, Game.to_act, Seat.seat)
                    .join(Seat, Seat.room_id == Game.room_id)
                    .where(
                        Game.status == "active",
                        Seat.bot.is_not(None),
                        or_(Game.bot_owner.is_(None), Game.bot_owner == owner, Game.bot_lease_until < now),
                    )
                )
            ).all()
        return sorted({row.id for row in rows if row.seat in (row.to_act or [])})

    async def lease_bots(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease to drive a game's bot seats; False while another instance
        holds a lease that has not run out."""
        now = _now_ms()
        table = cast(Table, Game.__table__)
        statement = (
            update(table)
            .where(
                table.c.id == game_id,
                or_(
                    table.c.bot_owner.is_(None),
                    table.c.bot_owner == owner,
                    table.c.bot_lease_until < now,
                ),
            )
            .values(bot_owner=owner, bot_lease_until=now + int(seconds * 1000))
        )
        return await self._write_one(statement)

    async def release_bots(self, game_ids: list[str], owner: str) -> None:
        """Give up this instance's bot leases so another instance may drive at once."""
        if not game_ids:
            return
        table = cast(Table, Game.__table__)
        await self._write_one(
            update(table)
            .where(table.c.id.in_(game_ids), table.c.bot_owner == owner)
            .values(bot_owner=None, bot_lease_until=None),
            exact=False,
        )

    async def _write_one(self, statement: Any, exact: bool = True) -> bool:
        """Run one write in its own transaction, through the move store (on SQLite, its writer
        thread: the write never makes moves wait on SQLite's lock); True if it changed exactly
        one row."""
        return await self.store.execute(statement) == 1 or not exact


def history_entry(
    entry: dict[str, Any],
    holder: tuple[str | None, str | None],
    seats: history.Seating,
    names: dict[str, str],
    current: dict[int, str],
) -> dict[str, Any]:
    """A log entry named as it happened: the mover by who held the seat for that move (the
    player, or the bot holding their seat), other seats by their holders just before it. A game
    stored before 0009_history recorded nobody: its seats are named by their holders now."""
    mover = history.Holder(*holder)
    if mover.player_id is None and mover.bot is None:
        labels, who = current, None
    else:
        before = seats.at(entry["seq"] - 1)
        labels = {seat: history.label(seat, h, names) for seat, h in before.items()}
        labels = {**current, **labels, entry["seat"]: history.label(entry["seat"], mover, names)}
        who = history.actor(mover, names)
    entry = dict(entry, actor=who)
    if entry.get("text"):
        entry["text"] = fill_names(entry["text"], labels)
    return entry


ABANDONED_DETAIL = "This game was abandoned after a long idle period; it stays readable but takes no moves."


def _now_ms() -> int:
    """Wall-clock milliseconds: leases are compared across instances, so not a monotonic clock."""
    return int(time.time() * 1000)
