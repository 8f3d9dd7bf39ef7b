"""The operator's tool: `python -m app.cli <command>` (see --help).

export       a game as JSON (room, seats, moves, snapshots; the seed only once it is over)
replay       rebuild a game from its move log and compare it with every stored snapshot
verify-seed  a finished game: its revealed seed matches seed_hash and reproduces its shuffles
snapshot     store every active game's current state as a snapshot (before a rules deploy)
backup       SQLite: online backup API; PostgreSQL: pg_dump (custom format)
restore      into an empty database: SQLite file copy via the backup API; pg_restore
ratings      `ratings rebuild`: fold every finished game into the ratings again from the move log;
             `ratings check`: say whether the stored ratings equal that fold (exit 1 if not)

The database is CIVITAS_DATABASE_URL (or --database). Exit status 0 when all is well, 1 when a
check found a difference, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, make_url, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app import rulesets as _product_rulesets  # noqa: F401  (registers the product's rulesets)
from app.config import get_settings, sync_url
from app.db.models import Game, MoveRow, Player, Room, Seat, Snapshot
from app.engine import registry
from app.engine.rng import seed_hash
from app.engine.runner import parse_options
from app.engine.takeback import Line
from app.services import ratings as rating_service


def _engine(url: str) -> Any:
    return create_engine(sync_url(url))


def _game(session: Session, game_id: str) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise SystemExit(f"No game {game_id!r} in this database.")
    return game


def _ruleset(game: Game) -> Any:
    ruleset = registry.get(game.ruleset)
    if ruleset is None:
        raise SystemExit(f"This server has no ruleset {game.ruleset!r}.")
    return ruleset


def export_game(url: str, game_id: str, with_seed: bool = False) -> dict[str, Any]:
    """The game's stored record as one JSON document."""
    with Session(_engine(url)) as session:
        game = _game(session, game_id)
        room = session.get(Room, game.room_id)
        seats = (
            session.execute(select(Seat).where(Seat.room_id == game.room_id).order_by(Seat.seat))
            .scalars()
            .all()
        )
        names = {
            p.id: p.name
            for p in session.execute(
                select(Player).where(Player.id.in_([s.player_id for s in seats if s.player_id]))
            ).scalars()
        }
        moves = (
            session.execute(select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.seq))
            .scalars()
            .all()
        )
        snaps = (
            session.execute(
                select(Snapshot.version).where(Snapshot.game_id == game_id).order_by(Snapshot.version)
            )
            .scalars()
            .all()
        )
        finished = game.status != "active"
        return {
            "id": game.id,
            "room_id": game.room_id,
            "ruleset": game.ruleset,
            "ruleset_version": game.ruleset_version,
            "options": game.options,
            "players": game.players,
            "status": game.status,
            "version": game.version,
            "outcome": game.outcome,
            "seed_hash": game.seed_hash,
            "seed": game.seed if finished or with_seed else None,
            "room": {"private": room.private, "host_id": room.host_id} if room else None,
            "seats": [
                {"seat": s.seat, "player": names.get(s.player_id) if s.player_id else None, "bot": s.bot}
                for s in seats
            ],
            "moves": [
                {
                    "seq": m.seq,
                    "seat": m.seat,
                    "move": m.move,
                    "id": m.client_move_id,
                    "time": m.created_at.isoformat(),
                }
                for m in moves
            ],
            "snapshots": list(snaps),
        }


def replay_game(url: str, game_id: str) -> list[str]:
    """Rebuild the game from setup and its moves; the differences from its stored snapshots,
    version and outcome (an empty list when everything matches)."""
    problems: list[str] = []
    with Session(_engine(url)) as session:
        game = _game(session, game_id)
        ruleset = _ruleset(game)
        if ruleset.version != game.ruleset_version:
            return [
                f"stored under rules version {game.ruleset_version}, this server has "
                f"{ruleset.version}: replay compares only under the same version"
            ]
        snaps = {
            s.version: s.state
            for s in session.execute(select(Snapshot).where(Snapshot.game_id == game_id)).scalars()
        }
        state = ruleset.setup(game.players, parse_options(ruleset, game.options), int(game.seed))
        moves = (
            session.execute(select(MoveRow).where(MoveRow.game_id == game_id).order_by(MoveRow.seq))
            .scalars()
            .all()
        )
        line = Line()  # take-back rows return to states kept here
        for row in moves:
            try:
                state = line.step(ruleset, state, row.seat, row.move)
            except Exception as exc:  # a different seed or rules: the log no longer replays
                problems.append(f"version {row.seq}: the stored move is refused on replay ({exc})")
                return problems
            if list(ruleset.to_act(state)) != list(row.to_act):
                problems.append(f"version {row.seq}: to_act {ruleset.to_act(state)} != stored {row.to_act}")
            stored = snaps.get(row.seq)
            if stored is not None and _json(stored) != _json(state):
                problems.append(f"version {row.seq}: the replayed state differs from its snapshot")
        if len(moves) != game.version:
            problems.append(f"{len(moves)} moves stored but the game is at version {game.version}")
        outcome = ruleset.outcome(state)
        if _json(outcome.to_json() if outcome else None) != _json(game.outcome):
            problems.append("the replayed outcome differs from the stored one")
    return problems


def verify_seed(url: str, game_id: str) -> list[str]:
    """A finished game's revealed seed hashes to its seed_hash and its replay matches."""
    with Session(_engine(url)) as session:
        game = _game(session, game_id)
        if game.status == "active":
            return ["the game is not over: its seed is not revealed yet"]
        problems = (
            []
            if seed_hash(int(game.seed)) == game.seed_hash
            else ["the seed does not hash to the seed_hash published at the start"]
        )
    return problems + replay_game(url, game_id)


