"""What each seat may see, determinization of hidden things, the public log, and the catalogue."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.engine.memo import derived
from app.rulesets.suburbia.legal import public_fields, to_act
from app.rulesets.suburbia.market import surcharges
from app.rulesets.suburbia.tables import (
    BOARD,
    BOARD_CELLS,
    GOALS,
    KINDS,
    ONE_MORE_ROUND,
    RED_LINES,
    START_LAYOUT,
    TileKind,
    stack_pool,
)

State = dict[str, Any]


def _secret_view(state: State, seat: int | None) -> list[dict[str, Any]]:
    # Parts that depend only on one part of the state come from the game's memo by that part's
    # identity (app/engine/memo.py), so consecutive views share them and view diffs skip them.
    over = state["phase"] == "over"
    return derived(state["secret"], ("secret", seat, over), _make_secret_view, state, seat)


def _make_secret_view(state: State, seat: int | None) -> list[dict[str, Any]]:
    over = state["phase"] == "over"
    out = []
    for i, g in enumerate(state["secret"]):
        if i == seat:
            out.append({"dealt": g["dealt"], "kept": g["kept"]})
        elif over:
            out.append({"kept": g["kept"]})  # RB-S: secret goals are revealed at final scoring
        else:
            out.append({"chosen": g["kept"] is not None})
    return out


def _stack_sizes(stacks: dict[str, list[str]]) -> dict[str, int]:
    return {k: len(v) for k, v in stacks.items()}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """Public table plus the seat's own secret goal; stacks as counts; never the generator."""
    return {
        "mode": state["mode"],
        "seats": state["seats"],
        "phase": state["phase"],
        "red_lines": state["red_lines"],
        "turn": state["turn"],
        "start": state["start"],
        "round": state["round"],
        "to_act": to_act(state),
        "one_more_round": state["one_more_round"],
        "final_turns": state["final_turns"],
        "market": state["market"],
        "surcharges": surcharges(state),
        "stacks": derived(state["stacks"], "stacks", _stack_sizes, state["stacks"]),
        "basic": state["basic"],
        "discards": state["discards"],
        "goals": state["goals"],
        "players": state["p"],
        "dale": state["seats"] if state["mode"] == "dale" else None,
        "secret": _secret_view(state, seat),
        "last": state["last"],
        "final": state["final"],
    }


def _unseen_tiles(state: State, letter: str) -> list[str]:
    """Tiles of a stack letter nobody has seen face up: the stacks plus the box."""
    seen: Counter[str] = Counter(k for k in state["market"] if k)
    seen.update(state["discards"])
    seen.update(t["t"] for p in state["p"] for t in p["tiles"])
    pool: Counter[str] = Counter(stack_pool(letter))
    pool.subtract(seen)
    return sorted(pool.elements())


def determinize(state: State, seat: int | None, rng: Any) -> State:
    """Re-deal stack contents, the 1 More Round position, and other seats' goals."""
    s = dict(state)
    stacks = {}
    for letter, stack in state["stacks"].items():
        pool = rng.shuffled(_unseen_tiles(state, letter))
        stacks[letter] = [pool.pop() for k in stack if k != ONE_MORE_ROUND]
    if ONE_MORE_ROUND in state["stacks"]["C"]:
        extra, mixed = state["c_mix"]
        c = stacks["C"]
        hi = min(extra + mixed, len(c))
        c.insert(extra + rng.below(hi - extra + 1) if hi >= extra else len(c), ONE_MORE_ROUND)
    s["stacks"] = stacks
    if state["secret"]:
        s["secret"] = _redeal_goals(state, seat, rng)
    s["rng"] = rng.next64()
    return s


def _redeal_goals(state: State, seat: int | None, rng: Any) -> list[dict[str, Any]]:
    over = state["phase"] == "over"
    known = set(state["goals"])
    for i, g in enumerate(state["secret"]):
        if i == seat:
            known.update(g["dealt"])
        elif over:
            known.add(g["kept"])
    pool = rng.shuffled(sorted(set(GOALS) - known))
    out = []
    for i, g in enumerate(state["secret"]):
        if i == seat:
            out.append(g)
        elif over:
            dealt = sorted([g["kept"], pool.pop()])
            out.append({"dealt": dealt, "kept": g["kept"]})
        else:
            dealt = sorted([pool.pop(), pool.pop()])
            out.append({"dealt": dealt, "kept": None if g["kept"] is None else dealt[rng.below(2)]})
    return out


def public_move(state: State, seat: int, move: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The move as logged for `viewer`: its owner sees it as sent; everyone else sees only its
    rule fields, so a kept secret goal shows only that a goal was kept."""
    if viewer == seat:
        return move
    return public_fields(move)


_WORD = {"income": "Income", "reputation": "Reputation", "population": "Population", "money": "$"}
_SCOPE = {
    "adjacent": "per adjacent",
    "own": "per each of your",
    "every": "per every",
    "redline": "each time you pass a red line",
    "lake_pairs": "per tile next to your lakes",
}


def effect_text(kind: TileKind) -> str:
    """A short readable text for a tile's effects."""
    parts = []
    for stat, amount in kind.immediate:
        parts.append(f"{'+' if amount > 0 else ''}{amount} {_WORD[stat]}")
    for e in kind.effects:
        amt = f"{'+' if e.amount > 0 else ''}{e.amount}"
        what = f"take ${e.amount}" if e.stat == "money" else f"{amt} {_WORD[e.stat]}"
        tags = "/".join(sorted(e.match))
        if e.scope == "after":
            parts.append(f"{what} for every {tags} built after this one")
        elif e.scope == "others":
            parts.append(f"{what} per {tags} in all other boroughs")
        elif e.scope in ("redline", "lake_pairs"):
            parts.append(f"{what} {_SCOPE[e.scope]}")
        else:
            parts.append(f"{what} {_SCOPE[e.scope]} {tags}")
    return "; ".join(parts) or "no effect"


def catalogue() -> dict[str, Any]:
    """Public component data for the browser renderer."""
    tiles = {
        k.id: {
            "name": k.name,
            "stack": k.stack,
            "category": k.category,
            "icon": k.icon,
            "cost": k.cost,
            "count": k.count,
            "text": effect_text(k),
        }
        for k in KINDS.values()
    }
    goals = {
        g.id: {
            "name": g.name,
            "measure": g.measure,
            "want": g.want,
            "bonus": g.bonus,
            "text": f"{g.want.capitalize()} {g.measure.replace('_', ' ')}: +{g.bonus}",
        }
        for g in GOALS.values()
    }
    return {
        "tiles": tiles,
        "goals": goals,
        "board_cells": sorted(list(c) for c in BOARD_CELLS),
        "start": [list(x) for x in START_LAYOUT],
        "red_lines": RED_LINES,
        "surcharges": BOARD["market"]["standard"],
        "dale_surcharges": BOARD["market"]["dale"],
        "colours": {
            "residential": "#5aa454",
            "commercial": "#4a7fc1",
            "industrial": "#e0b432",
            "civic": "#9a9a9a",
            "lake": "#6cc3e8",
        },
        "ranks": [{"min": lo, "name": n} for lo, n in ((row["min"], row["name"]) for row in BOARD["rank"])],
    }
