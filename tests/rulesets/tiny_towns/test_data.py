"""Data tables: component counts, unique ids, every effect kind resolves, patterns are valid."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rulesets.tiny_towns import PASSIVES, REACTIONS, data, validate_tables
from app.rulesets.tiny_towns.choices import PENDING
from app.rulesets.tiny_towns.effects import BUILD
from app.rulesets.tiny_towns.feeding import FEED_KINDS
from app.rulesets.tiny_towns.scoring import SCORE


def test_component_counts():
    """Components: 25 base buildings, 15 base monuments, 12 Fortune buildings, 10 Fortune monuments."""
    b = Counter(row["set"] for row in data.BUILDINGS)
    m = Counter(row["set"] for row in data.MONUMENTS)
    assert (b["base"], m["base"], b["fortune"], m["fortune"]) == (25, 15, 12, 10)


def test_colour_piles():
    """Setup: Cottage alone in blue; 4 base cards per other colour; 2 Fortune cards per colour."""
    for colour in data.COLOURS:
        rows = [r for r in data.BUILDINGS if r["colour"] == colour["id"]]
        base = [r for r in rows if r["set"] == "base"]
        fortune = [r for r in rows if r["set"] == "fortune"]
        if "fixed" in colour:
            assert [r["id"] for r in rows] == [colour["fixed"]]
        else:
            assert (len(base), len(fortune)) == (4, 2), colour["id"]


def test_ids_unique_and_sourced():
    """Content as data: every row has a unique id, a name, a text and a source."""
    ids = [r["id"] for r in data.BUILDINGS + data.MONUMENTS]
    assert len(ids) == len(set(ids))
    for row in data.BUILDINGS + data.MONUMENTS + data.RESOURCE_ROWS + data.COLOURS:
        assert row.get("source"), row["id"]
    for row in data.BUILDINGS + data.MONUMENTS:
        assert row["name"] and row["text"]


def test_every_effect_kind_resolves():
    """Every score, build, feed, reaction and passive kind named in a table has a handler."""
    for row in data.CARDS.values():
        assert row["score"]["kind"] in SCORE, row["id"]
        for eff in row.get("build", ()):
            assert eff["kind"] in BUILD, row["id"]
        if "feed" in row:
            assert row["feed"]["kind"] in FEED_KINDS, row["id"]
        if "react" in row:
            assert row["react"]["kind"] in REACTIONS, row["id"]
        assert set(row.get("passive", ())) <= PASSIVES, row["id"]
    validate_tables()
    assert {
        "resource",
        "cathedral",
        "replace",
        "free_build",
        "watch_pick",
        "watch_place",
        "okaver",
        "semaphore",
        "masons_spend",
        "petal",
        "teahouse",
    } == set(PENDING)


def test_patterns_valid():
    """Patterns are rectangular grids of resource letters that fit the 4x4 town."""
    for cid, row in data.CARDS.items():
        grid = data.parse_pattern(row["pattern"])
        assert len(grid) <= 4 and len(grid[0]) <= 4
        assert any(cell for line in grid for cell in line), cid
        assert data.PLACEMENTS[cid], cid


def test_pattern_variants():
    """Any rotation or mirror of a pattern counts: Wd-St lies 48 ways on a 4x4 town."""
    assert len(data.PLACEMENTS["well"]) == 2 * (3 * 4 * 2)  # both orientations, both directions
    assert len(data.PLACEMENTS["tavern"]) == 2 * 2 * 4 * 2  # 3-long line, both directions
    assert len(data.PLACEMENTS["farm"]) == 4 * 9  # 2x2 with pairs: 4 distinct variants


def test_resources_and_solo_deck():
    """Five resources; the solo deck holds 3 cards of each; six solo ranks."""
    assert data.RESOURCES == ["wood", "wheat", "brick", "glass", "stone"]
    assert data.SOLO_COPIES == 3
    assert [r["name"] for r in data.SOLO_RANKS][0] == "Master Architect"
    assert len(data.SOLO_RANKS) == 6


def test_solo_removals():
    """Solo removes Bank, Feast Hall, Fort Ironweed, Opaleye's Watch (base) and Oddity Shop,
    Schoolhouse, Southern Semaphore (Fortune)."""
    removed = {cid for cid, row in data.CARDS.items() if row.get("solo") is False}
    assert removed == {
        "bank",
        "feast_hall",
        "fort_ironweed",
        "opaleyes_watch",
        "oddity_shop",
        "schoolhouse",
        "southern_semaphore",
    }


def test_catalogue_and_labels():
    """Catalogue: every card with name, colour, pattern and text; moves get readable labels."""
    from app.rulesets.tiny_towns import RULESET as R

    cat = R.catalogue()
    assert len(cat["cards"]) == 62 and len(cat["resources"]) == 5
    assert cat["cards"]["cottage"]["pattern"] == [". Wh", "Br Gl"]
    assert (
        R.describe_move({"type": "build", "card": "cottage", "cells": [1, 4, 5], "at": 5})
        == "construct Cottage on square 6"
    )
    assert R.describe_move({"type": "choose", "card": "shed", "cell": 3}) == "choose Shed, square 4"


def test_unknown_kind_fails_loading(monkeypatch):
    """Content as data: a row naming an unknown effect kind is rejected when the tables load."""
    bad = {**data.CARDS["well"], "score": {"kind": "no_such_kind"}}
    monkeypatch.setitem(data.CARDS, "well", bad)
    with pytest.raises(ValueError, match="no_such_kind"):
        validate_tables()
