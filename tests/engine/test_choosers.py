"""Bot levels (app/engine/choosers.py): what a worker decides from the state it reads as JSON is
what the same level decides from the server's own copy, for every product ruleset."""

from __future__ import annotations

import pytest

from app import rulesets as _product  # noqa: F401  (registers the product's rulesets)
from app.bot_worker import parse
from app.engine import choosers, registry
from app.engine.rng import Rng
from app.engine.ruleset import random_move
from app.services.bot_pool import encode

PRODUCT = [r for r in registry.all_rulesets() if r.__class__.__module__.startswith("app.rulesets")]
SAMPLES = 12  # decisions compared per ruleset, spread over a game


def _as_a_worker_reads_it(request: dict) -> dict:
    return parse(encode(request))


@pytest.mark.parametrize("ruleset", PRODUCT, ids=lambda r: r.id)
def test_a_bot_decides_the_same_on_the_state_a_worker_reads(ruleset):
    """At decisions spread over a random game, the default level's move from the request as a
    worker decodes it equals its move from the state object itself (so sending the state as
    JSON changes no bot's play: tuples become lists, integer keys strings)."""
    players = max(2, ruleset.min_players)
    state = ruleset.setup(players, ruleset.Options(), 11)
    rng = Rng.from_seed(11, "walk")
    seen = step = 0
    while (to_act := ruleset.to_act(state)) and seen < SAMPLES:
        seat = rng.choice(to_act)
        if step % 5 == 0:
            seed = Rng.from_seed(11, "bot", step, seat).state
            request = {
                "ruleset": ruleset.id,
                "state": state,
                "seat": seat,
                "level": "normal",
                "seed": seed,
                "budget": 0.0,
            }
            assert choosers.decide(_as_a_worker_reads_it(request)) == choosers.heuristic(
                ruleset, state, seat, seed, 0.0
            )
            seen += 1
        state = ruleset.apply(state, seat, random_move(ruleset, state, seat, rng))
        step += 1
    assert seen == SAMPLES or not ruleset.to_act(state)


def test_an_unknown_level_is_the_default_and_a_new_level_plugs_in():
    """A request naming a level this server lacks gets the default level; `register` adds one
    that `decide` then uses, with its budget passed through."""
    ruleset = registry.get("suburbia") or PRODUCT[0]
    state = ruleset.setup(2, ruleset.Options(), 5)
    seat = ruleset.to_act(state)[0]
    request = {"ruleset": ruleset.id, "state": state, "seat": seat, "seed": 9, "budget": 0.25}
    assert choosers.decide({**request, "level": "grandmaster"}) == choosers.heuristic(
        ruleset, state, seat, 9, 0.25
    )
    asked = []

    def first_legal(r, s, seat_, seed, budget):
        asked.append(budget)
        return r.legal_moves(s, seat_)[0]

    choosers.register("test-first", first_legal, budget=0.25)
    try:
        assert choosers.decide({**request, "level": "test-first"}) == ruleset.legal_moves(state, seat)[0]
        assert asked == [0.25] and choosers.level("test-first").budget == 0.25
    finally:
        del choosers.LEVELS["test-first"]
