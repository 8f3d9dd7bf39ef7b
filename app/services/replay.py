"""Replays: any version of a game rebuilt from the nearest state at hand (a recent one, one this
service rebuilt, or a stored snapshot) plus the moves after it, shown to a viewer by the rules'
own `view`; and an index of the game's turns, rounds and scoring moments.

Who may see what: during a game a seated player replays only from their own seat, a spectator
only the spectator's view, both up to the current version; once the rules say the game is over,
anyone who may see the game picks any seat, or "all" (every seat's view at once, the seed shown).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.models import MoveRow, Snapshot
from app.engine.memo import Memo
from app.engine.rng import seed_hash
from app.engine.ruleset import CannotUpgrade, Move, State
from app.engine.runner import parse_options
from app.engine.takeback import undo_count
from app.services.errors import Refusal, ServiceError
from app.services.live import LiveGame, game_document

KEPT_STATES = 32  # rebuilt states kept per game, the last used: a step back is a lookup
# Besides, states kept for as long as the game's replay data, spaced by what rebuilding costs:
# one wherever the moves applied since the last add up to this much of the loop's CPU time (the
# index's pass over the whole game places them), so that a jump anywhere re-applies at most
# about that much, whatever one move of the game costs (a City Council move costs five times a
# Tiny Towns one). At most MAX_CHECKPOINTS per game: when they are all taken, every other one is
# dropped and the spacing doubles, so a long game stays evenly covered.
CHECKPOINT_SECONDS = 0.002
MAX_CHECKPOINTS = 32
_clock = time.thread_time  # this thread's CPU time: what other processes on the machine do not change
KEPT_GAMES = 256  # games whose replay data this instance keeps
ALL = "all"  # the "everything revealed" viewpoint, after the end
# Phase names that mark a scoring moment (a round's end, income, the final count).
_SCORING_WORDS = ("scor", "income", "round_end", "final", "payday")


@dataclass
class _Replay:
    """One game's replay data on this instance: its moves, states rebuilt, and index marks."""

    moves: list[tuple[int, Move]] = field(default_factory=list)  # (seat, move) of moves 1..n
    states: OrderedDict[int, State] = field(default_factory=OrderedDict)
    checkpoints: dict[int, State] = field(default_factory=dict)  # spaced by cost (CHECKPOINT_SECONDS)
    spent: float = 0.0  # CPU seconds of moves applied since the last checkpoint, on the current pass
    spacing: float = 0.0  # the cost between checkpoints: CHECKPOINT_SECONDS, doubled as they thin out
    marks: list[dict[str, Any]] = field(default_factory=list)  # one per version 0..len-1
    tail: State | None = None  # the state at version len(marks) - 1, to extend the marks
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    memo: Memo = field(default_factory=Memo)  # view parts shared between replayed versions


def _step(replay: _Replay, ruleset: Any, state: State, at: int, seat: int, move: Move) -> State:
    """Apply the move into version `at`, keeping the state as a checkpoint once the moves since
    the last checkpoint cost the replay's spacing."""
    start = _clock()
    state = ruleset.apply(state, seat, move)
    replay.spent += _clock() - start
    if replay.spent >= replay.spacing:
        _checkpoint(replay, at, state)
        replay.spent = 0.0
    return state


def _checkpoint(replay: _Replay, at: int, state: State) -> None:
    """Keep `state` as the checkpoint of version `at`, thinning them out when all are taken."""
    if len(replay.checkpoints) >= MAX_CHECKPOINTS:
        for dropped in sorted(replay.checkpoints)[1::2]:
            del replay.checkpoints[dropped]
        replay.spacing *= 2
    replay.checkpoints[at] = state


def _mark(state: State, version: int, seat: int | None) -> dict[str, Any]:
    """What the index keeps of a version: the seat that moved into it, its round and phase."""
    get = state.get if isinstance(state, dict) else (lambda key, default=None: default)
    round_ = get("round", get("turn"))
    phase = get("phase")
    return {
        "version": version,
        "seat": seat,
        "round": round_ if isinstance(round_, int) and not isinstance(round_, bool) else None,
        "phase": phase if isinstance(phase, str) else None,
    }


