"""Pending card-effect decisions (Factory/Bank/Museum resources, Cathedral payment, Architect's
Guild, Grove University, Teahouse row or column, Masons' Guild, Opaleye's Watch, Petal Promenade,
Okaver, Semaphore): for each kind, the `choose` moves it offers and how the chosen one resolves."""

from __future__ import annotations

from typing import Any, Callable

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.effects import place_building
from app.rulesets.tiny_towns.patterns import can_afford
from app.rulesets.tiny_towns.state import (
    CELLS,
    Edit,
    building_cells,
    built,
    empties,
    gain,
    has_empty,
    set_cell,
)

Move = dict[str, Any]


def _grey(state: dict[str, Any]) -> str | None:
    return next((b for b in state["buildings"] if data.card(b)["colour"] == "grey"), None)


def moves_anywhere(pl: dict[str, Any], cid: str) -> bool:
    """A Shed (or any building once Obelisk of the Crescent is built) may go on any empty square,
    also when an effect places it (RB-F Special Note)."""
    return data.has_passive(cid, "place_anywhere") or built(pl, "place_anywhere_all")


def _placeable(state: dict[str, Any], seat: int) -> list[str]:
    """Building cards an effect may place now: all in play, except one whose coin cost the player
    cannot pay (solo Jeweler without a coin: RB-F Solo Variant and Special Note)."""
    return [b for b in state["buildings"] if can_afford(state, seat, b)]


