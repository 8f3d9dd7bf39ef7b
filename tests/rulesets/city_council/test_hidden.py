"""Hidden information: favour hands, drawn cards, Prof. Phil's face-down cards, the deck, unseen
discards, the building stacks below their tops and the generator never reach a view, a diff, the
log or an error; determinize keeps what the seat knows."""

from __future__ import annotations

import json

import pytest

from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.city_council.tables import CARDS
from tests.rulesets.city_council.helpers import R, random_states


def test_determinize_keeps_every_view_and_moves_hidden_cards():
    """determinize: view(determinize(s, seat), seat) == view(s, seat); own hand, own discards and
    public cards stay; others' hands are re-dealt."""
    moved = False
    for n in (2, 4):
        for _, _, st in random_states(n, 3, 200)[::9]:
            for seat in [*range(n), None]:
                det = R.determinize(st, seat, Rng(11))
                assert R.view(det, seat) == R.view(st, seat)
                if seat is not None:
                    assert det["hands"][seat] == st["hands"][seat]
                    mine = [c for c, mask in st["fdiscard"] if mask & (1 << seat)]
                    assert [c for c, mask in det["fdiscard"] if mask & (1 << seat)] == mine
                if seat == 0 and det["hands"][1] != st["hands"][1]:
                    moved = True
    assert moved


def _plant(st):
    st = json.loads(json.dumps(st))
    for m, hand in enumerate(st["hands"]):
        st["hands"][m] = [
            c if (st["phil"] and m == st["players"] and c == st["phil_card"]) else f"CANARY-{m}-hand{i}"
            for i, c in enumerate(hand)
        ]
        if st["drawn"][m]:
            st["drawn"][m] = [f"CANARY-{m}-drawn{i}" for i in range(len(st["drawn"][m]))]
    st["deck"] = [f"CANARY-deck-{i}" for i in range(len(st["deck"]))]
    st["fdiscard"] = [
        [c, mask] if mask == (1 << st["players"]) - 1 else [f"CANARY-disc-{mask}-{i}", mask]
        for i, (c, mask) in enumerate(st["fdiscard"])
    ]
    st["stacks"] = {
        sh: pile[:1] + [f"CANARY-deck-tile{i}" for i in range(len(pile) - 1)]
        for sh, pile in st["stacks"].items()
    }
    st["rng"] = "CANARY-rng"
    return st


@pytest.mark.parametrize("n", [2, 3, 5])
def test_canary_markers_never_leak(n):
    """Hidden info: no seat's secret marker reaches another seat's or the spectator's view, the
    diffs between views, the public log (moves and sentences) or an IllegalMove reason."""
    states = random_states(n, 7, 260)
    viewers = [*range(n), None]
    previous = {v: None for v in viewers}
    texts = {v: [] for v in viewers}
    for _seat, _move, st in states:
        planted = _plant(st)
        for v in viewers:
            view = R.view(planted, v)
            texts[v].append(json.dumps(view))
            if previous[v] is not None:
                texts[v].append(json.dumps(diff(previous[v], view)))
            previous[v] = view
        for bad in (
            {"type": "keep", "cards": ["CANARY-x"]},
            {"type": "score", "card": "nope"},
            {"type": "plan", "kind": "build", "target": "CANARY-deck-tile0"},
            {"type": "done"},
        ):
            for s in R.to_act(planted):
                try:
                    R.apply(planted, s, bad)
                except IllegalMove as exc:
                    texts[None].append(exc.reason)
                except (KeyError, TypeError, ValueError):
                    pass
    for (_, _, before), (seat, move, _) in zip(states, states[1:]):
        for v in viewers:
            texts[v].append(json.dumps(R.public_move(before, seat, move, v)))
    for v in viewers:
        blob = "\n".join(texts[v])
        assert "CANARY-rng" not in blob and "CANARY-deck" not in blob
        for owner in range(n + (1 if n == 2 else 0)):
            if owner != v:
                assert f"CANARY-{owner}-" not in blob, (v, owner)
        assert "CANARY-disc" not in blob
    assert "CANARY-0-" in "\n".join(texts[0])


def test_log_hides_kept_and_discarded_cards():
    """Log: kept and discarded favour cards are named to their owner only, in moves and sentences."""
    st = random_states(3, 4, 40)
    for seat, move, before in zip([x[0] for x in st[1:]], [x[1] for x in st[1:]], [x[2] for x in st[:-1]]):
        if move["type"] in ("keep", "discard"):
            secret = move.get("cards") or [move["card"]]
            for v in (None, (seat + 1) % 3):
                pm = R.public_move(before, seat, move, v)
                text = R.log_text(before, seat, move, v)
                for c in secret:
                    assert c not in json.dumps(pm)
                    assert CARDS[c].name not in text or CARDS[c].name in json.dumps(R.view(before, v))
            assert R.public_move(before, seat, move, seat) == move
            return
    raise AssertionError("no keep move sampled")


def test_determinize_depends_only_on_the_seats_view():
    """Rules review item 16 (a bot acts only on what its seat can see): two states whose views
    for a seat are equal determinize to the same state with the same generator. The building
    stacks below their tops are hidden (RB Setup: the stacks lie face down), so their order must
    not reach the re-deal either; the twin here differs from the state only in that order."""
    for n in (2, 4):
        for _, _, st in random_states(n, 5, 240)[::12]:
            twin = json.loads(json.dumps(st))
            for pile in twin["stacks"].values():
                pile[1:] = reversed(pile[1:])
            for seat in [*range(n), None]:
                assert R.view(twin, seat) == R.view(st, seat)
                first = R.determinize(st, seat, Rng(3))
                second = R.determinize(twin, seat, Rng(3))
                assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)
