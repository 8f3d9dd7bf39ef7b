"""The per-game memo of view parts (app/engine/memo.py): inside a game's memo a part asked for
again is the same object, outside it every part is new; the memo stays small; and a live game's
consecutive documents share their unchanged view parts, so the hub's diffs skip them."""

from __future__ import annotations

from app.engine import memo as memo_module
from app.engine.memo import Memo, derived, latest, part, shared


def _build(*args):
    return {"built": list(args)}


def test_parts_are_shared_only_inside_an_active_memo():
    """part(): the same key gives the same object while a memo is active, a new one otherwise;
    another key, another part."""
    assert part(("k", 1), _build, 1) is not part(("k", 1), _build, 1)
    game = Memo()
    with game:
        first = part(("k", 1), _build, 1)
        assert part(("k", 1), _build, 1) is first
        assert part(("k", 2), _build, 2) is not first and part(("k", 2), _build, 2)["built"] == [2]
    assert part(("k", 1), _build, 1) is not first
    with game:  # the memo belongs to the game: its parts are there next time
        assert part(("k", 1), _build, 1) is first


def test_two_games_never_share_a_part_and_nesting_restores_the_outer_memo():
    """Each game's memo is its own; a memo entered inside another gives way to it on exit."""
    a, b = Memo(), Memo()
    with a:
        in_a = part("key", _build, "a")
        with b:
            in_b = part("key", _build, "b")
            assert in_b is not in_a and in_b["built"] == ["b"]
        assert part("key", _build, "a") is in_a
    assert len(a) == 1 and len(b) == 1


def test_derived_parts_follow_their_source_object_not_its_id_or_content():
    """derived(): a part made from the same state object is reused; an equal but new object (a
    move replaced it) gets a new part; the entry keeps its source, so no other object can take
    its id while the part is filed."""
    game = Memo()
    source = {"cells": [1, 2]}
    with game:
        made = derived(source, "t", _build, 1)
        assert derived(source, "t", _build, 1) is made
        assert derived(source, "other", _build, 1) is not made
        assert derived(dict(source), "t", _build, 1) is not made
    assert derived(source, "t", _build, 1) is not made  # no memo active


def test_the_memo_stays_within_two_generations(monkeypatch):
    """However many parts a long game asks for, a memo holds at most two generations, and the
    parts in use (asked for again) survive the turnover."""
    monkeypatch.setattr(memo_module, "GENERATION", 8)
    game = Memo()
    with game:
        kept = part("in use", _build, 0)
        for n in range(100):
            part(("once", n), _build, n)
            assert part("in use", _build, 0) is kept
            assert len(game) <= 16


def test_a_live_games_consecutive_documents_share_unchanged_view_parts():
    """The wiring: game_document builds each view inside the live game's memo, so a part a move
    did not change is the previous document's object (the hub's diff skips it), while a fresh
    view built outside any memo equals it."""
    from app.rulesets.fortuna import RULESET as R
    from app.services.live import LiveGame, game_document

    state = R.setup(3, R.Options(), 5)
    live = LiveGame(
        id="g",
        room_id="r",
        ruleset=R,
        players=3,
        options={},
        seed=5,
        seed_hash="h",
        version=0,
        state=state,
        to_act_at=[],
        movers=[],
    )
    seat = R.to_act(state)[0]
    before = game_document(live, state, 0, seat)
    after_state = R.apply(state, seat, {"type": "play", "slot": 0, "args": None})
    after = game_document(live, after_state, 1, seat)
    assert after["view"]["favours"] is before["view"]["favours"]
    assert after["view"]["piles"] is before["view"]["piles"]
    other = (seat + 1) % 3
    assert after["view"]["p"][other] is before["view"]["p"][other]
    assert after["view"] == R.view(after_state, seat)
    assert after["view"]["favours"] is not R.view(after_state, seat)["favours"]


def test_shared_gives_equal_subtrees_the_previous_parts_objects_only_inside_a_memo():
    """shared(): a freshly built part takes, at each place where it equals the part last passed
    under the same tag, that older object (the whole older part when all is equal); changed
    places keep their new values; other tags and no active memo share nothing."""
    first = {"a": {"x": [1, 2]}, "b": [{"k": 1}, {"k": 2}], "n": 1}
    assert shared("t", first) is first  # no memo: as built
    with Memo():
        assert shared("t", first) is first
        again = shared("t", {"a": {"x": [1, 2]}, "b": [{"k": 1}, {"k": 2}], "n": 1})
        assert again is first
        moved = shared("t", {"a": {"x": [1, 2]}, "b": [{"k": 1}, {"k": 3}], "n": 2})
        assert moved is not first and moved["a"] is first["a"] and moved["b"][0] is first["b"][0]
        assert moved["b"][1] == {"k": 3} and moved["n"] == 2 and first["b"][1] == {"k": 2}
        other = shared("other tag", {"a": {"x": [1, 2]}})
        assert other["a"] is not first["a"]
        longer = shared("t", {"a": {"x": [1, 2, 3]}, "b": [{"k": 1}], "n": 2})
        assert longer["a"]["x"] == [1, 2, 3] and longer["b"] == [{"k": 1}]


def test_shared_never_changes_the_part_passed():
    """shared() on a part holding a state's own objects (City Council's view table) leaves them
    as they were: the result takes the older equal subtrees in new containers of its own."""
    state = {"b": [{"k": 1}, {"k": 2}], "c": {"x": [1], "y": 2}}
    with Memo():
        first = shared("t", {"b": [{"k": 1}, {"k": 2}], "c": {"x": [1], "y": 1}})
        got = shared("t", state)
    assert got == state and got["b"] is first["b"] and got["c"]["x"] is first["c"]["x"]
    assert got["c"] is not state["c"] and state["c"]["x"] is not first["c"]["x"]
    assert state["b"] is not first["b"] and state["b"][0] is not first["b"][0]


def test_latest_keeps_one_part_for_the_newest_source_only():
    """latest(): every viewer of one state gets the one part built from it; the next state gets
    a new part and the memo keeps one entry for the tag (not one per state, as derived does)."""
    game = Memo()
    states = [{"version": v} for v in range(200)]
    with game:
        for state in states:
            made = latest(state, "table", _build, state["version"])
            assert latest(state, "table", _build, state["version"]) is made
            assert made["built"] == [state["version"]]
        assert latest(states[0], "table", _build, 0) is not made
        assert len(game) == 1
    assert latest(states[-1], "table", _build, 199) is not made  # no memo active
