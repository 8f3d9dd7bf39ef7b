"""Hidden information: the goods stack (order and content), the tiles removed face down, the bag's
order and the generator never reach a view, a diff, the log or an error; determinize re-deals
exactly those."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D


def _states(n, seed, steps=400):
    st = R.setup(n, R.Options(), seed)
    rng = Rng.from_seed(seed, "hidden")
    out = [(None, None, st)]
    for _ in range(steps):
        if not R.to_act(st):
            break
        seat = rng.choice(R.to_act(st))
        move = rng.choice(R.legal_moves(st, seat))
        st = R.apply(st, seat, move)
        out.append((seat, move, st))
    return out


def _plant(st):
    st = dict(st)
    st["stack"] = [f"CANARY-stack-{i}" for i in range(len(st["stack"]))]
    st["box"] = [f"CANARY-box-{i}" for i in range(len(st["box"]))]
    st["rng"] = "CANARY-rng"
    return st


@pytest.mark.parametrize("n", [2, 4])
def test_canary_markers_never_leak(n):
    """Hidden info: planted stack, box and generator markers reach no view, view diff, log
    sentence, public move or IllegalMove reason, for any seat or a spectator."""
    viewers = [*range(n), None]
    previous = {v: None for v in viewers}
    texts = []
    states = _states(n, 3)
    for i in range(0, len(states), 3):
        seat, move, st = states[i]
        planted = _plant(st)
        for v in viewers:
            view = R.view(planted, v)
            texts.append(json.dumps(view))
            if previous[v] is not None:
                texts.append(json.dumps(diff(previous[v], view)))
            previous[v] = view
        if move is not None:
            before = _plant(states[i - 1][2])  # log_text reads the state before the move
            for v in viewers:
                texts.append(R.log_text(before, seat, move, v))
            texts.append(json.dumps(R.public_move(before, seat, move, 0)))
        for s in range(n):
            for bad in (
                {"type": "buy", "slot": 99, "card": 0},
                {"type": "drive", "to": [5, 5]},
                {"type": "construct", "zone": 0, "at": [0, 1], "card": 0},
                {"type": "nope"},
                {"type": "hire", "citizen": "red", "at": [0, 0]},
            ):
                try:
                    R.apply(planted, s, bad)
                except IllegalMove as exc:
                    texts.append(exc.reason)
    blob = "\n".join(texts)
    assert "CANARY" not in blob
    assert len(texts) > 50


def test_bag_order_and_stack_content_do_not_change_any_view():
    """Hidden info: shuffling the bag, or swapping unseen stack tiles with the face-down box,
    leaves every view exactly the same (only counts show)."""
    _, _, st = _states(3, 4, 60)[-1]
    other = dict(st)
    other["bag"] = list(reversed(st["bag"]))
    other["stack"], other["box"] = (
        list(st["box"]) + st["stack"][len(st["box"]) :],
        list(st["stack"][: len(st["box"])]),
    )
    for v in (0, 1, 2, None):
        assert R.view(st, v) == R.view(other, v)
    assert R.view(st, 0)["bag"] == dict(Counter(st["bag"])) | {c: Counter(st["bag"])[c] for c in D.COLOURS}


def test_determinize_redeals_only_what_nobody_has_seen():
    """determinize: market, boards, cities, zones and returned tiles stay; the stack and box are
    re-dealt from the unseen tiles keeping one removed tile per type and price; the bag keeps its
    colours; the generator changes."""
    moved = False
    for _, _, st in _states(2, 8, 200)[::20]:
        det = R.determinize(st, 0, Rng(5))
        for k in ("market", "players", "returned", "round", "phase"):
            assert det[k] == st[k]
        assert Counter(det["bag"]) == Counter(st["bag"])
        assert sorted(det["stack"] + det["box"]) == sorted(st["stack"] + st["box"])
        shape = lambda box: Counter((D.TILES[t]["type"], D.TILES[t]["price"]) for t in box)
        assert shape(det["box"]) == shape(st["box"])
        assert det["rng"] != st["rng"]
        moved |= det["stack"] != st["stack"]
        assert R.view(det, 0) == R.view(st, 0)
    assert moved


def test_every_move_is_public():
    """Hidden info: Fortune City has no secret moves, so the log shows each move as played."""
    st = R.setup(2, R.Options(), 1)
    move = R.legal_moves(st, st["turn"])[0]
    assert R.public_move(st, st["turn"], move, None) == move


def test_determinize_keeps_the_tiles_a_seat_returned_to_the_box():
    """determinize keeps what a seat discarded: a tile returned from a full construction zone
    (Buy Goods) was seen by everyone, so it stays out of the game in every re-deal, never in
    the re-dealt stack or the face-down box."""
    st = R.setup(2, R.Options(), 11)
    st = dict(st, p=[dict(p) for p in st["players"]])
    seat = st["turn"]
    kept, gone = st["stack"][-1], st["stack"][-2]
    st["stack"], st["bag"] = st["stack"][:-2], st["bag"][:-2]  # as if bought in earlier rounds
    st["players"][seat]["zone"] = [kept, gone]
    st = R.apply(st, seat, {"type": "buy", "slot": 0, "card": 0, "return": 1})
    assert st["returned"] == [gone]
    for viewer in (seat, 1 - seat, None):
        for k in range(5):
            det = R.determinize(st, viewer, Rng(k))
            assert det["returned"] == [gone] and det["players"] == st["players"]
            assert gone not in det["stack"] and gone not in det["box"] and kept not in det["stack"]
            assert sorted(det["stack"] + det["box"]) == sorted(st["stack"] + st["box"])


def test_determinize_reads_only_what_the_seat_sees():
    """Rules review item 16 (fair bots): the bag's order and the stack's order are hidden
    (Setup: the stack is shuffled, the citizens are mixed in the bag), so two states that differ
    only there determinize to the same state from the same generator."""
    for _, _, st in _states(3, 12, 120)[::15]:
        other = dict(st, bag=list(reversed(st["bag"])), stack=list(reversed(st["stack"])))
        for seat in (0, 1, 2):
            assert R.view(other, seat) == R.view(st, seat)
            assert R.determinize(other, seat, Rng(9)) == R.determinize(st, seat, Rng(9))
