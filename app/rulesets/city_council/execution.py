"""Plan execution (RB Plan Execution): every way the Election chairman may execute an approved
plan now, and the anti-sabotage rule: he "must strive to execute all approved plans (cannot
'sabotage' plans by intentionally increasing building costs)". A way is offered only when, after
it, as many of the approved plans as possible can still be executed: all of them whenever some
way keeps them all possible (NOTES 5).

The look-ahead runs on light copies ("shadows") holding only what execution reads and changes:
the buildings, the City Budget, the blocks taken (a bit mask), the plans and their private funds.
`execute.do_execute` changes the real state the same way (tests/rulesets/city_council/test_execution.py
compares the two along random games)."""

from __future__ import annotations

import marshal
from collections.abc import Iterator
from typing import Any

from app.engine.memo import part
from app.rulesets.city_council.board import (
    UPGRADED_FROM,
    iter_fresh,
    iter_relocations,
    iter_upgrades,
    mask_of,
    occupied_mask,
    surcharge,
)
from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import BUDGET_MAX, TILES, kind_of

#: What execution reads of the state (buildings, budget, plans, their funds), with the taken
#: blocks as a mask (`occ`): a shadow that a search changes freely.
Shadow = dict[str, Any]
# (cost, blocks or None for a sale, the building upgraded or None, the blocks as a mask)
Choice = tuple[int, Any, Any, int]


def pending(s: State) -> list[int]:
    """The approved plans not yet executed nor failed, in the order they were approved."""
    return [o for o in s["approved"] if o not in s["executed"] and o not in s["failed"]]


def _shadow(s: State) -> Shadow:
    """What execution reads of the real state, with the taken blocks as a mask."""
    return {
        "buildings": s["buildings"],
        "budget": s["budget"],
        "advanced": s["advanced"],
        "plans": s["plans"],
        "plan_funds": s["plan_funds"],
        "occ": occupied_mask(s),
    }


def _choices(t: Shadow, o: int) -> Iterator[Choice]:
    """Every way to execute plan o in shadow `t`: a sale (of a standing building), a relocation
    within the City Budget (cheapest first), or a construction within the City Budget plus the
    plan's private funds (fresh places cheapest first, then upgrades)."""
    p = t["plans"][o]
    kind = p["kind"]
    buildings = t["buildings"]
    if kind == "sell":
        if p["target"] in buildings:
            yield 0, None, None, 0
        return
    if kind == "relocate":
        if p["target"] in buildings:
            for cost, cells, mask in iter_relocations(
                buildings, p["target"], t["advanced"], t["occ"], t["budget"]
            ):
                yield cost, cells, None, mask
        return
    tile = TILES[p["target"]]
    limit = t["budget"] + sum(t["plan_funds"][o])
    for cost, cells, mask in iter_fresh(tile, t["advanced"], t["occ"], limit):
        yield cost, cells, None, mask
    for cost, cells, bid, mask in iter_upgrades(buildings, tile, t["advanced"], t["occ"], limit):
        yield cost, cells, bid, mask


def _after(t: Shadow, o: int, ch: Choice) -> Shadow:
    """Shadow `t` after plan o is executed by choice `ch` (as execute.do_execute does it)."""
    cost, cells, upgrade, mask = ch
    p = t["plans"][o]
    buildings = dict(t["buildings"])
    budget = t["budget"]
    occ = t["occ"]
    if p["kind"] == "sell":
        b = buildings.pop(p["target"])
        occ &= ~mask_of(b["cells"])
        budget = min(BUDGET_MAX, budget + kind_of(b).cost - 1)  # RB Selling: cost - $1
    elif p["kind"] == "relocate":
        b = buildings[p["target"]]
        occ = (occ & ~mask_of(b["cells"])) | mask
        buildings[p["target"]] = {**b, "cells": cells}
        budget -= cost
    else:
        budget -= max(0, cost - sum(t["plan_funds"][o]))  # private funds pay first
        if upgrade is not None:
            occ &= ~mask_of(buildings.pop(upgrade)["cells"])
        occ |= mask
        tile = p["target"]
        buildings[f"plan{o}"] = {"name": TILES[tile].name, "tile": tile, "cells": cells}
    return {**t, "buildings": buildings, "budget": budget, "occ": occ}


