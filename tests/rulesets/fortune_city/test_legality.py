"""Legality check: over sampled states, a move is accepted exactly when it is in legal_moves, and
a refused move leaves the state unchanged with a sentence naming the rule."""

from __future__ import annotations

import json

import pytest

from app.engine.memo import Memo
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R


def _mutations(move, rng):
    """Near-miss variants of a legal move: each field nudged, dropped or doubled up."""
    out = []
    for k, v in move.items():
        if k == "type":
            continue
        m = dict(move)
        del m[k]
        out.append(m)
        if isinstance(v, bool):
            out.append({**move, k: 1})
        elif isinstance(v, int):
            out += [{**move, k: v + 1}, {**move, k: v - 1}, {**move, k: str(v)}]
        elif isinstance(v, list):
            out += [
                {**move, k: [v[0] + 1, v[1]]},
                {**move, k: [v[0], v[1] - 1]},
                {**move, k: [v[0] + 1, v[1] + 1]},
                {**move, k: v[:1]},
            ]
    out.append({**move, "extra": 1})
    if move["type"] in ("buy", "bank", "construct", "vip"):
        out += [
            {**move, "gold": True},
            {**{k: v for k, v in move.items() if k != "gold"}, "card": rng.below(4)},
            {**move, "return": rng.below(2)},
        ]
    return out


def _universe(st):
    """Moves of every kind over a box of squares, whatever the phase."""
    out = [{"type": "pass"}, {"type": "done"}, {"type": "vip", "card": 0}, {"type": "vip", "gold": True}]
    for x in range(-3, 4):
        for y in range(-2, 4):
            out += [
                {"type": "drive", "to": [x, y]},
                {"type": "bank", "at": [x, y], "card": 0},
                {"type": "construct", "zone": 0, "at": [x, y], "card": 1},
                {"type": "hire", "citizen": "red", "at": [x, y]},
                {"type": "hire", "citizen": "vip", "at": [x, y]},
            ]
    out += [{"type": "buy", "slot": i, "card": c} for i in range(-1, 8) for c in range(3)]
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_accepted_exactly_when_legal(n):
    """Every rule at once: over random states, apply accepts a move iff legal_moves lists it
    (compared as JSON, so true is not 1), for the seat to act and for the others."""
    rng = Rng.from_seed(n, "legality")
    st = R.setup(n, R.Options(), n)
    checked = 0
    step = 0
    while R.to_act(st):
        if step % 7 == 0:
            for seat in range(n):
                legal = R.legal_moves(st, seat)
                legal_json = {json.dumps(m, sort_keys=True) for m in legal}
                before = json.dumps(st, sort_keys=True)
                cands = list(legal) + _universe(st)
                for m in legal[:: max(1, len(legal) // 6)]:
                    cands += _mutations(m, rng)
                for move in cands:
                    is_legal = json.dumps(move, sort_keys=True) in legal_json
                    try:
                        R.apply(st, seat, move)
                        accepted = True
                    except IllegalMove as exc:
                        accepted = False
                        assert exc.reason.endswith(".") and len(exc.reason) > 15
                    assert accepted == is_legal, (st["phase"], seat, move)
                    checked += 1
                assert json.dumps(st, sort_keys=True) == before
        seat = rng.choice(R.to_act(st))
        st = R.apply(st, seat, rng.choice(R.legal_moves(st, seat)))
        step += 1
    assert checked > 1000


def test_junk_moves_are_refused_with_a_sentence():
    """Bad moves: anything that is not a move object is refused naming what a move is."""
    st = R.setup(2, R.Options(), 0)
    for junk in (None, [], "buy", {"type": 3}, {}):
        with pytest.raises(IllegalMove, match="A move must be one of"):
            R.apply(st, st["turn"], junk)


def test_apply_and_playout_leave_the_input_state_as_it_was():
    """Bad moves change nothing, and good ones change only the new state: over a random game,
    apply and playout never alter the state they were given. With the game's memo active (as
    the live game has it), the board of a player a move leaves alone is the same object in
    consecutive views (its diff is skipped) and shares nothing with the state."""
    rng = Rng.from_seed(5, "untouched")
    st = R.setup(4, R.Options(), 5)
    shared = 0
    with Memo():
        previous = R.view(st, None)
        while R.to_act(st):
            before = json.dumps(st, sort_keys=True)
            if rng.below(10) == 0:
                R.playout(st, Rng(rng.below(1000)))
                assert json.dumps(st, sort_keys=True) == before
            seat = rng.choice(R.to_act(st))
            after = R.apply(st, seat, rng.choice(R.legal_moves(st, seat)))
            assert json.dumps(st, sort_keys=True) == before
            view = R.view(after, None)
            for i, (old, new) in enumerate(zip(previous["players"], view["players"])):
                assert (new is old) == (new == old), i
                shared += new is old
                assert (
                    new["city"] is not after["players"][i]["city"]
                    and new["zone"] is not after["players"][i]["zone"]
                )
            previous, st = view, after
    assert shared > 100
