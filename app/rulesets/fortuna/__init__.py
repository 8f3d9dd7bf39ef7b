"""Fortuna (Rieneck & Stadler, The Game Master 2011): 2-4 players travel to Rome by winning the
Emperor's favour with dice, resources and action cards.

`RULESET` is the registered entry point; the rules live in rules.py, the card content in
data/*.toml (reconstructed values are marked there and listed in NOTES.md).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from app.engine.ruleset import CannotUpgrade, Move, Outcome, RulesetHooks, State, ranks_from_keys
from app.rulesets.fortuna import data
from app.rulesets.fortuna import rules
from app.rulesets.fortuna.rules import apply_move, legal_moves, setup_state, active
from app.rulesets.fortuna.scoring import breakdown, tie_key
from app.rulesets.fortuna.view import (describe, determinize_state, log_text, public_move_for,
                                       view_state)


NO_WINNER = "No one wins: nobody reached Rome, and only players inside Rome (step 10 or more) can win."


class FortunaOptions(BaseModel):
    """Variants. Defaults: the standard game."""

    model_config = {"extra": "forbid"}
    two_player_flip: bool = Field(
        True, title="2-player rule: extra favour card flip", description="2 players: the start player flips one more favour card without tokens "
                          "after phase 4 (the rulebook's 2-player rule)")
    peek_own_card: bool = Field(
        False, title="Look at your face-down starting card", description="Players may look at the action card dealt face down to them at setup "
                           "(the rulebook is silent; by default nobody sees it until it is flipped)")


class Fortuna(RulesetHooks):
    """Fortuna: action cards, dice and the Emperor's favour on the road to Rome."""

    id = "fortuna"
    # 2: single-answer steps automatic; 3: military power pays first; 4: reconstructed values
    # adjusted after simulation (Grain Trade, the Fortuna card, Basilica: NOTES); 5: rules review
    # 2 (issue 25): nobody inside Rome, nobody wins; a seat's knowledge of the deck changes only
    # with what it saw (`fresh`), determinize reads only the seat's view
    version = "5"
    name = "Fortuna"
    min_players = 2
    max_players = 4
    Options = FortunaOptions
    has_bot = True
    conformance_options: list[dict[str, Any]] = [{"two_player_flip": False}, {"peek_own_card": True}]

    def setup(self, players: int, options: BaseModel, seed: int) -> State:
        """Deal the action cards, shuffle the privilege deck, draw the start-player order."""
        opts = FortunaOptions.model_validate(options.model_dump())
        return setup_state(players, opts.model_dump(), seed)

    def to_act(self, state: State) -> list[int]:
        """The active player (turns are strictly one at a time)."""
        seat = active(state)
        return [] if seat is None else [seat]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every concrete move the seat may make now."""
        return legal_moves(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The next state; raises IllegalMove naming the rule that forbids the move."""
        return apply_move(state, seat, move)

    def playout(self, state: State, rng: Any) -> State:
        """A random game to the end on one private copy changed in place (rules.playout)."""
        return rules.playout(state, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """The table as the seat sees it."""
        return view_state(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Steps plus privilege points for players inside Rome; ties by steps, money, Centurions,
        Vestals (players outside Rome rank below everyone inside). With nobody inside Rome
        nobody wins (RB-F The Winner of the Game): no winner, every seat shares the rank."""
        if state["step"] != "over":
            return None
        board = breakdown(state)
        scores = [b["total"] for b in board]
        if not any(b["inside_rome"] for b in board):
            return Outcome(scores, [1] * len(board), board, {"winners": [], "result": NO_WINNER})
        return Outcome(scores, ranks_from_keys([tie_key(b) for b in board]), board)

    def determinize(self, state: State, seat: int | None, rng: Any) -> State:
        """Re-deal every card the seat has not seen."""
        return determinize_state(state, seat, rng)

    def public_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move | None:
        """Hide which privilege cards were kept."""
        return public_move_for(state, seat, move, viewer)

    def log_text(self, state: State, seat: int, move: Move, viewer: int | None) -> str:
        """The move in words, revealing nothing the viewer may not know."""
        return log_text(state, seat, move, viewer)

    def describe_move(self, move: Move) -> str:
        """A short label for a move."""
        return describe(move)

    def catalogue(self) -> dict[str, Any]:
        """Card data (names, texts, costs) for the browser."""
        return {
            "actions": {r["id"]: {"name": r["name"], "text": r["text"]} for r in data.ACTION_ROWS},
            "favours": {r["number"]: {"name": r["name"], "text": r["text"], "gives": r["gives"],
                                      "max_steps": r["max_steps"]} for r in data.FAVOUR_ROWS},
            "buildings": {r["id"]: {"name": r["name"], "cost": r["cost"], "text": r["text"]}
                          for r in data.BUILDING_ROWS},
            "privileges": {r["id"]: {"cls": r["cls"], "name": r["name"], "gain": r.get("gain"),
                                     "vp": r.get("vp")} for r in data.PRIVILEGE_ROWS},
            "slots": data.SLOT_PRICES, "palace": data.PALACE_STEP, "gate": data.GATE_STEP,
        }

    def upgrade_state(self, state: State | None, from_version: str) -> State | None:
        """Versions 3 and 4 -> 5: a snapshot plays on. 3 -> 4 changed only values in data/*.toml;
        4 -> 5 adds `fresh` and `fresh_palace` (how many cards of each hand, and whether the
        palace cards, came from the deck since the last reshuffle). A version-4 seat's `known`
        lists only cards still in the deck (each draw struck its cards off every list), so no
        known card sits in a hand or on the palace table: zeros are exact. A game without a
        snapshot is refused (replaying its moves from setup under the new values could reach
        other states or refuse a move), as are versions 1-2 (other automatic steps and
        military-power order)."""
        if from_version not in ("3", "4") or state is None:
            raise CannotUpgrade(f"Fortuna cannot carry a game from version {from_version} "
                                f"{'without a snapshot ' if state is None else ''}to version {self.version}.")
        return {**state, "fresh": [0] * state["n"], "fresh_palace": False}

    def bot_move(self, state: State, seat: int, rng: Any) -> Move | None:
        """The heuristic bot (bot.py)."""
        from app.rulesets.fortuna.bot import choose
        return choose(state, seat, rng)


RULESET = Fortuna()
