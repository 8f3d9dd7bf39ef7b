"""Tile effects: scopes, 'take $', 'built after', resolution order, tracks and red lines."""

from __future__ import annotations

from tests.rulesets.suburbia.helpers import game, put, world

START = [("suburbs", 0, 0), ("community_park", 0, 1), ("heavy_factory", 0, 2)]


def two(p0=START, p1=START, **fields):
    """A 2-player position with both players at income 0, reputation 0, population 0, $50."""
    s = game(2, 1)
    s = put(s, 0, **{"tiles": p0, "income": 0, "rep": 0, "pop": 0, "money": 50, **fields})
    return put(s, 1, tiles=p1, income=0, rep=0, pop=0, money=50)


def after(w, seat):
    p = w.players[seat]
    return (p["money"], p["income"], p["rep"], p["pop"])


def test_adjacent_counts_only_touching_tiles_in_your_borough():
    """'Each adjacent': only tiles sharing an edge, in your own borough."""
    w = world(two())
    w.place(0, "freeway", (1, 1), lake=False)  # touches the Park (+1 for Industrial), Factory
    assert after(w, 0) == (50, 0, 1, 0)
    w.place(0, "freeway", (1, 0), lake=False)  # touches Suburbs (-1), the Park (+1), a Freeway
    assert after(w, 0) == (50, 0, 1, 0)
    w.place(0, "freeway", (-1, 1), lake=False)  # Suburbs (-1), Park (+1); the other
    w.place(1, "suburbs", (1, 1), lake=False)  # borough's Suburbs changes nothing here
    assert after(w, 0) == (50, 0, 1, 0)
    w.place(0, "suburbs", (-1, 2), lake=False)  # Freeway -1, Park +1, Factory -1
    assert after(w, 0) == (50, 0, 1 - 1 + 1 - 1, 2)


def test_each_of_your_counts_your_borough_including_the_tile_itself():
    """'Each of your': your tiles only; later tiles of yours trigger it, others' do not."""
    w = world(two())
    w.place(0, "elementary_school", (1, 1), lake=False)  # +1 Rep; +1 Pop per your Residential
    assert after(w, 0) == (50, 0, 0, 1)  # the Factory next door takes 1 Rep for a Civic
    w.place(1, "suburbs", (1, 1), lake=False)
    assert after(w, 0)[3] == 1
    w.place(0, "suburbs", (-1, 1), lake=False)
    assert after(w, 0)[3] == 1 + 2 + 1  # the Suburbs' own +2, then the school's +1
    w.place(0, "bed_and_breakfast", (1, 0), lake=False)  # counts itself: 3 Residential
    assert after(w, 0)[3] == 4 + 2 + 3 + 1  # +2 immediate, +3 own count, +1 from the school


def test_every_counts_all_boroughs_including_the_tile_itself():
    """'Every': all tiles in all boroughs, the tile itself included (HOA counts itself)."""
    w = world(two())
    w.place(0, "homeowners_association", (1, 1), lake=False)
    assert after(w, 0) == (50 + 2 * 3, 0, 0, 1)  # 2 Suburbs + the HOA itself
    w.place(1, "suburbs", (1, 1), lake=False)
    assert after(w, 0)[0] == 58  # anyone's later Residential pays the owner $2


def test_all_other_boroughs_excludes_your_own():
    """'All other boroughs': every borough except yours (Hotel)."""
    w = world(two())
    w.place(0, "hotel", (1, 1), lake=False)  # +1 Income; +1 Pop per Residential elsewhere
    assert after(w, 0) == (50, 1, 1, 1)  # and +1 Rep from the Park next to it
    w.place(0, "suburbs", (-1, 1), lake=False)
    assert after(w, 0)[3] == 1 + 2
    w.place(1, "mobile_home_community", (1, 1), lake=False)
    assert after(w, 0)[3] == 4


def test_built_after_penalises_the_earlier_tile_in_any_borough():
    """Conditional impact 'for every Restaurant built after this one': later restaurants, in
    any borough, cost the earlier one's owner; the new one ignores earlier restaurants."""
    w = world(two())
    w.place(0, "fancy_restaurant", (1, 1), lake=False)
    assert after(w, 0)[1] == 3
    w.place(1, "fancy_restaurant", (1, 1), lake=False)
    assert after(w, 1)[1] == 3 and after(w, 0)[1] == 2
    w.place(1, "fast_food_restaurant", (1, 2), lake=False)
    assert after(w, 0)[1] == 1 and after(w, 1)[1] == 3 - 1 + 1


