"""City Council (Elad Goldsteen, Golden Egg Games 2013): 2-5 council members build a city by
proposing and voting on plans, running its production and scoring secret favour cards; with 2
players the puppet member Prof. Phil is played by the rules.

`RULESET` is registered by app.rulesets. Rules live in this package's modules and the components
in data/*.toml; NOTES.md records every decision and reconstruction.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from pydantic import BaseModel, Field

from app.engine.memo import ensure
from app.engine.ruleset import CannotUpgrade, Move, Outcome, RulesetHooks, ranks_from_keys
from app.engine.ruleset import State as JsonState
from app.rulesets.city_council import apply, legal, phases, search_hooks, view
from app.rulesets.city_council.setup import new_state, upgrade_from_2
from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import CARDS


def _typed(state: JsonState) -> State:
    """The engine's plain JSON state as the typed state it is (the same object)."""
    return cast(State, state)


def _plain(state: State) -> JsonState:
    """A typed state as the engine's plain JSON state (the same object)."""
    return cast(JsonState, state)


class CityCouncilOptions(BaseModel):
    """Variants. Defaults: the standard game."""

    model_config = {"extra": "forbid"}
    mode: Literal["standard", "sandbox", "hard"] = Field(
        "standard",
        title="Game mode",
        description="Game mode: Standard; Sandbox (no fixed buildings, $11, 13 VP, "
        "every building from the start, no end when the cards run out); or Hard (Sandbox with a "
        "smaller budget)",
    )
    hard_budget: int = Field(
        9,
        ge=3,
        le=9,
        title="Hard mode budget",
        description="Hard mode: the starting City Budget ($9, or lower for an even harder game)",
    )


class CityCouncil(RulesetHooks):
    """The City Council ruleset."""

    id = "city-council"
    version = "3"
    name = "City Council"
    min_players = 2
    max_players = 5
    Options = CityCouncilOptions
    has_bot = True
    easy_random = 0.3  # Easy's share of random moves (NOTES, 'Search bot')
    conformance_options: list[dict[str, Any]] = [
        {"mode": "sandbox"},
        {"mode": "hard", "hard_budget": 7},
    ]

    # The entry points that list plan executions run inside a memo (app/engine/memo.py): the
    # game's or a decision's when one is active, else their own, so that `execution.allowed`, asked
    # for several times per move, is worked out once without a module-level cache.

    def setup(self, players: int, options: BaseModel, seed: int) -> JsonState:
        """Tracks, workers, the Starting Zone, the planning area and 2 favour cards each."""
        opts = CityCouncilOptions.model_validate(options.model_dump())
        state = new_state(players, opts.mode, opts.hard_budget, seed)
        phases.advance(state)
        return _plain(state)

    def to_act(self, state: JsonState) -> list[int]:
        """Seats owing a decision now."""
        return legal.to_act(_typed(state))

    def legal_moves(self, state: JsonState, seat: int) -> list[Move]:
        """Every concrete legal move."""
        with ensure():
            return phases.legal_moves(_typed(state), seat)

    def apply(self, state: JsonState, seat: int, move: Move) -> JsonState:
        """The next state (Prof. Phil and the automatic steps run inside)."""
        with ensure():
            return _plain(apply.apply(_typed(state), seat, move))

    def playout(self, state: JsonState, rng: Any) -> JsonState:
        """A random game to the end on one private copy changed in place (apply.playout)."""
        with ensure():
            return _plain(apply.playout(_typed(state), rng))

    def view(self, state: JsonState, seat: int | None) -> dict[str, Any]:
        """What `seat` may see."""
        return view.view(_typed(state), seat)

    def outcome(self, state: JsonState) -> Outcome | None:
        """Final VP; ties: fewest cards in hand, then most private funds (RB Victory). A defeat
        (RB Defeat) leaves nobody the winner."""
        if state["phase"] != "over":
            return None
        n = state["players"]
        breakdown = []
        for seat in range(n):
            breakdown.append(
                {
                    "vp": state["vp"][seat],
                    "cards_in_hand": len(state["hands"][seat]),
                    "private_funds": state["funds"][seat],
                    "scored": [
                        {"card": x["card"], "name": CARDS[x["card"]].name, "vp": x["vp"]}
                        for x in state["scored"][seat]
                    ],
                }
            )
        scores = list(state["vp"])
        if state["defeat"]:
            return Outcome(
                scores,
                [1] * n,
                breakdown,
                {
                    "winners": [],
                    "defeat": state["defeat"],
                    "result": "The city failed: the council is disbanded and everyone loses.",
                },
            )
        keys = [(state["vp"][i], -len(state["hands"][i]), state["funds"][i]) for i in range(n)]
        return Outcome(scores, ranks_from_keys(keys), breakdown)

    def upgrade_state(self, state: JsonState | None, from_version: str) -> JsonState | None:
        """Version 2 -> 3 (rules review 2, NOTES "Version history"): a snapshot is carried by
        setup.upgrade_from_2 and plays on under the new rules. A game without a snapshot is
        refused (replaying its moves from setup under the new rules could refuse one: scoring
        windows now ask every player), as are version-1 games."""
        if from_version != "2" or state is None:
            raise CannotUpgrade(
                f"City Council cannot carry a game from version {from_version} "
                f"{'without a snapshot ' if state is None else ''}to version {self.version}."
            )
        return _plain(upgrade_from_2(state))

    def determinize(self, state: JsonState, seat: int | None, rng: Any) -> JsonState:
        """Re-deal everything `seat` cannot see."""
        return _plain(view.determinize(_typed(state), seat, rng))

    def public_move(self, state: JsonState, seat: int, move: Move, viewer: int | None) -> Move | None:
        """Hide kept and discarded favour cards from everyone but their owner."""
        return view.public_move(_typed(state), seat, move, viewer)

    def log_text(self, state: JsonState, seat: int, move: Move, viewer: int | None) -> str:
        """The log sentence for `viewer` (state = before the move)."""
        return view.log_text(_typed(state), seat, move, viewer)

    def catalogue(self) -> dict[str, Any]:
        """Building, card and board data for the browser."""
        return view.catalogue()

    def evaluate(self, state: JsonState) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        with ensure():
            return search_hooks.evaluate(_typed(state))

    def candidates(self, state: JsonState, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        with ensure():
            return search_hooks.candidates(_typed(state), seat, k)

    def bot_move(self, state: JsonState, seat: int, rng: Any) -> Move | None:
        """The heuristic bot (bot.py)."""
        from app.rulesets.city_council.bot import choose

        with ensure():
            return choose(_typed(state), seat, rng)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return view.describe(move)


RULESET = CityCouncil()
