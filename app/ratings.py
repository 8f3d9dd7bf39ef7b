"""Ratings as a pure fold over finished games in order: OpenSkill's Plackett-Luce model (every
place counts, 2-6 seats natively), one rating per player, game and pool ("rated": two or more
human accounts; "bots": one human against bots), with the eligibility rules of issue 29.

No database and no clock here: app/services/ratings.py feeds games in and stores the result, and
`python -m app.cli ratings rebuild` folds every game again to the very same floats.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from openskill.models import PlackettLuce

MIN_MOVES = 3  # a seat that made fewer moves than this: the game is too short to rate
PROVISIONAL_GAMES = 20  # ratings settle after about 20 games (the league simulation in the tests)
REPEAT_WINDOW = timedelta(days=1)  # the same opponents again within a day count less
SCALE, BASE = 40.0, 1500.0  # the shown rating: 1500 for a newcomer, 40 points per unit of mu

# Bots play at fixed strength; their ratings never move (mu, sigma). Random, Easy and Normal are
# measured by bench/bot_ratings.py (60 bot-only games per product ruleset, the mean over the five;
# Normal anchored at a newcomer's 25: bench/RESULTS.md, "Bot ratings"). Hard and Expert are
# measured too, but from few games (PROVISIONAL: bench/RESULTS.md, "Hard and Expert"): two-seat
# games against Normal at the levels' own budgets in CPU seconds, Hard 14 won of 21 (shown 1660,
# 95 % 1455 to 1881), Expert 8 of 10 (shown 1797, 95 % 1490 to 2182); more games will move them.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (-15.4, 1.0),
    "easy": (12.6, 1.0),
    "normal": (25.0, 1.0),
    "hard": (29.0, 1.0),  # provisional: 21 games
    "expert": (32.425, 1.0),  # provisional: 10 games
}
DEFAULT_BOT = "normal"

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma


@dataclass(frozen=True, slots=True)
class SeatPlay:
    """One seat of a finished game: the account seated at the start (None: a bot seat), the bot
    level of a bot seat, and how many of its moves its player made and a bot made for it."""

    player_id: str | None
    bot: str | None
    own_moves: int
    bot_moves: int


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game as the fold needs it."""

    game_id: str
    ruleset: str
    finished_at: datetime
    ranks: tuple[int, ...]  # by seat, 1 = first
    seats: tuple[SeatPlay, ...]


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating in one game and pool."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def shown(self) -> int:
        """The rating on the familiar scale (1500 to start)."""
        return round(BASE + SCALE * (self.mu - MU))

    @property
    def provisional(self) -> bool:
        """True until PROVISIONAL_GAMES rated games."""
        return self.games < PROVISIONAL_GAMES


def bot_rating(level: str | None) -> int:
    """A bot level's fixed rating on the shown scale."""
    mu, _ = BOT_RATINGS.get(level or DEFAULT_BOT, BOT_RATINGS[DEFAULT_BOT])
    return round(BASE + SCALE * (mu - MU))


def eligibility(game: GameResult) -> tuple[str | None, str]:
    """The pool a game is rated in ("rated", "bots") or None, with the reason in words."""
    humans = [s.player_id for s in game.seats if s.player_id]
    if len(set(humans)) != len(humans):
        return None, "One account held two seats."
    if not humans:
        return None, "No human player took part."
    short = [i for i, s in enumerate(game.seats) if s.own_moves + s.bot_moves < MIN_MOVES]
    if short:
        return None, f"Seat {short[0] + 1} made fewer than {MIN_MOVES} moves."
    if len(game.ranks) != len(game.seats):
        return None, "The game has no complete result."
    if len(humans) == 1:
        return "bots", "One human against bots: the against-bots rating."
    return "rated", "Rated."


def places(game: GameResult) -> list[int]:
    """Ranks as rated: a human seat a bot played for most of its moves counts as last, below
    every seat its player did play (such seats tie among themselves)."""
    held = [bool(s.player_id) and s.bot_moves > s.own_moves for s in game.seats]
    last = max((rank for rank, h in zip(game.ranks, held) if not h), default=0) + 1
    return [last if h else rank for rank, h in zip(game.ranks, held)]


@dataclass
class Ratings:
    """The fold's state: ratings by (player, ruleset, pool), and the recent games' line-ups by
    (ruleset, pool) for the repeat rule."""

    table: dict[tuple[str, str, str], Rating] = field(default_factory=dict)
    recent: dict[tuple[str, str], list[tuple[datetime, frozenset[str]]]] = field(default_factory=dict)

    def get(self, player_id: str, ruleset: str, pool: str) -> Rating:
        """A player's rating (a newcomer's if none yet)."""
        return self.table.get((player_id, ruleset, pool), Rating())

    def weight(self, game: GameResult, pool: str, player_id: str) -> float:
        """1 / (1 + the earlier games within a day that had this player and an opponent of
        this game's, both human): the same pairing again counts less."""
        others = {s.player_id for s in game.seats if s.player_id and s.player_id != player_id}
        since = game.finished_at - REPEAT_WINDOW
        repeats = sum(
            1
            for at, lineup in self.recent.get((game.ruleset, pool), [])
            if since <= at <= game.finished_at and player_id in lineup and lineup & others
        )
        return 1.0 / (1 + repeats)

    def apply(self, game: GameResult) -> dict[str, tuple[Rating, Rating, float]] | None:
        """Fold one game in; returns {player: (before, after, weight)} or None if unrated."""
        pool, _ = eligibility(game)
        if pool is None:
            return None
        ranks = places(game)
        teams, humans = [], []
        for seat in game.seats:
            if seat.player_id:
                before = self.get(seat.player_id, game.ruleset, pool)
                teams.append([MODEL.rating(mu=before.mu, sigma=before.sigma)])
                humans.append(seat.player_id)
            else:
                mu, sigma = BOT_RATINGS.get(seat.bot or DEFAULT_BOT, BOT_RATINGS[DEFAULT_BOT])
                teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
        changes: dict[str, tuple[Rating, Rating, float]] = {}
        winners = min(ranks)
        for seat, team, rank in zip(game.seats, rated, ranks):
            if not seat.player_id:
                continue  # bots keep their fixed ratings
            before = self.get(seat.player_id, game.ruleset, pool)
            w = self.weight(game, pool, seat.player_id)
            after = replace(
                before,
                mu=before.mu + w * (team[0].mu - before.mu),
                sigma=before.sigma + w * (team[0].sigma - before.sigma),
                games=before.games + 1,
                wins=before.wins + (rank == winners),
            )
            changes[seat.player_id] = (before, after, w)
        for player_id, (_, after, _) in changes.items():
            self.table[(player_id, game.ruleset, pool)] = after
        lineups = self.recent.setdefault((game.ruleset, pool), [])
        lineups.append((game.finished_at, frozenset(humans)))
        # Only the last day matters to the repeat rule.
        while lineups and lineups[0][0] < game.finished_at - REPEAT_WINDOW:
            lineups.pop(0)
        return changes


def fold(games: Iterable[GameResult]) -> Ratings:
    """Every game in order (by finish time, then id), folded into fresh ratings."""
    ratings = Ratings()
    for game in sorted(games, key=lambda g: (g.finished_at, g.game_id)):
        ratings.apply(game)
    return ratings
