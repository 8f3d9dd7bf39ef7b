"""The Ruleset contract every game implements, plus the shared value types (Outcome, IllegalMove).

State and moves are plain JSON data (dict, list, str, int, float, bool, None). A ruleset is a set of
pure functions over that data: `apply` never mutates its input, and all chance comes from the
generator kept inside the state (see `engine.rng`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

State = dict[str, Any]
Move = dict[str, Any]
JSON = Any


class IllegalMove(Exception):
    """A move the rules forbid; `reason` is a sentence naming the rule, safe to show the mover."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Outcome:
    """Final result: scores and ranks by seat (rank 1 = winner, ties share a rank), with breakdowns."""

    scores: list[int | float]
    ranks: list[int]
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        """Seats ranked first."""
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_json(self) -> dict[str, Any]:
        """The outcome as the wire document's `outcome` object."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": self.winners,
            "breakdown": [dict(b) for b in self.breakdown],
            **self.extra,
        }


def ranks_from_keys(keys: list[tuple[Any, ...]]) -> list[int]:
    """Competition ranks (1, 1, 3, ...) from per-seat sort keys where larger is better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


@runtime_checkable
class Ruleset(Protocol):
    """What a game module provides. Optional hooks are listed in `RulesetHooks` below."""

    id: str
    version: str
    name: str
    min_players: int
    max_players: int
    Options: type[BaseModel]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """The initial state for `players` seats with the chosen options and seed."""
        ...

    def to_act(self, state: State) -> list[int]:
        """Seats that owe a decision now (several in a simultaneous phase; none once over)."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every concrete move `seat` may make now, as JSON objects."""
        ...

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The state after `seat` plays `move`; raises IllegalMove with the rule that forbids it."""
        ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see (None: a spectator); never the seed, decks' order or others' secrets."""
        ...

    def outcome(self, state: State) -> Outcome | None:
        """Final scores once the game is over, else None."""
        ...

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """A state `seat` cannot tell apart from `state`: every hidden thing re-dealt with `rng`."""
        ...


class CannotUpgrade(Exception):
    """A stored state from an older version of the rules cannot be carried to this version."""


