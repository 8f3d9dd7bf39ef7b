"""Fortuna (Rieneck & Stadler, The Game Master 2011): 2-4 players travel to Rome by winning the
Emperor's favour with dice, resources and action cards.

`RULESET` is the registered entry point. The rules: state.py (the typed state), setup.py,
phases.py (the turn as a table of phases), legal.py, moves.py, turns.py, cards.py,
privileges.py, apply.py, reasons.py, scoring.py, view.py, logtext.py; the card content in
data/*.toml (reconstructed values are marked there and listed in NOTES.md).
"""

from __future__ import annotations

from typing import Any, cast

from pydantic import BaseModel, Field

from app.engine.ruleset import CannotUpgrade, Outcome, RulesetHooks, ranks_from_keys
from app.engine.ruleset import State as JsonState
from app.rulesets.fortuna import apply as play
from app.rulesets.fortuna import data, search_hooks, upgrade
from app.rulesets.fortuna.logtext import describe, log_text
from app.rulesets.fortuna.phases import legal_moves
from app.rulesets.fortuna.scoring import breakdown, tie_key
from app.rulesets.fortuna.setup import setup_state
from app.rulesets.fortuna.state import Move, Options, State, active
from app.rulesets.fortuna.view import determinize_state, public_move_for, view_state


def _typed(state: JsonState) -> State:
    """The engine's plain JSON state as the typed state it is (the same object)."""
    return cast(State, state)


def _plain(state: State) -> JsonState:
    """A typed state as the engine's plain JSON state (the same object)."""
    return cast(JsonState, state)


NO_WINNER = "No one wins: nobody reached Rome, and only players inside Rome (step 10 or more) can win."


class FortunaOptions(BaseModel):
    """Variants. Defaults: the standard game."""

    model_config = {"extra": "forbid"}
    two_player_flip: bool = Field(
        True,
        title="2-player rule: extra favour card flip",
        description="2 players: the start player flips one more favour card without tokens "
        "after phase 4 (the rulebook's 2-player rule)",
    )
    peek_own_card: bool = Field(
        False,
        title="Look at your face-down starting card",
        description="Players may look at the action card dealt face down to them at setup "
        "(the rulebook is silent; by default nobody sees it until it is flipped)",
    )


