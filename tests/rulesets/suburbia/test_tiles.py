"""Every tile row against the rules-data manifest, and every tile's effect in play.

The expected values below are written out by hand from /work/shared/rules-data/
suburbia-tiny-towns.md §1.3-§1.4 (with the contested rows decided in NOTES.md), not read from
data/*.toml, so a wrong row or an effect the engine mishandles makes a test fail.
"""

from __future__ import annotations

import pytest

from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.tables import KINDS
from tests.rulesets.suburbia.helpers import game, put

R_, C_, I_, V_ = "residential", "commercial", "industrial", "civic"

# id: (stack, category, icon, cost, copies, immediate effect)
MANIFEST = {
    "suburbs": ("basic", R_, None, 3, 4, {"population": 2}),
    "community_park": ("basic", V_, None, 4, 4, {"income": -1}),
    "heavy_factory": ("basic", I_, None, 3, 4, {"income": 1}),
    "business_supply_store": ("A", C_, None, 8, 2, {"income": 1}),
    "convenience_store": ("A", C_, None, 6, 2, {"income": 1}),
    "fancy_restaurant": ("A", C_, "restaurant", 9, 3, {"income": 3}),
    "farm": ("A", I_, None, 9, 2, {"reputation": -1}),
    "fast_food_restaurant": ("A", C_, "restaurant", 7, 2, {"income": 1}),
    "freeway": ("A", I_, None, 5, 2, {}),
    "homeowners_association": ("A", R_, None, 6, 2, {"population": 1}),
    "landfill": ("A", I_, None, 4, 2, {"income": 2}),
    "mint": ("A", V_, None, 15, 2, {"income": 3}),
    "mobile_home_community": ("A", R_, None, 4, 2, {"population": 6}),
    "municipal_airport": ("A", I_, "airport", 6, 2, {}),
    "office_building": ("A", C_, "office", 9, 3, {"income": 1}),
    "parking_lot": ("A", C_, None, 12, 2, {"income": 1}),
    "slaughterhouse": ("A", I_, None, 5, 2, {"reputation": -2}),
    "waterfront_realty": ("A", C_, None, 6, 2, {}),
    "burg_von_alspach": ("B", R_, None, 12, 2, {"population": 3}),
    "casino": ("B", C_, None, 22, 2, {"reputation": -3}),
    "domestic_airport": ("B", I_, "airport", 11, 3, {"income": 1}),
    "elementary_school": ("B", V_, "school", 5, 3, {"reputation": 1}),
    "gas_station": ("B", C_, None, 7, 2, {"income": 1}),
    "hostel": ("B", R_, None, 0, 2, {"population": 2}),
    "housing_projects": ("B", R_, None, 8, 2, {"population": 10}),
    "movie_theater": ("B", C_, None, 10, 2, {"income": 1}),
    "museum": ("B", V_, None, 8, 2, {"reputation": 1}),
    "office_of_bureaucracy": ("B", V_, "office", 9, 2, {"reputation": -2}),
    "postal_service": ("B", V_, None, 12, 2, {}),
    "power_station": ("B", V_, None, 11, 2, {}),
    "retirement_village": ("B", R_, None, 8, 2, {"population": 5}),
    "shipping_center": ("B", C_, None, 16, 2, {"income": 1}),
    "skyscraper": ("B", C_, "skyscraper", 11, 2, {"income": 3}),
    "stadium": ("B", V_, None, 16, 2, {"income": 1}),
    "warehouse": ("B", I_, None, 13, 2, {"reputation": -1}),
    "apartments": ("C", R_, None, 12, 2, {"population": 5}),
    "bed_and_breakfast": ("C", R_, None, 9, 2, {"population": 2}),
    "boutique": ("C", C_, None, 9, 2, {"income": 1}),
    "chip_fabrication_plant": ("C", I_, None, 18, 2, {"reputation": 2}),
    "condominium": ("C", R_, None, 14, 2, {"population": 5}),
    "high_school": ("C", V_, "school", 18, 3, {"reputation": 1}),
    "hotel": ("C", C_, None, 13, 2, {"income": 1}),
    "international_airport": ("C", I_, "airport", 18, 2, {}),
    "local_epa_office": ("C", V_, "office", 12, 2, {"reputation": 1}),
    "middle_school": ("C", V_, "school", 10, 3, {"reputation": 1}),
    "new_car_dealership": ("C", C_, "car_dealer", 12, 2, {"income": 5}),
    "pr_firm": ("C", C_, None, 20, 2, {"income": -2}),
    "recycling_plant": ("C", I_, None, 17, 2, {"reputation": 1}),
    "resort": ("C", C_, None, 16, 2, {"income": 1}),
    "university": ("C", V_, None, 15, 2, {"income": 2}),
}


