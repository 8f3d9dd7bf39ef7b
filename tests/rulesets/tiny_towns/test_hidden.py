"""Hidden information: monuments and the solo deck stay secret in views, diffs, the log and
error messages; determinize re-deals them invisibly to the seat."""

from __future__ import annotations

import json

import pytest

from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R


def _random_states(n, seed, steps=150, **opts):
    st = R.setup(n, R.Options(**{"fortune": True, **opts}), seed)
    rng = Rng(seed)
    out = [(None, None, st)]
    for _ in range(steps):
        if not R.to_act(st):
            break
        seat = rng.choice(R.to_act(st))
        move = rng.choice(R.legal_moves(st, seat))
        st = R.apply(st, seat, move)
        out.append((seat, move, st))
    return out


def test_determinize_keeps_every_view():
    """determinize: view(determinize(s, seat), seat) == view(s, seat), and hidden things move."""
    moved = False
    for n in (1, 3):
        for _, _, st in _random_states(n, 3, 60)[::7]:
            for seat in [*range(n), None]:
                det = R.determinize(st, seat, Rng(11))
                assert R.view(det, seat) == R.view(st, seat)
                if n == 3 and seat == 0 and det["p"][1] != st["p"][1]:
                    moved = True
    assert moved


def _plant(st):
    """Unique markers in every hidden field: unbuilt monuments, dealt pairs, the deck, the rng."""
    st = dict(st)
    st["p"] = [dict(pl) for pl in st["p"]]
    for i, pl in enumerate(st["p"]):
        if not pl["built_monument"]:
            if pl["monument"] is not None:
                pl["monument"] = f"CANARY-{i}-kept"
            if pl["dealt"] is not None:
                pl["dealt"] = [f"CANARY-{i}-dealt-a", f"CANARY-{i}-dealt-b"]
    if st["solo_deck"] is not None:
        st["solo_deck"] = {
            "shown": st["solo_deck"]["shown"],
            "deck": [f"CANARY-deck-{k}" for k in range(len(st["solo_deck"]["deck"]))],
        }
    if st["town_hall"] is not None:
        th = st["town_hall"]
        st["town_hall"] = {
            "deck": [f"CANARY-deck-th{k}" for k in range(len(th["deck"]))],
            "discard": [f"CANARY-deck-x{k}" for k in range(len(th["discard"]))],
            "revealed": th["revealed"],
            "free": th["free"],
        }
    st["rng"] = "CANARY-rng"
    return st


def _markers_of(seat):
    return [f"CANARY-{seat}-"] if seat is not None else []


@pytest.mark.parametrize(("n", "opts"), [(1, {}), (2, {}), (4, {}), (3, {"town_hall": True})])
def test_canary_markers_never_leak(n, opts):
    """Hidden info: no marker of a seat reaches another seat's or the spectator's view, the diffs
    between consecutive views, the public log, or IllegalMove reasons (monuments, solo and Town
    Hall decks, rng)."""
    states = _random_states(n, 5, 120, **opts)
    viewers = [*range(n), None]
    previous = {v: None for v in viewers}
    texts: dict[object, list[str]] = {v: [] for v in viewers}
    for seat, move, st in states:
        planted = _plant(st)
        for v in viewers:
            view = R.view(planted, v)
            texts[v].append(json.dumps(view))
            if previous[v] is not None:
                texts[v].append(json.dumps(diff(previous[v], view)))
            previous[v] = view
            if move is not None:
                texts[v].append(json.dumps(R.public_move(st, seat, move, v)))
        for v in range(n):
            for bad in (
                {"type": "build", "card": "CANARY-x", "cells": [0], "at": 0},
                {"type": "keep_monument", "monument": "nope"},
                {"type": "done"},
            ):
                try:
                    R.apply(planted, v, bad)
                except IllegalMove as exc:
                    texts[None].append(exc.reason)
                except (KeyError, TypeError, ValueError):
                    pass
    for v in viewers:
        blob = "\n".join(texts[v])
        assert "CANARY-rng" not in blob and "CANARY-deck" not in blob
        for owner in range(n):
            if owner != v:
                assert f"CANARY-{owner}-" not in blob, (v, owner)
    own = "\n".join(texts[0])
    assert "CANARY-0-" in own  # the owner does see their own secret (the test can fail)


def test_public_move_hides_kept_monument():
    """Log: a kept monument is shown to its owner only."""
    st = R.setup(2, R.Options(fortune=True), 1)
    move = {"type": "keep_monument", "monument": st["p"][0]["dealt"][0]}
    assert R.public_move(st, 0, move, 1) == {"type": "keep_monument"}
    assert R.public_move(st, 0, move, None) == {"type": "keep_monument"}
    assert R.public_move(st, 0, move, 0) == move
    after = R.apply(st, 0, move)
    assert after["last"]["move"] == {"type": "keep_monument"}


def test_built_monument_becomes_public():
    """Monuments: once constructed a monument is visible to everyone."""
    st = R.setup(2, R.Options(fortune=True), 1)
    pl = dict(st["p"][1])
    pl.update(monument="starloom", dealt=None, built_monument=True)
    st = dict(st)
    st["p"] = [st["p"][0], pl]
    assert R.view(st, 0)["towns"][1]["monument"] == "starloom"
    assert R.view(st, None)["towns"][1]["monument"] == "starloom"


def test_solo_deck_order_hidden():
    """Solo: the deck's order is hidden (only its size and the 3 revealed cards show)."""
    st = R.setup(1, R.Options(fortune=True), 2)
    v = R.view(st, 0)["solo_deck"]
    assert v == {"shown": st["solo_deck"]["shown"], "deck_size": 12}