class Fortuna(RulesetHooks):
    """Fortuna: action cards, dice and the Emperor's favour on the road to Rome."""

    id = "fortuna"
    # 2: single-answer steps automatic; 3: military power pays first; 4: reconstructed values
    # adjusted after simulation (Grain Trade, the Fortuna card, Basilica: NOTES); 5: rules review
    # 2 (issue 25): nobody inside Rome, nobody wins; a seat's knowledge of the deck changes only
    # with what it saw (`fresh`), determinize reads only the seat's view; 6: the state's keys
    # have their full names (issue 31), the games are version 5's
    version = "6"
    name = "Fortuna"
    min_players = 2
    max_players = 4
    Options = FortunaOptions
    has_bot = True
    easy_random = 0.12  # Easy's share of random moves (NOTES, 'Search bot')
    search_settings = {"rollout": 20}  # the search bot's leaves (NOTES, 'Search bot')
    conformance_options: list[dict[str, Any]] = [  # noqa: RUF012 - the hook's declared type
        {"two_player_flip": False},
        {"peek_own_card": True},
    ]

    def setup(self, players: int, options: BaseModel, seed: int) -> JsonState:
        """Deal the action cards, shuffle the privilege deck, draw the start-player order."""
        opts = FortunaOptions.model_validate(options.model_dump())
        chosen: Options = {"two_player_flip": opts.two_player_flip, "peek_own_card": opts.peek_own_card}
        return _plain(setup_state(players, chosen, seed))

    def to_act(self, state: JsonState) -> list[int]:
        """The active player (turns are strictly one at a time)."""
        seat = active(_typed(state))
        return [] if seat is None else [seat]

    def legal_moves(self, state: JsonState, seat: int) -> list[Move]:
        """Every concrete move the seat may make now."""
        return legal_moves(_typed(state), seat)

    def apply(self, state: JsonState, seat: int, move: Move) -> JsonState:
        """The next state; raises IllegalMove naming the rule that forbids the move."""
        return _plain(play.apply_move(_typed(state), seat, move))

    def playout(self, state: JsonState, rng: Any) -> JsonState:
        """A random game to the end on one private copy changed in place (apply.playout)."""
        return _plain(play.playout(_typed(state), rng))

    def view(self, state: JsonState, seat: int | None) -> dict[str, Any]:
        """The table as the seat sees it."""
        return view_state(_typed(state), seat)

    def outcome(self, state: JsonState) -> Outcome | None:
        """Steps plus privilege points for players inside Rome; ties by steps, money, Centurions,
        Vestals (players outside Rome rank below everyone inside). With nobody inside Rome
        nobody wins (RB-F The Winner of the Game): no winner, every seat shares the rank."""
        if state["phase"] != "over":
            return None
        board = breakdown(_typed(state))
        scores = [b["total"] for b in board]
        if not any(b["inside_rome"] for b in board):
            return Outcome(scores, [1] * len(board), board, {"winners": [], "result": NO_WINNER})
        return Outcome(scores, ranks_from_keys([tie_key(b) for b in board]), board)

    def determinize(self, state: JsonState, seat: int | None, rng: Any) -> JsonState:
        """Re-deal every card the seat has not seen."""
        return _plain(determinize_state(_typed(state), seat, rng))

    def public_move(self, state: JsonState, seat: int, move: Move, viewer: int | None) -> Move | None:
        """Hide which privilege cards were kept."""
        return public_move_for(_typed(state), seat, move, viewer)

    def log_text(self, state: JsonState, seat: int, move: Move, viewer: int | None) -> str:
        """The move in words, revealing nothing the viewer may not know."""
        return log_text(_typed(state), seat, move, viewer)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return describe(move)

    def catalogue(self) -> dict[str, Any]:
        """Card data (names, texts, costs) for the browser."""
        return {
            "actions": {r["id"]: {"name": r["name"], "text": r["text"]} for r in data.ACTION_ROWS},
            "favours": {
                r["number"]: {
                    "name": r["name"],
                    "text": r["text"],
                    "gives": r["gives"],
                    "max_steps": r["max_steps"],
                }
                for r in data.FAVOUR_ROWS
            },
            "buildings": {
                r["id"]: {"name": r["name"], "cost": r["cost"], "text": r["text"]} for r in data.BUILDING_ROWS
            },
            "privileges": {
                r["id"]: {"cls": r["cls"], "name": r["name"], "gain": r.get("gain"), "vp": r.get("vp")}
                for r in data.PRIVILEGE_ROWS
            },
            "slots": data.SLOT_PRICES,
            "palace": data.PALACE_STEP,
            "gate": data.GATE_STEP,
        }

    def upgrade_state(self, state: JsonState | None, from_version: str) -> JsonState | None:
        """Versions 3-5 -> 6: a snapshot plays on (upgrade.py). 3 -> 4 changed only values in
        data/*.toml; 4 -> 5 added what each seat knows of the deck since the last reshuffle;
        5 -> 6 renamed the state's keys. A version-5 game without a snapshot replays from
        setup: version 6 plays the same games. Older ones without a snapshot are refused
        (replaying their moves from setup under the new values could reach other states or
        refuse a move), as are versions 1-2 (other automatic steps and military-power order)."""
        if state is None and from_version == "5":
            return None
        if from_version not in ("3", "4", "5") or state is None:
            raise CannotUpgrade(
                f"Fortuna cannot carry a game from version {from_version} "
                f"{'without a snapshot ' if state is None else ''}to version {self.version}."
            )
        if from_version != "5":
            state = upgrade.v4_to_v5(state)
        return upgrade.v5_to_v6(state)

    def evaluate(self, state: JsonState) -> list[float]:
        """Each seat's chance of winning, in [0, 1], for the search bot's cut-off leaves."""
        return search_hooks.evaluate(state)

    def candidates(self, state: JsonState, seat: int, k: int) -> list[Move]:
        """At most `k` moves worth searching, best first (the search bot's prior)."""
        return search_hooks.candidates(state, seat, k)

    def bot_move(self, state: JsonState, seat: int, rng: Any) -> Move | None:
        """The heuristic bot (bot.py)."""
        from app.rulesets.fortuna.bot import choose

        return choose(_typed(state), seat, rng)


RULESET = Fortuna()
