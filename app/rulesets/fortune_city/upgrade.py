"""Carries stored Fortune City states written by older versions of the rules to the current shape.

Self-contained (no imports from the ruleset), like Fortuna's: a tool running the old rules can
load it by path.
"""

from __future__ import annotations

from typing import Any

# Version 5 (issue 31) gave every state key its full name; the values and the games are as in
# version 4. Keys not listed keep their name.
_TOP = {"n": "player_count", "opts": "options", "p": "players"}
_TRUCK = {"prev": "previous", "left": "steps_left"}


def v4_to_v5(state: dict[str, Any]) -> dict[str, Any]:
    """A version-4 (or 3: the same shape) state with version 5's key names (a new object; the
    input is not changed)."""
    s = {_TOP.get(k, k): v for k, v in state.items()}
    s["options"] = dict(state["opts"])
    s["players"] = [_player(p) for p in state["p"]]
    return s


def _player(p: dict[str, Any]) -> dict[str, Any]:
    q = dict(p)
    q["city"] = {
        k: {"tile": c["t"], "token": c["token"], "worker": c["worker"]} for k, c in p["city"].items()
    }
    q["truck"] = {_TRUCK.get(k, k): v for k, v in p["truck"].items()}
    q["zone"] = list(p["zone"])
    q["park"] = dict(p["park"])
    q["tracks"] = dict(p["tracks"])
    q["card"] = None if p["card"] is None else dict(p["card"])
    return q
