"""Fortune City (Chih-Fan Chen, Big Fun Games 2018): 2-4 players build a city of shops from goods.

`RULESET` is registered by app.rulesets. Rules live in rules.py (setup, phases, checks),
scoring.py and view.py; the tile and track values are in data/*.toml (mostly reconstructed, each
row says so); NOTES.md records every decision the rulebook leaves open.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.engine.ruleset import CannotUpgrade, Move, Outcome, RulesetHooks, State
from app.rulesets.fortune_city import bot, rules, scoring, search_hooks, view


class FortuneCityOptions(BaseModel):
    """Variants from the Chinese edition; the defaults are the English rulebook."""

    model_config = {"extra": "forbid"}
    starting_credit_card: bool = Field(
        False, title="Credit card from the start", description="Chinese edition: every player starts with a credit card holding 3 of "
        "the 7 silver (4 in hand); banks then only add gold and refills")
    gold_after_hand_silver: bool = Field(
        False, title="Gold only after the hand's silver", description="Chinese edition: a gold coin may pay for an action only once no silver "
        "is left in your hand")


class FortuneCity(RulesetHooks):
    """The Fortune City ruleset."""

    id = "fortune-city"
    # 2: tuned tile VPs (NOTES Tuning), round-30 safeguard; 3: single-answer steps automatic;
    # 4: magazines 1 VP, stationery 2 coins (NOTES Seat order)
    version = "4"
    name = "Fortune City"
    min_players = 2
    max_players = 4
    Options = FortuneCityOptions
    has_bot = True
    # each Chinese-edition variant on its own, and both together (the edition as printed)
    conformance_options = [{"starting_credit_card": True}, {"gold_after_hand_silver": True},
                           {"starting_credit_card": True, "gold_after_hand_silver": True}]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Starting market, goods stack and bag for the player count, boards, start player."""
        opts = FortuneCityOptions.model_validate(options.model_dump())
        return rules.setup_state(players, opts.model_dump(), seed)

    def to_act(self, state: State) -> list[int]:
        """The seat in turn (actions), or every seat still hiring / driving."""
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every concrete legal move."""
        return rules.legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The next state; raises IllegalMove naming the rule."""
        return rules.apply_move(state, seat, move)

    def random_move(self, state: State, seat: int, rng: Any) -> Move:
        """The move a uniform draw from `legal_moves` picks, building only that move."""
        return rules.draw_move(state, seat, rng)

    def playout(self, state: State, rng: Any) -> State:
        """A random game to the end on one private copy changed in place (rules.playout)."""
        return rules.playout(state, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as anyone sees it (no stack order, box, bag order or generator)."""
        return view.view_state(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Final scores with each area of the score sheet; ties by diamonds, garbage, coins."""
        return scoring.outcome(state)

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal the unseen tiles and the bag order."""
        return view.determinize_state(state, seat, rng)

    def log_text(self, state: State, seat: int, move: Move, viewer: int | None) -> str:
        """The move in words (every Fortune City move is public)."""
        return view.log_text(state, seat, move, viewer)

    def catalogue(self) -> dict[str, Any]:
        """Tile and track data for the browser."""
        return view.catalogue()

    def upgrade_state(self, state: State | None, from_version: str) -> State | None:
        """Version 3 -> 4 changed two starting goods' values in data/tiles.toml, not the stored
        state: a snapshot plays on under the new values (tokens already on a Stationery Store
        stay as they were produced). A game without a snapshot is refused (its moves replayed
        from setup would pick up other coins and could be refused), as are versions 1-2."""
        if from_version != "3" or state is None:
            raise CannotUpgrade(f"Fortune City cannot carry a game from version {from_version} "
                                f"{'without a snapshot ' if state is None else ''}to version {self.version}.")
        return state

    def evaluate(self, state: State) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        return search_hooks.evaluate(state)

    def candidates(self, state: State, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        return search_hooks.candidates(state, seat, k)

    def bot_move(self, state: State, seat: int, rng: Any) -> Move | None:
        """The heuristic bot of bot.py."""
        return bot.choose(state, seat, rng)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return view.describe(move)


RULESET = FortuneCity()