def test_manifest_rows_match_the_rules_data():
    """rules-data §1.3/§1.4: every tile kind with its stack, category, icon, cost, number of
    copies and immediate effect; no tile outside the base game (the blank replacement tiles
    of 'Miscellaneous Notes' are not used), and the lake is the only other row."""
    assert set(KINDS) - {"lake"} == set(MANIFEST)
    for kid, (stack, cat, icon, cost, count, imm) in MANIFEST.items():
        k = KINDS[kid]
        assert (k.stack, k.category, k.icon, k.cost, k.count, dict(k.immediate)) == (
            stack,
            cat,
            icon,
            cost,
            count,
            imm,
        ), kid
    lake = KINDS["lake"]
    assert (lake.category, lake.cost, lake.immediate) == ("lake", 0, ())


# The controlled position. The tile under test goes on X = (0, 0) of seat 0's borough, whose six
# neighbours are: a Suburbs (Residential), a Convenience Store (Commercial), a Farm (Industrial),
# a Postal Service (Civic), a lake, and one empty space. Further away: a Fancy Restaurant and a
# second Suburbs. Seat 1's borough holds a Suburbs, Office Building, Municipal Airport,
# Elementary School and tiles that react to other boroughs: HOA, Shipping Center, Local EPA
# Office, Resort, Hotel, Business Supply Store, University, International Airport, Skyscraper,
# New Car Dealership and Fancy Restaurant. Both players have $50, Income 0, Population 0 and
# Reputation 7 (seat 0) or 0 (seat 1), so no track reaches -5 or 15; red lines are switched off
# here (they are tested in test_effects.py) because a tile placed and invested may add 20 people.
#
# Counts before X: Residential 4 (own 2), Commercial 10 (own 2), Industrial 3 (own 1),
# Civic 4 (own 1), office 2, airport 2, school 1, restaurant 2; Residential elsewhere 2.
#
# Seat 0's own tiles react to X: the lake +$2 (X is never a lake here), the Postal Service
# +1 Income for a Commercial X, the Farm +1 and the older Fancy Restaurant -1 for a restaurant.
X = (0, 0)
OWN = [
    ("suburbs", 0, -1),
    ("convenience_store", 1, -1),
    ("farm", 1, 0),
    ("postal_service", 0, 1),
    ("mint", -1, 1, "lake"),
    ("fancy_restaurant", 3, 3),
    ("suburbs", 5, 5),
]
OTHER = [
    (kind, q, 0)
    for q, kind in enumerate(
        (
            "suburbs",
            "office_building",
            "municipal_airport",
            "elementary_school",
            "homeowners_association",
            "shipping_center",
            "local_epa_office",
            "resort",
            "hotel",
            "business_supply_store",
            "university",
            "international_airport",
            "skyscraper",
            "new_car_dealership",
            "fancy_restaurant",
        )
    )
]

