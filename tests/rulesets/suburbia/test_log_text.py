"""The log in words for Suburbia: tile names, prices and neighbours; secret goals stay secret."""

from __future__ import annotations

from app.rulesets.suburbia.market import surcharges
from app.rulesets.suburbia.tables import GOALS, KINDS
from tests.rulesets.suburbia.helpers import R, game, put, turn_of, with_market


def test_buy_names_the_tile_its_price_and_its_neighbours() -> None:
    """Log rule: buying says which tile, from which market space, the price paid (cost +
    surcharge, RB-S Real Estate Market) and the tiles it was built next to."""
    state = turn_of(
        with_market(
            game(),
            [
                "suburbs",
                "community_park",
                "heavy_factory",
                "suburbs",
                "community_park",
                "heavy_factory",
                "suburbs",
            ],
        ),
        0,
    )
    state = put(state, 0, money=50)
    slot = 1
    move = {"type": "buy", "slot": slot, "at": [1, 0]}  # beside Suburbs (0,0) and Park (0,1)
    price = KINDS["community_park"].cost + surcharges(state)[slot]
    text = R.log_text(state, 0, move, 1)
    assert text == (
        f"{{seat0}} bought Community Park from market space 2 for ${price} and built "
        f"it next to Community Park and Suburbs."
    )


def test_basic_tile_and_pass_sentences() -> None:
    """Log rule: a basic tile names itself and its printed cost; passing is one word."""
    state = turn_of(game(), 1)
    assert (
        R.log_text(state, 1, {"type": "basic", "tile": "suburbs", "at": [0, -1]}, None)
        == f"{{seat1}} built a Suburbs for ${KINDS['suburbs'].cost} next to Suburbs."
    )
    assert R.log_text(state, 1, {"type": "pass"}, 0) == "{seat1} passed."


def test_kept_goal_is_named_only_to_its_owner() -> None:
    """Hidden information: a kept secret goal is named to its owner, not to others or spectators."""
    state = R.setup(2, R.Options(), 3)
    goal = state["secret"][0]["dealt"][0]
    move = {"type": "keep_goal", "goal": goal}
    assert GOALS[goal].name in R.log_text(state, 0, move, 0)
    for viewer in (1, None):
        text = R.log_text(state, 0, move, viewer)
        assert text == "{seat0} kept a secret goal." and GOALS[goal].name not in text