def test_take_money_on_placement_and_whenever_a_qualifying_tile_follows():
    """'(Take) $2': paid when the tile is placed and whenever designated tiles come later."""
    w = world(two())
    w.place(0, "local_epa_office", (1, 1), lake=False)  # $2 per every Industrial: 2 Factories
    assert after(w, 0)[0] == 54
    w.place(1, "landfill", (1, 1), lake=False)
    assert after(w, 0)[0] == 56


def test_interactive_icons_count_across_boroughs():
    """Interactive icon tiles: Business Supply Store +1 Income per office-icon tile."""
    w = world(two())
    w.place(1, "office_building", (1, 1), lake=False)
    w.place(0, "business_supply_store", (1, 1), lake=False)
    assert after(w, 0)[1] == 1 + 1
    w.place(1, "local_epa_office", (1, 2), lake=False)
    assert after(w, 0)[1] == 3


def test_community_park_likes_residential_commercial_and_industrial_neighbours():
    """Community Park: +1 Reputation per adjacent Residential, Commercial or Industrial tile
    (not Civic, not lakes)."""
    w = world(two())
    w.place(0, "convenience_store", (1, 1), lake=False)
    w.place(0, "museum", (-1, 1), lake=False)
    w.place(0, "mint", (1, 0), lake=True)
    assert after(w, 0)[2] == 1 + 1 + 1  # store +1 via Park; museum's own +1 and its +1 per civic


def test_income_and_reputation_stop_at_minus_five_and_fifteen():
    """Income and Reputation can never fall below -5 or rise above 15."""
    w = world(two(income=14, rep=-5))
    w.place(0, "fancy_restaurant", (1, 1), lake=False)
    w.place(0, "slaughterhouse", (1, 2), lake=False)
    assert after(w, 0)[1:3] == (15, -5)


def test_resolution_order_own_effect_before_adjacent_tiles():
    """Tile Effect Resolution Order: immediate, own conditional, then adjacent tiles' effects:
    Burg von Alspach (+1 per adjacent Residential) next to a Heavy Factory at Reputation 15
    clamps at 15 first, then the Factory's -1 leaves 14."""
    w = world(two(p0=[("suburbs", 0, 0), ("heavy_factory", 1, 0)], rep=15))
    w.place(0, "burg_von_alspach", (0, 1), lake=False)
    assert after(w, 0)[2:] == (14, 3)


def test_red_line_applies_immediately_during_resolution():
    """Red Lines: 'immediately decrease your Income and Reputation by one space, even if you
    haven't finished with all the other adjustments yet'."""
    w = world(two(p0=[("suburbs", 0, 0), ("heavy_factory", 1, 0)], rep=15, pop=13))
    w.place(0, "burg_von_alspach", (0, 1), lake=False)  # +3 people crosses the line at 15
    assert after(w, 0)[1:] == (-1, 14, 16)  # 15-1 (line), +1 clamps at 15, -1 Factory


def test_crossing_red_lines_up_and_down():
    """Red Lines: each line passed upward costs 1 Income and 1 Reputation; dipping below a
    line gives them back."""
    w = world(two(pop=14))
    w.place(0, "housing_projects", (2, 0), lake=False)  # +10: 14 -> 24, lines 15 and 22
    assert after(w, 0)[1:] == (-2, -2, 24)
    w.move_population(0, -3)  # 24 -> 21, below the line at 22
    assert after(w, 0)[1:] == (-1, -1, 21)


def test_red_line_penalties_stop_at_minus_five():
    """Red Lines: a decrease below -5 leaves the marker at -5."""
    w = world(two(pop=14, income=-5, rep=-4))
    w.move_population(0, 20)  # lines 15, 22, 29
    assert after(w, 0)[1:] == (-5, -5, 34)


def test_bestagon_red_lines_start_at_fourteen():
    """Option red_lines='bestagon': the first line is at 14 (rules-data §1.6)."""
    s = two(pop=13)
    w = world(dict(s, red_lines="bestagon"))
    w.move_population(0, 1)
    assert after(w, 0)[1:] == (-1, -1, 14)


