"""The log in words for Tiny Towns: squares as the board labels them, buildings by name."""

from __future__ import annotations

from app.rulesets.tiny_towns import RULESET as R
from app.rulesets.tiny_towns.logtext import square
from tests.rulesets.tiny_towns.helpers import new_game, town, with_player


def test_squares_are_named_by_column_letter_and_row_number() -> None:
    """Board labels: columns A-D left to right, rows 1-4 from the top; cell 0 is A1, 9 is B3."""
    assert [square(c) for c in (0, 3, 4, 9, 15)] == ["A1", "D1", "A2", "B3", "D4"]


def test_place_and_name_sentences() -> None:
    """Log rule: naming and placing say which resource and which square, in words."""
    st = new_game()
    assert R.log_text(st, 0, {"type": "name", "resource": "brick"}, 1) == "{seat0} named brick for everyone."
    assert (
        R.log_text(st, 1, {"type": "place", "resource": "brick", "cell": 9}, 0)
        == "{seat1} placed brick on B3."
    )


def test_build_names_the_card_its_square_and_the_resources_used() -> None:
    """Log rule: constructing names the building, where it went and which cubes it used."""
    st = with_player(new_game(), 0, town("Wh . . .", "Br Gl . .", ". . . .", ". . . ."))
    move = {"type": "build", "card": "cottage", "cells": [4, 0, 5], "at": 0}
    assert (
        R.log_text(st, 0, move, None)
        == "{seat0} constructed Cottage on A1 from wheat on A1, brick on A2 and glass on B2."
    )


def test_kept_monument_is_named_only_to_its_owner() -> None:
    """Hidden information: which monument a player kept is secret until built."""
    st = R.setup(2, R.Options(fortune=True), 1)
    mon = st["p"][1]["dealt"][0]
    move = {"type": "keep_monument", "monument": mon}
    assert R.log_text(st, 1, move, 1).startswith("{seat1} kept the monument ")
    assert R.log_text(st, 1, move, 0) == "{seat1} kept a secret monument."
    assert R.log_text(st, 1, move, None) == "{seat1} kept a secret monument."
