"""Hidden information: views, determinize, public log, and a canary sweep for leaks."""

from __future__ import annotations

import json

import pytest

from app.engine.diff import diff
from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from tests.rulesets.suburbia.helpers import R


def midgame(players=3, seed=4, moves=14, **options):
    s = R.setup(players, R.Options.model_validate(options), seed)
    rng = Rng(seed)
    for _ in range(moves):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    return s


def test_views_hide_stacks_secret_goals_and_the_generator():
    """Set-Up: secret goals are kept face down; stacks are face down (counts only)."""
    s = R.setup(3, R.Options(), 1)
    for seat in (0, 1, 2, None):
        v = R.view(s, seat)
        assert v["stacks"] == {k: len(x) for k, x in s["stacks"].items()}
        assert "rng" not in v
        for i, sec in enumerate(v["secret"]):
            assert (sec == {"dealt": s["secret"][i]["dealt"], "kept": None}) == (i == seat)


def test_secret_goals_are_revealed_at_the_end():
    """Final Scoring: each player's secret goal is revealed (the unkept one never is)."""
    s = R.setup(2, R.Options(), 2)
    rng = Rng(2)
    while R.to_act(s):
        seat = R.to_act(s)[0]
        s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
    v = R.view(s, None)
    assert [x["kept"] for x in v["secret"]] == [g["kept"] for g in s["secret"]]
    assert all("dealt" not in x for x in v["secret"])


@pytest.mark.parametrize(("players", "options"), [(1, {}), (1, {"solo_mode": "dale"}), (2, {}), (4, {})])
def test_determinize_keeps_the_view_and_redeals_hidden_things(players, options):
    """determinize: view(determinize(s, seat), seat) == view(s, seat); hidden parts re-dealt."""
    s = midgame(players, 9, moves=6, **options)
    changed = False
    for seat in [*range(players), None]:
        for k in range(3):
            d = R.determinize(s, seat, Rng(k))
            assert R.view(d, seat) == R.view(s, seat)
            changed |= d["stacks"] != s["stacks"]
            # the re-dealt game goes on
            seat_to = R.to_act(d)[0]
            R.apply(d, seat_to, R.legal_moves(d, seat_to)[0])
    assert changed


def test_determinize_redeals_other_players_goals_only():
    """determinize: other seats' dealt and kept goals are re-dealt; your own stay."""
    s = R.setup(4, R.Options(), 3)
    seen = set()
    for k in range(10):
        d = R.determinize(s, 0, Rng(k))
        assert d["secret"][0] == s["secret"][0]
        seen.add(tuple(d["secret"][1]["dealt"]))
        used = [g for sec in d["secret"] for g in sec["dealt"]] + d["goals"]
        assert len(used) == len(set(used))
    assert len(seen) > 1


def test_public_move_hides_the_kept_goal_from_others():
    """The secret goal choice is hidden from the other players in the log."""
    s = R.setup(2, R.Options(), 1)
    move = {"type": "keep_goal", "goal": s["secret"][0]["dealt"][0]}
    assert R.public_move(s, 0, move, 0) == move
    assert R.public_move(s, 0, move, 1) == {"type": "keep_goal"}
    assert R.public_move(s, 0, move, None) == {"type": "keep_goal"}
    after = R.apply(s, 0, move)
    assert after["last"]["move"] == {"type": "keep_goal"}


def _plant(s, players):
    s = dict(s)
    s["stacks"] = {k: [f"CANARY-S-{k}{i}" for i in range(len(v))] for k, v in s["stacks"].items()}
    s["rng"] = "CANARY-RNG"
    s["secret"] = [
        {
            "dealt": [f"CANARY-G-{i}-a", f"CANARY-G-{i}-b"],
            "kept": None if sec["kept"] is None else f"CANARY-G-{i}-a",
        }
        for i, sec in enumerate(s["secret"])
    ]
    return s


