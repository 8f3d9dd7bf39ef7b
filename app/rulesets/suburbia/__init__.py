"""Suburbia (Ted Alspach): build a borough of hex tiles; 1-4 players, two solo games.

`RULESET` is registered by app.rulesets. Rules live in the modules of this package and the
content in data/*.toml; NOTES.md records every decision the rulebook leaves open.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.engine.memo import ensure
from app.engine.ruleset import Move, Outcome, RulesetHooks, State
from app.rulesets.suburbia import bot, legal, logtext, scoring, search_hooks, turn, view
from app.rulesets.suburbia.setup import setup_state


class SuburbiaOptions(BaseModel):
    """Variants: the solo game for 1 player, and which red-line data set to use."""

    model_config = {"extra": "forbid"}
    solo_mode: Literal["lone_architect", "dale"] = Field(
        "lone_architect",
        description="Solo game when playing alone: The Lone Architect or Dale "
        "the Bot (ignored with 2-4 players)",
    )
    red_lines: Literal["nemikolh", "bestagon"] = Field(
        "nemikolh", description="Red-line positions: first line at 15 (default) or at 14"
    )
    lone_architect_red_line: Literal["plus2", "minus2"] = Field(
        "plus2",
        description="The Lone Architect: passing a red line gives +2 Income and +2 "
        "Reputation as the rulebook is printed, or costs 2 of each (suspected misprint)",
    )


class Suburbia(RulesetHooks):
    """The Suburbia ruleset."""

    id = "suburbia"
    # 2: investments double "built after" and red-line effects already incurred;
    # 3: Dale takes part in the ranking (outcome ranks/winners; NOTES.md "Version history");
    # 4: a move is accepted only if listed (stray fields refused)
    version = "4"
    name = "Suburbia"
    min_players = 1
    max_players = 4
    Options = SuburbiaOptions
    has_bot = True
    easy_random = 0.4  # Easy's share of random moves (NOTES, 'Search bot')
    search_settings = {"rollout": 2}  # the search bot's leaves (NOTES, 'Search bot')
    conformance_options = [
        {"solo_mode": "dale"},
        {"red_lines": "bestagon"},
        {"lone_architect_red_line": "minus2"},
    ]

    # Each entry point below that reads boroughs runs inside a memo (app/engine/memo.py): the
    # game's or a decision's when one is active, else its own, so what one call derives several
    # times (a borough's cells and frontier) is derived once without a module-level cache.

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Stacks, market, supply, goals and boroughs for `players` seats."""
        opts = SuburbiaOptions.model_validate(options.model_dump())
        state = setup_state(players, opts.solo_mode, opts.red_lines, seed)
        if state["mode"] == "lone_architect":
            state["la_step"] = 2 if opts.lone_architect_red_line == "plus2" else -2
        return state

    def to_act(self, state: State) -> list[int]:
        """Seats still choosing a goal, else the seat whose turn it is."""
        return legal.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every concrete legal move."""
        with ensure():
            return legal.legal_moves(state, seat)

    def random_move(self, state: State, seat: int, rng: Any) -> Move:
        """The move a uniform draw from `legal_moves` gives, without listing them."""
        with ensure():
            return legal.random_move(state, seat, rng)

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The next state (Dale's turn, when playing him, runs inside)."""
        with ensure():
            return turn.apply(state, seat, move)

    def playout(self, state: State, rng: Any) -> State:
        """The final state of a random game: `play_random`'s, played in place on one copy."""
        with ensure():
            return turn.playout(state, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What `seat` may see."""
        with ensure():
            return view.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Final scores once the game is over."""
        with ensure():
            return scoring.outcome(state)

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal everything `seat` cannot see."""
        with ensure():
            return view.determinize(state, seat, rng)

    def public_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
        """Hide the kept secret goal from everyone but its owner."""
        return view.public_move(state, seat, move, viewer)

    def catalogue(self) -> dict[str, Any]:
        """Tile, goal and board data for the browser."""
        return view.catalogue()

    def evaluate(self, state: State) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        with ensure():
            return search_hooks.evaluate(state)

    def candidates(self, state: State, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        with ensure():
            return search_hooks.candidates(state, seat, k)

    def bot_move(self, state: State, seat: int, rng: Any) -> Move | None:
        """The greedy heuristic bot of bot.py."""
        with ensure():
            return bot.choose(state, seat, rng)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return bot.describe(move)

    def log_text(self, state: State, seat: int, move: Move, viewer: int | None) -> str:
        """The log sentence: tile names, prices and neighbours; secret goals only to their owner."""
        return logtext.log_text(state, seat, move, viewer)


RULESET = Suburbia()
