"""Favour cards: the city metrics General cards test, and what a card scores right now."""

from __future__ import annotations

import operator
from typing import Any

from app.rulesets.city_council.state import State
from app.rulesets.city_council.tables import (
    BUILDING_LEVEL_VP,
    CARDS,
    CELL_BIT,
    KIND_BY_NAME,
    SIZE,
    TILES,
    ZONES,
    ZONE_CELLS,
)


def community_count(s: State) -> int:
    """Community tokens counted by the monitors: the section plus permanent building tokens not
    used to activate a zone this turn (RB: the Playground token 'should be counted in the
    monitoring phase ... If the token is used to activate the zone, ... not counted')."""
    # List comprehensions here: compiled, a generator expression would cost a closure per call.
    used = {src for src in s["zones_on"].values() if src != "section"}
    return s["community"] + len([bid for bid, b in s["buildings"].items() if b["token"] and bid not in used])


def prison_count(s: State) -> int:
    """Crime tokens on the Prison tile."""
    return sum([sum(b["prison"]) for b in s["buildings"].values()])


# Each zone's blocks as a bit mask (bit r * SIZE + c), for the zone tests of `metrics`.
_ZONE_MASKS = {z: sum(1 << (r * SIZE + c) for r, c in cells) for z, cells in ZONE_CELLS.items()}
_FULL_KEY = {"industrial": "full_ind", "commercial": "full_com", "residential": "full_res"}
# (zone mask, the full_* metric it counts for or None), in ZONE_CELLS order
_ZONE_ROWS = [(zmask, _FULL_KEY.get(ZONES[z]["type"])) for z, zmask in _ZONE_MASKS.items()]


# Long: one pass over the buildings and zones works out every metric at once (it runs per move).
def metrics(s: State) -> dict[str, int]:
    """The values General favour conditions read (see data/favours.toml)."""
    built = 0  # blocks under buildings
    ind_built = 0
    tokens = 0  # permanent Community tokens not used on a zone (`community_count`)
    prison = 0  # `prison_count`
    zones_on = s["zones_on"]
    used = {src for src in zones_on.values() if src != "section"} if zones_on else ()
    buildings = s["buildings"]
    kinds = {}  # building id -> kind, for the activation records below
    for bid, b in buildings.items():
        for r, c in b["cells"]:
            built |= CELL_BIT[r][c]
        tile = b.get("tile")
        kind = kinds[bid] = TILES[tile] if tile else KIND_BY_NAME[b["name"]]  # kind_of, inlined
        if kind.type == "industrial":
            ind_built += 1
        if b["token"] and bid not in used:
            tokens += 1
        prison += sum(b["prison"])
    occ = built
    full = {"full_ind": 0, "full_com": 0, "full_res": 0}
    zones_built = 0
    for zmask, key in _ZONE_ROWS:
        if zmask & built:
            zones_built += 1
        if key and zmask & occ == zmask:  # RB Pollution Prevention: 'no free blocks'
            full[key] += 1
    jobs_b = jobs_w = res_active = power_active = 0
    for rec in s["activated"]:
        if not rec.get("resolved"):
            put = rec["put"]
            jobs_b += put.get("B", 0) + put.get("BX", 0)
            jobs_w += put.get("W", 0)
        kind = kinds[rec["b"]]
        if kind.type == "residential":
            res_active += 1
        if kind.power_plant:
            power_active += 1
    ind_zones_on = 0
    for z in zones_on:
        if ZONES[z]["type"] == "industrial":
            ind_zones_on += 1
    house_b = s["house"]["B"]
    house_w = s["house"]["W"]
    return {
        "full_ind": full["full_ind"],
        "full_com": full["full_com"],
        "full_res": full["full_res"],
        "crime": s["crime"],
        "pollution": s["pollution"],
        "community": s["community"] + tokens,
        "goods": s["goods"],
        "budget": s["budget"],
        "power": s["power"],
        "prison": prison,
        "house_B": house_b,
        "house_W": house_w,
        "jobs_W": jobs_w,
        "city_B": house_b + jobs_b,
        "city_W": house_w + jobs_w,
        "zones_built": zones_built,
        "ind_built": ind_built,
        "res_active": res_active,
        "ind_zones_on": ind_zones_on,
        "power_active": power_active,
        "prison_freed": s["prison_freed"],
    }


