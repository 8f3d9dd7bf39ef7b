"""Carries stored Fortuna states written by older versions of the rules to the current shape.

Self-contained (no imports from the ruleset) so that a tool running the old rules can load it by
path and compare old games with new ones (tests/rulesets/fortuna/same_games.py).
"""

from __future__ import annotations

from typing import Any

# Version 6 (issue 31) gave every state key its full name; the values and the games are as in
# version 5. Top-level keys, old -> new (keys not listed keep their name).
_TOP = {
    "n": "player_count",
    "opts": "options",
    "step": "phase",
    "chosen": "chosen_slot",
    "dice": "rolled",
    "took": "tokens_taken",
    "b_used": "privilege_b_used",
    "fav": "favours",
    "out": "removed",
    "known": "known_in_deck",
    "fresh": "drawn_since_shuffle",
    "fresh_palace": "palace_drawn_since_shuffle",
    "end": "last_round",
    "p": "players",
    "ev": "events",
}
_PLAYER = {
    "pos": "position",
    "aq": "aqueduct",
    "aq_round": "aqueduct_round",
    "cent": "centurions",
    "bld": "buildings",
}
_CARD = {"c": "card", "up": "face_up", "pub": "public"}  # board slots and discards


def _renamed(d: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    return {names.get(k, k): v for k, v in d.items()}


def v5_to_v6(state: dict[str, Any]) -> dict[str, Any]:
    """A version-5 state with version 6's key names (a new object; the input is not changed)."""
    s = _renamed(state, _TOP)
    s["sides"] = [[_renamed(slot, _CARD) for slot in row] for row in state["sides"]]
    s["discard"] = [_renamed(d, _CARD) for d in state["discard"]]
    s["favours"] = [dict(f) for f in state["fav"]]
    s["players"] = [_renamed(pl, _PLAYER) for pl in state["p"]]
    for pl in s["players"]:
        pl["buildings"] = list(pl["buildings"])
        pl["hand"] = list(pl["hand"])
    palace = state["palace"]
    # states written before the palace recorded later arrivals' picks lack "taken"
    s["palace"] = {
        "cards": list(palace["cards"]),
        "seen": list(palace["seen"]),
        "taken": [dict(x) for x in palace.get("taken", [])],
    }
    s["options"] = dict(state["opts"])
    return s


def v4_to_v5(state: dict[str, Any]) -> dict[str, Any]:
    """Version 4 -> 5 added `fresh` and `fresh_palace` (how many cards of each hand, and whether
    the palace cards, came from the deck since the last reshuffle). A version-4 seat's `known`
    lists only cards still in the deck (each draw struck its cards off every list), so no known
    card sits in a hand or on the palace table: zeros are exact."""
    return {**state, "fresh": [0] * state["n"], "fresh_palace": False}
