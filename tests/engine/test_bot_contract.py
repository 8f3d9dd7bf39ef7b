"""The bot hook of every registered ruleset: `has_bot` says whether the ruleset has its own bot,
and that bot answers legal moves (the platform plays it for bot seats, see app.services.bots)."""

from __future__ import annotations

import pytest

import app.rulesets  # noqa: F401  (registers the product's rulesets)
from app.engine import registry
from app.engine.rng import Rng
from app.engine.ruleset import RulesetHooks
from app.engine.runner import parse_options

RULESETS = [pytest.param(r, id=r.id) for r in registry.all_rulesets()]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_has_bot_matches_the_bot_hook_and_the_bot_plays_legal_moves(ruleset):
    """Bot contract: `has_bot` is true exactly when the ruleset overrides `bot_move`; its bot's
    first 30 moves of a game (every seat, seed 1) are all listed legal moves."""
    own = type(ruleset).bot_move is not RulesetHooks.bot_move
    assert bool(ruleset.has_bot) == own, f"{ruleset.id}: has_bot={ruleset.has_bot}, own bot={own}"
    if not own:
        return
    players = max(ruleset.min_players, min(2, ruleset.max_players))
    state = ruleset.setup(players, parse_options(ruleset, {}), 1)
    rng = Rng.from_seed(1, "bot-contract")
    for _ in range(30):
        to_act = ruleset.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        move = ruleset.bot_move(state, seat, rng)
        assert move in ruleset.legal_moves(state, seat), f"{ruleset.id} seed 1: bot chose {move}"
        state = ruleset.apply(state, seat, move)