_OPS = {">=": operator.ge, ">": operator.gt, "<": operator.lt, "<=": operator.le, "==": operator.eq}


def _compile_term(term: tuple[int, str | None] | str) -> tuple[int, str | None, bool]:
    """(factor, metric or building name, whether it counts activations of that building)."""
    factor, metric = (1, term) if isinstance(term, str) else term
    if metric is not None and metric.startswith("active:"):
        return factor, metric[7:], True
    return factor, metric, False


def _compile(card_id: str) -> list[tuple[bool, bool, int, list[Any]]]:
    """A General card's conditions with their expressions parsed once: (turn_end, bonus, vp,
    [(lhs terms, comparison, rhs term)])."""
    return [
        (
            cond.turn_end,
            cond.bonus,
            cond.vp,
            [([_compile_term(t) for t in lhs], _OPS[op], _compile_term(rhs)) for lhs, op, rhs in cond.exprs],
        )
        for cond in CARDS[card_id].conditions
    ]


_COMPILED = {cid: _compile(cid) for cid, card in CARDS.items() if card.kind == "general"}


def _value(m: dict[str, int], active: dict[str, int], term: tuple[int, str | None, bool]) -> int:
    factor, metric, is_active = term
    if metric is None:
        return factor
    return factor * (active.get(metric, 0) if is_active else m[metric])


def general_vp(s: State, card_id: str, m: dict[str, int], turn_end: bool) -> int:
    """VP a General card scores now: the best basic condition met, plus every bonus condition met
    when a basic one is (RB: '+' conditions 'can only be scored in addition to at least one of the
    basic conditions'; basics as alternatives is C4's reading). 0 = cannot score."""
    best = 0
    bonus = 0
    active = s["active_names"]
    for cond_turn_end, is_bonus, vp, exprs in _COMPILED[card_id]:
        if cond_turn_end and not turn_end:
            continue
        for lhs, op, rhs in exprs:
            total = 0  # the left side's sum (a loop: no generator per expression)
            for term in lhs:
                total += _value(m, active, term)
            if not op(total, _value(m, active, rhs)):
                break
        else:
            if is_bonus:
                bonus += vp
            else:
                best = max(best, vp)
    return best + bonus if best else 0


def building_vp(s: State, card_id: str) -> int:
    """VP a Building card scores: each built matching building (fixed ones too) is worth 1, 2 or 3
    by its level on the card (RB Favors & Scoring: 'any building that is currently built')."""
    level = _LEVEL_VP[card_id]
    total = 0
    for b in s["buildings"].values():
        tile = b.get("tile")
        total += level.get(TILES[tile].name if tile else b["name"], 0)  # kind_of(b).name
    return total


def _level_vp(card_id: str) -> dict[str, int]:
    """A Building card's VP per building name: its level on the card (the first one listed)."""
    out: dict[str, int] = {}
    for i, name in enumerate(CARDS[card_id].buildings):
        out.setdefault(name, BUILDING_LEVEL_VP[i])
    return out


_LEVEL_VP = {cid: _level_vp(cid) for cid, card in CARDS.items() if card.kind == "building"}


def card_vp(s: State, card_id: str, m: dict[str, int] | None, turn_end: bool) -> int:
    """VP a card would score in the current scoring window (0: it cannot be scored now); `m` is
    `metrics(s)`, or None when not worked out (only a General card reads it)."""
    if CARDS[card_id].kind == "building":
        return building_vp(s, card_id) if turn_end else 0  # RB: building cards only at turn end
    return general_vp(s, card_id, metrics(s) if m is None else m, turn_end)
