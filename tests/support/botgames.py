"""Pure games between a ruleset's bot and random legal play, for the rulesets' bot tests."""

from __future__ import annotations

from typing import Any

from app.engine.rng import Rng
from app.engine.ruleset import Outcome


def play_bot_game(ruleset: Any, players: int, seed: int, bots: set[int], options: Any = None) -> Outcome:
    """Play one game to its end: seats in `bots` use the ruleset's bot (each move checked to be
    listed in legal_moves), the others pick uniformly among legal moves; returns the outcome."""
    state = ruleset.setup(players, options if options is not None else ruleset.Options(), seed)
    rng = Rng.from_seed(seed, "bot-test")
    while ruleset.to_act(state):
        seat = ruleset.to_act(state)[0]
        if seat in bots:
            move = ruleset.bot_move(state, seat, rng)
            assert move in ruleset.legal_moves(state, seat), (state.get("phase"), move)
        else:
            move = rng.choice(ruleset.legal_moves(state, seat))
        state = ruleset.apply(state, seat, move)
    return ruleset.outcome(state)


def duel_wins(ruleset: Any, seeds: range) -> int:
    """Two-player games, the bot taking seat 0 and seat 1 in turn: how many it won outright."""
    wins = 0
    for i, seed in enumerate(seeds):
        bot = i % 2
        out = play_bot_game(ruleset, 2, seed, {bot})
        wins += out.ranks[bot] == 1 and out.ranks[1 - bot] != 1
    return wins
