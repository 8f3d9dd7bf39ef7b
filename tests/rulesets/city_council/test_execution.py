"""Plan execution (RB Plan Execution): the chairman may place a building anywhere the budget pays
for, but 'must strive to execute all approved plans (cannot sabotage plans by intentionally
increasing building costs)': a way of executing one plan that makes another approved plan
impossible is not offered while some way keeps them all possible."""

from __future__ import annotations

from app.rulesets.city_council import execution
from app.rulesets.city_council.execute import do_execute, execute_options
from app.rulesets.city_council.phases import legal_moves
from app.rulesets.city_council.state import chair
from app.rulesets.city_council.board import option_cost
from app.rulesets.city_council.tables import TILES
from tests.rulesets.city_council.helpers import (
    R,
    at_planning,
    build,
    clone,
    random_states,
    take_tile,
)


def _area(s, name):
    """Put a tile of `name` into the planning area and return it."""
    t = take_tile(s, name)
    s["up"].setdefault(TILES[t].shape, []).append(t)
    return t


def _executing(s, plans, budget):
    """`s` at plan execution with `plans` (one per member, None for none) all approved."""
    s["plans"] = plans + [None] * (s["members"] - len(plans))
    s["approved"] = [o for o, p in enumerate(plans) if p]
    s["executed"], s["failed"], s["phase"], s["budget"] = [], [], "execute", budget
    s["last"] = {}
    return s


def _cost(s, mv):
    p = s["plans"][mv["plan"]]
    if p["kind"] == "relocate":
        return option_cost(s, TILES[s["buildings"][p["target"]]["tile"]], mv["cells"], relocate=True)
    return option_cost(s, TILES[p["target"]], mv["cells"], mv.get("upgrade"))


def _crowded_city():
    """Rules review item 1's position: advanced phase, the Starting Zone and commercial zone 1
    full, commercial zone 2 free only at D7 H4... i.e. blocks (3,6), (3,7), (3,8) and (4,8)."""
    s = at_planning(3, 0)
    s["advanced"] = True
    build(s, "Federal Reserve", [(3, 4), (3, 5), (4, 4), (4, 5)])  # Starting Zone, with the
    build(s, "Clinic", [(5, 5)])  # printed three
    build(s, "Zoo", [(3, 0), (3, 1), (4, 0), (4, 1)])  # commercial zone 1
    for name, cell in (
        ("Diner", (3, 2)),
        ("Dump", (4, 2)),
        ("Firm", (5, 0)),
        ("Firm", (5, 1)),
        ("Dump", (5, 2)),
    ):
        build(s, name, [cell])
    build(s, "Manufacturing Plant", [(4, 6), (4, 7), (5, 6), (5, 7)])  # commercial zone 2
    build(s, "Gallery", [(5, 8)])
    return s


def test_no_sabotage_by_where_another_plan_is_placed():
    """RB Plan Execution ('cannot sabotage plans'), rules review item 1: $4 in the budget, a Bank
    and a Shop approved ($2 each, commercial). Bank on (3,6)+(3,7) or (3,8)+(4,8) leaves the Shop
    its $2 spot; Bank on (3,7)+(3,8) (or anywhere off the zone, $3-$4) leaves the Shop nothing it
    can pay for, so those are not offered; the Shop is treated alike."""
    s = _crowded_city()
    bank, shop = _area(s, "Bank"), _area(s, "Shop")
    s = _executing(s, [{"kind": "build", "target": bank}, {"kind": "build", "target": shop}], 4)
    for plan in (0, 1):
        opts = execute_options(s, plan)
        assert sorted(mv["cells"] for mv in opts) == [[[3, 6], [3, 7]], [[3, 8], [4, 8]]]
        assert all(_cost(s, mv) == 2 for mv in opts)
    # (3,7)+(3,8) is a place the budget pays for: only the rule keeps it out
    t = execution._shadow(s)
    assert any(sorted(map(list, ch[1])) == [[3, 7], [3, 8]] for ch in execution._choices(t, 0))
    after = R.apply(s, R.to_act(s)[0], {"type": "execute", "plan": 0, "cells": [[3, 6], [3, 7]]})
    # the Shop's one possible place was taken at once (a single answer, NOTES 20)
    assert after["executed"] == [0, 1] and after["failed"] == []


