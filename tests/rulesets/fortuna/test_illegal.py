"""Bad moves raise IllegalMove naming the rule and leave the state unchanged; over sampled
states a move is accepted exactly when it is in legal_moves."""

from __future__ import annotations

import json

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.helpers import at, favours, game, province, seat_to_act


def _cases():
    s = game(2, seed=0)
    me = seat_to_act(s)
    fav = province(favours(at(s, phase="favour", rolled=[2], chosen_slot=0), used=(1,)), me, wine=0)
    return [
        (s, 1 - me, {"type": "play", "slot": 0, "args": None}, "not your turn"),
        (s, me, {"type": "favour", "card": 1, "n": 1}, "strict order"),
        (s, me, {"type": "play", "slot": 7, "args": None}, "three action cards"),
        (s, me, {"type": "play", "slot": True, "args": None}, "three action cards"),
        (s, me, {"play": 1}, "object with a 'type'"),
        (fav, me, {"type": "favour", "card": 1, "n": 1}, "flipped over"),
        (fav, me, {"type": "favour", "card": 5, "n": 1}, "highest die"),
        (fav, me, {"type": "favour", "card": 2, "n": 1}, "only what you have"),
        (fav, me, {"type": "pass", "die": 6}, "dice you rolled"),
        (fav, me, {"type": "privilege", "card": "B1"}, "you hold"),
        (fav, me, {"type": "end"}, "strict order"),
    ]


@pytest.mark.parametrize("case", range(11))
def test_illegal_move_names_the_rule_and_keeps_the_state(case):
    """Bad moves: IllegalMove with a sentence naming the rule; the input state is untouched."""
    s, seat, move, words = _cases()[case]
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalMove) as err:
        R.apply(s, seat, move)
    assert words.lower() in err.value.reason.lower()
    assert json.dumps(s, sort_keys=True) == before


def _mutations(move, rng):
    """Near-miss variants of a legal move: each field nudged, dropped or swapped."""
    out = []
    for key, value in move.items():
        if key == "type":
            for t in (
                "play",
                "exchange",
                "military",
                "skip",
                "favour",
                "pass",
                "flip",
                "keep",
                "palace",
                "privilege",
                "end",
            ):
                out.append({**move, "type": t})
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            out += [{**move, key: value + 1}, {**move, key: value - 1}, {**move, key: rng.below(7)}]
        elif isinstance(value, dict):
            for k2, v2 in value.items():
                if isinstance(v2, int):
                    out.append({**move, key: {**value, k2: v2 + 1}})
        out.append({k: v for k, v in move.items() if k != key})
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_move_is_accepted_exactly_when_it_is_legal(n):
    """Legality: over sampled states of played games, every candidate (legal moves and near
    misses) is accepted by apply exactly when it is listed in legal_moves, for every seat."""
    rng = Rng(n)
    s = R.setup(n, R.Options(), 40 + n)
    checked = 0
    while R.to_act(s) and checked < 4000:
        seat = R.to_act(s)[0]
        legal = R.legal_moves(s, seat)
        keys = {json.dumps(m, sort_keys=True) for m in legal}
        candidates = legal + [m for move in legal[:6] for m in _mutations(move, rng)]
        for cand in candidates:
            for who in range(n):
                ok = who == seat and json.dumps(cand, sort_keys=True) in keys
                try:
                    R.apply(s, who, cand)
                    accepted = True
                except IllegalMove:
                    accepted = False
                assert accepted == ok, (cand, who, s["phase"])
                checked += 1
        s = R.apply(s, seat, R.bot_move(s, seat, rng) if rng.below(2) else rng.choice(legal))
    assert checked > 1000
