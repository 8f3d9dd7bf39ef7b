"""Legality: over sampled states a move is accepted exactly when it is in legal_moves; bad moves
raise IllegalMove with a sentence naming the rule and leave the game unchanged."""

from __future__ import annotations

import copy
import json

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from tests.rulesets.city_council.helpers import R, game, random_states


def _mutations(s, seat, rng):
    """Plausible but possibly illegal moves: legal moves with a field changed, and moves of other
    phases."""
    legal = R.legal_moves(s, seat)
    out = []
    for mv in legal[:5]:
        for key, value in mv.items():
            if key == "type":
                continue
            bad = copy.deepcopy(mv)
            if isinstance(value, int) and not isinstance(value, bool):
                bad[key] = value + 1
            elif isinstance(value, str):
                bad[key] = value[:-1] + ("9" if value[-1] != "9" else "8")
            elif isinstance(value, list) and value:
                bad[key] = value[:-1]
            out.append(bad)
    out += [
        {"type": "pass"},
        {"type": "done"},
        {"type": "embezzle"},
        {"type": "fund_done"},
        {"type": "vote", "plan": seat},
        {"type": "vote2_pass"},
        {"type": "zone", "zone": "res1", "token": "section"},
        {"type": "execute", "plan": 0, "cells": [[0, 0]]},
    ]
    return out


@pytest.mark.parametrize(("n", "opts"), [(2, {}), (4, {}), (3, {"mode": "sandbox"})])
def test_accepted_exactly_when_legal(n, opts):
    """Every legal move is accepted; a sampled move outside legal_moves raises IllegalMove."""
    rng = Rng(n)
    for _, _, s in random_states(n, 11, 300, **opts)[::3]:
        for seat in range(n):
            legal = {json.dumps(m, sort_keys=True) for m in R.legal_moves(s, seat)}
            for mv in _mutations(s, seat, rng) if seat in R.to_act(s) else [{"type": "done"}]:
                key = json.dumps(mv, sort_keys=True)
                before = json.dumps(s, sort_keys=True)
                if key in legal:
                    R.apply(s, seat, mv)
                else:
                    with pytest.raises(IllegalMove):
                        R.apply(s, seat, mv)
                assert json.dumps(s, sort_keys=True) == before


def test_bad_move_names_the_rule():
    """Bad moves: the IllegalMove sentence names the rule that forbids the move."""
    s = game(3, 1)
    d = s["decider"]
    with pytest.raises(IllegalMove, match="Committees phase"):
        R.apply(s, d, {"type": "committees", "seats": ["election", "election", "election"]})
    with pytest.raises(IllegalMove, match="not your turn"):
        R.apply(s, (d + 1) % 3, {"type": "committees", "seats": [None, None, None]})
    with pytest.raises(IllegalMove, match="object with a type"):
        R.apply(s, d, ["x"])
