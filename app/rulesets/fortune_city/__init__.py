"""Fortune City (Chih-Fan Chen, Big Fun Games 2018): 2-4 players build a city of shops from goods.

`RULESET` is registered by app.rulesets. The rules: state.py (the typed state), setup.py,
phases.py (the round as a table of phases), legal.py, checks.py, moves.py, turns.py, board.py,
table.py, apply.py, scoring.py, view.py, logtext.py, upgrade.py; the tile and track values are
in data/*.toml (mostly reconstructed, each row says so); NOTES.md records every decision the
rulebook leaves open.
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, Field

from app.engine.ruleset import CannotUpgrade, Move, Outcome, RulesetHooks
from app.engine.ruleset import State as JsonState
from app.rulesets.fortune_city import apply as play
from app.rulesets.fortune_city import bot, logtext, scoring, search_hooks, upgrade, view
from app.rulesets.fortune_city.legal import to_act
from app.rulesets.fortune_city.setup import setup_state
from app.rulesets.fortune_city.state import Options, State


def _typed(state: JsonState) -> State:
    """The engine's plain JSON state as the typed state it is (the same object)."""
    return cast(State, state)


def _plain(state: State) -> JsonState:
    """A typed state as the engine's plain JSON state (the same object)."""
    return cast(JsonState, state)


class FortuneCityOptions(BaseModel):
    """Variants from the Chinese edition; the defaults are the English rulebook."""

    model_config = {"extra": "forbid"}
    starting_credit_card: bool = Field(
        False,
        title="Credit card from the start",
        description="Chinese edition: every player starts with a credit card holding 3 of "
        "the 7 silver (4 in hand); banks then only add gold and refills",
    )
    gold_after_hand_silver: bool = Field(
        False,
        title="Gold only after the hand's silver",
        description="Chinese edition: a gold coin may pay for an action only once no silver "
        "is left in your hand",
    )


class FortuneCity(RulesetHooks):
    """The Fortune City ruleset."""

    id = "fortune-city"
    # 2: tuned tile VPs (NOTES Tuning), round-30 safeguard; 3: single-answer steps automatic;
    # 4: magazines 1 VP, stationery 2 coins (NOTES Seat order); 5: the state's keys have their
    # full names (issue 31), the games are version 4's
    version = "5"
    name = "Fortune City"
    min_players = 2
    max_players = 4
    Options = FortuneCityOptions
    has_bot = True
    easy_random = 0.2  # Easy's share of random moves (NOTES, 'Search bot')
    search_settings = {"rollout": 20}  # the search bot's leaves (NOTES, 'Search bot')
    # each Chinese-edition variant on its own, and both together (the edition as printed)
    conformance_options: list[dict[str, Any]] = [  # noqa: RUF012 - the hook's declared type
        {"starting_credit_card": True},
        {"gold_after_hand_silver": True},
        {"starting_credit_card": True, "gold_after_hand_silver": True},
    ]

    def setup(self, players: int, options: BaseModel, seed: int) -> JsonState:
        """Starting market, goods stack and bag for the player count, boards, start player."""
        opts = FortuneCityOptions.model_validate(options.model_dump())
        chosen: Options = {
            "starting_credit_card": opts.starting_credit_card,
            "gold_after_hand_silver": opts.gold_after_hand_silver,
        }
        return _plain(setup_state(players, chosen, seed))

    def to_act(self, state: JsonState) -> list[int]:
        """The seat in turn (actions), or every seat still hiring / driving."""
        return to_act(_typed(state))

    def legal_moves(self, state: JsonState, seat: int) -> list[Move]:
        """Every concrete legal move."""
        return play.legal_moves(_typed(state), seat)

    def apply(self, state: JsonState, seat: int, move: Move) -> JsonState:
        """The next state; raises IllegalMove naming the rule."""
        return _plain(play.apply_move(_typed(state), seat, move))

    def random_move(self, state: JsonState, seat: int, rng: Any) -> Move:
        """The move a uniform draw from `legal_moves` picks, building only that move."""
        return play.draw_move(_typed(state), seat, rng)

    def playout(self, state: JsonState, rng: Any) -> JsonState:
        """A random game to the end on one private copy changed in place (apply.playout)."""
        return _plain(play.playout(_typed(state), rng))

    def view(self, state: JsonState, seat: int | None) -> dict[str, Any]:
        """The table as anyone sees it (no stack order, box, bag order or generator)."""
        return view.view_state(_typed(state), seat)

    def outcome(self, state: JsonState) -> Outcome | None:
        """Final scores with each area of the score sheet; ties by diamonds, garbage, coins."""
        return scoring.outcome(_typed(state))

    def determinize(self, state: JsonState, seat: int | None, rng: Any) -> JsonState:
        """Re-deal the unseen tiles and the bag order."""
        return _plain(view.determinize_state(_typed(state), seat, rng))

    def log_text(self, state: JsonState, seat: int, move: Move, viewer: int | None) -> str:
        """The move in words (every Fortune City move is public)."""
        return logtext.log_text(_typed(state), seat, move, viewer)

    def catalogue(self) -> dict[str, Any]:
        """Tile and track data for the browser."""
        return view.catalogue()

    def upgrade_state(self, state: JsonState | None, from_version: str) -> JsonState | None:
        """Versions 3-4 -> 5: a snapshot plays on with its keys renamed (upgrade.py). 3 -> 4
        changed two starting goods' values in data/tiles.toml, not the stored state (tokens
        already on a Stationery Store stay as they were produced); 4 -> 5 renamed the state's
        keys. A version-4 game without a snapshot replays from setup: version 5 plays the same
        games. A version-3 game without one is refused (its moves replayed from setup would pick
        up other coins and could be refused), as are versions 1-2."""
        if state is None and from_version == "4":
            return None
        if from_version not in ("3", "4") or state is None:
            raise CannotUpgrade(
                f"Fortune City cannot carry a game from version {from_version} "
                f"{'without a snapshot ' if state is None else ''}to version {self.version}."
            )
        return upgrade.v4_to_v5(state)

    def evaluate(self, state: JsonState) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        return search_hooks.evaluate(_typed(state))

    def candidates(self, state: JsonState, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        return search_hooks.candidates(_typed(state), seat, k)

    def bot_move(self, state: JsonState, seat: int, rng: Any) -> Move | None:
        """The heuristic bot of bot.py."""
        return bot.choose(_typed(state), seat, rng)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return logtext.describe(move)


RULESET = FortuneCity()
