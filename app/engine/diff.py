"""JSON diff that emits RFC 6902 patch operations.

Unchanged subtrees shared between two documents are skipped by identity, so views that embed
untouched parts of a copy-on-write state, or take their parts from the game's memo
(app/engine/memo.py), get near-free diffs.
Lists are diffed positionally, with a fast path for one inserted or removed element.
"""

from __future__ import annotations

import math
from typing import Any

Op = dict[str, Any]


_SCALARS = frozenset({str, int, float, bool, type(None)})

# Escaped object keys, by key: views use a small set of key names again and again.
_ESCAPED: dict[str, str] = {}


def _escape(token: str | int) -> str:
    if type(token) is str:
        escaped = _ESCAPED.get(token)
        if escaped is None:
            escaped = token.replace("~", "~0").replace("/", "~1")
            if len(_ESCAPED) < 4096:
                _ESCAPED[token] = escaped
        return escaped
    return str(token).replace("~", "~0").replace("/", "~1")


def same_json(a: Any, b: Any) -> bool:
    """Deep equality that tells JSON types apart (True is not 1, 1.0 is not 1, -0.0 is not 0.0)."""
    # Loops, not generator expressions (here and in `_single_gap`): compiled, a function holding
    # one allocates a closure on every call, even when the branch using it never runs.
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return False
        for k in a:
            if not same_json(a[k], b[k]):
                return False
        return True
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if not same_json(x, y):
                return False
        return True
    if type(a) is float:  # 0.0 == -0.0, but they are different JSON numbers
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def diff(old: Any, new: Any, path: str = "") -> list[Op]:
    """The patch that turns `old` into `new` (both JSON values)."""
    ops: list[Op] = []
    _diff(old, new, path, ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[Op]) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dict(old, new, path, ops)
    elif isinstance(old, list) and isinstance(new, list):
        _diff_list(old, new, path, ops)
    elif not same_json(old, new):
        ops.append({"op": "replace", "path": path, "value": new})


def _diff_dict(old: dict[str, Any], new: dict[str, Any], path: str, ops: list[Op]) -> None:
    # A child's path is only built when it has an operation or is entered: most values are the
    # same object or an equal scalar.
    removed = 0
    for key, value in old.items():
        if key not in new:
            ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
            removed += 1
            continue
        other = new[key]
        if value is other:
            continue
        kind = type(value)
        if kind is type(other) and kind in _SCALARS:
            if value != other or (kind is float and not same_json(value, other)):  # 0.0 vs -0.0
                ops.append({"op": "replace", "path": f"{path}/{_escape(key)}", "value": other})
            continue
        _diff(value, other, f"{path}/{_escape(key)}", ops)
    if len(new) > len(old) - removed:  # some keys of `new` are not in `old`
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})


def _diff_list(old: list[Any], new: list[Any], path: str, ops: list[Op]) -> None:
    n_old, n_new = len(old), len(new)
    if abs(n_old - n_new) == 1:
        shorter, longer = (old, new) if n_old < n_new else (new, old)
        k = _single_gap(shorter, longer)
        if k is not None:
            if n_old < n_new:
                ops.append({"op": "add", "path": f"{path}/{k}", "value": new[k]})
            else:
                ops.append({"op": "remove", "path": f"{path}/{k}"})
            return
    common = min(n_old, n_new)
    for i in range(common):
        a, b = old[i], new[i]
        if a is b:
            continue
        kind = type(a)
        if kind is type(b) and kind in _SCALARS:
            if a != b or (kind is float and not same_json(a, b)):  # 0.0 vs -0.0
                ops.append({"op": "replace", "path": f"{path}/{i}", "value": b})
            continue
        _diff(a, b, f"{path}/{i}", ops)
    for i in range(n_old - 1, common - 1, -1):
        ops.append({"op": "remove", "path": f"{path}/{i}"})
    for i in range(common, n_new):
        ops.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})


def _single_gap(shorter: list[Any], longer: list[Any]) -> int | None:
    """The index k such that deleting longer[k] gives shorter, if any (first such k)."""
    k = 0
    while k < len(shorter) and same_json(shorter[k], longer[k]):
        k += 1
    for i in range(k, len(shorter)):
        if not same_json(shorter[i], longer[i + 1]):
            return None
    return k


def apply_patch(doc: Any, ops: list[Op]) -> Any:
    """Apply add/remove/replace ops to a deep copy of `doc` (used by tests and the replay check)."""
    import copy

    root = {"": copy.deepcopy(doc)}
    for op in ops:
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in op["path"].split("/")[1:]]
        parent: Any = root
        key: Any = ""
        for token in tokens:
            parent = parent[key]
            key = (token if token == "-" else int(token)) if isinstance(parent, list) else token
        if op["op"] == "replace":
            parent[key] = copy.deepcopy(op["value"])
        elif op["op"] == "remove":
            del parent[key]
        elif op["op"] == "add":
            if isinstance(parent, list):
                parent.insert(len(parent) if key == "-" else key, copy.deepcopy(op["value"]))
            else:
                parent[key] = copy.deepcopy(op["value"])
        else:
            raise ValueError(f"unsupported op {op['op']!r}")
    return root[""]
