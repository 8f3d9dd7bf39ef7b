"""Tiny Towns (AEG) and its Fortune expansion (an option, off by default): 1-6 players, 4x4 towns.

`RULESET` is the registered entry point; the rules live in the sibling modules and the card
content in data/*.toml.
"""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from pydantic import BaseModel, Field

from app.engine.ruleset import Move, Outcome, RulesetHooks, State, ranks_from_keys
from app.rulesets.tiny_towns import data, search_hooks
from app.rulesets.tiny_towns.apply import apply_move, playout
from app.rulesets.tiny_towns.effects import BUILD
from app.rulesets.tiny_towns.feeding import FEED_KINDS
from app.rulesets.tiny_towns.legal import legal_moves, random_move, to_act
from app.rulesets.tiny_towns.scoring import SCORE, score_all, solo_rank, tie_key
from app.rulesets.tiny_towns.setup import setup_state
from app.rulesets.tiny_towns import logtext
from app.rulesets.tiny_towns.view import describe, determinize_state, public_move_for, view_state


# Behaviour named by the tables but implemented inline (rules code checks these names).
PASSIVES = frozenset(
    {
        "place_anywhere",
        "wild",
        "bank",
        "empty_squares_zero",
        "no_master_builder",
        "unfed_cottages_score",
        "place_anywhere_all",
        "coins_double",
        "change_penalty",
        "forge",
        "okaver",
    }
)
REACTIONS = frozenset({"factory", "warehouse", "museum", "oddity_shop", "bondmaker", "semaphore"})


def validate_tables() -> None:
    """Fail at import if a table row names an effect kind no code implements."""
    for cid, row in data.CARDS.items():
        kinds: list[tuple[str, str, Container[str]]] = [("score", row["score"]["kind"], SCORE)]
        kinds += [("build", eff["kind"], BUILD) for eff in row.get("build", ())]
        if "feed" in row:
            kinds.append(("feed", row["feed"]["kind"], FEED_KINDS))
        if "react" in row:
            kinds.append(("react", row["react"]["kind"], REACTIONS))
        kinds += [("passive", name, PASSIVES) for name in row.get("passive", ())]
        for what, kind, known in kinds:
            if kind not in known:
                raise ValueError(f"{cid}: unknown {what} kind {kind!r}")


validate_tables()


class TinyTownsOptions(BaseModel):
    """Variants. Defaults: the base game; the Fortune expansion is one option (`fortune`)."""

    model_config = {"extra": "forbid"}
    # The base game by default (issue 8): an API client sending no options gets what the lobby
    # form shows. Rooms store the full validated options, so older games keep their Fortune.
    fortune: bool = Field(False, description="Play with Tiny Towns: Fortune (coins, chests, Fortune cards)")
    max_fortune_buildings: int = Field(
        4, ge=0, le=6, description="Most Fortune building cards in play (0 = coins only; RB-F advises 4)"
    )
    fortune_monuments: bool = Field(True, description="Shuffle the 10 Fortune monuments into the deal")
    town_hall: bool = Field(
        False,
        description="Town Hall variant: a resource card is flipped for "
        "everyone each round instead of a Master Builder naming (2+ players)",
    )


class TinyTowns(RulesetHooks):
    """Tiny Towns + Fortune: name a resource, place it, construct buildings from patterns."""

    id = "tiny-towns"
    version = "3"  # 3: effect-placed buildings one at a time, Shed anywhere, solo Jeweler coin
    name = "Tiny Towns"
    min_players = 1
    max_players = 6
    Options = TinyTownsOptions
    has_bot = True
    easy_random = 0.3  # Easy's share of random moves (NOTES, 'Search bot')
    search_settings = {"rollout": 2}  # the search bot's leaves (NOTES, 'Search bot')
    conformance_options: list[dict[str, Any]] = [
        {"fortune": True},
        {"fortune": True, "max_fortune_buildings": 6},
        {"fortune": True, "max_fortune_buildings": 0, "fortune_monuments": False},
        {"fortune": True, "town_hall": True},
    ]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Deal the building cards, two monuments each, and (solo) the resource deck."""
        opts = TinyTownsOptions.model_validate(options.model_dump())
        return setup_state(players, opts.model_dump(), seed)

    def to_act(self, state: State) -> list[int]:
        """Seats owing a decision now (several while placing and constructing)."""
        return to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every concrete move the seat may make now."""
        return legal_moves(state, seat)

    def random_move(self, state: State, seat: int, rng: Any) -> Move:
        """The move a uniform draw from `legal_moves` gives; placing moves drawn by index."""
        return random_move(state, seat, rng)

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The next state; raises IllegalMove naming the rule that forbids the move."""
        return apply_move(state, seat, move)

    def playout(self, state: State, rng: Any) -> State:
        """The final state of a random game: `play_random`'s, played in place on one copy."""
        return playout(state, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as the seat sees it."""
        return view_state(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Final scores with each card's points, coins and empty squares; ties broken by fewer
        empty squares, then more coins (a documented decision)."""
        if state["phase"] != "over":
            return None
        board = score_all(state)
        scores = [b["total"] for b in board]
        extra: dict[str, Any] = {}
        if state["solo"]:
            extra["rank_name"] = solo_rank(scores[0])
        return Outcome(scores, ranks_from_keys([tie_key(b) for b in board]), board, extra)

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal hidden monuments and the solo deck order."""
        return determinize_state(state, seat, rng)

    def public_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
        """Hide which monument a player kept."""
        return public_move_for(move, seat, viewer)

    def catalogue(self) -> dict[str, Any]:
        """Card data (names, colours, patterns, texts) and resources for the browser."""
        cards = {
            cid: {k: row[k] for k in ("id", "name", "kind", "colour", "set", "pattern", "text")}
            for cid, row in data.CARDS.items()
        }
        return {
            "cards": cards,
            "resources": data.RESOURCE_ROWS,
            "colours": data.COLOURS,
            "solo_ranks": data.SOLO_RANKS,
        }

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return describe(move)

    def log_text(self, state: State, seat: int, move: Move, viewer: int | None) -> str:
        """The log sentence: squares as the board labels them (A1-D4), buildings by name."""
        return logtext.log_text(state, seat, move, viewer)

    def evaluate(self, state: State) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        return search_hooks.evaluate(state)

    def candidates(self, state: State, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        return search_hooks.candidates(state, seat, k)

    def bot_move(self, state: State, seat: int, rng: Any) -> Move | None:
        """The heuristic bot (bot.py)."""
        from app.rulesets.tiny_towns.bot import choose

        return choose(state, seat, rng)


RULESET = TinyTowns()
