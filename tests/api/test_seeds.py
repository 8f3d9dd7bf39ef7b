"""Reproducible games for tests and bug reports: the game_seed setting fixes every new game's seed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.engine.rng import seed_hash
from app.main import create_app
from tests.support.api import doc, started_game


def test_a_fixed_game_seed_makes_games_repeat(settings):
    """Seeds: with game_seed set, two games get that seed (same hash, same deal); without it they
    differ."""
    fixed = settings.model_copy(update={"game_seed": 1234})
    with TestClient(create_app(fixed)) as client:
        first, (a1, _) = started_game(client)
        second, (a2, _) = started_game(client)
        one, two = doc(client, first, a1), doc(client, second, a2)
        assert one["seed_hash"] == two["seed_hash"] == seed_hash(1234)
        assert one["view"]["hand"] == two["view"]["hand"]
    free = settings.model_copy(update={"game_seed": None})
    with TestClient(create_app(free)) as client:
        first, _ = started_game(client)
        second, _ = started_game(client)
        assert doc(client, first)["seed_hash"] != doc(client, second)["seed_hash"]