def _opt_resource(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    pl = state["p"][seat]
    banned: set[str] = set()
    if item["distinct"]:  # Bank: a resource not already on another of your Banks
        cid = pl["grid"][item["cell"]]
        for i in CELLS:
            if i != item["cell"] and pl["grid"][i] == cid:
                banned |= set(pl["store"].get(str(i), ()))
    return [{"type": "choose", "resource": r} for r in data.RESOURCES if r not in banned]


def _do_resource(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    store = e.f(seat, "store")
    key = str(item["cell"])
    store[key] = [*store.get(key, ()), move["resource"]]
    if item["left"] > 1:
        e.f(seat, "pending").insert(0, {**item, "left": item["left"] - 1})


def _opt_cathedral(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    pl = state["p"][seat]
    out: list[Move] = []
    if pl["coins"] >= item["coins"]:
        out.append({"type": "choose", "pay": True})
    grey = _grey(state)
    if grey and moves_anywhere(pl, grey):  # a Shed may move to any empty square
        for c in sorted([item["cell"], *empties(pl["grid"])]):
            out.append({"type": "choose", "pay": False, "to": c})
    elif grey:
        out.append({"type": "choose", "pay": False})
    return out


def _do_cathedral(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    if move["pay"]:
        e.p(seat)["coins"] -= item["coins"]
        return
    to = move.get("to", item["cell"])
    if to != item["cell"]:
        set_cell(e, seat, item["cell"], None)
    place_building(e, seat, _grey(e.s), to)  # type: ignore[arg-type]  # a grey card is always in play


def _opt_replace(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    pl = state["p"][seat]
    grid = pl["grid"]
    free = empties(grid)
    out: list[Move] = [{"type": "choose", "stop": True}]
    for c in building_cells(grid):
        if data.is_monument(grid[c]):
            continue
        for b in _placeable(state, seat):
            if b == grid[c]:
                continue
            if moves_anywhere(pl, b):  # the replacing Shed may go to any empty square or stay
                out += [{"type": "choose", "cell": c, "card": b, "to": t} for t in sorted([c, *free])]
            else:
                out.append({"type": "choose", "cell": c, "card": b})
    return out


def _do_replace(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    """One replacement, fully resolved (its own decisions come first), then the next one
    (RB-F: each building placed by an effect resolves its costs and benefits in turn)."""
    if move.get("stop"):
        return
    cell: int = move["cell"]
    to = move.get("to", cell)
    if to != cell:  # the replaced building leaves; the Shed stands elsewhere
        set_cell(e, seat, cell, None)
        if str(cell) in e.s["p"][seat]["store"]:
            del e.f(seat, "store")[str(cell)]
    place_building(e, seat, move["card"], to)
    if item["left"] > 1:
        e.f(seat, "pending").append({**item, "left": item["left"] - 1})


def _opt_free(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    used = item.get("used", [])
    cells = empties(state["p"][seat]["grid"])
    return [
        {"type": "choose", "card": b, "cell": c}
        for b in _placeable(state, seat)
        if b not in used
        for c in cells
    ]


def _do_free(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    """One building placed and fully resolved before the next (Masons' Guild: "construct the
    buildings one at a time, resolving separately each building's costs and/or benefits")."""
    place_building(e, seat, move["card"], move["cell"])
    if item["left"] > 1:  # Masons' Guild: the buildings must be unique types
        e.f(seat, "pending").append(
            {**item, "left": item["left"] - 1, "used": [*item.get("used", []), move["card"]]}
        )


def _opt_watch_pick(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    have = state["p"][seat]["flags"].get("watch", [])
    return [{"type": "choose", "card": b} for b in state["buildings"] if b not in have]


def _do_watch_pick(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    flags = e.f(seat, "flags")
    flags["watch"] = [*flags.get("watch", []), move["card"]]
    if item["left"] > 1:
        e.f(seat, "pending").insert(0, {**item, "left": item["left"] - 1})


def _opt_cells(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    pl = state["p"][seat]
    return [{"type": "choose", "cell": c} for c in empties(pl["grid"]) if str(c) not in pl["marks"]]


def _opt_any_cell(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    return [{"type": "choose", "cell": c} for c in empties(state["p"][seat]["grid"])]


def _opt_cells_or_skip(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    cells = [{"type": "choose", "cell": c} for c in empties(state["p"][seat]["grid"])]
    return [*cells, {"type": "choose", "skip": True}] if cells else []


def _do_watch_place(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    place_building(e, seat, item["card"], move["cell"])


def _do_okaver(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    if not move.get("skip"):
        place_building(e, seat, "cottage", move["cell"])


def _do_semaphore(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    if not move.get("skip"):  # RB-F Southern Semaphore: the extra cube is the named type
        set_cell(e, seat, move["cell"], item["resource"])
        if str(move["cell"]) in e.p(seat)["marks"] and e.p(seat)["marks"][str(move["cell"])] == "petal":
            del e.f(seat, "marks")[str(move["cell"])]
            gain(e, seat, 1)
        gain(e, seat, 1)


def _opt_masons(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    coins = state["p"][seat]["coins"]
    return [{"type": "choose", "coins": k} for k in range(coins + 1)]


def _do_masons(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    k = move["coins"]
    e.p(seat)["coins"] -= k  # RB-F Masons' Guild: spend the whole amount first
    if k:
        e.f(seat, "pending").insert(0, {"kind": "free_build", "left": k, "used": []})


def _do_petal(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    e.f(seat, "marks")[str(move["cell"])] = "petal"
    if item["left"] > 1:
        e.f(seat, "pending").insert(0, {**item, "left": item["left"] - 1})


def _opt_teahouse(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    return [{"type": "choose", "line": "row"}, {"type": "choose", "line": "column"}]


def _do_teahouse(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    gain(e, seat, item[move["line"]])  # RB-F Teahouse: only the chosen line counts


Options = Callable[[dict[str, Any], int, dict[str, Any]], list[Move]]
Resolve = Callable[[Edit, int, dict[str, Any], Move], None]

PENDING: dict[str, tuple[Options, Resolve]] = {
    "resource": (_opt_resource, _do_resource),
    "cathedral": (_opt_cathedral, _do_cathedral),
    "replace": (_opt_replace, _do_replace),
    "free_build": (_opt_free, _do_free),
    "watch_pick": (_opt_watch_pick, _do_watch_pick),
    "watch_place": (_opt_any_cell, _do_watch_place),
    "okaver": (_opt_cells_or_skip, _do_okaver),
    "semaphore": (_opt_cells_or_skip, _do_semaphore),
    "masons_spend": (_opt_masons, _do_masons),
    "petal": (_opt_cells, _do_petal),
    "teahouse": (_opt_teahouse, _do_teahouse),
}


def pending_options(state: dict[str, Any], seat: int) -> list[Move]:
    """The choices open for the player's first pending decision."""
    pending = state["p"][seat]["pending"]
    if not pending:
        return []
    item = pending[0]
    return PENDING[item["kind"]][0](state, seat, item)


def resolve_pending(e: Edit, seat: int, move: Move) -> None:
    """Apply a `choose` move to the first pending decision (already checked legal). Decisions
    it creates (the placed building's own, then the effect's next step) come before the ones
    already waiting: each building is resolved in full before the next (RB-F)."""
    pending = e.f(seat, "pending")
    item = pending.pop(0)
    waiting = list(pending)
    pending.clear()
    PENDING[item["kind"]][1](e, seat, item, move)
    pl = e.p(seat)
    pl["pending"] = [*pl["pending"], *waiting]


def prune(e: Edit) -> None:
    """Drop pending decisions that have no possible choice (e.g. no empty square left). A
    building taken with Opaleye's Watch while its owner's town is full stays set aside on the
    card (`flags.watch_waiting`) and is offered again as soon as a square is free (NOTES 18)."""
    for seat, pl in enumerate(e.s["p"]):
        while pl["pending"] and not PENDING[pl["pending"][0]["kind"]][0](e.s, seat, pl["pending"][0]):
            item = e.f(seat, "pending").pop(0)
            if item["kind"] == "watch_place":
                flags = e.f(seat, "flags")
                flags["watch_waiting"] = [*flags.get("watch_waiting", []), item["card"]]
            pl = e.s["p"][seat]
        waiting = pl["flags"] and pl["flags"].get("watch_waiting")
        if waiting and not pl["complete"] and has_empty(pl["grid"]):
            del e.f(seat, "flags")["watch_waiting"]
            pending = e.f(seat, "pending")
            pending += [{"kind": "watch_place", "card": cid} for cid in waiting]