def test_no_upgrade_of_a_building_another_plan_sells():
    """RB Plan Execution, rules review item 1: a Restaurant plan may upgrade the Diner, but not
    the Diner another approved plan sells (or relocates), while a fresh place keeps both plans
    possible; the printed Diner (not for sale) may still be upgraded."""
    s = at_planning(3, 0)
    s["advanced"] = True
    diner = build(s, "Diner", [(3, 4)])
    printed = next(bid for bid, b in s["buildings"].items() if b["fixed"] and b["name"] == "Diner")
    rest = _area(s, "Restaurant")
    s = _executing(s, [{"kind": "build", "target": rest}, {"kind": "sell", "target": diner}], 6)
    ups = {mv.get("upgrade") for mv in execute_options(s, 0)}
    assert diner not in ups and printed in ups and None in ups
    raw = {ch[2] for ch in execution._choices(execution._shadow(s), 0)}
    assert diner in raw  # the upgrade the budget allows, kept out by the rule only
    assert execute_options(s, 1) == [{"type": "execute", "plan": 1}]
    # the same with a relocation of that Diner approved instead of its sale
    s["plans"][1] = {"kind": "relocate", "target": diner}
    ups = {mv.get("upgrade") for mv in execute_options(s, 0)}
    assert diner not in ups and printed in ups and None in ups


def test_when_not_every_plan_can_be_executed_each_way_keeping_the_most_is_offered():
    """RB Plan Execution: 'it is still possible that some plans cannot be executed because there
    is not enough budget'. $3 pays for the Bank or the Shop, not both: every way of executing
    either one is offered (NOTES 5: the ways that keep the most plans possible, here one)."""
    s = at_planning(3, 0)
    s["advanced"] = True
    bank, shop = _area(s, "Bank"), _area(s, "Shop")
    s = _executing(s, [{"kind": "build", "target": bank}, {"kind": "build", "target": shop}], 3)
    t = execution._shadow(s)
    for plan in (0, 1):
        opts = execute_options(s, plan)
        assert len(opts) == len(list(execution._choices(t, plan))) > 0
        assert {_cost(s, mv) for mv in opts} == {2, 3}


def test_a_sale_first_when_only_it_lets_both_plans_run():
    """RB Example 6 / Plan Execution: a sale that pays for the other approved plan keeps both
    possible; with $1 the Bank cannot be built first, so the sale is the only way offered (and
    taken at once)."""
    s = at_planning(3, 0)
    s["advanced"] = True
    fed = build(s, "Federal Reserve", [(3, 0), (3, 1), (4, 0), (4, 1)])
    bank = _area(s, "Bank")
    s = _executing(s, [{"kind": "sell", "target": fed}, {"kind": "build", "target": bank}], 1)
    assert execute_options(s, 1) == []
    assert execute_options(s, 0) == [{"type": "execute", "plan": 0}]


def test_the_look_ahead_changes_the_city_as_execution_does():
    """The anti-sabotage look-ahead (execution._after) changes budget, buildings and taken blocks
    as do_execute changes the real state, for every kind of plan along random games."""
    from app.rulesets.city_council.board import occupied_mask
    from app.rulesets.city_council.tables import kind_of

    seen = set()
    for players, seed in ((3, 8), (4, 3), (5, 2), (2, 1)):
        for _, _, s in random_states(players, seed, 900):
            if s["phase"] != "execute":
                continue
            t = execution._shadow(s)
            for o in execution.pending(s):
                for ch in list(execution._choices(t, o))[:6]:
                    real = clone(s)
                    do_execute(real, execution.move(o, ch[1], ch[2]))
                    look = execution._after(t, o, ch)
                    assert look["budget"] == real["budget"]
                    assert look["occ"] == occupied_mask(real)
                    assert sorted(kind_of(b).name for b in look["buildings"].values()) == sorted(
                        kind_of(b).name for b in real["buildings"].values()
                    )
                    seen.add(s["plans"][o]["kind"] + ("-upgrade" if ch[2] else ""))
    assert {"build", "sell", "relocate"} <= seen, seen


