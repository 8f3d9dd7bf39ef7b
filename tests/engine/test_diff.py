"""The JSON differ: its patches, applied by an independent RFC 6902 implementation, give the target."""

from __future__ import annotations

import copy
import json
import os
import uuid

import jsonpatch
from hypothesis import given, settings, strategies as st

from app.engine.diff import apply_patch, diff

# scripts/mutation.py draws fewer examples per mutant (its hypothesis seed is fixed instead).
EXAMPLES = int(os.environ.get("CIVITAS_HYPOTHESIS_EXAMPLES", "400"))

keys = st.sampled_from(["a", "b", "c", "x/y", "t~1", "", "0", "long key"])
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(-2, 2, allow_nan=False),
    st.sampled_from(["", "s", "t"]),
)


def canon(doc):
    """Canonical JSON text: key order ignored, but True/1 and 1.0/1 told apart."""
    return json.dumps(doc, sort_keys=True)


documents = st.recursive(
    scalars,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=5)),
    max_leaves=25,
)


def _mutate(data, doc):
    """A document derived from `doc` by random local edits, so diffs are small and varied."""
    if isinstance(doc, dict):
        out = {
            k: _mutate(data, v) if data.draw(st.booleans()) else v
            for k, v in doc.items()
            if data.draw(st.integers(0, 5))
        }
        if data.draw(st.booleans()):
            out[data.draw(keys)] = data.draw(documents)
        return out
    if isinstance(doc, list):
        out = [_mutate(data, v) for v in doc]
        op = data.draw(st.integers(0, 3))
        if op == 1:
            out.insert(data.draw(st.integers(0, len(out))), data.draw(documents))
        elif op == 2 and out:
            del out[data.draw(st.integers(0, len(out) - 1))]
        return out
    return data.draw(documents) if data.draw(st.booleans()) else doc


@settings(max_examples=EXAMPLES, deadline=None)
@given(documents, documents)
def test_patch_between_unrelated_documents(old, new):
    """diff(a, b) applied by the jsonpatch package to a gives b, types included."""
    ops = diff(old, new)
    result = jsonpatch.apply_patch(copy.deepcopy(old), ops)
    assert canon(result) == canon(new)


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data(), documents)
def test_patch_between_related_documents(data, old):
    """Small edits give patches that jsonpatch and our own applier both apply exactly."""
    new = _mutate(data, old)
    ops = diff(old, new)
    assert canon(jsonpatch.apply_patch(copy.deepcopy(old), ops)) == canon(new)
    assert canon(apply_patch(old, ops)) == canon(new)


def test_identical_subtrees_cost_nothing():
    """A subtree shared by identity is skipped; an unchanged document gives no ops."""
    shared = {"big": list(range(1000))}
    assert diff({"s": shared, "n": 1}, {"s": shared, "n": 2}) == [{"op": "replace", "path": "/n", "value": 2}]
    assert diff({"a": [1, 2]}, {"a": [1, 2]}) == []


def test_bool_and_int_are_different():
    """True and 1 are different JSON values, so a change between them is a replace."""
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]


def test_single_insert_and_remove_are_one_op():
    """Inserting or removing one list element is a single add or remove."""
    assert diff([1, 2, 3], [1, 9, 2, 3]) == [{"op": "add", "path": "/1", "value": 9}]
    assert diff([1, 2, 3], [1, 3]) == [{"op": "remove", "path": "/1"}]
    # The elements compared to find the gap can be objects or floats, too.
    assert diff([{"a": 1}, {"b": [2]}], [{"x": 0}, {"a": 1}, {"b": [2]}]) == [
        {"op": "add", "path": "/0", "value": {"x": 0}}
    ]
    halves = [x / 2 for x in (1, 3, 5)]  # equal floats that are not the same objects as below
    assert diff(halves, [0.5, 2.5]) == [{"op": "remove", "path": "/1"}]


