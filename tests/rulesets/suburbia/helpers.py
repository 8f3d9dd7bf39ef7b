"""Small builders for Suburbia positions used by the rule and scenario tests."""

from __future__ import annotations

from typing import Any

from app.rulesets.suburbia import RULESET
from app.rulesets.suburbia.effects import World

R = RULESET
START = [("suburbs", 0, 0), ("community_park", 0, 1), ("heavy_factory", 0, 2)]


def game(players: int = 2, seed: int = 0, **options: Any) -> dict[str, Any]:
    """A fresh game past the goal choice (each seat keeps its first dealt goal)."""
    state = R.setup(players, R.Options.model_validate(options), seed)
    for seat in list(R.to_act(state)) if state["phase"] == "choose_goal" else []:
        goal = state["secret"][seat]["dealt"][0]
        state = R.apply(state, seat, {"type": "keep_goal", "goal": goal})
    return state


def tiles(*specs: Any) -> list[dict[str, Any]]:
    """Borough tiles from (kind, q, r) or (kind, q, r, "lake"/"inv"/"lake+inv") tuples."""
    out = []
    for spec in specs:
        kind, q, r, *flags = spec
        flag = flags[0] if flags else ""
        out.append({"t": kind, "at": [q, r], "lake": "lake" in flag, "inv": "inv" in flag})
    return out


def put(state: dict[str, Any], seat: int, **fields: Any) -> dict[str, Any]:
    """A copy of `state` with player `seat`'s fields replaced (tiles given as specs are built)."""
    s = dict(state)
    s["p"] = list(s["p"])
    p = dict(s["p"][seat])
    for key, value in fields.items():
        p[key] = tiles(*value) if key == "tiles" else value
    s["p"][seat] = p
    return s


def with_market(state: dict[str, Any], kinds: list[str | None]) -> dict[str, Any]:
    """A copy of `state` with the market replaced."""
    return dict(state, market=list(kinds))


def turn_of(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """A copy of `state` where it is `seat`'s turn to play."""
    return dict(state, turn=seat, phase="play")


def world(state: dict[str, Any]) -> World:
    """A scratch World over `state` for effect-level tests."""
    return World(state)


def play(state: dict[str, Any], move: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
    """Apply `move` for the seat to act (or `seat`)."""
    return R.apply(state, state["turn"] if seat is None else seat, move)


def stats(state: dict[str, Any], seat: int) -> dict[str, int]:
    """Money, income, reputation and population of a player."""
    p = state["p"][seat]
    return {"money": p["money"], "income": p["income"], "rep": p["rep"], "pop": p["pop"]}
