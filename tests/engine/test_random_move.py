"""The `random_move` hook's conformance check: it catches samplers that break the contract."""

from __future__ import annotations

import pytest

from app.engine.conformance import check_random_move
from app.engine.rng import Rng
from tests.support.testgame import TEST_GAME, TestGame


def _draw_phase_state():
    """A one-player test game in its draw phase, where the legal moves are draw and pass."""
    state = TEST_GAME.setup(1, TEST_GAME.Options(), 4)
    state = TEST_GAME.apply(state, 0, TEST_GAME.legal_moves(state, 0)[0])
    assert {m["type"] for m in TEST_GAME.legal_moves(state, 0)} == {"draw", "pass"}
    return state


class _NeverPasses(TestGame):
    """Draws only the first legal move: a sampler that misses a kind of move."""

    def random_move(self, state, seat, rng):
        return self.legal_moves(state, seat)[0]


class _Invents(TestGame):
    """Draws a move that is not listed (a bid in the draw phase)."""

    def random_move(self, state, seat, rng):
        return {"type": "bid", "card": "K001"}


def test_default_random_move_passes_the_check():
    """Contract: the default hook draws uniformly from legal_moves, reaching every kind."""
    check_random_move(TEST_GAME, _draw_phase_state(), 0, Rng.from_seed(1), "default")


def test_a_sampler_that_misses_a_kind_of_move_fails_the_check():
    """Contract: random_move must reach every kind of move legal_moves lists."""
    with pytest.raises(AssertionError, match="never drew a move of kind"):
        check_random_move(_NeverPasses(), _draw_phase_state(), 0, Rng.from_seed(1), "never")


def test_a_sampler_that_draws_an_unlisted_move_fails_the_check():
    """Contract: random_move returns only members of legal_moves."""
    with pytest.raises(AssertionError, match="not in legal_moves"):
        check_random_move(_Invents(), _draw_phase_state(), 0, Rng.from_seed(1), "invents")