def test_casino_and_pr_firm_pay_for_lines_passed_after_they_are_built():
    """Casino: +1 Income, PR Firm: +1 Reputation each time you pass a red line after it is
    built (invested: +2); going back below a line undoes it."""
    w = world(two(pop=10, p0=[*START, ("casino", 1, 1, "inv"), ("pr_firm", 1, 2)]))
    w.move_population(0, 5)  # crosses 15
    assert after(w, 0)[1:3] == (-1 + 2, -1 + 1)
    w.move_population(0, -1)
    assert after(w, 0)[1:3] == (0, 0)


def test_waterfront_realty_doubles_lake_payouts():
    """Waterfront Realty: $2 per tile already next to your lakes, then every lake payout
    becomes $4 instead of $2."""
    w = world(two(p0=[*START, ("mint", 1, 1, "lake")]))
    w.place(0, "waterfront_realty", (1, 2), lake=False)  # lake pairs: Park, Factory, itself
    assert after(w, 0)[0] == 50 + 2 + 2 * 3
    w.place(0, "suburbs", (1, 0), lake=False)  # next to the lake: $2 + $2
    assert after(w, 0)[0] == 58 + 4
    w.place(0, "mint", (2, 0), lake=True)  # new lake next to Suburbs: $2 + $2
    assert after(w, 0)[0] == 62 + 4


def test_invested_lake_pays_four_per_new_neighbour():
    """Investment on a lake doubles its $2 per adjacent tile, now and later."""
    w = world(two(p0=[*START, ("mint", 1, 1, "lake+inv")]))
    w.place(0, "suburbs", (1, 0), lake=False)
    assert after(w, 0)[0] == 54


def test_other_boroughs_are_checked_after_your_own():
    """Resolution order, last step: other players' boroughs impacted by the tile you played
    (each HOA owner elsewhere takes $2 for your Residential tile)."""
    s = game(3, 1)
    s = put(s, 1, tiles=[*START, ("homeowners_association", 1, 1)], money=0)
    s = put(s, 2, tiles=[*START, ("homeowners_association", 1, 1, "inv")], money=0)
    w = world(s)
    w.place(0, "suburbs", (1, 0), lake=False)
    assert (w.players[1]["money"], w.players[2]["money"]) == (2, 4)


def test_dale_borough_reacts_like_a_player():
    """Solo 2: Dale's tiles are a borough like any other for 'every' effects."""
    s = game(1, 1, solo_mode="dale")
    s = put(s, 1, tiles=[*START, ("resort", 1, 1)], pop=0)
    w = world(s)
    w.place(0, "suburbs", (1, 0), lake=False)
    assert w.players[1]["pop"] == 1


def test_resolution_order_adjacent_tiles_before_the_rest_of_the_borough():
    """Tile Effect Resolution Order, steps 4 then 5: a Middle School (+1 Reputation) at
    Reputation 14 reaches 15; the adjacent Heavy Factory's -1 (step 4) comes before the
    distant University's +1 per School (step 5), so it ends at 15 (the other order would
    clamp the University's +1 and end at 14)."""
    w = world(two(p0=[*START, ("university", 5, 5)], rep=14))
    w.place(0, "middle_school", (1, 1), lake=False)
    assert after(w, 0)[2:] == (15, 2)


def test_other_players_tiles_never_adjust_the_placer():
    """Tile Effect Resolution Order, step 6 ('their tiles cause you adjustments'): no
    base-game tile pays or charges anyone but its owner, so the placer's tracks move only by
    its own tiles, even when every other borough reacts (step 7)."""
    reactors = [
        *START,
        ("homeowners_association", 1, 1),
        ("resort", 1, 2),
        ("fancy_restaurant", 2, 0),
        ("business_supply_store", 2, 1),
    ]
    w = world(two(p1=reactors))
    w.place(0, "fast_food_restaurant", (2, 2), lake=False)  # touches nothing of seat 0's
    assert after(w, 0) == (50, 1, 0, 0)
    assert after(w, 1) == (50, -1, 0, 0)  # seat 1's older Fancy Restaurant


