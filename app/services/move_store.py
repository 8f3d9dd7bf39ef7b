"""Writing one move: its transaction's statements, and SQLite's single-writer thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import bindparam, create_engine, event, exists, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from app.config import sync_url
from app.db.models import Game, MoveRow, Room, Seat, Snapshot, utcnow
from app.db.session import sqlite_pragmas
from app.engine.ruleset import Move, State
from app.services.live import LiveGame

_GAMES, _MOVES, _SNAPSHOTS = Game.__table__, MoveRow.__table__, Snapshot.__table__
# The optimistic-concurrency guard: only the writer that saw version `old` may make it `new`.
_FINISH_ROOM = update(Room.__table__).where(Room.__table__.c.id == bindparam("room")).values(
    status="finished")
_BUMP_VERSION = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game"), _GAMES.c.version == bindparam("old"))
    .values(version=bindparam("new"), to_act=bindparam("now_to_act"),
            status=bindparam("new_status"), outcome=bindparam("new_outcome"))
)

_SEATS = Seat.__table__
# The same guard for a player's move, which also needs the player to still hold the seat: the
# database, not an instance's copy of the seats, decides whether a player who left may move.
_BUMP_VERSION_HELD = _BUMP_VERSION.where(exists().where(
    _SEATS.c.room_id == bindparam("room"), _SEATS.c.seat == bindparam("seat_no"),
    _SEATS.c.player_id == bindparam("holder")))


def move_statements(live: LiveGame, seat: int, move: Move, client_id: str | None, state: State,
                     version: int, outcome: Any, snapshot_every: int, holder: str | None = None
                     ) -> list[tuple[Any, dict[str, Any]]]:
    """The statements of one move's transaction, the version guard first. Plain Core statements:
    the ORM's bulk-update and unit-of-work machinery cost more than the statements here. With
    `holder`, the guard also requires that player to hold the seat."""
    to_act = live.ruleset.to_act(state)
    bump = {"game": live.id, "old": version - 1, "new": version, "now_to_act": to_act,
            "new_status": "finished" if outcome else "active",
            "new_outcome": outcome.to_json() if outcome else None}
    if holder is not None:
        bump.update(room=live.room_id, seat_no=seat, holder=holder)
    statements: list[tuple[Any, dict[str, Any]]] = [
        (_BUMP_VERSION if holder is None else _BUMP_VERSION_HELD, bump),
        (_MOVES.insert(), {"game_id": live.id, "seq": version, "seat": seat, "move": move,
                           "client_move_id": client_id, "to_act": to_act, "created_at": utcnow()}),
    ]
    if version % snapshot_every == 0:
        statements.append((_SNAPSHOTS.insert(), {"game_id": live.id, "version": version,
                                                 "state": state}))
    if outcome is not None:
        statements.append((_FINISH_ROOM, {"room": live.room_id}))
    return statements


class SqliteWriter:
    """SQLite's single writer: one sync connection on one thread, so a move's whole transaction
    is one hop off the event loop instead of one hop per statement (about twice the moves/s)."""

    def __init__(self, url: str) -> None:
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self.engine = create_engine(sync_url(url), poolclass=StaticPool,
                                    connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(self.engine, "connect", sqlite_pragmas)

    def write(self, statements: list[tuple[Any, dict[str, Any]]]) -> bool:
        """Run the statements in one transaction; False if the version guard matched no row."""
        try:
            with self.engine.begin() as conn:
                for i, (statement, params) in enumerate(statements):
                    if conn.execute(statement, params).rowcount != 1 and i == 0:
                        raise Conflict()
        except (Conflict, IntegrityError):
            return False
        return True

    def write_one(self, statement: Any) -> int:
        """Run one statement in its own transaction; the number of rows it changed."""
        with self.engine.begin() as conn:
            return conn.execute(statement).rowcount

    def close(self) -> None:
        """Release the connection and the thread."""
        self.engine.dispose()
        self.thread.shutdown(wait=False)


class Conflict(Exception):
    """Raised inside the move transaction to roll it back when the version guard fails."""