def snapshot_all(url: str) -> int:
    """Store a snapshot of every active game at its current version; returns how many."""
    count = 0
    with Session(_engine(url)) as session:
        for game in session.execute(select(Game).where(Game.status == "active")).scalars():
            if session.get(Snapshot, (game.id, game.version)) is not None:
                continue
            ruleset = _ruleset(game)
            state = ruleset.setup(game.players, parse_options(ruleset, game.options), int(game.seed))
            line = Line()
            for row in session.execute(
                select(MoveRow).where(MoveRow.game_id == game.id).order_by(MoveRow.seq)
            ).scalars():
                state = line.step(ruleset, state, row.seat, row.move)
            session.add(
                Snapshot(
                    game_id=game.id, version=game.version, state=_json(state), ruleset_version=ruleset.version
                )
            )
            count += 1
        session.commit()
    return count


def backup(url: str, dest: Path) -> None:
    """A consistent copy of a live database."""
    url = sync_url(url)
    if not dest.parent.is_dir():
        raise SystemExit(f"There is no folder {dest.parent} to write the backup to.")
    if url.startswith("sqlite"):
        with sqlite3.connect(_sqlite_path(url)) as source, sqlite3.connect(dest) as target:
            source.backup(target)  # the online backup API: safe while the server writes
        return
    _run(["pg_dump", "--format=custom", "--no-owner", f"--file={dest}", _libpq(url)])


def restore(url: str, src: Path) -> None:
    """Load a backup into an empty database (refused, in a sentence, into one that has tables)."""
    url = sync_url(url)
    if not src.is_file():
        raise SystemExit(f"There is no backup file at {src}.")
    if url.startswith("sqlite"):
        path = Path(_sqlite_path(url))
        if path.exists() and path.stat().st_size > 0:
            raise SystemExit(f"{path} is not empty; restore only into an empty database.")
        with sqlite3.connect(src) as source, sqlite3.connect(path) as target:
            source.backup(target)
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = conn.execute(
                text("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'")
            ).scalar_one()
    finally:
        engine.dispose()
    if tables:
        raise SystemExit(
            f"The database {_hide_password(url)} is not empty ({tables} tables); "
            "restore only into an empty database (create one with createdb)."
        )
    _run(["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={_libpq(url)}", str(src)])


def _run(command: list[str]) -> None:
    """Run a PostgreSQL client tool; its failure is a sentence, not a traceback."""
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        raise SystemExit(
            f"{command[0]} is not installed here (Debian: apt-get install postgresql-client)."
        ) from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"{command[0]} failed (exit {done.returncode}): {last}")


def _hide_password(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _json(value: Any) -> Any:
    """The value as stored (JSON round trip: tuples become lists)."""
    return json.loads(json.dumps(value))


def _sqlite_path(url: str) -> str:
    return url.split(":///", 1)[1]


def _libpq(url: str) -> str:
    return "postgresql://" + url.split("://", 1)[1]


def ratings_command(url: str, action: str) -> int:
    """`ratings rebuild` (fold every finished game again, store it) or `ratings check`."""
    with Session(_engine(url)) as session:
        if action == "rebuild":
            print(f"{rating_service.rebuild(session)} games rated")
            return 0
        now, fresh = rating_service.stored(session), rating_service.folded(session)
    differ = sorted(k for k in now.keys() | fresh.keys() if now.get(k) != fresh.get(k))
    for player_id, ruleset, pool in differ:
        print(
            f"{player_id} {ruleset} {pool}: stored {now.get((player_id, ruleset, pool))}, "
            f"folded {fresh.get((player_id, ruleset, pool))}"
        )
    print("ok" if not differ else f"{len(differ)} rating(s) differ")
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run one command."""
    parser = argparse.ArgumentParser(
        prog="python -m app.cli", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", help="database URL (default: CIVITAS_DATABASE_URL)")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="a game as JSON")
    export.add_argument("game_id")
    export.add_argument("--with-seed", action="store_true", help="include the seed of a live game")
    commands.add_parser("replay", help="replay a game and compare with its snapshots").add_argument("game_id")
    commands.add_parser("verify-seed", help="check a finished game's seed").add_argument("game_id")
    commands.add_parser("snapshot", help="snapshot every active game now")
    commands.add_parser("backup", help="back the database up").add_argument("dest", type=Path)
    commands.add_parser("restore", help="restore into an empty database").add_argument("src", type=Path)
    commands.add_parser("ratings", help="rebuild or check the ratings").add_argument(
        "action", choices=["rebuild", "check"]
    )
    args = parser.parse_args(argv)
    url = args.database or get_settings().database_url
    try:
        return _command(args, url)
    except (OperationalError, sqlite3.Error) as exc:
        # The database cannot be reached or opened: say so in one sentence, never a traceback.
        reason = str(getattr(exc, "orig", exc) or type(exc).__name__).strip().splitlines()[0]
        print(f"Cannot use the database {_hide_password(sync_url(url))}: {reason}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc), file=sys.stderr)
        return 1


def _command(args: argparse.Namespace, url: str) -> int:
    if args.command == "export":
        print(json.dumps(export_game(url, args.game_id, args.with_seed), indent=1))
        return 0
    if args.command in ("replay", "verify-seed"):
        problems = (replay_game if args.command == "replay" else verify_seed)(url, args.game_id)
        for problem in problems:
            print(problem)
        print("ok" if not problems else f"{len(problems)} problem(s)")
        return 1 if problems else 0
    if args.command == "ratings":
        return ratings_command(url, args.action)
    if args.command == "snapshot":
        print(f"{snapshot_all(url)} games snapshotted")
        return 0
    if args.command == "backup":
        backup(url, args.dest)
    else:
        restore(url, args.src)
    print("done")
    return 0


if __name__ == "__main__":
    sys.exit(main())
