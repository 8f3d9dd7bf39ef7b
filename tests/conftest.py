"""Shared fixtures: the test-only game is registered for every test session."""

from __future__ import annotations

import pytest

from app.engine import registry
from tests.support.testgame import TEST_GAME


@pytest.fixture(autouse=True, scope="session")
def _register_test_game():
    registry.register(TEST_GAME)
    yield
    registry.unregister(TEST_GAME.id)
