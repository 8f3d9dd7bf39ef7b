"""Ratings in the database: a finished game read back from its move log (who was seated, who
made each move) as the pure fold of app/ratings.py wants it; the fold applied as each game ends;
and the whole fold run again from every finished game (`python -m app.cli ratings rebuild`),
which gives exactly the same rows.

Written for a synchronous Session: the CLI uses one directly, the server through
`AsyncSession.run_sync`, so both run the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from app.db.models import Game, GameEvent, MoveRow, PlayerRating, RatedGame
from app.ratings import REPEAT_WINDOW, GameResult, Rating, Ratings, SeatPlay, eligibility, fold

NOT_RATED = "none"  # the pool of a finished game the ratings leave out


def _aware(moment: datetime) -> datetime:
    """SQLite gives naive UTC datetimes back, PostgreSQL aware ones: compare them alike."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


def game_result(session: Session, game_id: str) -> GameResult | None:
    """A finished game as the fold sees it, from its stored moves and seat events; None if it has
    no result or was stored before seats were recorded (0009_history)."""
    game = session.get(Game, game_id)
    if game is None or not game.outcome or not game.outcome.get("ranks"):
        return None
    seated = {
        e.seat: e
        for e in session.execute(
            select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.kind == "seated")
        ).scalars()
    }
    if len(seated) != game.players:
        return None
    counts = session.execute(
        select(MoveRow.seat, MoveRow.actor_player, MoveRow.actor_bot, func.count())
        .where(MoveRow.game_id == game_id)
        .group_by(MoveRow.seat, MoveRow.actor_player, MoveRow.actor_bot)
    ).all()
    finished = session.scalar(select(func.max(MoveRow.created_at)).where(MoveRow.game_id == game_id))
    seats = []
    for seat in range(game.players):
        start = seated[seat]
        own = sum(
            n
            for s, player, bot, n in counts
            if s == seat and start.player_id and player == start.player_id and bot is None
        )
        total = sum(n for s, _, _, n in counts if s == seat)
        seats.append(SeatPlay(start.player_id, start.bot, own, total - own))
    return GameResult(
        game_id, game.ruleset, _aware(finished or game.created_at), tuple(game.outcome["ranks"]), tuple(seats)
    )


def finished_results(session: Session) -> list[GameResult]:
    """Every finished game the fold can read."""
    ids = session.scalars(select(Game.id).where(Game.status == "finished", Game.outcome.is_not(None))).all()
    return [r for r in (game_result(session, game_id) for game_id in ids) if r is not None]


def _lock(session: Session) -> None:
    """One ratings writer at a time across instances on PostgreSQL (SQLite's writer is already
    one at a time); the lock ends with the transaction."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SELECT pg_advisory_xact_lock(2929)"))


def record(session: Session, game_id: str) -> str:
    """Fold a game that has just ended into the stored ratings and commit; what happened, in a
    word: 'rated', 'unrated', 'known' (already folded in) or 'rebuilt' (a game that ended
    earlier than one already folded in: the fold runs again so the order stays the true one).
    The CLI's way; the server reads the game first and rebuilds apart (app/services/rating_queue.py)."""
    _lock(session)
    if session.get(RatedGame, game_id) is not None:
        return "known"
    return record_result(session, game_id, game_result(session, game_id))


def record_result(
    session: Session, game_id: str, result: GameResult | None, *, rebuild_late: bool = True
) -> str:
    """`record` for a game already read (`game_result`): a few short reads and the writes, one
    transaction. A game that ended before one already folded in is rebuilt, or with
    `rebuild_late=False` left as it was: 'late' (the caller refolds its ruleset, `refold`)."""
    _lock(session)
    if session.get(RatedGame, game_id) is not None:
        return "known"
    pool = eligibility(result)[0] if result is not None else None
    if result is None or pool is None:
        _unrated(session, game_id, result)
        session.commit()
        return "unrated"
    later = session.scalar(
        select(func.count())
        .select_from(RatedGame)
        .where(
            RatedGame.ruleset == result.ruleset,
            RatedGame.pool == pool,
            RatedGame.finished_at > result.finished_at,
        )
    )
    if later:
        if not rebuild_late:
            session.rollback()  # nothing written; ends the lock's transaction
            return "late"
        rebuild(session)
        return "rebuilt"
    humans = [s.player_id for s in result.seats if s.player_id]
    ratings = Ratings()
    for row in session.scalars(
        select(PlayerRating).where(
            PlayerRating.player_id.in_(humans),
            PlayerRating.ruleset == result.ruleset,
            PlayerRating.pool == pool,
        )
    ):
        ratings.table[(row.player_id, row.ruleset, row.pool)] = Rating(row.mu, row.sigma, row.games, row.wins)
    recent = session.execute(
        select(RatedGame.finished_at, RatedGame.lineup)
        .where(
            RatedGame.ruleset == result.ruleset,
            RatedGame.pool == pool,
            RatedGame.finished_at >= result.finished_at - REPEAT_WINDOW,
        )
        .order_by(RatedGame.finished_at, RatedGame.game_id)
    ).all()
    ratings.recent[(result.ruleset, pool)] = [(_aware(at), frozenset(lineup)) for at, lineup in recent]
    changes = ratings.apply(result) or {}
    _store(session, result, pool, changes)
    session.commit()
    return "rated"


