"""Data tables: counts match the rules-data manifest, ids are unique, every effect resolves."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest

from app.rulesets.suburbia import tables
from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.tables import GOALS, KINDS, SCOPES, STATS, stack_pool

DATA = tables._DATA


def test_stack_counts_match_the_component_list():
    """Rulebook 'Contents': 32 A tiles, 36 B tiles, 32 C tiles, 20 goals."""
    assert {s: len(stack_pool(s)) for s in "ABC"} == {"A": 32, "B": 36, "C": 32}
    assert len(GOALS) == 20


def test_kinds_per_stack_match_the_manifest():
    """rules-data §1.4: 15 kinds in A, 17 in B, 15 in C; contested counts take U's values."""
    per = Counter(k.stack for k in KINDS.values())
    assert (per["A"], per["B"], per["C"], per["basic"], per["lake"]) == (15, 17, 15, 3, 1)
    assert KINDS["casino"].count == 2 and KINDS["domestic_airport"].count == 3


def test_contested_values_take_the_recommended_entry():
    """rules-data §1.4 [X] rows: HOA $6, Office adj Commercial, Parking Lot +1 Income,
    Postal Service no immediate effect, Recycling Plant +1 Reputation."""
    assert KINDS["homeowners_association"].cost == 6
    assert KINDS["office_building"].effects[0].match == {"commercial"}
    assert dict(KINDS["parking_lot"].immediate) == {"income": 1}
    assert KINDS["postal_service"].immediate == ()
    assert dict(KINDS["recycling_plant"].immediate) == {"reputation": 1}


def test_ids_are_unique_in_every_table():
    """Every row has its own id."""
    for name, key in (("tiles.toml", "tile"), ("goals.toml", "goal"), ("basic.toml", "basic")):
        with open(DATA / name, "rb") as fh:
            ids = [row["id"] for row in tomllib.load(fh)[key]]
        assert len(ids) == len(set(ids)), name


def test_every_row_names_its_source():
    """Content as data: each tile and goal row carries a source."""
    assert all(k.source for k in KINDS.values())
    assert all(g.source for g in GOALS.values())


def test_basic_tiles_and_setup_constants():
    """Rulebook Set-Up: 4 of each basic tile; $15, population 2, 3 markers; tracks -5..15."""
    assert {b: KINDS[b].count for b in tables.BASIC_IDS} == {
        "suburbs": 4,
        "community_park": 4,
        "heavy_factory": 4,
    }
    assert (tables.SETUP["money"], tables.SETUP["population"], tables.SETUP["investment_markers"]) == (
        15,
        2,
        3,
    )
    assert (tables.TRACK_MIN, tables.TRACK_MAX) == (-5, 15)


def test_market_and_red_line_tables():
    """rules-data §1.5/§1.6: surcharges 10..0 (Dale 6,4,2,0); red lines start at 15 (or 14)."""
    assert tables.SURCHARGES == {"standard": [10, 8, 6, 4, 2, 0, 0], "dale": [6, 4, 2, 0]}
    assert tables.RED_LINES["nemikolh"][:4] == [15, 22, 29, 35]
    assert tables.RED_LINES["bestagon"][:4] == [14, 21, 28, 34]


def test_every_effect_kind_is_known_and_used_somewhere():
    """Each (scope, stat) in the tables is one the resolver handles; each scope is exercised."""
    used = {(e.scope, e.stat) for k in KINDS.values() for e in k.effects}
    assert all(scope in SCOPES and stat in STATS for scope, stat in used)
    assert {scope for scope, _ in used} == set(SCOPES)


@pytest.mark.parametrize("kind", sorted(k for k in KINDS if k != "lake"))
def test_every_tile_resolves_when_placed_and_invested(kind):
    """Every tile can be placed and invested on a starting borough without error."""
    from tests.rulesets.suburbia.helpers import game

    state = game(2)
    w = World(state)
    w.place(0, kind, (1, 1), lake=False)
    w.invest(0, 3)
    assert w.players[0]["tiles"][3]["inv"] is True


def test_bad_effect_rows_are_rejected_at_load():
    """Loading fails on an unknown scope or tag."""
    with pytest.raises(ValueError):
        tables._effect({"stat": "income", "amount": 1, "scope": "nearby", "match": ["civic"]}, "x")
    with pytest.raises(ValueError):
        tables._effect({"stat": "income", "amount": 1, "scope": "own", "match": ["park"]}, "x")


def test_catalogue_describes_every_tile_and_goal():
    """The browser catalogue names every tile and goal with its effect text."""
    from app.rulesets.suburbia import RULESET

    cat = RULESET.catalogue()
    assert set(cat["tiles"]) == set(KINDS) and set(cat["goals"]) == set(GOALS)
    assert cat["tiles"]["office_building"]["text"] == ("+1 Income; +1 Income per adjacent commercial")
    assert cat["tiles"]["homeowners_association"]["text"] == ("+1 Population; take $2 per every residential")
    assert cat["surcharges"] == [10, 8, 6, 4, 2, 0, 0]
