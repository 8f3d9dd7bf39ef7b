"""The listing shortcuts of engine step 4 give the rules' answers: upgrades found with bit masks,
zones, activatable buildings and box sets, committee assignments, Building-card VP and scorable
cards (metrics read only for General cards) equal their plain definitions at every step of
random games."""

from __future__ import annotations

from itertools import combinations, permutations

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.committees import committee_options
from app.rulesets.city_council.windows import scorable
from app.rulesets.city_council.board import build_options, placements, surcharge, zones_of
from app.rulesets.city_council.favours import BUILDING_LEVEL_VP, building_vp, card_vp, metrics
from app.rulesets.city_council.tables import CARDS, COMMITTEES, TILES, TOKENS, ZONES, kind_of
from tests.rulesets.city_council.helpers import random_states


def _states():
    for n, opts in ((2, {}), (3, {"mode": "sandbox"}), (4, {"mode": "hard", "hard_budget": 7}), (5, {})):
        for seed in (5, 6):
            for _, _, s in random_states(n, seed, 500, **opts):
                yield s


def _plain_upgrades(s, kind):
    """RB Upgrading: every built building the chart lets `kind` replace, at each position
    covering all of its blocks (cost difference plus the surcharge on new blocks), cheapest first
    for each building."""
    out = []
    for bid, b in sorted(s["buildings"].items()):
        old = kind_of(b)
        if kind.name not in old.upgrades_to:
            continue
        own = frozenset(tuple(x) for x in b["cells"])
        opts = [
            (kind.cost - old.cost + surcharge(kind, [x for x in cells if x not in own]), cells)
            for cells in placements(s, kind.shape, own)
            if own <= set(cells)
        ]
        out += [
            {"upgrade": bid, "cells": [list(x) for x in cells], "cost": c}
            for c, cells in sorted(opts, key=lambda x: x[0])
        ]
    return out


def test_upgrades_equal_their_plain_definition():
    """`build_options`' upgrades (found with bit masks) equal the plain definition."""
    targets = {u for k in TILES.values() for u in k.upgrades_to}
    kinds = {k.name: k for k in TILES.values() if k.name in targets}.values()
    checked = 0
    for s in _states():
        for kind in kinds:
            want = _plain_upgrades(s, kind)
            assert [o for o in build_options(s, kind) if "upgrade" in o] == want
            checked += len(want)
    assert checked > 100


def _plain_zone_options(s):
    """RB Activating a Zone, written out as before engine step 4."""
    if s["power"] < 1 or len(s["zones_on"]) >= TOKENS["power_tokens"]:
        return []
    used = set(s["zones_on"].values())
    by_zone = {}
    for bid, b in s["buildings"].items():
        for z in zones_of(b):
            by_zone.setdefault(z, []).append(bid)
    out = []
    for z in ZONES:
        if z in ("start", "lake") or z in s["zones_on"] or not by_zone.get(z):
            continue
        if s["community"] >= 1:
            out.append({"type": "zone", "zone": z, "token": "section"})
        out += [
            {"type": "zone", "zone": z, "token": bid}
            for bid in sorted(by_zone[z])
            if s["buildings"][bid]["token"] and bid not in used
        ]
    return out


def _plain_box_choices(s, bid):
    """RB Activating a Building: box sets (either/or once) whose needs the reserve covers and
    whose Prison boxes hold a Crime token."""
    b = s["buildings"][bid]
    kind = kind_of(b)
    have = {
        "B": s["house"]["B"],
        "W": s["house"]["W"],
        "money": min(s["budget"], prod.money_tokens_free(s)),
        "goods": s["goods"],
        "community": s["community"],
        "jail": s["crime"],
    }
    out = []
    for size in range(1, len(kind.boxes) + 1):
        for combo in combinations(range(len(kind.boxes)), size):
            groups = [kind.boxes[i].group for i in combo if kind.boxes[i].group]
            if len(groups) != len(set(groups)):
                continue
            need = prod._need(kind, combo)
            if need.get("B", 0) + need.get("BX", 0) > have["B"]:
                continue
            if any(need.get(k, 0) > have[k] for k in ("W", "money", "goods", "community", "jail")):
                continue
            if all(
                b["prison"][i["prison"] - 1] for i in (kind.boxes[j].inputs for j in combo) if i.get("prison")
            ):
                out.append(list(combo))
    return out


def test_activation_listing_equals_its_plain_definition():
    """Activatable buildings, their box sets, the zones and `can_activate` equal the plain
    definitions in every activation step."""
    checked = 0
    for s in _states():
        if s["phase"] != "activate":
            continue
        done = {rec["b"] for rec in s["activated"]}
        want = {}
        for bid, b in s["buildings"].items():
            kind = kind_of(b)
            if bid in done or not kind.boxes:
                continue
            if kind.power_plant or prod.zone_active(s, b):
                choices = _plain_box_choices(s, bid)
                if choices:
                    want[bid] = choices
        assert prod.activatable_buildings(s) == want
        zones = _plain_zone_options(s)
        assert prod.zone_options(s) == zones
        assert prod.can_activate(s) == bool(want or zones)
        for bid in want:
            assert prod.box_choices(s, bid) == want[bid]
        checked += 1
    assert checked > 200


def _plain_committee_options(s):
    """RB Committees phase after turn 1: the assignments with the fewest changes (at least one,
    everyone on spot B moving, the Election Committee filled, Phil never on it), in the order
    of permutations(COMMITTEES, members)."""
    members, cur = s["members"], s["committee"]
    phil = s["players"] if s["phil"] else None
    ok = []
    for perm in permutations(COMMITTEES, members):
        a = list(perm)
        if "election" not in a or (phil is not None and a[phil] == "election"):
            continue
        moved = [m for m in range(members) if a[m] != cur[m]]
        if not moved or any(s["streak"][m] >= 2 and a[m] == cur[m] for m in range(members)):
            continue
        ok.append((len(moved), a))
    least = min((k for k, _ in ok), default=None)
    return [a for k, a in ok if k == least]


def test_committee_options_equal_their_plain_definition():
    """The fewest-changes search equals filtering every permutation of the committees."""
    checked = 0
    for s in _states():
        if s["phase"] == "committees" and s["turn"] > 1:
            assert committee_options(s) == _plain_committee_options(s)
            checked += 1
    assert checked > 20


def test_card_values_equal_their_plain_definition():
    """Building-card VP from the per-name table, and `scorable` (metrics only read for General
    cards), equal the plain definitions."""
    checked = 0
    for s in _states():
        for seat in range(s["players"]):
            for c in s["hands"][seat]:
                if CARDS[c].kind == "building":
                    names = CARDS[c].buildings
                    want = sum(
                        BUILDING_LEVEL_VP[names.index(kind_of(b).name)]
                        for b in s["buildings"].values()
                        if kind_of(b).name in names
                    )
                    assert building_vp(s, c) == want
            if s["turn"] > 1:
                turn_end = s["phase"] == "turn_end"
                m = metrics(s)
                want = [(c, v) for c in s["hands"][seat] if (v := card_vp(s, c, m, turn_end))]
                assert scorable(s, seat) == want
                checked += 1
    assert checked > 1000


def test_start_full_equals_its_plain_definition():
    """`start_full` (one mask test) is true exactly when every Starting-Zone block is taken."""
    from app.rulesets.city_council.board import occupied, start_full
    from app.rulesets.city_council.tables import ZONE_CELLS

    seen = set()
    for s in _states():
        occ = occupied(s)
        want = all(cell in occ for cell in ZONE_CELLS["start"])
        assert start_full(s) == want
        seen.add(want)
    assert seen == {True, False}
