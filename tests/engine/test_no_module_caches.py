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

# The rulesets restructured so far; the others still keep caches (issue 31 lists them).
CACHE_FREE = ["fortuna", "suburbia", "tiny_towns"]


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


@pytest.mark.parametrize("ruleset_id", CACHE_FREE)
def test_playing_games_leaves_every_module_level_container_as_it_was(ruleset_id):
    """Three random games with every seat's and a spectator's view after each move: no dict,
    list or set at module level of the ruleset's modules gains, loses or changes a value."""
    ruleset = registry.get(ruleset_id)
    assert ruleset is not None
    before = _module_state(ruleset_id)
    moves = 0
    for seed in range(3):
        players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
        state = ruleset.setup(players, ruleset.Options(), seed)
        rng = Rng(seed)
        while to_act := ruleset.to_act(state):
            seat = rng.choice(to_act)
            state = ruleset.apply(state, seat, random_move(ruleset, state, seat, rng))
            for viewer in (*range(players), None):
                ruleset.view(state, viewer)
            moves += 1
    assert moves > 100
    assert _module_state(ruleset_id) == before
