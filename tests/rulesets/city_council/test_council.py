"""Council Meeting (RB 2. Council Meeting Phase): planning, voting, counting, execution, and the
worked Examples 2-6."""

from __future__ import annotations

from app.rulesets.city_council.council import count_votes, plan_votes, plans_to_execute
from app.rulesets.city_council.execute import do_execute, end_council, execute_options
from app.rulesets.city_council.phases import advance
from app.rulesets.city_council.board import build_options, placements, relocate_options, surcharge
from app.rulesets.city_council.tables import KIND_BY_NAME, ORIENTATIONS, TILES
from tests.rulesets.city_council.helpers import R, at_planning, build, find, game, take_tile


def _council(n=4, seed=0, advanced=False):
    """A game seated and at the planning step (first turn), with everyone's committee known."""
    s = at_planning(n, seed)
    s["advanced"] = advanced
    return s


def _area(s, name):
    """Put a tile of `name` into the planning area and return it."""
    t = take_tile(s, name)
    s["up"].setdefault(TILES[t].shape, []).append(t)
    s["stacks"].setdefault(TILES[t].shape, [])
    s["bdiscard"].setdefault(TILES[t].shape, [])
    return t


def test_plan_needs_budget_and_no_tile_twice():
    """RB City Planning: any planning-area building the City Budget can pay for; the same tile
    cannot be chosen twice in a turn."""
    s = _council()
    m = R.to_act(s)[0]
    s["budget"] = 1
    builds = [mv for mv in R.legal_moves(s, m) if mv["kind"] == "build"]
    assert builds and all(TILES[mv["target"]].cost <= 1 for mv in builds)
    s["budget"] = 7
    first = next(mv for mv in R.legal_moves(s, m) if mv["kind"] == "build")
    s2 = R.apply(s, m, first)
    m2 = R.to_act(s2)[0]
    assert first not in R.legal_moves(s2, m2)


def test_relocate_and_sell_need_a_token():
    """RB City Planning / Setup: 1 Relocation and 1 Sale token in the starting planning area, so
    one relocation and one sale plan per turn; the printed Starting-Zone buildings cannot be
    moved or sold (NOTES)."""
    s = _council()
    assert not [mv for mv in R.legal_moves(s, R.to_act(s)[0]) if mv["kind"] != "build"]
    build(s, "Firm", [(3, 4)])
    m = R.to_act(s)[0]
    sells = [mv for mv in R.legal_moves(s, m) if mv["kind"] == "sell"]
    assert len(sells) == 1
    s2 = R.apply(s, m, sells[0])
    assert not [mv for mv in R.legal_moves(s2, R.to_act(s2)[0]) if mv["kind"] == "sell"]


def test_vote_not_for_own_plan():
    """RB Voting: each player places his Delegate on another player's plan."""
    s = _council(3)
    while s["phase"] == "plan":
        m = R.to_act(s)[0]
        s = R.apply(s, m, R.legal_moves(s, m)[0])
    assert s["phase"] == "vote"
    m = R.to_act(s)[0]
    assert {mv["plan"] for mv in R.legal_moves(s, m)} == {o for o in range(3) if o != m}


def test_example_2_four_way_tie():
    """RB Example 2 / Vote Counting: four plans tied at one Delegate; orange puts $1 on the
    Hospital; purple (Executive) puts his second Delegate on the Bank. The Bank is first, the
    Hospital wins the tie on private funds, and the Election chairman (gray) picks the Coal Power
    Plant among the two still tied."""
    s = _council(4, advanced=True)
    orange, gray, purple, gold = 0, 1, 2, 3
    s["committee"] = ["transport", "election", "executive", "treasury"]
    s["order"] = [orange, gold, gray, purple]
    hospital, coal, bank, shop = (_area(s, n) for n in ("Hospital", "Coal Power Plant", "Bank", "Shop"))
    s["plans"] = [{"kind": "build", "target": t} for t in (hospital, coal, bank, shop)]
    s["delegates"] = [gray, purple, gold, orange]  # one Delegate on each plan
    s["plan_funds"][orange][orange] = 1  # orange's $1 on the Hospital
    s["exec_vote"] = purple  # purple's second Delegate on the Bank
    s["phase"] = "vote2"
    count_votes(s)
    assert s["approved"] == [purple, orange]  # Bank, then Hospital on funds
    assert s["phase"] == "approve" and s["tie"]["need"] == 1
    assert sorted(s["tie"]["pool"]) == [gray, gold]
    assert R.to_act(s) == [gray]
    s2 = R.apply(s, gray, {"type": "approve", "plan": gray})  # the Coal Power Plant
    assert s2["approved"] == [purple, orange, gray]
    assert s2["phase"] == "execute"