def _store(
    session: Session, result: GameResult, pool: str, changes: dict[str, tuple[Rating, Rating, float]]
) -> None:
    """Write a folded game's row and its players' new ratings."""
    for player_id, (_, after, _) in changes.items():
        session.merge(_rating_row(player_id, result.ruleset, pool, after))
    session.add(_rated_row(result, pool, changes))


def _rating_row(player_id: str, ruleset: str, pool: str, rating: Rating) -> PlayerRating:
    return PlayerRating(
        player_id=player_id,
        ruleset=ruleset,
        pool=pool,
        mu=rating.mu,
        sigma=rating.sigma,
        games=rating.games,
        wins=rating.wins,
    )


def _rated_row(result: GameResult, pool: str, changes: dict[str, tuple[Rating, Rating, float]]) -> RatedGame:
    return RatedGame(
        game_id=result.game_id,
        ruleset=result.ruleset,
        pool=pool,
        finished_at=result.finished_at,
        lineup=[s.player_id for s in result.seats if s.player_id],
        changes={p: {"before": b.shown, "after": a.shown, "weight": w} for p, (b, a, w) in changes.items()},
    )


def _unrated_row(game: Game, result: GameResult | None) -> RatedGame:
    return RatedGame(
        game_id=game.id,
        ruleset=game.ruleset,
        pool=NOT_RATED,
        finished_at=result.finished_at if result is not None else _aware(game.created_at),
        lineup=[s.player_id for s in result.seats if s.player_id] if result is not None else [],
        changes={},
    )


def _unrated(session: Session, game_id: str, result: GameResult | None) -> None:
    """Note a finished game the ratings leave out (pool 'none'), so that catching up does not
    read it again."""
    game = session.get(Game, game_id)
    if game is not None:
        session.add(_unrated_row(game, result))


@dataclass(frozen=True)
class Refold:
    """One ruleset's ratings folded again from its finished games (read, not yet written): the
    games it read, and the rows `rebuild` would leave for that ruleset."""

    ruleset: str
    games: frozenset[str]
    ratings: dict[tuple[str, str, str], Rating]
    rated: dict[str, RatedGame]


def _finished_ids(session: Session, ruleset: str) -> frozenset[str]:
    return frozenset(
        session.scalars(
            select(Game.id).where(
                Game.ruleset == ruleset, Game.status == "finished", Game.outcome.is_not(None)
            )
        )
    )


def refold(session: Session, ruleset: str) -> Refold:
    """Fold every finished game of `ruleset` again, reading only: the slow half of a rebuild,
    run outside the writer's turn. Ratings of one ruleset depend on its games alone, so this
    gives that ruleset's rows of `rebuild` exactly."""
    ids = _finished_ids(session, ruleset)
    results = {game_id: game_result(session, game_id) for game_id in sorted(ids)}
    ratings = Ratings()
    rated: dict[str, RatedGame] = {}
    readable = sorted(
        (r for r in results.values() if r is not None), key=lambda g: (g.finished_at, g.game_id)
    )
    for result in readable:
        changes = ratings.apply(result)
        if changes is not None:
            rated[result.game_id] = _rated_row(result, eligibility(result)[0] or "", changes)
    for game_id, found in results.items():
        if game_id not in rated:
            game = session.get(Game, game_id)
            if game is not None:
                rated[game_id] = _unrated_row(game, found)
    return Refold(ruleset, ids, dict(ratings.table), rated)


