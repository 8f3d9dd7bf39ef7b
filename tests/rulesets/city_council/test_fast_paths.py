"""The engine-speed shortcuts (issue 11) give the rules' answers: an execution's cost from its
blocks equals the listed option's, the favour metrics equal their plain definition, and the parts
of a view kept from one call to the next are equal to a fresh build and never the state's own lists."""

from __future__ import annotations

from app.engine.memo import Memo
from app.rulesets.city_council.council import available_tiles
from app.rulesets.city_council.legal import to_act
from app.rulesets.city_council.board import build_options, occupied, option_cost, relocate_options, zone_full
from app.rulesets.city_council.favours import community_count, metrics, prison_count
from app.rulesets.city_council.tables import SHAPE_ORDER, TILES, ZONE_GRID, ZONES, kind_of
from tests.rulesets.city_council.helpers import R, random_states


def _states():
    for n, opts in ((2, {}), (3, {"mode": "sandbox"}), (4, {"mode": "hard", "hard_budget": 7}), (5, {})):
        for seed in (3, 4):
            for _, _, s in random_states(n, seed, 500, **opts):
                yield s


def test_execution_cost_from_blocks_equals_the_listed_option():
    """RB Plan Execution: the cost `do_execute` charges (from the move's blocks) is the cost
    `build_options` / `relocate_options` list for that option, upgrades included."""
    checked = 0
    for s in _states():
        for o in range(s["members"]):
            p = s["plans"][o]
            if not p or p["kind"] == "none":
                continue
            if p["kind"] == "build":
                kind = TILES[p["target"]]
                for opt in build_options(s, kind):
                    assert option_cost(s, kind, opt["cells"], opt.get("upgrade")) == opt["cost"]
                    checked += 1
            elif p["kind"] == "relocate" and p["target"] in s["buildings"]:
                kind = kind_of(s["buildings"][p["target"]])
                for opt in relocate_options(s, p["target"]):
                    assert option_cost(s, kind, opt["cells"], relocate=True) == opt["cost"]
                    checked += 1
    assert checked > 200


def _plain_metrics(s):
    """data/favours.toml's metrics written out directly from the state."""
    occ = occupied(s)
    jobs = {"B": 0, "W": 0}
    for rec in s["activated"]:
        if not rec.get("resolved"):
            jobs["B"] += rec["put"].get("B", 0) + rec["put"].get("BX", 0)
            jobs["W"] += rec["put"].get("W", 0)
    full = {
        t: sum(1 for z, info in ZONES.items() if info["type"] == t and zone_full(s, z, occ))
        for t in ("industrial", "commercial", "residential")
    }
    kinds = [kind_of(b) for b in s["buildings"].values()]
    active = [kind_of(s["buildings"][rec["b"]]) for rec in s["activated"]]
    return {
        "crime": s["crime"],
        "pollution": s["pollution"],
        "community": community_count(s),
        "goods": s["goods"],
        "budget": s["budget"],
        "power": s["power"],
        "prison": prison_count(s),
        "house_B": s["house"]["B"],
        "house_W": s["house"]["W"],
        "jobs_W": jobs["W"],
        "city_B": s["house"]["B"] + jobs["B"],
        "city_W": s["house"]["W"] + jobs["W"],
        "full_ind": full["industrial"],
        "full_com": full["commercial"],
        "full_res": full["residential"],
        "zones_built": len({ZONE_GRID[r][c] for (r, c) in occ}),
        "ind_built": sum(1 for k in kinds if k.type == "industrial"),
        "res_active": sum(1 for k in active if k.type == "residential"),
        "ind_zones_on": sum(1 for z in s["zones_on"] if ZONES[z]["type"] == "industrial"),
        "power_active": sum(1 for k in active if k.power_plant),
        "prison_freed": s["prison_freed"],
    }


def test_metrics_equal_their_plain_definition():
    """Favour metrics (bit masks for the zones) equal the direct count over the board."""
    for s in _states():
        assert metrics(s) == _plain_metrics(s)


def test_view_parts_kept_between_calls_equal_a_fresh_build():
    """A view's planning area, hand, counts and to_act equal what the state says at every step of
    a game, are shared (the same object) with the previous view while unchanged (inside the game's
    memo, as the live game views it), and are copies, not the state's own lists (a later change
    to the state cannot reach a view already sent)."""
    shared = 0
    prev = None
    memo = Memo()
    for s in _states():
        with memo:
            v = R.view(s, 0)
        for sh in SHAPE_ORDER:
            if sh in s["stacks"]:
                st = s["stacks"][sh]
                assert v["planning"][sh] == {
                    "top": st[0] if st else None,
                    "count": len(st),
                    "up": s["up"][sh],
                }
                assert v["planning"][sh]["up"] is not s["up"][sh]
        assert v["hand"] == s["hands"][0] and v["hand"] is not s["hands"][0]
        assert v["hand_counts"] == [len(h) for h in s["hands"]]
        assert v["drawing"] == [d is not None for d in s["drawn"]]
        assert v["to_act"] == to_act(s)
        if prev is not None and prev["planning"] == v["planning"]:
            shared += all(prev["planning"][sh] is v["planning"][sh] for sh in v["planning"])
        prev = v
    assert shared > 100


def test_placements_equal_pricing_every_position():
    """RB Building Placement / Relocating (every place the budget can pay for, NOTES 5): the
    fresh placements and relocations listed (walked by surcharge) are exactly every free position
    priced, cheapest first (ties in position order)."""
    from app.rulesets.city_council.board import placements, surcharge

    checked = 0
    for s in _states():
        for tile in available_tiles(s)[:4]:
            kind = TILES[tile]
            priced = [(kind.cost + surcharge(kind, cells), cells) for cells in placements(s, kind.shape)]
            want = [
                {"cells": [list(x) for x in cells], "cost": c}
                for c, cells in sorted(priced, key=lambda x: x[0])
            ]
            assert [o for o in build_options(s, kind) if "upgrade" not in o] == want
            limit = s["budget"]
            assert [o for o in build_options(s, kind, limit) if "upgrade" not in o] == [
                o for o in want if o["cost"] <= limit
            ]
            checked += 1
        for bid, b in sorted(s["buildings"].items())[:3]:
            if b["fixed"]:
                continue
            kind = kind_of(b)
            own = frozenset(tuple(x) for x in b["cells"])
            here = {tuple(x) for x in b["cells"]}
            priced = [
                (surcharge(kind, cells), cells)
                for cells in placements(s, kind.shape, own)
                if set(cells) != here
            ]
            assert relocate_options(s, bid) == [
                {"cells": [list(x) for x in cells], "cost": c}
                for c, cells in sorted(priced, key=lambda x: x[0])
            ]
            checked += 1
    assert checked > 1000