def test_two_or_three_plans_executed():
    """RB Vote Counting: 2 plans with 2-3 players, 3 with 4-5."""
    assert plans_to_execute(game(2)) == 2 and plans_to_execute(game(3)) == 2
    assert plans_to_execute(game(4)) == 3 and plans_to_execute(game(5)) == 3


def test_example_3_school_on_two_zones():
    """RB Example 3: the School overlapping the Starting Zone and a residential zone costs its
    printed $2: the Starting Zone has no zoning and the School is residential."""
    s = game(3)
    school = KIND_BY_NAME["School"]
    cells = ((2, 4), (3, 4))  # residential zone 1 above, Starting Zone below
    assert surcharge(school, cells) == 0
    assert cells in placements(s, "M")
    assert min(o["cost"] for o in build_options(s, school)) == 2


def test_example_4_bank_off_zone():
    """RB Example 4 / Constructing a Building: the Bank (commercial) over the Starting Zone and a
    residential zone costs $3 instead of $2: +$1 for its block on the non-matching zone."""
    bank = KIND_BY_NAME["Bank"]
    assert bank.cost + surcharge(bank, ((2, 4), (3, 4))) == 3
    assert bank.cost + surcharge(bank, ((3, 1), (3, 2))) == 2  # commercial zone 1


def test_example_4_the_chairman_may_place_the_bank_for_3_while_a_2_spot_exists():
    """RB Example 4 / Building Placement: in the advanced phase 'you may construct a building
    anywhere on the board, as long as there is space', paying $1 per block off its zone: the Bank
    over the Starting Zone and residential zone 1 is a possible execution at $3, though $2 spots
    exist in the commercial zones (NOTES 5: every affordable place, not the cheapest only)."""
    s = _council(3, advanced=True)
    t = _area(s, "Bank")
    s["plans"] = [{"kind": "build", "target": t}, None, None]
    s["approved"], s["executed"], s["failed"], s["phase"] = [0], [], [], "execute"
    s["budget"] = 7
    opts = execute_options(s, 0)
    assert {"type": "execute", "plan": 0, "cells": [[2, 4], [3, 4]]} in opts
    assert min(bank_cost(s, o) for o in opts) == 2
    budget = s["budget"]
    do_execute(s, {"type": "execute", "plan": 0, "cells": [[2, 4], [3, 4]]})
    assert s["budget"] == budget - 3


def bank_cost(s, move):
    """The cost of an execution move of a construction plan, from its blocks."""
    from app.rulesets.city_council.board import option_cost

    kind = TILES[s["plans"][move["plan"]]["target"]]
    return option_cost(s, kind, move["cells"], move.get("upgrade"))


def test_safety_and_start_zone_never_pay_surcharge():
    """RB Constructing / Building Placement: Safety buildings have no zone restriction; the
    Starting Zone entails no additional cost for any type."""
    assert surcharge(KIND_BY_NAME["Police Station"], ((0, 3),)) == 0
    assert surcharge(KIND_BY_NAME["Factory"], ((4, 4), (4, 5))) == 0
    assert surcharge(KIND_BY_NAME["Factory"], ((0, 3), (0, 4))) == 2


def test_start_phase_builds_touch_the_starting_zone():
    """RB Building Placement: at the start buildings are constructed in the Starting Zone
    (overlapping another zone is allowed); in the advanced phase anywhere with space."""
    s = game(3)
    for cells in placements(s, "M"):
        assert any(3 <= r <= 5 and 3 <= c <= 5 for r, c in cells)
    s["advanced"] = True
    assert any(all(r < 3 for r, _ in cells) for cells in placements(s, "M"))


def test_rotation():
    """RB Building Placement: buildings may be rotated in any direction."""
    assert len(ORIENTATIONS["M"]) == 2 and len(ORIENTATIONS["L"]) == 1


def test_l_shaped_tiles_rotate_but_do_not_flip():
    """RB Building Placement: 'Buildings may be rotated in any direction'; a tile is printed on
    one side (its back shows the starting or advanced set), so an L-shaped tile (Airport, Train
    Station, Shopping Mall, Hospital) lies in its 4 rotations and never as its mirror image."""
    base = ((0, 0), (1, 0), (2, 0), (2, 1))  # the L as data/buildings.toml's shape table has it
    mirror = ((0, 1), (1, 1), (2, 0), (2, 1))  # the same blocks flipped left to right (a J)
    assert len(ORIENTATIONS["LT"]) == 4
    assert base in ORIENTATIONS["LT"] and mirror not in ORIENTATIONS["LT"]
    for cells in placements(_council(3, advanced=True), "LT"):
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        assert tuple(sorted((r - r0, c - c0) for r, c in cells)) in ORIENTATIONS["LT"]