class RulesetHooks:
    """Defaults for the optional hooks; a ruleset class may inherit these and override any.

    - `public_move(state, seat, move, viewer)`: the move as `viewer` may see it in the log
      (None hides it entirely); default: everyone sees every move.
    - `bot_move(state, seat, rng)`: the ruleset's own player-replacing bot; default: none.
    - `random_move(state, seat, rng)`: one legal move drawn at random (playouts, bots' fallback);
      default: uniform over `legal_moves`. A ruleset may override it with a sampler that never
      builds the whole list; it must return a member of `legal_moves` and reach every kind of
      move `legal_moves` offers (checked by the conformance harness).
    - `playout(state, rng)`: play random moves to the end of the game and return the final
      state: each step picks the seat with `rng.choice(to_act(state))`, then its move with
      `random_move(state, seat, rng)`, exactly as `play_random` does. A ruleset may override it
      with a faster private path (mutating its own copy in place, say) as long as it returns a
      state equal to `play_random`'s for the same state and rng: the conformance harness checks
      this equality. Search bots and `bench/engine_bench.py` call it.
    - `evaluate(state)`: each seat's chance of winning from here, a list of floats in [0, 1]
      (the search bot, app/engine/search.py, judges cut-off leaves with it); no default.
    - `candidates(state, seat, k)`: at most `k` legal moves worth searching, best first (the
      search bot's prior and its pruning of wide decisions); no default: every legal move.
    - `search_settings`: a dict of app/engine/search.py `Budget` fields (rollout, greedy, prior,
      width) for this game's Hard and Expert levels, over app/engine/choosers.py's defaults.
    - `easy_random`: the share of random moves the Easy level mixes into the bot's (a float;
      app/engine/choosers.py has the default).
    - `describe_move(move)`: a short human label for a move (move lists, logs).
    - `log_text(state, seat, move, viewer)`: one sentence in words for the log, as `viewer` may
      know it, naming players as `{seat0}`, `{seat1}`, ... (the platform substitutes names);
      only called when `public_move(...)` for that viewer is not None.
    - `catalogue()`: public component data (tile names, costs, effect texts) the browser needs
      to draw ids found in views; served at /api/rulesets/{id}/catalogue.
    - `conformance_options`: option sets the conformance test plays, besides the defaults.
    - `upgrade_state(state, from_version)`: carry a stored state (a snapshot) written under an
      older `version` of these rules to the current one, so games in progress survive a rules
      change (Board Game Arena's `upgradeTableDb` idea); raise CannotUpgrade (the default) when
      the change cannot be carried, and such games are refused as before. `state` is None for a
      game with no snapshot yet: return None to replay it from this version's setup, or raise.
      Moves after the snapshot are replayed under the new rules; `python -m app.cli snapshot`
      before a deploy makes every live game's latest state a snapshot.
    """

    conformance_options: list[dict[str, Any]] = []
    conformance_players: list[int] | None = None
    has_bot: bool = False

    def public_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
        """The move as `viewer` may see it; `state` is the state before the move."""
        return move

    def bot_move(self, state: State, seat: int, rng: Any) -> Move | None:
        """The ruleset's bot choice, or None to fall back to a random legal move."""
        return None

    def random_move(self, state: State, seat: int, rng: Any) -> Move:
        """One legal move of `seat` drawn with `rng` (default: uniform over `legal_moves`)."""
        move: Move = rng.choice(self.legal_moves(state, seat))  # type: ignore[attr-defined]  # a mixin: the ruleset has it
        return move

    def playout(self, state: State, rng: Any) -> State:
        """The final state of a random game from `state` (default: `play_random`)."""
        return play_random(self, state, rng)

    def catalogue(self) -> dict[str, Any]:
        """Public component data for the browser renderer."""
        return {}

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return ", ".join(f"{k}={v}" for k, v in move.items())

    def upgrade_state(self, state: State | None, from_version: str) -> State | None:
        """The stored `state` of version `from_version` as the current version stores it."""
        raise CannotUpgrade(
            f"{getattr(self, 'name', 'This ruleset')} cannot carry games from "
            f"version {from_version} to version {getattr(self, 'version', '?')}."
        )

    def log_text(self, state: State, seat: int, move: Move, viewer: int | None) -> str:
        """One log sentence for `viewer` about `seat` playing `move` (`state` is before the move)."""
        shown = self.public_move(state, seat, move, viewer)
        return self.describe_move(shown if shown is not None else {})


def random_move(ruleset: Any, state: State, seat: int, rng: Any) -> Move:
    """A random legal move through the ruleset's `random_move` hook, or uniformly from
    `legal_moves` for a ruleset without it (the same draw the default hook makes)."""
    hook = getattr(ruleset, "random_move", None)
    if hook is not None:
        return hook(state, seat, rng)  # type: ignore[no-any-return]  # an optional hook, found by getattr
    return rng.choice(ruleset.legal_moves(state, seat))  # type: ignore[no-any-return]  # ruleset and rng: Any


def play_random(ruleset: Any, state: State, rng: Any) -> State:
    """The reference random playout: until no seat is due, pick the seat with
    `rng.choice(to_act)`, then its move with `random_move`, and apply it."""
    while to_act := ruleset.to_act(state):
        seat = rng.choice(to_act)
        state = ruleset.apply(state, seat, random_move(ruleset, state, seat, rng))
    return state


def playout(ruleset: Any, state: State, rng: Any) -> State:
    """The final state of a random game through the ruleset's `playout` hook, or `play_random`
    for a ruleset (or an older tree) without it."""
    hook = getattr(ruleset, "playout", None)
    if hook is not None:
        final: State = hook(state, rng)
        return final
    return play_random(ruleset, state, rng)
