"""The conformance test: every registered ruleset, every player count, every variant, many seeds.

`CIVITAS_CONFORMANCE_SEEDS` raises the number of seeds for long runs (default small for `make test`).
"""

from __future__ import annotations

import os

import pytest

import app.rulesets  # noqa: F401  (registers the product's rulesets)
from app.engine import registry
from app.engine.conformance import (
    check_determinize_depends_only_on_view,
    check_playout,
    random_move_playout,
    random_playout,
    sampled_states,
)
from tests.support.testgame import TEST_GAME

SEEDS = int(os.environ.get("CIVITAS_CONFORMANCE_SEEDS", "3"))


def _cases():
    rulesets = {r.id: r for r in registry.all_rulesets()}
    rulesets[TEST_GAME.id] = TEST_GAME
    for ruleset in rulesets.values():
        counts = ruleset.conformance_players or range(ruleset.min_players, ruleset.max_players + 1)
        for options in [{}, *ruleset.conformance_options]:
            for players in counts:
                yield pytest.param(ruleset, players, options, id=f"{ruleset.id}-{players}p-{options}")


def _rulesets():
    rulesets = {r.id: r for r in registry.all_rulesets()}
    rulesets[TEST_GAME.id] = TEST_GAME
    return [pytest.param(r, id=r.id) for r in rulesets.values()]


@pytest.mark.parametrize("ruleset", _rulesets())
def test_conformance_options_are_valid_options(ruleset):
    """Every option set a ruleset asks the conformance test to play is valid for its Options
    (an invalid one must fail here, not be skipped quietly)."""
    for options in ruleset.conformance_options:
        ruleset.Options.model_validate(options)


@pytest.mark.parametrize(("ruleset", "players", "options"), list(_cases()))
def test_random_play_conforms(ruleset, players, options):
    """Random legal play terminates, every legal move is accepted and near misses of legal moves
    that are not listed are refused, views survive determinize, replay rebuilds the state, and
    the outcome appears exactly at the end."""
    for seed in range(SEEDS):
        random_playout(ruleset, players, options, seed)


@pytest.mark.parametrize(("ruleset", "players", "options"), list(_cases()))
def test_random_move_draws_legal_moves_of_every_kind(ruleset, players, options):
    """The `random_move` hook (a ruleset's fast sampler or the default) returns only moves listed
    by `legal_moves`, reaches every kind of move listed, and plays games to their end."""
    assert random_move_playout(ruleset, players, options, seed=0) > 0


@pytest.mark.parametrize(("ruleset", "players", "options"), list(_cases()))
def test_playout_hook_matches_the_reference_playout(ruleset, players, options):
    """The `playout` hook (a ruleset's fast path or the default) reaches the same final state as
    the reference loop of `random_move` and `apply`, from the setup and from mid-game states."""
    check_playout(ruleset, players, options, seed=1)


@pytest.mark.parametrize("ruleset", _rulesets())
def test_determinize_depends_only_on_the_seats_view(ruleset):
    """Fairness of bots (rules review, item 16): over 200 sampled states, two states whose views
    for a seat are equal determinize to the same state with the same generator, for every seat."""
    players = ruleset.conformance_players[0] if ruleset.conformance_players else max(ruleset.min_players, 2)
    states = sampled_states(ruleset, players, {}, seed=5, count=200)
    for index, state in enumerate(states):
        for seat in range(players):
            check_determinize_depends_only_on_view(
                ruleset, state, seat, seed=index, label=f"{ruleset.id} state {index}"
            )