def index_of(marks: list[dict[str, Any]], finished: bool) -> dict[str, Any]:
    """Turns (a new seat moves), rounds (the round number changes) and scoring moments (a phase
    that scores begins, and the end) from the marks of versions 0..n."""
    turns: list[dict[str, Any]] = []
    rounds: list[dict[str, Any]] = [{"version": 0, "round": marks[0]["round"]}] if marks else []
    scoring: list[dict[str, Any]] = []
    for previous, mark in zip(marks, marks[1:]):
        if previous["version"] == 0 or mark["seat"] != previous["seat"]:
            turns.append({"version": mark["version"], "seat": mark["seat"]})
        if mark["round"] != previous["round"] and mark["round"] is not None:
            rounds.append({"version": mark["version"], "round": mark["round"]})
        phase = mark["phase"] or ""
        if phase != previous["phase"] and any(w in phase for w in _SCORING_WORDS):
            scoring.append({"version": mark["version"], "phase": phase})
    if finished and marks:
        scoring.append({"version": marks[-1]["version"], "phase": "end"})
    return {"turns": turns, "rounds": rounds, "scoring": scoring, "movers": [m["seat"] for m in marks[1:]]}


class Replays:
    """Rebuilds versions of games and answers the replay API (see the module docstring)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], snapshot_every: int = 20) -> None:
        self.sessions = sessions
        self.snapshot_every = snapshot_every
        self._games: OrderedDict[str, _Replay] = OrderedDict()

    def _replay(self, game_id: str) -> _Replay:
        replay = self._games.get(game_id)
        if replay is None:
            replay = self._games[game_id] = _Replay(spacing=CHECKPOINT_SECONDS)
            while len(self._games) > KEPT_GAMES:
                self._games.popitem(last=False)
        self._games.move_to_end(game_id)
        return replay

    async def _moves(self, session: AsyncSession, live: LiveGame, replay: _Replay, upto: int) -> None:
        """Load the game's moves up to `upto` that this replay does not hold yet (all of them to
        the game's version: one query, not one per jump)."""
        if len(replay.moves) >= upto:
            return
        rows = (
            await session.execute(
                select(MoveRow.seq, MoveRow.seat, MoveRow.move)
                .where(
                    MoveRow.game_id == live.id,
                    MoveRow.seq > len(replay.moves),
                    MoveRow.seq <= max(upto, live.version),
                )
                .order_by(MoveRow.seq)
            )
        ).all()
        for row in rows:
            if row.seq != len(replay.moves) + 1:
                break
            replay.moves.append((row.seat, row.move))

    async def _snapshot(
        self, session: AsyncSession, live: LiveGame, version: int
    ) -> tuple[int, State] | None:
        """The newest stored snapshot at or before `version` in (or carried to) these rules."""
        ruleset = live.ruleset
        mine = Snapshot.ruleset_version == ruleset.version
        snap = (
            await session.execute(
                select(Snapshot)
                .where(
                    Snapshot.game_id == live.id,
                    Snapshot.version <= version,
                    or_(mine, Snapshot.ruleset_version.is_(None)),
                )
                .order_by(Snapshot.version.desc())
                .limit(1)
            )
        ).scalar_one_or_none()
        if snap is None:
            return None
        if snap.ruleset_version not in (None, ruleset.version):
            try:
                # An optional hook (not in the Ruleset protocol): without it, AttributeError.
                upgrade = getattr(ruleset, "upgrade_state")  # noqa: B009 - see above
                return snap.version, upgrade(snap.state, snap.ruleset_version)
            except (CannotUpgrade, AttributeError):
                return None
        return snap.version, snap.state

    async def _taken_back(
        self, session: AsyncSession, live: LiveGame, replay: _Replay, first: int, last: int
    ) -> dict[int, State]:
        """The states of the take-back rows among versions first..last (engine.takeback): each
        is stored as a snapshot with its row, the state before the moves it took back."""
        states: dict[int, State] = {}
        for at in range(max(first, 1), min(last, len(replay.moves)) + 1):
            if undo_count(replay.moves[at - 1][1]) is None:
                continue
            snap = await self._snapshot(session, live, at)
            if snap is None or snap[0] != at:
                raise ServiceError(
                    Refusal.REPLAY_UNAVAILABLE,
                    f"The state after the take-back at version {at} is not "
                    "stored; this part of the game cannot be replayed.",
                )
            states[at] = snap[1]
        return states

    async def state_at(self, live: LiveGame, version: int) -> State:
        """The game's state at `version` (0..live.version)."""
        if version == live.version:
            return live.state
        recent = live.state_at(version)
        if recent is not None:
            return recent
        replay = self._replay(live.id)
        async with replay.lock:
            kept = replay.states.get(version)
            if kept is not None:
                replay.states.move_to_end(version)
                return kept
            base, state = max(
                (
                    (v, s)
                    for kept in (replay.states, replay.checkpoints)
                    for v, s in kept.items()
                    if v <= version
                ),
                default=(0, None),
                key=lambda pair: pair[0],
            )
            async with self.sessions() as session:
                if version - base > self.snapshot_every or state is None:
                    snap = await self._snapshot(session, live, version)
                    if snap is not None and (state is None or snap[0] > base):
                        base, state = snap
                        _checkpoint(replay, base, state)  # not read from the database again
                await self._moves(session, live, replay, version)
                taken_back = await self._taken_back(session, live, replay, base + 1, version)
            if state is None:
                base, state = 0, self._setup(live)
            if len(replay.moves) < version:
                raise ServiceError(
                    Refusal.REPLAY_UNAVAILABLE, "This version's moves are not stored yet; try again."
                )
            # Every state on the way is kept: a step back is then a lookup, not a rebuild.
            replay.spent = 0.0
            for at, (seat, move) in enumerate(replay.moves[base:version], start=base + 1):
                if at in taken_back:
                    state = taken_back[at]
                else:
                    state = _step(replay, live.ruleset, state, at, seat, move)
                replay.states[at] = state
                replay.states.move_to_end(at)
            while len(replay.states) > KEPT_STATES:
                replay.states.popitem(last=False)
            return state

    @staticmethod
    def _setup(live: LiveGame) -> State:
        ruleset = live.ruleset
        return ruleset.setup(live.players, parse_options(ruleset, live.options), live.seed)

    async def index(self, live: LiveGame, upto: int) -> dict[str, Any]:
        """The index of versions 0..upto: turns, rounds, scoring moments and every mover."""
        replay = self._replay(live.id)
        async with replay.lock:
            if len(replay.marks) <= upto:
                async with self.sessions() as session:
                    await self._moves(session, live, replay, upto)
                    taken_back = await self._taken_back(session, live, replay, len(replay.marks), upto)
                if not replay.marks:
                    replay.tail = self._setup(live)
                    replay.marks.append(_mark(replay.tail, 0, None))
                state = replay.tail
                assert state is not None  # set with the first mark
                replay.spent = 0.0
                for version in range(len(replay.marks), min(upto, len(replay.moves)) + 1):
                    seat, move = replay.moves[version - 1]
                    if version in taken_back:
                        state = taken_back[version]
                    else:
                        state = _step(replay, live.ruleset, state, version, seat, move)
                    replay.marks.append(_mark(state, version, seat))
                replay.tail = state
            return index_of(replay.marks[: upto + 1], live.finished and upto == live.version)

    def document(self, live: LiveGame, state: State, version: int, seat: int | str | None) -> dict[str, Any]:
        """The game document at `version` as `seat` sees it, with the replay's own fields."""
        return replay_document(live, state, version, seat, self._replay(live.id).memo)

    def forget(self, game_id: str) -> None:
        """Drop a game's replay data (tests; a game whose moves were rewritten never is)."""
        self._games.pop(game_id, None)