# Complex: one pass over the plans left (a branch per kind of plan) is the search's pruning bound.
def _bound(t: Shadow, left: tuple[int, ...], static: bool) -> int:
    """At most this many plans of `left` can still be executed: every sale and relocation of a
    standing building, and as many constructions as the money (the City Budget plus every sale's
    price) could pay at their lowest possible costs, less their private funds. The lowest cost is
    the cheapest way now (place or upgrade); with `static` (a sale or relocation may still free
    room) the printed cost or the cheapest upgrade difference."""
    buildings = t["buildings"]
    plans = t["plans"]
    money = t["budget"]
    count = 0
    costs = []
    for o in left:
        p = plans[o]
        if p["kind"] == "sell" or p["kind"] == "relocate":
            b = buildings.get(p["target"])
            if b is not None:
                count += 1
                if p["kind"] == "sell":
                    money += kind_of(b).cost - 1
            continue
        tile = TILES[p["target"]]
        sources = UPGRADED_FROM.get(tile.name, ())
        if static:
            low = tile.cost
            for b in buildings.values():
                if b["name"] in sources:
                    low = min(low, tile.cost - kind_of(b).cost)
        else:
            low = -1  # none yet
            for cost, _cells, _m in iter_fresh(tile, t["advanced"], t["occ"], 10**6):
                low = cost  # the cheapest free place
                break
            for cost, _cells, _bid, _m in iter_upgrades(buildings, tile, t["advanced"], t["occ"], 10**6):
                if low < 0 or cost < low:
                    low = cost
        for x in left:  # another plan may build what this one then upgrades (Shop, Department Store)
            q = plans[x]
            if x != o and q["kind"] == "build" and TILES[q["target"]].name in sources:
                diff = tile.cost - TILES[q["target"]].cost
                if low < 0 or diff < low:
                    low = diff
        if low < 0:
            continue  # no room and nothing to upgrade: it cannot be executed
        costs.append(max(0, low - sum(t["plan_funds"][o])))
    costs.sort()
    for c in costs:
        if c > money:
            break
        money -= c
        count += 1
    return count


def _most(t: Shadow, left: tuple[int, ...], cap: int) -> tuple[int, list[tuple[int, Choice]]]:
    """How many plans of `left` can still be executed from shadow `t`, in the best order and
    ways (the search stops once it reaches `cap`), with one such sequence of (plan, choice)."""
    if not left or cap <= 0:
        return 0, []
    enabler = False  # only a sale (money, room) or a relocation (room) can make a plan possible
    for o in left:
        if t["plans"][o]["kind"] != "build":
            enabler = True
            break
    # Without a sale or relocation left, constructions only take room and money: a plan cannot
    # get cheaper, and one impossible now stays so.
    cap = min(cap, len(left), _bound(t, left, static=enabler))
    best = 0
    path: list[tuple[int, Choice]] = []
    for o in left:
        if best >= cap:
            break
        rest = tuple([x for x in left if x != o])
        for ch in _choices(t, o):
            sub, subpath = _most(_after(t, o, ch), rest, cap - 1) if rest else (0, [])
            if 1 + sub > best:
                best = 1 + sub
                path = [(o, ch), *subpath]
                if best >= cap:
                    break
    return best, path


def _still(t: Shadow, o: int, ch: Choice) -> bool:
    """Whether `ch`, found in another shadow, is still a way to execute plan o in `t` at the
    same cost."""
    cost, cells, upgrade, mask = ch
    p = t["plans"][o]
    buildings = t["buildings"]
    occ = t["occ"]
    if p["kind"] == "sell":
        return p["target"] in buildings
    if p["kind"] == "relocate":
        b = buildings.get(p["target"])
        if b is None or cost > t["budget"]:
            return False
        here = mask_of(b["cells"])
        return mask != here and not occ & ~here & mask
    if cost > t["budget"] + sum(t["plan_funds"][o]):
        return False
    if upgrade is None:
        return not occ & mask
    old = buildings.get(upgrade)
    if old is None:
        return False
    own = mask_of(old["cells"])
    if mask & own != own or occ & ~own & mask:
        return False
    tile = TILES[p["target"]]
    new_blocks = [(r, c) for r, c in cells if not own & mask_of([(r, c)])]
    return cost == tile.cost - kind_of(old).cost + surcharge(tile, new_blocks)


