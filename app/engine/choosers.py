"""Bot levels: how a bot seat picks its move, as plain functions of JSON data.

A *chooser* is `chooser(ruleset, state, seat, seed, budget) -> move`: the ruleset object, the
true state (JSON data), the seat to move, a 64-bit seed for its randomness (the server derives
it from the game's seed, the version and the seat, so a decision is reproducible and bots of one
level never mirror each other), and `budget`, the seconds it may think (a search bot stops at
it; a heuristic ignores it). It returns one move of `legal_moves(state, seat)`. The server runs
choosers in worker processes (app/services/bot_pool.py) with a deadline of the level's budget
plus a margin; `decide` is what a worker calls with one request.

A new level is one `register(name, chooser, budget)` in a module the workers import; the pool
does not change. The levels a host may pick (`PLAYABLE`): Easy (the heuristic with some random
moves), Normal (the heuristic), Hard and Expert (the search bot of app/engine/search.py, about
0.5 s and 2 s a decision).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.engine import registry
from app.engine.memo import Memo
from app.engine.rng import Rng
from app.engine.ruleset import Move, State, random_move
from app.engine.search import Budget, search

log = logging.getLogger(__name__)

Chooser = Callable[[Any, State, int, int, float], Move]
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Level:
    """A bot level: its chooser and the seconds it is meant to think per decision."""

    chooser: Chooser
    budget: float = 0.0


def heuristic(ruleset: Any, state: State, seat: int, seed: int, budget: float) -> Move:
    """The ruleset's own bot (`bot_move`); a random legal move where it has none, returns None
    or raises (drawn with the same generator)."""
    rng = Rng(seed)
    move = None
    if hasattr(ruleset, "bot_move"):
        try:
            move = ruleset.bot_move(state, seat, rng)
        except Exception:
            log.exception("the %s bot failed; playing a random legal move", ruleset.id)
    if move is None:
        move = random_move(ruleset, state, seat, rng)
    return move


def random_legal(ruleset: Any, state: State, seat: int, seed: int, budget: float) -> Move:
    """One legal move drawn at random."""
    return random_move(ruleset, state, seat, Rng(seed))


EASY_RANDOM = 0.3  # Easy's share of random moves where a ruleset names none (`easy_random`)


def easy(ruleset: Any, state: State, seat: int, seed: int, budget: float) -> Move:
    """The heuristic, but a random legal move some of the time: the ruleset's `easy_random`
    share (tuned so that Easy wins 15-35 % against Normal; bench/search_bot.py), else
    EASY_RANDOM."""
    rng = Rng.from_seed(seed, "easy")
    if rng.below(1000) < getattr(ruleset, "easy_random", EASY_RANDOM) * 1000:
        return random_move(ruleset, state, seat, rng)
    return heuristic(ruleset, state, seat, seed, budget)


# How the search judges a leaf, unless a ruleset says otherwise (`search_settings`): a few moves
# by the ruleset's own bot, then `evaluate` (a leaf judged at once is judged short-sightedly: in
# Fortune City that search lost every game to the bot it started from), and a bias toward the
# bot's choice. bench/search_bot.py measured these; NOTES.md of each game has the figures.
SEARCH_SETTINGS: dict[str, Any] = {"rollout": 6, "greedy": True, "prior": 0.5, "width": 8}


def search_budget(ruleset: Any, seconds: float, iterations: int | None, cpu: bool = False) -> Budget:
    """A search level's budget in `ruleset`: SEARCH_SETTINGS updated by its `search_settings`."""
    settings = {**SEARCH_SETTINGS, **getattr(ruleset, "search_settings", {})}
    return Budget(seconds=seconds or None, iterations=iterations, cpu=cpu, **settings)


def searcher(iterations: int | None) -> Chooser:
    """A chooser that searches for `budget` seconds (and at most `iterations` iterations)."""

    def choose(ruleset: Any, state: State, seat: int, seed: int, budget: float) -> Move:
        return search(ruleset, state, seat, seed, search_budget(ruleset, budget, iterations))

    return choose


LEVELS: dict[str, Level] = {
    DEFAULT_LEVEL: Level(heuristic),
    "random": Level(random_legal),
    "easy": Level(easy),
    "hard": Level(searcher(iterations=20_000), 0.5),
    "expert": Level(searcher(iterations=80_000), 2.0),
}
# What a host may choose for a bot seat, weakest first, with the name shown in the room.
PLAYABLE = {"easy": "Easy", "normal": "Normal", "hard": "Hard", "expert": "Expert"}


def register(name: str, chooser: Chooser, budget: float = 0.0) -> None:
    """Add (or replace) a bot level."""
    LEVELS[name] = Level(chooser, budget)


def level(name: str | None) -> Level:
    """The level called `name`; the default level for None or a name this server lacks."""
    return LEVELS.get(name or DEFAULT_LEVEL) or LEVELS[DEFAULT_LEVEL]


def decide(request: dict[str, Any]) -> Move:
    """One decision from a worker's request: {"ruleset", "state", "seat", "level", "seed",
    "budget"} (and "players", "options", which today's choosers read from the state)."""
    ruleset = registry.get(request["ruleset"])
    if ruleset is None:
        raise LookupError(f"no ruleset {request['ruleset']!r} in this worker")
    chooser = level(request.get("level")).chooser
    with Memo():  # what the rules keep per state while this decision looks ahead (memo.py)
        return chooser(
            ruleset,
            request["state"],
            int(request["seat"]),
            int(request["seed"]),
            float(request.get("budget", 0.0)),
        )