def _forbidden(viewer, players):
    marks = ["CANARY-S-", "CANARY-RNG"]
    return marks + [f"CANARY-G-{i}-" for i in range(players) if i != viewer]


def _assert_clean(obj, viewer, players, what):
    text = json.dumps(obj)
    for mark in _forbidden(viewer, players):
        assert mark not in text, f"{what} leaks {mark} to {viewer}"


def test_canary_markers_never_reach_another_seat():
    """Hidden fields (stack contents, others' kept and unkept goals, the generator) never
    appear in another seat's or the spectator's view, in view diffs, in the public log, or in
    IllegalMove reasons."""
    players = 3
    # goal-choice phase: simultaneous secret decisions
    states = [_plant(R.setup(players, R.Options(), 6), players)]
    log = []
    for seat in range(players):
        move = {"type": "keep_goal", "goal": f"CANARY-G-{seat}-a"}
        log.append((states[-1], seat, move))
        states.append(R.apply(states[-1], seat, move))
    # mid-game: a basic tile and an investment (no tile is flipped by either)
    mid = _plant(midgame(players, 6, moves=12), players)
    while mid["phase"] != "play":
        mid = R.apply(mid, mid["turn"], R.legal_moves(mid, mid["turn"])[0])
    basic = next(m for m in R.legal_moves(mid, mid["turn"]) if m["type"] in ("basic", "invest"))
    log.append((mid, mid["turn"], basic))
    states += [mid, R.apply(mid, mid["turn"], basic)]
    for viewer in [*range(players), None]:
        views = [R.view(s, viewer) for s in states]
        for v in views:
            _assert_clean(v, viewer, players, "view")
        for a, b in zip(views, views[1:]):
            _assert_clean(diff(a, b), viewer, players, "diff")
        for state, seat, move in log:
            if seat != viewer:
                _assert_clean(R.public_move(state, seat, move, viewer), viewer, players, "log")
    bad = [
        (states[0], 0, {"type": "keep_goal", "goal": "CANARY-G-1-a"}),
        (states[1], 0, {"type": "buy", "slot": 0, "at": [9, 9]}),
        (mid, (mid["turn"] + 1) % players, basic),
        (mid, mid["turn"], {"type": "buy", "slot": 0, "at": [40, 40]}),
        (mid, mid["turn"], {"type": "discard", "slot": 0}),
        (mid, mid["turn"], {"type": "keep_goal", "goal": "CANARY-G-0-a"}),
    ]
    for state, seat, move in bad:
        with pytest.raises(IllegalMove) as err:
            R.apply(state, seat, move)
        for mark in _forbidden(None, players):
            assert mark not in err.value.reason


def test_others_see_only_the_rule_fields_of_a_logged_move():
    """The log shows other seats a move's rule fields only (whatever else was sent with it
    stays with its sender); the sender sees the move as sent."""
    s = R.setup(2, R.Options(), 1)
    move = {"type": "buy", "slot": 6, "at": [1, 1], "memo": "my goal is miser"}
    assert R.public_move(s, 0, move, 0) == move
    assert R.public_move(s, 0, move, 1) == {"type": "buy", "slot": 6, "at": [1, 1]}
    goal = {"type": "keep_goal", "goal": s["secret"][0]["dealt"][0], "other": "x"}
    assert R.public_move(s, 0, goal, None) == {"type": "keep_goal"}


def test_a_seat_that_kept_its_goal_is_told_so():
    """Set-Up: each player keeps 1 of 2 secret goals once; a second choice is refused with
    that rule, not with a turn-order message, and without naming any goal."""
    s = R.setup(2, R.Options(), 1)
    s = R.apply(s, 0, {"type": "keep_goal", "goal": s["secret"][0]["dealt"][0]})
    with pytest.raises(IllegalMove) as err:
        R.apply(s, 0, {"type": "keep_goal", "goal": s["secret"][0]["dealt"][1]})
    assert "already kept" in err.value.reason
    assert not any(g in err.value.reason for sec in s["secret"] for g in sec["dealt"])