def _same_rated(a: RatedGame, b: RatedGame) -> bool:
    return (a.pool, _aware(a.finished_at), list(a.lineup), a.changes) == (
        b.pool,
        _aware(b.finished_at),
        list(b.lineup),
        b.changes,
    )


def store_refold(session: Session, folded: Refold) -> bool:
    """Write a `refold` in one short transaction: only the rows that differ. False (nothing
    written) when a game of the ruleset finished since it was read: fold again."""
    _lock(session)
    if _finished_ids(session, folded.ruleset) != folded.games:
        session.rollback()
        return False
    ratings = dict(folded.ratings)
    for row in session.scalars(select(PlayerRating).where(PlayerRating.ruleset == folded.ruleset)):
        want = ratings.pop((row.player_id, row.ruleset, row.pool), None)
        if want is None:
            session.delete(row)
        elif (row.mu, row.sigma, row.games, row.wins) != (want.mu, want.sigma, want.games, want.wins):
            row.mu, row.sigma, row.games, row.wins = want.mu, want.sigma, want.games, want.wins
    for (player_id, ruleset, pool), rating in ratings.items():
        session.add(_rating_row(player_id, ruleset, pool, rating))
    wanted = dict(folded.rated)
    for stored_row in session.scalars(select(RatedGame).where(RatedGame.ruleset == folded.ruleset)):
        want_row = wanted.pop(stored_row.game_id, None)
        if want_row is None:
            session.delete(stored_row)
        elif not _same_rated(stored_row, want_row):
            stored_row.pool, stored_row.finished_at = want_row.pool, want_row.finished_at
            stored_row.lineup, stored_row.changes = want_row.lineup, want_row.changes
    for rated_row in wanted.values():
        session.add(rated_row)
    session.commit()
    return True


def unseen(session: Session) -> list[str]:
    """Finished games the ratings have not read yet, oldest first."""
    seen = select(RatedGame.game_id)
    return list(
        session.scalars(
            select(Game.id)
            .where(Game.status == "finished", Game.outcome.is_not(None), Game.id.not_in(seen))
            .order_by(Game.created_at, Game.id)
        )
    )


def catch_up(session: Session) -> int:
    """Fold in the finished games the ratings have not seen (their last move's instance stopped
    before rating them), oldest first; the number of games read."""
    ids = unseen(session)
    for game_id in ids:
        record(session, game_id)
    return len(ids)


def rebuild(session: Session) -> int:
    """Fold every finished game again from the move log, replace the stored ratings, commit;
    returns the number of games rated."""
    _lock(session)
    games = sorted(finished_results(session), key=lambda g: (g.finished_at, g.game_id))
    readable = {g.game_id for g in games}
    session.execute(delete(RatedGame))
    session.execute(delete(PlayerRating))
    session.flush()
    ratings = Ratings()
    rated = 0
    for game in games:
        changes = ratings.apply(game)
        if changes is not None:
            _store(session, game, eligibility(game)[0] or "", changes)
            rated += 1
        else:
            _unrated(session, game.game_id, game)
    for game_id in session.scalars(
        select(Game.id).where(Game.status == "finished", Game.outcome.is_not(None), Game.id.not_in(readable))
    ):
        _unrated(session, game_id, None)  # stored before seats were recorded
    session.commit()
    return rated


def stored(session: Session) -> dict[tuple[str, str, str], tuple[float, float, int, int]]:
    """The stored ratings as plain tuples (to compare a rebuild with what was there)."""
    return {
        (r.player_id, r.ruleset, r.pool): (r.mu, r.sigma, r.games, r.wins)
        for r in session.scalars(select(PlayerRating))
    }


def folded(session: Session) -> dict[tuple[str, str, str], tuple[float, float, int, int]]:
    """What a fold of every finished game gives now, without storing it."""
    table = fold(finished_results(session)).table
    return {key: (r.mu, r.sigma, r.games, r.wins) for key, r in table.items()}


def describe(rating: PlayerRating | Rating | None) -> dict[str, Any]:
    """A rating as the API shows it: the familiar scale, games, wins, provisional."""
    value = Rating() if rating is None else Rating(rating.mu, rating.sigma, rating.games, rating.wins)
    return {"rating": value.shown, "games": value.games, "wins": value.wins, "provisional": value.provisional}