def test_an_entry_shared_by_identity_does_not_hide_later_changes():
    """Skipping an entry goes on to the next one, in objects and in lists."""
    same = {"k": 1}
    assert diff({"a": same, "b": 1, "c": 2}, {"a": same, "b": 1, "c": 3}) == [
        {"op": "replace", "path": "/c", "value": 3}
    ]
    assert diff([same, None, 2], [same, None, 3]) == [{"op": "replace", "path": "/2", "value": 3}]
    # ... and so does a scalar entry, changed or only equal, before a later change.
    big = 10**6
    assert diff({"a": 1, "b": big, "c": 2}, {"a": 5, "b": int(str(big)), "c": 3}) == [
        {"op": "replace", "path": "/a", "value": 5},
        {"op": "replace", "path": "/c", "value": 3},
    ]


def test_a_change_of_json_type_is_a_replace_in_lists_and_objects():
    """1 to True, 0 to False, 1 to 1.0 and 0.0 to -0.0 are changes wherever they happen."""
    old, new = [1, 0, 1, 0.0], [True, False, 1.0, -0.0]
    for before, after in (
        (old, new),
        ({str(i): v for i, v in enumerate(old)}, {str(i): v for i, v in enumerate(new)}),
    ):
        ops = diff(before, after)
        assert len(ops) == 4 and all(op["op"] == "replace" for op in ops)
        assert canon(apply_patch(before, ops)) == canon(after)
        assert canon(jsonpatch.apply_patch(copy.deepcopy(before), ops)) == canon(after)


def test_keys_are_escaped_the_first_time_they_are_seen():
    """ "~" and "/" in a key (here one no earlier diff can have met) are escaped as ~0 and ~1."""
    key = f"~{uuid.uuid4().hex}/"
    ops = diff({key: 1}, {key: 2})
    assert ops == [{"op": "replace", "path": f"/~0{key[1:-1]}~1", "value": 2}]
    assert apply_patch({key: 1}, ops) == {key: 2}


def test_integer_keys_give_the_paths_their_json_text_has():
    """A Python dict with int keys is sent as JSON with string keys: its paths say "/3"."""
    assert diff({3: "a"}, {3: "b"}) == [{"op": "replace", "path": "/3", "value": "b"}]
    assert diff({3: "a"}, {}) == [{"op": "remove", "path": "/3"}]


def test_apply_patch_appends_at_dash_and_shares_nothing_with_the_patch():
    """RFC 6902's "-" index appends; the result is a copy, so editing it leaves the ops alone."""
    assert apply_patch([1, 2], [{"op": "add", "path": "/-", "value": 3}]) == [1, 2, 3]
    ops = [
        {"op": "add", "path": "/k", "value": {"n": [1]}},
        {"op": "add", "path": "/l/0", "value": {"m": [2]}},
    ]
    result = apply_patch({"l": []}, ops)
    result["k"]["n"].append(9)
    result["l"][0]["m"].append(9)
    assert ops[0]["value"] == {"n": [1]} and ops[1]["value"] == {"m": [2]}


def _twin(x):
    """A value `==` calls equal to x but JSON does not (True/1, False/0, 1/1.0, 0.0/-0.0), or x."""
    if type(x) is bool:
        return int(x)
    if type(x) is int:
        return bool(x) if x in (0, 1) else float(x)
    if type(x) is float:
        return -x if x == 0 else int(x) if x.is_integer() else x
    return x


def _fresh(data, doc):
    """A copy of `doc` made of new objects, some scalars swapped for their `_twin`."""
    if isinstance(doc, dict):
        return {k: _fresh(data, v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_fresh(data, v) for v in doc]
    return _twin(doc) if data.draw(st.integers(0, 7)) == 0 else doc


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data(), documents)
def test_patch_between_equal_looking_fresh_documents(data, old):
    """Fresh views of an unchanged table are new objects, mostly equal: the equal subtrees are
    skipped, and a value that `==` confuses with another (true and 1, 1.0 and 1, -0.0 and 0.0)
    still gets its replace."""
    new = _fresh(data, old)
    ops = diff(old, new)
    assert canon(jsonpatch.apply_patch(copy.deepcopy(old), ops)) == canon(new)
    if canon(old) == canon(new):
        assert ops == []
