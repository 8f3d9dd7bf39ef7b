"""Rulesets keep no module-level caches (issue 31): the engine's diff skips unchanged parts of
fresh views, so nothing in a ruleset's modules grows or changes while games are played."""

from __future__ import annotations

import importlib
import pkgutil
import types
from typing import Any

import pytest

from app import rulesets as _product_rulesets  # noqa: F401  (registers the rulesets)
from app.engine import registry
from app.engine.rng import Rng
from app.engine.ruleset import random_move

# The rulesets restructured so far (id: package): all five.
CACHE_FREE = {
    "city-council": "city_council",
    "fortuna": "fortuna",
    "fortune-city": "fortune_city",
    "suburbia": "suburbia",
    "tiny-towns": "tiny_towns",
}
# Those whose every hook that reads a state (legal moves, the log, determinize, playouts, the
# bot) keeps no cache either.
EVERY_HOOK = {"city-council", "fortuna", "fortune-city", "suburbia", "tiny-towns"}


def _module_state(package: str) -> dict[str, Any]:
    """Every module-level value of the package's modules that could hold a cache: each
    container's contents, each other value's identity (a tuple replaced whole), and each
    functools cache's size."""
    root = importlib.import_module(f"app.rulesets.{package}")
    found: dict[str, Any] = {}
    for info in pkgutil.iter_modules(root.__path__):
        module = importlib.import_module(f"{root.__name__}.{info.name}")
        for name, value in vars(module).items():
            if name.startswith("__") or isinstance(value, types.ModuleType):
                continue
            key = f"{info.name}.{name}"
            if hasattr(value, "cache_info"):
                found[key] = value.cache_info().currsize
            elif isinstance(value, (dict, list, set)):
                found[key] = repr(value)
            elif not callable(value):
                found[key] = id(value)
    return found


@pytest.mark.parametrize("ruleset_id", sorted(CACHE_FREE))
def test_playing_games_leaves_every_module_level_container_as_it_was(ruleset_id):
    """Three random games with every seat's and a spectator's view after each move, and (for
    EVERY_HOOK) every tenth move the other readings of a state (legal moves, the log,
    determinize, a playout, the bot): no dict, list or set at module level of the ruleset's modules gains, loses or changes
    a value."""
    ruleset = registry.get(ruleset_id)
    assert ruleset is not None
    package = CACHE_FREE[ruleset_id]
    before = _module_state(package)
    moves = 0
    for seed in range(3):
        players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
        state = ruleset.setup(players, ruleset.Options(), seed)
        rng = Rng(seed)
        while to_act := ruleset.to_act(state):
            seat = rng.choice(to_act)
            move = random_move(ruleset, state, seat, rng)
            if moves % 10 == 0 and ruleset_id in EVERY_HOOK:
                _read_all_ways(ruleset, state, seat, move, rng)
            state = ruleset.apply(state, seat, move)
            for viewer in (*range(players), None):
                ruleset.view(state, viewer)
            moves += 1
    assert moves > 100
    assert _module_state(package) == before


def _read_all_ways(ruleset: Any, state: Any, seat: int, move: Any, rng: Rng) -> None:
    """Every hook that reads a state without playing the game's next move."""
    ruleset.legal_moves(state, seat)
    ruleset.log_text(state, seat, move, None)
    ruleset.describe_move(move)
    ruleset.playout(ruleset.determinize(state, seat, Rng(rng.below(1000))), Rng(rng.below(1000)))
    if ruleset.has_bot:
        ruleset.bot_move(state, seat, Rng(rng.below(1000)))
