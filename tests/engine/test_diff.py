"""The JSON differ: its patches, applied by an independent RFC 6902 implementation, give the target."""

from __future__ import annotations

import copy
import json

import jsonpatch
from hypothesis import given, settings, strategies as st

from app.engine.diff import apply_patch, diff

keys = st.sampled_from(["a", "b", "c", "x/y", "t~1", "", "0", "long key"])
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(-2, 2, allow_nan=False),
                    st.sampled_from(["", "s", "t"]))
def canon(doc):
    """Canonical JSON text: key order ignored, but True/1 and 1.0/1 told apart."""
    return json.dumps(doc, sort_keys=True)


documents = st.recursive(scalars, lambda children: st.one_of(
    st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=5)), max_leaves=25)


def _mutate(data, doc):
    """A document derived from `doc` by random local edits, so diffs are small and varied."""
    if isinstance(doc, dict):
        out = {k: _mutate(data, v) if data.draw(st.booleans()) else v for k, v in doc.items()
               if data.draw(st.integers(0, 5))}
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


@settings(max_examples=400, deadline=None)
@given(documents, documents)
def test_patch_between_unrelated_documents(old, new):
    """diff(a, b) applied by the jsonpatch package to a gives b, types included."""
    ops = diff(old, new)
    result = jsonpatch.apply_patch(copy.deepcopy(old), ops)
    assert canon(result) == canon(new)


@settings(max_examples=400, deadline=None)
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
    assert diff({"s": shared, "n": 1}, {"s": shared, "n": 2}) == [
        {"op": "replace", "path": "/n", "value": 2}]
    assert diff({"a": [1, 2]}, {"a": [1, 2]}) == []


def test_bool_and_int_are_different():
    """True and 1 are different JSON values, so a change between them is a replace."""
    assert diff({"a": 1}, {"a": True}) == [{"op": "replace", "path": "/a", "value": True}]


def test_single_insert_and_remove_are_one_op():
    """Inserting or removing one list element is a single add or remove."""
    assert diff([1, 2, 3], [1, 9, 2, 3]) == [{"op": "add", "path": "/1", "value": 9}]
    assert diff([1, 2, 3], [1, 3]) == [{"op": "remove", "path": "/1"}]