def test_example_5_diner_upgrade():
    """RB Example 5 / Upgrading: the Restaurant plan upgrades the Diner for $1 ($2 - $1), the
    Restaurant covering the Diner completely; the old tile leaves the board."""
    s = _council(3)
    diner = find(s, "Diner")
    t = _area(s, "Restaurant")
    s["plans"] = [{"kind": "build", "target": t}, None, None]
    s["approved"], s["phase"] = [0], "execute"
    opts = execute_options(s, 0)
    up = [o for o in opts if o.get("upgrade") == diner]
    assert up == [{"type": "execute", "plan": 0, "cells": [[5, 3]], "upgrade": diner}]
    budget = s["budget"]
    do_execute(s, up[0])
    assert s["budget"] == budget - 1
    assert diner not in s["buildings"]
    assert find(s, "Restaurant") and s["buildings"][find(s, "Restaurant")]["cells"] == [[5, 3]]


def test_example_6_sell_clinic_then_relocate_factory():
    """RB Example 6 / Selling / Relocating: selling the Clinic brings $0 ($1 - $1) but frees its
    block, which the relocated Factory then uses; relocation itself is free in a matching zone."""
    s = _council(3, advanced=True)
    clinic = build(s, "Clinic", [(6, 0)])
    factory = build(s, "Factory", [(4, 0), (4, 1)])  # in commercial zone 1, off-zone
    before = [o["cells"] for o in relocate_options(s, factory)]
    assert [[6, 0], [6, 1]] not in before
    s["plans"] = [{"kind": "sell", "target": clinic}, {"kind": "relocate", "target": factory}, None]
    s["approved"], s["phase"] = [0, 1], "execute"
    budget = s["budget"]
    do_execute(s, {"type": "execute", "plan": 0})
    assert s["budget"] == budget and clinic not in s["buildings"]
    after = [o for o in relocate_options(s, factory)]
    assert {"cells": [[6, 0], [6, 1]], "cost": 0} in after
    do_execute(s, {"type": "execute", "plan": 1, "cells": [[6, 0], [6, 1]]})
    assert s["buildings"][factory]["cells"] == [[6, 0], [6, 1]] and s["budget"] == budget


def test_selling_gives_cost_minus_one():
    """RB Selling a Building: the City Budget receives the cost minus $1, never above $11."""
    s = _council(3, advanced=True)
    fed = build(s, "Federal Reserve", [(3, 0), (3, 1), (4, 0), (4, 1)])
    s["plans"] = [{"kind": "sell", "target": fed}, None, None]
    s["budget"] = 5
    do_execute(s, {"type": "execute", "plan": 0})
    assert s["budget"] == 8
    assert any(TILES[t].name == "Federal Reserve" for t in s["bdiscard"]["L"])


def test_private_funds_pay_first_and_unspent_return():
    """RB Voting: each Money token on a plan lowers its cost by $1 (never more than the cost);
    funds on plans not executed go back to their owners (NOTES)."""
    s = _council(3, advanced=True)
    t = _area(s, "Bank")
    s["plans"] = [{"kind": "build", "target": t}, {"kind": "build", "target": _area(s, "Firm")}, None]
    s["plan_funds"][0][1] = 2
    s["plan_funds"][1][2] = 1
    s["budget"] = 3
    s["approved"], s["executed"], s["failed"] = [0], [], []
    opt = execute_options(s, 0)[0]
    do_execute(s, opt)
    assert s["budget"] == 3 and s["plan_funds"][0][1] == 0
    end_council(s)
    assert s["funds"][2] == 1


def test_unaffordable_plan_fails():
    """RB Plan Execution: a plan the budget cannot cover is not executed."""
    s = _council(3, advanced=True)
    t = _area(s, "Airport")
    s["plans"] = [{"kind": "build", "target": t}, None, None]
    s["budget"] = 4
    assert execute_options(s, 0) == []