# id: ((money, income, reputation, population) of seat 0, the same for seat 1)
PLACED = {
    "suburbs": ((2, 0, 0, 2), (2, 0, 0, 2)),  # seat 1: HOA $2, Resort +1, Hotel +1
    "community_park": ((2, -1, 3, 0), (0, 0, 0, 0)),  # +1 per adjacent R, C, I
    "heavy_factory": ((2, 1, -2, 0), (2, 0, 0, 0)),  # -1 per adjacent R, Civic; EPA $2
    "business_supply_store": ((2, 4, 0, 0), (2, 0, 0, 0)),  # +1, +2 offices, Postal +1
    "convenience_store": ((2, 2, 0, 0), (2, 0, 0, 0)),  # Shipping Center $2
    "fancy_restaurant": ((2, 4, 0, 0), (2, -1, 0, 0)),  # +3, Postal +1, Farm +1, old FR -1
    "farm": ((2, 2, -1, 0), (2, 0, 0, 0)),  # +1 per every restaurant (2)
    "fast_food_restaurant": ((2, 2, 0, 3), (2, -1, 0, 0)),  # +3 Pop per adjacent Res (1)
    "freeway": ((2, 1, -1, 0), (2, 0, 0, 0)),
    "homeowners_association": ((12, 0, 0, 1), (2, 0, 0, 2)),  # $2 x 5 Res, itself included
    "landfill": ((2, 2, -4, 0), (2, 0, 0, 0)),  # -1 per adjacent R, C, I, Civic
    "mint": ((6, 3, 0, 0), (0, 0, 0, 0)),  # $2 x 2 own Civic, itself included
    "mobile_home_community": ((2, 0, 0, 6), (2, 0, 0, 2)),
    "municipal_airport": ((2, 3, -1, 0), (2, 2, 1, 0)),  # 3 airports; seat 1's two react
    "office_building": ((2, 3, 0, 0), (2, 1, 0, 0)),  # +1, +1 adjacent Com, Postal; BSS +1
    "parking_lot": ((2, 4, 0, 0), (2, 0, 0, 0)),  # +1, +2 adjacent Com/Civic, Postal +1
    "slaughterhouse": ((2, 2, -2, 0), (2, 0, 0, 0)),
    "waterfront_realty": ((6, 1, 0, 0), (2, 0, 0, 0)),  # lake pairs: X and the Postal Service
    "burg_von_alspach": ((2, 0, 1, 3), (2, 0, 0, 2)),
    "casino": ((2, 1, -3, 0), (2, 0, 0, 0)),
    "domestic_airport": ((2, 1, 2, 0), (2, 2, 1, 0)),  # +3 airports, -1 adjacent Res
    "elementary_school": ((2, 0, 1, 2), (0, 0, 1, 0)),  # +1 Pop x 2 own Res; University +1
    "gas_station": ((2, 2, 0, 1), (2, 0, 0, 0)),
    "hostel": ((2, 0, -1, 2), (2, 0, 0, 2)),
    "housing_projects": ((2, 0, -6, 10), (2, 0, 0, 2)),  # -2 x (R, C, Civic)
    "movie_theater": ((2, 3, 0, 0), (2, 0, 0, 0)),
    "museum": ((2, 0, 2, 0), (0, 0, 0, 0)),
    "office_of_bureaucracy": ((2, 2, -2, 0), (0, 1, 0, 0)),  # 2 own Civic; BSS +1
    "postal_service": ((2, 2, 0, 0), (0, 0, 0, 0)),  # 2 own Commercial
    "power_station": ((2, 1, 0, 0), (0, 0, 0, 0)),
    "retirement_village": ((2, 0, 0, 5), (2, 0, 0, 2)),
    "shipping_center": ((24, 2, 0, 0), (2, 0, 0, 0)),  # $2 x 11 Commercial, itself included
    "skyscraper": ((2, 4, 0, 0), (2, -1, 0, 0)),  # the older Skyscraper loses 1
    "stadium": ((2, 1, 2, 0), (0, 0, 0, 0)),
    "warehouse": ((2, 2, -1, 0), (2, 0, 0, 0)),
    "apartments": ((2, 0, 0, 7), (2, 0, 0, 2)),
    "bed_and_breakfast": ((2, 0, 0, 5), (2, 0, 0, 2)),  # +2, +1 x 3 own Res
    "boutique": ((2, 2, 1, 0), (2, 0, 0, 0)),
    "chip_fabrication_plant": ((2, 2, 2, 0), (2, 0, 0, 0)),
    "condominium": ((2, 0, 0, 8), (2, 0, 0, 2)),
    "high_school": ((2, 0, 1, 6), (0, 0, 1, 0)),
    "hotel": ((2, 2, 0, 2), (2, 0, 0, 0)),  # +1 Pop x 2 Res in the other borough
    "international_airport": ((2, 3, 2, 0), (2, 2, 1, 0)),
    "local_epa_office": ((8, 0, 1, 0), (0, 1, 0, 0)),  # $2 x 3 Industrial; BSS +1
    "middle_school": ((2, 0, 1, 4), (0, 0, 1, 0)),
    "new_car_dealership": ((2, 6, 0, 0), (2, -2, 0, 0)),  # the older dealership loses 2
    "pr_firm": ((2, -1, 0, 0), (2, 0, 0, 0)),
    "recycling_plant": ((2, 0, 3, 0), (2, 0, 0, 0)),
    "resort": ((2, 2, 0, 4), (2, 0, 0, 0)),  # +1 Pop x 4 Residential everywhere
    "university": ((2, 2, 1, 0), (0, 0, 0, 0)),
}