def viewpoint(live: LiveGame, own: int | None, wanted: str | None) -> int | str | None:
    """The seat (None: a spectator; "all": everything revealed) a caller may replay from, or a
    403 saying why not. `own` is the caller's seat, `wanted` the `seat` asked for."""
    if wanted in (None, ""):
        return own
    if wanted == ALL:
        if not live.finished:
            raise ServiceError(Refusal.REPLAY_HIDDEN, "Everything is revealed only once the game is over.")
        return ALL
    if wanted == "spectator":
        return None
    try:
        seat = int(wanted)
    except ValueError:
        raise ServiceError(Refusal.INVALID, "The seat must be a seat number, 'spectator' or 'all'.") from None
    if not 0 <= seat < live.players:
        raise ServiceError(Refusal.INVALID, f"This game has seats 0 to {live.players - 1}.")
    if seat != own and not live.finished:
        raise ServiceError(
            Refusal.REPLAY_HIDDEN,
            "During a game you may replay only from your own seat; other seats open once the game is over.",
        )
    return seat


def replay_document(
    live: LiveGame, state: State, version: int, seat: int | str | None, memo: Memo
) -> dict[str, Any]:
    """The game document at `version` as `seat` sees it, with the replay's own fields."""
    shown = seat if isinstance(seat, int) else None  # "all" draws the spectator's view first
    document = game_document(live, state, version, shown, memo)
    if version < live.version and "ended" in document:
        # An abandoned game was still going at this version.
        document.update(status="active", to_act=live.ruleset.to_act(state))
        del document["ended"]
    document["replay"] = {"version": version, "last": live.version, "seat": seat, "finished": live.finished}
    if seat == ALL:
        with memo:
            document["views"] = {str(s): live.ruleset.view(state, s) for s in range(live.players)}
        document["seat"] = None
    if live.finished:  # the seed is public once the game is over: anyone can check its hash
        document["replay"].update(seed=str(live.seed), seed_ok=seed_hash(live.seed) == live.seed_hash)
    return document