def _replays(t: Shadow, path: list[tuple[int, Choice]]) -> bool:
    """Whether every step of `path` can still be taken, in order, from shadow `t`."""
    last = len(path) - 1
    for i, (o, ch) in enumerate(path):
        if not _still(t, o, ch):
            return False
        if i < last:
            t = _after(t, o, ch)
    return True


def _after_for_replay(t: Shadow, o: int, ch: Choice) -> Shadow:
    """`_after`, without the new building's record for a fresh construction: a replayed sequence
    was found where this plan's building stood elsewhere, so a step naming it fails `_still`
    either way, and only the blocks and the money matter to the others."""
    if ch[2] is not None or t["plans"][o]["kind"] != "build":
        return _after(t, o, ch)
    return {**t, "occ": t["occ"] | ch[3], "budget": t["budget"] - max(0, ch[0] - sum(t["plan_funds"][o]))}


def allowed(s: State) -> list[tuple[int, Any, Any]]:
    """The executions the chairman may choose now, as (plan, blocks or None for a sale, the
    building upgraded or None): plans in approval order, each cheapest first. A way is kept only
    if it lets the most approved plans be executed in the end (RB: he 'must strive to execute all
    approved plans'; RB Building Placement and Example 4 leave him any affordable place)."""
    # Filed in the game's memo (app/engine/memo.py) by what the answer depends on: a move is
    # listed, checked and then driven by `advance` from the same position, so each answer is asked
    # for two or three times in a row (the live game's memo is active around all three).
    key = marshal.dumps(
        (
            s["buildings"],
            s["budget"],
            s["advanced"],
            s["plans"],
            s["plan_funds"],
            s["approved"],
            s["executed"],
            s["failed"],
        )
    )
    return list(part(("city-council/allowed", key), _allowed, s))


def _allowed(s: State) -> list[tuple[int, Any, Any]]:
    """`allowed`, worked out."""
    left = tuple(pending(s))
    t = _shadow(s)
    raw = [(o, ch) for o in left for ch in _choices(t, o)]
    if len(left) <= 1 or len(raw) <= 1:
        return [(o, ch[1], ch[2]) for o, ch in raw]
    values = []
    # For each plan, the last sequence found that executes every other plan after one of its
    # ways: most other ways of that plan leave it possible too, which a replay tells at once.
    witness: dict[int, list[tuple[int, Choice]]] = {}
    for o, ch in raw:
        if o in witness and _replays(_after_for_replay(t, o, ch), witness[o]):
            values.append(len(left))
            continue
        rest = tuple([x for x in left if x != o])
        v, path = _most(_after(t, o, ch), rest, len(rest))
        if v == len(rest):
            witness[o] = path
        values.append(1 + v)
    best = max(values)
    return [(o, ch[1], ch[2]) for (o, ch), v in zip(raw, values) if v == best]


def move(o: int, cells: Any, upgrade: Any) -> dict[str, Any]:
    """The move executing plan o on blocks `cells` (None: a sale), upgrading `upgrade` if named."""
    if cells is None:
        return {"type": "execute", "plan": o}
    mv: dict[str, Any] = {"type": "execute", "plan": o, "cells": [list(x) for x in cells]}
    if upgrade is not None:
        mv["upgrade"] = upgrade
    return mv


def moves(s: State, plan: int | None = None) -> list[dict[str, Any]]:
    """`allowed` as moves (only plan `plan`'s when named)."""
    return [move(o, cells, up) for o, cells, up in allowed(s) if plan is None or o == plan]