def _reactions(kind: str) -> tuple[int, int, int, int]:
    """What seat 0's own tiles add when X is placed: the lake's $2 and, for a Commercial X,
    the Postal Service's +1 Income (a restaurant's Farm +1 and old Fancy Restaurant -1 cancel).
    The rest of a PLACED row is the tile's own effect."""
    return (2, 1 if MANIFEST[kind][1] == C_ else 0, 0, 0)


def position():
    s = game(2, 5)
    s = put(s, 0, tiles=OWN, money=50, income=0, rep=7, pop=0)
    return put(s, 1, tiles=OTHER, money=50, income=0, rep=0, pop=0)


def world(s):
    w = World(s)
    w.red_lines_active = False
    return w


def deltas(before, w):
    return tuple(
        tuple(w.players[i][k] - before["p"][i][k] for k in ("money", "income", "rep", "pop")) for i in (0, 1)
    )


def test_every_tile_has_a_placement_expectation():
    """The placement table below covers every tile kind of the data."""
    assert set(PLACED) == set(MANIFEST)


@pytest.mark.parametrize("kind", sorted(PLACED))
def test_tile_placed_in_a_controlled_position(kind):
    """Each tile placed next to one tile of each category and a lake: its immediate effect,
    its conditional effect (adjacent / each of your / every / all other boroughs / take $),
    the reactions of the owner's tiles and those of the other borough (Tile Effect
    Resolution Order), as computed by hand from the rules-data manifest."""
    s = position()
    w = world(s)
    w.place(0, kind, X, lake=False)
    assert deltas(s, w) == PLACED[kind]


@pytest.mark.parametrize("kind", sorted(PLACED))
def test_tile_invested_repeats_only_its_own_effects(kind):
    """Placing an Investment Marker doubles the tile: its immediate and conditional effects
    are gained again, counted as the borough now stands, while no other tile (own or other
    borough) reacts again."""
    s = position()
    w = world(s)
    w.place(0, kind, X, lake=False)
    s2 = dict(s, p=w.players)
    w2 = world(s2)
    w2.invest(0, len(OWN))
    own = tuple(a - b for a, b in zip(PLACED[kind][0], _reactions(kind)))
    assert deltas(s2, w2) == (own, (0, 0, 0, 0))


def test_a_lake_in_the_controlled_position():
    """Taking a tile to use as a lake: $2 for each adjacent Residential, Commercial,
    Industrial or Civic tile (4 here), nothing for the neighbouring lake, and no tile reacts
    to a face-down tile (not even its printed kind's icons in other boroughs)."""
    s = position()
    w = world(s)
    w.place(0, "fancy_restaurant", X, lake=True)
    assert deltas(s, w) == ((8, 0, 0, 0), (0, 0, 0, 0))
