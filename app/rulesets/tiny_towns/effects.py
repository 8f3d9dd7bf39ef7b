"""On-build effects and the follow-up decisions they create, as a registry of small handlers.

`place_building` is the one way a building enters a town (by resources or by any effect): it
pays out coins lying on the square, triggers neighbours' Opaleye's Watch and runs the card's
on-build effects (RB-F Special Note: buildings placed by effects still pay costs and benefits).
Decisions are queued in the player's `pending` list and resolved in choices.py.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.state import (
    CELLS,
    CENTRE,
    COL,
    ROW,
    Edit,
    building_cells,
    gain,
    is_building,
    neighbours,
    push,
    set_cell,
)

Move = dict[str, Any]


def place_building(e: Edit, seat: int, cid: str, cell: int) -> None:
    """Put a building on a square and resolve everything its arrival causes."""
    set_cell(e, seat, cell, cid)
    pl = e.p(seat)
    if str(cell) in pl["store"]:
        del e.f(seat, "store")[str(cell)]
    if str(cell) in pl["marks"]:  # Caterina's Grotto / Petal Promenade coin on the square
        del e.f(seat, "marks")[str(cell)]
        gain(e, seat, 1)
    if data.is_monument(cid):
        pl["built_monument"] = True
    else:
        _watch_trigger(e, seat, cid)
    for eff in data.card(cid).get("build", ()):
        BUILD[eff["kind"]](e, seat, cell, eff)


def _watch_trigger(e: Edit, seat: int, cid: str) -> None:
    """Opaleye's Watch: a neighbour constructing a type on your card gives you that building."""
    for other in neighbours(e.s, seat):
        opl = e.s["p"][other]
        if opl["built_monument"] and cid in opl["flags"].get("watch", ()):
            flags = e.f(other, "flags")
            flags["watch"] = [t for t in flags["watch"] if t != cid]
            push(e, other, {"kind": "watch_place", "card": cid})


def grid_types(grid: list[Any]) -> Counter[str]:
    """Number of buildings of each type in a town."""
    # No generator expressions in the functions that run during play (here and below): compiled,
    # a function holding one allocates a closure on every call.
    return Counter([grid[i] for i in CELLS if is_building(grid[i])])


# ---------------------------------------------------------------- on-build handlers


def _gain_coin(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    gain(e, seat, eff["coins"])


def _gamble(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    if e.p(seat)["coins"] == 1:  # Gamblers' Den: exactly 1 coin, and you keep it
        gain(e, seat, 2)


def _choose_resources(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    push(
        e,
        seat,
        {
            "kind": "resource",
            "cell": cell,
            "left": eff["count"],
            "distinct": bool(eff.get("distinct_from_same")),
        },
    )


def _cathedral_cost(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    push(e, seat, {"kind": "cathedral", "cell": cell, "coins": eff["coins"]})


def _parsonage(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    pl = e.p(seat)
    grid = pl["grid"]
    cottages = sum([data.cottage_weight(grid[i]) for i in CELLS])
    if pl["coins"] != cottages:  # RB-F Parsonage: coins not spent, but lost unless equal
        pl["coins"] = 0


def _jeweler(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    pl = e.p(seat)
    if pl["coins"] >= 1:
        pl["coins"] -= 1
    else:  # RB-F Jeweler: every other player gains 1 coin at the end of the round
        flags = e.f(seat, "flags")
        flags["jeweler_unpaid"] = flags.get("jeweler_unpaid", 0) + 1


def _teahouse(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    """RB-F Teahouse: coins per unique type in its row *or* its column (the player's choice; the
    other line is not counted), itself excluded, at most 3. When the two lines give different
    amounts the player chooses (fewer coins can be better, e.g. before a Gamblers' Den or a
    Parsonage), otherwise the amount is simply gained."""
    grid = e.p(seat)["grid"]
    row, col = [
        min(len({grid[i] for i in line if i != cell and is_building(grid[i])}), eff["most"])
        for line in (ROW[cell], COL[cell])
    ]
    if row == col:
        gain(e, seat, row)
    else:
        push(e, seat, {"kind": "teahouse", "row": row, "column": col})


def _statue(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    counts = grid_types(e.p(seat)["grid"])
    gain(e, seat, len([n for n in counts.values() if n >= eff["at_least"]]))


def _windseed(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    counts = grid_types(e.p(seat)["grid"])
    gain(e, seat, max(counts.values(), default=0))


def _record_count(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    e.f(seat, "flags")["shrine"] = len(building_cells(e.p(seat)["grid"]))


def _grotto(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
    grid = e.p(seat)["grid"]
    for c in CENTRE:
        if is_building(grid[c]):
            gain(e, seat, 1)  # RB-F Caterina's Grotto: a building already there pays at once
        else:
            e.f(seat, "marks")[str(c)] = "grotto"


def _queue(kind: str, **extra: Any) -> Callable[[Edit, int, int, dict[str, Any]], None]:
    def handler(e: Edit, seat: int, cell: int, eff: dict[str, Any]) -> None:
        """Queue the decision for the player."""
        item: dict[str, Any] = {"kind": kind, **extra}
        if "count" in eff:
            item["left"] = eff["count"]
        push(e, seat, item)

    return handler


BUILD: dict[str, Callable[[Edit, int, int, dict[str, Any]], None]] = {
    "gain_coin": _gain_coin,
    "gamble": _gamble,
    "choose_resources": _choose_resources,
    "cathedral_cost": _cathedral_cost,
    "parsonage_check": _parsonage,
    "jeweler_cost": _jeweler,
    "teahouse_coins": _teahouse,
    "statue_coins": _statue,
    "windseed_coins": _windseed,
    "record_building_count": _record_count,
    "grotto_coins": _grotto,
    "replace_buildings": _queue("replace"),
    "place_free_buildings": _queue("free_build"),
    "watch_pick": _queue("watch_pick"),
    "masons_spend": _queue("masons_spend"),
    "petal_coins": _queue("petal"),
}
