"""Prof. Phil, the puppet council member of the 2-player game (RB Special Rules for 2 Players).

He is run by the ruleset inside `apply`, never listed in `to_act`. His plan and votes follow the
revealed favour card: a matching building in the planning area, the highest placed; otherwise the
largest available building (L-shaped first), the highest placed.
"""

from __future__ import annotations

from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import CARDS, SHAPE_ORDER, TILES


def area_positions(s: State) -> list[tuple[int, int, str]]:
    """(row, shape rank, tile) for every available tile: row 0 is the face-up stack top, rows 1..
    the tiles laid below it (RB Setup); a larger shape ranks first within a row (NOTES)."""
    out = []
    for sh in SHAPE_ORDER:
        rank = -SHAPE_ORDER.index(sh)
        if s["stacks"].get(sh):
            out.append((0, rank, s["stacks"][sh][0]))
        for i, t in enumerate(s["up"].get(sh, [])):
            out.append((i + 1, rank, t))
    return out


def pick_building(s: State, candidates: set[str]) -> str | None:
    """Prof. Phil's choice among candidate tiles by his revealed card."""
    pos = [p for p in area_positions(s) if p[2] in candidates]
    if not pos:
        return None
    names = set(CARDS[s["phil_card"]].buildings) if s["phil_card"] else set()
    matching = [p for p in pos if TILES[p[2]].name in names]
    if matching:
        return min(matching)[2]  # highest placed
    return min(pos, key=lambda p: (p[1], p[0]))[2]  # largest, then highest placed


def choose_vote(s: State, me: int) -> int | None:
    """Prof. Phil's delegate: the plan of another member chosen by the same criteria among
    construction plans; failing any, the first other plan in turn order (NOTES)."""
    builds = {p["target"]: m for m, p in enumerate(s["plans"]) if m != me and p and p["kind"] == "build"}
    tile = pick_building(s, set(builds))
    if tile is not None:
        return builds[tile]
    for m in s["order"]:
        p = s["plans"][m]
        if m != me and p and p["kind"] != "none":
            return m
    return None
