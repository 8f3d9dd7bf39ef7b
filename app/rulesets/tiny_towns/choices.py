"""Pending card-effect decisions (Factory/Bank/Museum resources, Cathedral payment, Architect's
Guild, Grove University, Teahouse row or column, Masons' Guild, Opaleye's Watch, Petal Promenade,
Okaver, Semaphore): for each kind, the `choose` moves it offers and how the chosen one resolves."""

from __future__ import annotations

from typing import Any, Callable

from app.rulesets.tiny_towns import data
from app.rulesets.tiny_towns.effects import place_building
from app.rulesets.tiny_towns.state import CELLS, Edit, building_cells, empties, gain, set_cell

Move = dict[str, Any]


def _grey(state: dict[str, Any]) -> str | None:
    return next((b for b in state["buildings"] if data.card(b)["colour"] == "grey"), None)


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
    if grey and data.has_passive(grey, "place_anywhere"):  # a Shed may move to any empty square
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
    place_building(e, seat, _grey(e.s), to)  # type: ignore[arg-type]


def _opt_replace(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    grid = state["p"][seat]["grid"]
    out: list[Move] = [{"type": "choose", "stop": True}]
    for c in building_cells(grid):
        if not data.is_monument(grid[c]):
            out += [{"type": "choose", "cell": c, "card": b} for b in state["buildings"] if b != grid[c]]
    return out


def _do_replace(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    if move.get("stop"):
        return
    if item["left"] > 1:
        e.f(seat, "pending").insert(0, {**item, "left": item["left"] - 1})
    place_building(e, seat, move["card"], move["cell"])


def _opt_free(state: dict[str, Any], seat: int, item: dict[str, Any]) -> list[Move]:
    used = item.get("used", [])
    cells = empties(state["p"][seat]["grid"])
    return [{"type": "choose", "card": b, "cell": c}
            for b in state["buildings"] if b not in used for c in cells]


def _do_free(e: Edit, seat: int, item: dict[str, Any], move: Move) -> None:
    if item["left"] > 1:  # Masons' Guild: the buildings must be unique types
        e.f(seat, "pending").insert(0, {**item, "left": item["left"] - 1,
                                        "used": [*item.get("used", []), move["card"]]})
    place_building(e, seat, move["card"], move["cell"])


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
    """Apply a `choose` move to the first pending decision (already checked legal)."""
    pending = e.f(seat, "pending")
    item = pending.pop(0)
    PENDING[item["kind"]][1](e, seat, item, move)


def prune(e: Edit) -> None:
    """Drop pending decisions that have no possible choice (e.g. no empty square left)."""
    for seat, pl in enumerate(e.s["p"]):
        while pl["pending"] and not PENDING[pl["pending"][0]["kind"]][0](e.s, seat, pl["pending"][0]):
            e.f(seat, "pending").pop(0)
            pl = e.s["p"][seat]
