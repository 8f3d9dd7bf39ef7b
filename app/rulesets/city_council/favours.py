"""Favour cards: the city metrics General cards test, and what a card scores right now."""

from __future__ import annotations

from typing import Any

from app.rulesets.city_council.board import occupied, zone_full
from app.rulesets.city_council.tables import BUILDING_LEVEL_VP, CARDS, ZONES, ZONE_CELLS, ZONE_GRID, kind_of

State = dict[str, Any]


def community_count(s: State) -> int:
    """Community tokens counted by the monitors: the section plus permanent building tokens not
    used to activate a zone this turn (RB: the Playground token 'should be counted in the
    monitoring phase ... If the token is used to activate the zone, ... not counted')."""
    used = {src for src in s["zones_on"].values() if src != "section"}
    return s["community"] + sum(1 for bid, b in s["buildings"].items()
                                if b["token"] and bid not in used)


def prison_count(s: State) -> int:
    """Crime tokens on the Prison tile."""
    return sum(sum(b["prison"]) for b in s["buildings"].values())


def metrics(s: State) -> dict[str, int]:
    """The values General favour conditions read (see data/favours.toml)."""
    occ = occupied(s)
    jobs = {"B": 0, "W": 0}
    for rec in s["activated"]:
        if not rec.get("resolved"):
            jobs["B"] += rec["put"].get("B", 0) + rec["put"].get("BX", 0)
            jobs["W"] += rec["put"].get("W", 0)
    full = {"industrial": 0, "commercial": 0, "residential": 0}
    for z, info in ZONES.items():
        if info["type"] in full and zone_full(s, z, occ):
            full[info["type"]] += 1
    zones_built = {ZONE_GRID[r][c] for (r, c), bid in occ.items() if bid != "covered"}
    kinds = [kind_of(b) for b in s["buildings"].values()]
    m = {
        "crime": s["crime"], "pollution": s["pollution"], "community": community_count(s),
        "goods": s["goods"], "budget": s["budget"], "power": s["power"], "prison": prison_count(s),
        "house_B": s["house"]["B"], "house_W": s["house"]["W"], "jobs_W": jobs["W"],
        "city_B": s["house"]["B"] + jobs["B"], "city_W": s["house"]["W"] + jobs["W"],
        "full_ind": full["industrial"], "full_com": full["commercial"],
        "full_res": full["residential"], "zones_built": len(zones_built),
        "ind_built": sum(1 for k in kinds if k.type == "industrial"),
        "res_active": sum(1 for rec in s["activated"]
                          if kind_of(s["buildings"][rec["b"]]).type == "residential"),
        "ind_zones_on": sum(1 for z in s["zones_on"] if ZONES[z]["type"] == "industrial"),
        "power_active": sum(1 for rec in s["activated"]
                            if kind_of(s["buildings"][rec["b"]]).power_plant),
        "prison_freed": s["prison_freed"],
    }
    return m


def _value(m: dict[str, int], s: State, term: tuple[int, str | None] | str) -> int:
    if isinstance(term, str):
        factor, metric = 1, term
    else:
        factor, metric = term
    if metric is None:
        return factor
    if metric.startswith("active:"):
        return factor * s["active_names"].get(metric[7:], 0)
    return factor * m[metric]


def _holds(m: dict[str, int], s: State, expr: Any) -> bool:
    lhs, op, rhs = expr
    a = sum(_value(m, s, t) for t in lhs)
    b = _value(m, s, rhs)
    return {">=": a >= b, ">": a > b, "<": a < b, "<=": a <= b, "==": a == b}[op]


def general_vp(s: State, card_id: str, m: dict[str, int], turn_end: bool) -> int:
    """VP a General card scores now: the best basic condition met, plus every bonus condition met
    when a basic one is (RB: '+' conditions 'can only be scored in addition to at least one of the
    basic conditions'; basics as alternatives is C4's reading). 0 = cannot score."""
    best = 0
    bonus = 0
    for cond in CARDS[card_id].conditions:
        if cond.turn_end and not turn_end:
            continue
        if all(_holds(m, s, e) for e in cond.exprs):
            if cond.bonus:
                bonus += cond.vp
            else:
                best = max(best, cond.vp)
    return best + bonus if best else 0


def building_vp(s: State, card_id: str) -> int:
    """VP a Building card scores: each built matching building (fixed ones too) is worth 1, 2 or 3
    by its level on the card (RB Favors & Scoring: 'any building that is currently built')."""
    names = CARDS[card_id].buildings
    total = 0
    for b in s["buildings"].values():
        name = kind_of(b).name
        if name in names:
            total += BUILDING_LEVEL_VP[names.index(name)]
    return total


def card_vp(s: State, card_id: str, m: dict[str, int], turn_end: bool) -> int:
    """VP a card would score in the current scoring window (0: it cannot be scored now)."""
    if CARDS[card_id].kind == "building":
        return building_vp(s, card_id) if turn_end else 0  # RB: building cards only at turn end
    return general_vp(s, card_id, m, turn_end)


def start_cells() -> list[tuple[int, int]]:
    """The Starting Zone's blocks."""
    return ZONE_CELLS["start"]