def test_executive_second_delegate_after_funds():
    """RB Voting: after private funds, the Executive chairman may place his second Delegate on any
    plan (his own included, NOTES 8) or keep it; his choice decides a tie."""
    s = _council(5)
    while s["phase"] in ("plan", "vote", "fund"):
        m = R.to_act(s)[0]
        moves = R.legal_moves(s, m)
        mv = next((x for x in moves if x["type"] == "fund_done"), moves[0])
        s = R.apply(s, m, mv)
    assert s["phase"] == "vote2"
    e = s["committee"].index("executive")
    assert R.to_act(s) == [e]
    plans = {mv["plan"] for mv in R.legal_moves(s, e) if mv["type"] == "vote2"}
    assert e in plans or s["plans"][e]["kind"] == "none"
    assert {"type": "vote2_pass"} in R.legal_moves(s, e)
    target = min(plans)
    after = R.apply(s, e, {"type": "vote2", "plan": target})
    assert after["exec_vote"] == target and plan_votes(after, target) == plan_votes(s, target) + 1


def test_a_covered_printed_building_is_gone_for_good():
    """RB Upgrading a Building: the chairman 'replaces (or covers, in case of a pre-constructed
    building) the old building tile with the new one. The old building tile is discarded.' Selling
    or relocating the covering tile later leaves its blocks empty: the printed Diner does not come
    back (else the city would hold a Diner and a Restaurant for one upgrade)."""
    for kind in ("sell", "relocate"):
        s = _council(3, advanced=True)
        diner = find(s, "Diner")
        t = _area(s, "Restaurant")
        s["plans"] = [{"kind": "build", "target": t}, None, None]
        do_execute(s, {"type": "execute", "plan": 0, "cells": [[5, 3]], "upgrade": diner})
        rest = find(s, "Restaurant")
        s["plans"] = [{"kind": kind, "target": rest}, None, None]
        if kind == "sell":
            do_execute(s, {"type": "execute", "plan": 0})
        else:
            to = next(o["cells"] for o in relocate_options(s, rest) if o["cells"] != [[5, 3]])
            do_execute(s, {"type": "execute", "plan": 0, "cells": to})
        assert diner not in s["buildings"]
        assert [b["name"] for b in s["buildings"].values()].count("Diner") == 0
        assert not any([5, 3] in b["cells"] for b in s["buildings"].values())
        # the block is free again: the Restaurant may be relocated (or a tile built) onto it
        assert kind == "sell" or [[5, 3]] in [o["cells"] for o in relocate_options(s, rest)]


def test_a_plan_waits_for_an_earlier_plan_to_make_it_possible():
    """RB Plan Execution: the Election chairman 'decides on the execution order' (Example 6:
    he sells first to make room). A plan that is not possible yet (here: no money) is not failed
    while another approved plan can still be executed first (here: a sale that pays for it)."""
    s = _council(3, advanced=True)
    fed = build(s, "Federal Reserve", [(3, 0), (3, 1), (4, 0), (4, 1)])
    t = _area(s, "Bank")
    s["plans"] = [{"kind": "sell", "target": fed}, {"kind": "build", "target": t}, None]
    s["approved"], s["executed"], s["failed"] = [0, 1], [], []
    s["budget"], s["phase"] = 0, "execute"
    s["last"] = {}
    advance(s)
    assert 1 not in s["failed"]
    # the sale was the only possible move, so it was taken at once; the Bank is now affordable
    assert fed not in s["buildings"] and s["budget"] >= 2
    assert s["phase"] == "execute" and execute_options(s, 1)


def test_each_executed_plan_is_summed_up_for_the_table():
    """RB Execution: after each executed plan the state's summary (`last_exec`, shown on the
    table) names that plan, its kind and its building, and says whether a build was an upgrade."""
    from app.rulesets.city_council.tables import TILES, kind_of
    from tests.rulesets.city_council.helpers import random_states

    seen = set()
    for players, seed in ((3, 8), (2, 1), (4, 3)):
        states = random_states(players, seed, 600)
        for (_, _, before), (_, move, after) in zip(states, states[1:]):
            if move.get("type") != "execute" or after["executed"] != before["executed"] + [move["plan"]]:
                continue  # (a step that also ran the puppet's plans sums up the last one)
            plan = before["plans"][move["plan"]]
            last = after["last_exec"]
            assert last["plan"] == move["plan"] and last["kind"] == plan["kind"]
            if plan["kind"] == "build":
                assert last["name"] == TILES[plan["target"]].name
                assert last["upgrade"] is ("upgrade" in move)
            else:
                assert last["name"] == kind_of(before["buildings"][plan["target"]]).name
            seen.add(plan["kind"] + ("-upgrade" if "upgrade" in move else ""))
    assert {"build", "sell", "relocate"} <= seen, seen
