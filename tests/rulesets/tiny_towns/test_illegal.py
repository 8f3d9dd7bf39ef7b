"""Bad moves raise IllegalMove naming the rule, and leave the input state unchanged."""

from __future__ import annotations

import json

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R
from tests.rulesets.tiny_towns.helpers import build, name, new_game, round_with, town, with_player

E = ". . . ."


def _cases():
    st0 = R.setup(2, R.Options(fortune=True), 0)
    named = name(new_game(2), "wood")
    building = round_with(with_player(new_game(2), 0, town("Wd St . .", E, E, E)), "wheat", [15, 15])
    cath = with_player(
        new_game(2, buildings=["cottage", "farm", "tavern", "cathedral", "theater", "well", "factory"]),
        0,
        town(". . Gl .", "St Gl Br .", E, E),
    )
    cath = build(round_with(cath, "wood", [15, 15]), 0, "cathedral", [2, 4, 5, 6], 5)
    tea = with_player(
        new_game(2, buildings=["cottage", "farm", "tavern", "chapel", "teahouse", "well", "factory"]),
        0,
        town(". Wh . farm", "Wd Gl Wd tavern", ". cottage . .", ". well . ."),
    )
    tea = build(round_with(tea, "wood", [15, 15]), 0, "teahouse", [1, 4, 5, 6], 5)
    free = with_player(new_game(2, town_hall=True), 1, town(*[E] * 3, ". . bank ."), store={"14": ["stone"]})
    for cells in ([0, 0], [1, 1]):
        for seat, cell in enumerate(cells):
            free = R.apply(free, seat, {"type": "place", "resource": free["named"], "cell": cell})
        free = R.apply(R.apply(free, 0, {"type": "done"}), 1, {"type": "done"})
    return [
        (tea, 0, {"type": "choose", "line": "diagonal"}, "pending card effect"),
        (tea, 0, {"type": "choose", "coins": 2}, "pending card effect"),
        (free, 1, {"type": "place", "resource": "stone", "cell": 3}, "free-choice round"),
        (st0, 0, {"type": "keep_monument", "monument": "starloom_x"}, "one of the two monuments"),
        (new_game(2), 1, {"type": "name", "resource": "wood"}, "not your turn"),
        (new_game(2), 0, {"type": "name", "resource": "gold"}, "names one of the five"),
        (new_game(2), 0, {"type": "done"}, "not allowed in the name step"),
        (named, 1, {"type": "place", "resource": "wood", "cell": 99}, "not allowed"),
        (named, 0, {"type": "place", "resource": "glass", "cell": 1}, "Master Builder"),
        (named, 1, {"type": "place", "resource": "glass", "cell": 1}, "costs 1 coin"),
        (named, 1, {"type": "museum"}, "reactions"),
        (building, 0, {"type": "build", "card": "well", "cells": [0, 1], "at": 7}, "one of the squares"),
        (building, 0, {"type": "build", "card": "well", "cells": [0, 4], "at": 0}, "pattern"),
        (building, 0, {"type": "build", "card": "bank", "cells": [0, 1], "at": 0}, "in play"),
        (building, 0, {"type": "build", "card": "starloom", "cells": [0, 1], "at": 0}, "monument"),
        (building, 0, {"type": "place", "resource": "wood", "cell": 3}, "not allowed in the build step"),
        (cath, 0, {"type": "done"}, "pending card effect"),
        (cath, 0, {"type": "choose", "pay": True}, "pending card effect"),
        (named, 1, {"type": "place", "resource": "wood", "cell": True}, "not allowed"),
        (
            building,
            0,
            {"type": "build", "card": "well", "cells": [0, True], "at": 0},
            "squares of the pattern",
        ),
    ]


@pytest.mark.parametrize("case", range(20))
def test_illegal_move_names_rule_and_keeps_state(case):
    """Bad moves: IllegalMove with a reason naming the rule; the input state is untouched."""
    st, seat, move, words = _cases()[case]
    before = json.dumps(st, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        R.apply(st, seat, move)
    assert words.lower() in err.value.reason.lower()
    assert json.dumps(st, sort_keys=True) == before


def test_every_legal_move_is_accepted_in_a_busy_position():
    """Legal moves: every listed move is accepted by apply (constructing with several options)."""
    st = with_player(new_game(2), 0, town("Wd St Wd St", "Wh Wh Br Gl", "Br Br Gl .", E))
    st = round_with(st, "wheat", [15, 15])
    moves = R.legal_moves(st, 0)
    assert len(moves) >= 10
    for move in moves:
        R.apply(st, 0, move)