def test_reacting_tiles_of_one_stage_apply_in_placement_order():
    """Resolution order (NOTES item 21): several tiles reacting in the same stage apply in the
    order they were placed; at Income 15 a Farm (+1 per Restaurant) placed before a Fancy
    Restaurant (-1 per Restaurant built after it) ends at 14, the reverse order at 15."""
    farm, fancy = ("farm", 5, 0), ("fancy_restaurant", 5, 1)
    w = world(two(p0=[*START, farm, fancy], income=15))
    w.place(0, "fast_food_restaurant", (-1, 0), lake=False)  # touches only the Suburbs
    assert w.players[0]["income"] == 14
    w = world(two(p0=[*START, fancy, farm], income=15))
    w.place(0, "fast_food_restaurant", (-1, 0), lake=False)
    assert w.players[0]["income"] == 15


def test_other_boroughs_reactions_never_change_the_placer():
    """Resolution order step 7 (other boroughs react) only ever moves those boroughs' own
    tracks, so Dale's placement search may leave it out: on random positions, the placer's
    tracks after a trial placement equal those after the full resolution."""
    from app.engine.rng import Rng
    from app.rulesets.suburbia.hexes import frontier
    from app.rulesets.suburbia.tables import KINDS

    rng = Rng(3)
    s = game(3, 2)
    kinds = sorted(k for k in KINDS if k != "lake")
    for _ in range(60):
        seat = rng.below(3)
        cell = rng.choice(frontier(s["p"][seat]["tiles"]))
        kind, lake = rng.choice(kinds), rng.below(5) == 0
        full, trial = world(s), world(s)
        trial.trial = True
        full.place(seat, kind, cell, lake)
        trial.place(seat, kind, cell, lake)
        assert after(trial, seat) == after(full, seat)
        s = dict(s, p=full.players)


def test_red_lines_passed_by_table_match_the_bisection():
    """World.move_population reads lines passed from effects._UPTO: the same count as
    lines_passed for every pair of populations on the table, up and down, both line sets."""
    from app.rulesets.suburbia.effects import _UPTO, lines_passed
    from app.rulesets.suburbia.tables import RED_LINES

    for key, lines in RED_LINES.items():
        upto = _UPTO[key]
        assert len(upto) == lines[-1] + 1
        for old in range(len(upto)):
            for new in range(len(upto)):
                assert upto[new] - upto[old] == lines_passed(lines, old, new)


def test_since_record_kinds_are_those_with_since_effects():
    """World.place asks for a `since` record only for SINCE_KINDS: every other kind (the lake
    included) has no built-after or red-line effect, so its record would be empty."""
    from app.rulesets.suburbia.effects import EFFECTS, SINCE_KINDS

    for key, effects in EFFECTS.items():
        has = any(e.scope in ("after", "redline") for e in effects)
        assert has == (key in SINCE_KINDS), key
    assert SINCE_KINDS  # the base game has some (e.g. red-line and built-after tiles)


def test_adjacent_counts_equal_with_the_neighbours_given_or_found():
    """World.place finds the tiles next to a new tile once (effects.next_to) and hands them to
    count_for for the tile's own effects: on random positions, every 'adjacent' effect counts
    the same with them given as when count_for finds them, and both equal a count over the
    six neighbouring cells."""
    from app.engine.rng import Rng
    from app.rulesets.suburbia import geo
    from app.rulesets.suburbia.effects import EFFECTS, next_to
    from app.rulesets.suburbia.hexes import frontier, neighbours
    from app.rulesets.suburbia.tables import KINDS

    rng = Rng(5)
    s = game(3, 4)
    kinds = sorted(k for k in KINDS if k != "lake")
    adjacency = [e for effs in EFFECTS.values() for e in effs if e.scope == "adjacent"]
    checked = 0
    for _ in range(60):
        seat = rng.below(3)
        w = world(s)
        tiles = s["p"][seat]["tiles"]
        taken = {(t["at"][0], t["at"][1]): t for t in tiles}
        for cell in frontier(tiles) + [(t["at"][0], t["at"][1]) for t in tiles]:
            near = next_to(geo.borough(tiles).occ, cell)
            for eff in adjacency:
                expected = len(
                    [
                        n
                        for n in neighbours(cell)
                        if n in taken and not geo.TAGS[geo.tile_key(taken[n])].isdisjoint(eff.match)
                    ]
                )
                assert w.count_for(seat, cell, eff, None, near) == expected
                assert w.count_for(seat, cell, eff) == expected
                checked += 1
        cell = rng.choice(frontier(tiles))
        w.place(seat, rng.choice(kinds), cell, rng.below(5) == 0)
        s = dict(s, p=w.players)
    assert checked > 1000