def test_every_offered_execution_keeps_the_most_plans_possible():
    """Anti-sabotage, checked by brute force along random games with two plans left: an
    execution is offered exactly when, after it (played on a copy of the real state), the other
    plan can still be executed, or when no execution allows that."""
    checked = 0
    for players, seed in ((2, 1), (3, 8), (4, 3), (5, 2), (4, 11)):
        for _, _, s in random_states(players, seed, 900):
            left = execution.pending(s)
            if s["phase"] != "execute" or len(left) != 2:
                continue
            offered = {repr(m) for m in legal_moves(s, chair(s, "election"))}
            values = {}
            for o in left:
                for ch in execution._choices(execution._shadow(s), o):
                    mv = execution.move(o, ch[1], ch[2])
                    t = clone(s)
                    do_execute(t, mv)
                    other = next(x for x in left if x != o)
                    values[repr(mv)] = 1 + bool(list(execution._choices(execution._shadow(t), other)))
            top = max(values.values())
            assert offered == {mv for mv, v in values.items() if v == top}
            checked += 1
    assert checked > 5, checked


def test_a_plan_may_upgrade_what_another_plan_builds():
    """RB Upgrading / Plan Execution: with a Department Store and a Shopping Mall approved and $5,
    both run only if the Department Store is built ($3) and the Mall then upgrades it ($2): the
    Mall built fresh ($5) would leave the Department Store impossible, so it is not offered."""
    s = at_planning(3, 0)
    s["advanced"] = True
    store, mall = _area(s, "Department Store"), _area(s, "Shopping Mall")
    s = _executing(s, [{"kind": "build", "target": store}, {"kind": "build", "target": mall}], 5)
    assert list(execution._choices(execution._shadow(s), 1))  # the Mall alone could be built
    assert execute_options(s, 1) == []
    opts = execute_options(s, 0)
    assert opts and all(_cost(s, mv) == 3 for mv in opts)
    t = clone(s)
    do_execute(t, opts[0])
    ups = execute_options(t, 1)
    assert ups and all(mv.get("upgrade") for mv in ups)


def _plain_most(t, left):
    """How many plans of `left` can be executed from shadow `t`: every order and way tried."""
    best = 0
    for o in left:
        rest = [x for x in left if x != o]
        for ch in execution._choices(t, o):
            best = max(best, 1 + _plain_most(execution._after(t, o, ch), rest))
            if best == len(left):
                return best
    return best


def test_three_plans_offered_ways_keep_the_most_plans_possible():
    """Anti-sabotage with three approved plans (4-5 players), checked against an exhaustive
    search over every order and way, along random games (positions with few ways, to keep the
    search short)."""
    checked = 0
    for players, seed in ((4, 3), (5, 2), (4, 11), (5, 7), (4, 21), (5, 13)):
        for _, _, s in random_states(players, seed, 700):
            left = execution.pending(s)
            if s["phase"] != "execute" or len(left) != 3:
                continue
            t = execution._shadow(s)
            raw = [(o, ch) for o in left for ch in execution._choices(t, o)]
            if len(raw) > 40:
                continue
            values = [
                1 + _plain_most(execution._after(t, o, ch), [x for x in left if x != o]) for o, ch in raw
            ]
            top = max(values)
            want = [execution.move(o, ch[1], ch[2]) for (o, ch), v in zip(raw, values) if v == top]
            assert execution.moves(s) == want
            checked += 1
    assert checked, "no three-plan execution with few ways sampled"
