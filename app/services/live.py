"""An instance's in-memory copy of a game: state, recent states, who acts, idempotency ids, and
the move log as each viewer may see it; plus the wire contract's game document."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from app.engine.memo import Memo
from app.engine.ruleset import Move, Ruleset, State
from app.engine.runner import History, parse_options
from app.engine.takeback import Line, LineTooShort, undo_count
from app.services.errors import Refusal, ServiceError

RECENT_STATES = 8
_PLACEHOLDER = re.compile(r"\{seat(\d+)\}")


@dataclass
class LiveGame:
    """An instance's in-memory copy of one game, always equal to some committed version."""

    id: str
    room_id: str
    ruleset: Ruleset
    players: int
    options: dict[str, Any]
    seed: int
    seed_hash: str
    version: int
    state: State
    to_act_at: list[list[int]]  # to_act at every version 0..version
    movers: list[int]  # movers[v] made the move from version v to v + 1
    seats: dict[int, dict[str, Any]] = field(default_factory=dict)  # seat -> {player_id, bot}
    abandoned: bool = False  # ended by cleanup after a long idle period: readable, no more moves
    client_ids: dict[tuple[int, str], tuple[Move, int]] = field(default_factory=dict)
    states: OrderedDict[int, State] = field(default_factory=OrderedDict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    log: "PublicLog" = field(default_factory=lambda: PublicLog())
    checked_at: float = 0.0  # time.monotonic() of the last catch-up with the database
    memo: Memo = field(default_factory=Memo)  # its views' parts, shared from version to version
    # The room's privacy and invite code (both fixed when the room is made): a private game is
    # visible only to its seated players and to whoever presents the code.
    private: bool = False
    invite_code: str = ""
    # Taking moves back (the room's `undo` option: off, misclick or turn) and the current run of
    # one seat's moves with the states before them (engine.takeback); `takeable` caches, for one
    # (version, seat), how many of them that seat may take back.
    undo_mode: str = "off"
    line: Line = field(default_factory=Line)
    takeable: tuple[int, int, int] | None = None
    undone_at: int = -1  # the version the last take-back made

    @property
    def finished(self) -> bool:
        """True once the rules say the game is over."""
        return self.ruleset.outcome(self.state) is not None

    def advance(
        self,
        seat: int,
        move: Move,
        state: State,
        client_id: str | None = None,
        to_act: list[int] | None = None,
    ) -> None:
        """Record that `seat` played `move`, reaching `state` at the next version (`to_act`:
        the new state's, if the caller has it already). A take-back row pops the run's moves."""
        count = undo_count(move)
        if count is None:
            self.line.played(seat, self.state, move)
        else:
            try:
                self.line.took_back(seat, count)
            except LineTooShort:  # `state` came from the row's snapshot: no run before it known
                self.line.reset()
            self.undone_at = self.version + 1
        self.version += 1
        if client_id is not None:
            self.client_ids[(seat, client_id)] = (move, self.version)
        self.state = state
        self.movers.append(seat)
        self.to_act_at.append(self.ruleset.to_act(state) if to_act is None else to_act)
        self.states[self.version] = state
        while len(self.states) > RECENT_STATES:
            self.states.popitem(last=False)

    def next_state(self, seat: int, move: Move) -> State:
        """The state after a stored row at the current version: the move applied, or for a
        take-back the state it returns to (LineTooShort when this copy does not hold it)."""
        count = undo_count(move)
        if count is not None:
            return self.line.target(seat, count)
        return self.ruleset.apply(self.state, seat, move)

    def earlier(self, seat: int, client_id: str, move: Any) -> int | None:
        """The version a repeated client move id produced (idempotent retries); 409 on reuse."""
        known = self.client_ids.get((seat, client_id))
        if known is None:
            return None
        if known[0] != move:
            raise ServiceError(Refusal.MOVE_ID_REUSED, "That move id was already used for a different move.")
        return known[1]

    def state_at(self, version: int) -> State | None:
        """The state at a recent version, if this instance still holds it."""
        return self.states.get(version)

    def visible_to(self, player_id: str | None, invite_code: str | None = None) -> bool:
        """Whether a viewer may see this game: anyone for a public room; for a private one, a
        player seated in it, or whoever presents the room's invite code."""
        if not self.private or (player_id is not None and self.seat_of(player_id) is not None):
            return True
        return bool(invite_code) and secrets.compare_digest(str(invite_code), self.invite_code)

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat a player holds in this game, if any."""
        for seat, holder in self.seats.items():
            if player_id is not None and holder.get("player_id") == player_id:
                return seat
        return None

    def legal_moves(self, seat: int) -> list[Move]:
        """The seat's legal moves now, listed inside the game's memo: the move that follows is
        checked against this very listing instead of a second one."""
        with self.memo:
            return self.ruleset.legal_moves(self.state, seat)

    def bot_seats(self) -> list[int]:
        """Seats the server plays."""
        return [seat for seat, holder in self.seats.items() if holder.get("bot")]

    def history(self, sent: int) -> History | None:
        """What the stale-version rule needs for a move sent at version `sent`."""
        if not 0 <= sent <= self.version:
            return None
        return History(sent, self.to_act_at[sent:], self.movers[sent:])


@dataclass
class PublicLog:
    """The move log as each viewer may see it, built once per move (see GameService.log)."""

    count: int = 0
    state: State | None = None
    moves: list[Move] = field(default_factory=list)
    holders: list[tuple[str | None, str | None]] = field(default_factory=list)  # (player, bot) per move
    entries: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    line: Line = field(default_factory=Line)  # the states take-back rows return to

    def extend(self, live: LiveGame, rows: Any) -> None:
        """Redact each new move for every seat and the spectators."""
        ruleset = live.ruleset
        if self.state is None:
            self.state = ruleset.setup(live.players, parse_options(ruleset, live.options), live.seed)
            self.entries = {viewer: [] for viewer in [*range(live.players), None]}
        for row in rows:
            if row.seq != self.count + 1:
                break
            count = undo_count(row.move)
            if count is not None:
                self._took_back(row, count)
                continue
            for viewer, entries in self.entries.items():
                shown = public_move(ruleset, self.state, row.seat, row.move, viewer)
                entry = {"seq": row.seq, "seat": row.seat, "move": shown, "time": row.created_at.isoformat()}
                if shown is not None:
                    entry["text"] = log_sentence(ruleset, self.state, row.seat, row.move, viewer)
                entries.append(entry)
            self.moves.append(row.move)
            self.holders.append((row.actor_player, row.actor_bot))
            self.state = self.line.step(ruleset, self.state, row.seat, row.move, tag=row.seq)
            self.count = row.seq

    def _took_back(self, row: Any, count: int) -> None:
        """A take-back row: one sentence for everyone, naming the moves' sequence numbers (the
        rows themselves stay in the log)."""
        taken = self.line.tags(count)
        self.state = self.line.took_back(row.seat, count)
        text = f"{{seat{row.seat}}} took back {count} move{'s' if count > 1 else ''}."
        for entries in self.entries.values():
            entries.append(
                {
                    "seq": row.seq,
                    "seat": row.seat,
                    "move": dict(row.move),
                    "time": row.created_at.isoformat(),
                    "text": text,
                    "takes_back": taken,
                }
            )
        self.moves.append(row.move)
        self.holders.append((row.actor_player, row.actor_bot))
        self.count = row.seq


def public_move(ruleset: Ruleset, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
    """The move as `viewer` may see it in the log: the ruleset's optional `public_move` hook
    (engine.ruleset.RulesetHooks), or the move itself."""
    hook = getattr(ruleset, "public_move", None)
    return move if hook is None else hook(state, seat, move, viewer)


def log_sentence(ruleset: Any, state: State, seat: int, move: Move, viewer: int | None) -> str:
    """The ruleset's log sentence with `{seatN}` placeholders; a sentence naming nobody (the
    default hook's plain label) is prefixed with the mover, and a hook that fails on an odd move
    falls back to the plain label instead of breaking the log."""
    text = None
    hook = getattr(ruleset, "log_text", None)
    if hook is not None:
        try:
            text = str(hook(state, seat, move, viewer))
        except Exception:  # noqa: BLE001 - a wording bug must never take the log down
            text = None
    if text is None:
        shown = public_move(ruleset, state, seat, move, viewer) or {}
        describe = getattr(ruleset, "describe_move", None)
        text = describe(shown) if describe is not None else ", ".join(f"{k}={v}" for k, v in shown.items())
    return text if "{seat" in text else f"{{seat{seat}}}: {text}"


def fill_names(text: str, names: dict[int, str]) -> str:
    """Replace `{seatN}` placeholders with display names (unknown seats: 'Seat N+1')."""
    return _PLACEHOLDER.sub(lambda m: names.get(int(m.group(1)), f"Seat {int(m.group(1)) + 1}"), text)


def game_document(
    live: LiveGame, state: State, version: int, seat: int | None, memo: Memo | None = None
) -> dict[str, Any]:
    """The wire contract's game document for a viewer at a version (`memo`: the view parts to
    share, by default the live game's; a replay brings its own, leaving the live one alone)."""
    outcome = live.ruleset.outcome(state)
    with live.memo if memo is None else memo:  # unchanged parts are the previous views' objects
        view = live.ruleset.view(state, seat)
    document = {
        "id": live.id,
        "room_id": live.room_id,
        "ruleset": live.ruleset.id,
        "version": version,
        "status": "finished" if outcome is not None else "active",
        "to_act": live.ruleset.to_act(state),
        "seat": seat,
        "seed_hash": live.seed_hash,
        "view": view,
        "outcome": outcome.to_json() if outcome is not None else None,
    }
    if live.abandoned and outcome is None:
        # Ended by cleanup, not by the rules: over, nobody is asked to act, no result; `ended`
        # (present only on games ended this way) says why.
        document.update(status="finished", to_act=[], ended=ABANDONED)
    return document


ABANDONED = {
    "reason": "abandoned",
    "detail": "Nobody moved for a long time, so the game ended unfinished, without a result.",
}
