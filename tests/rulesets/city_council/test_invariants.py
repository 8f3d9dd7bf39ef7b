"""Invariants over random games: the fixed component counts (RB Components: 'the number of tokens
and workers of each type is deliberately calculated and definitive') are never exceeded or lost."""

from __future__ import annotations

import pytest

from app.rulesets.city_council import production as prod
from app.rulesets.city_council.tables import CARDS, SHAPE_ORDER, TILES
from tests.rulesets.city_council.helpers import random_states


@pytest.mark.parametrize(("n", "opts"), [(2, {}), (3, {}), (5, {}), (4, {"mode": "sandbox"})])
def test_components_are_conserved(n, opts):
    """RB Components: tokens, workers, Money tokens, 52 favour cards and 44 tiles stay within
    their totals; tracks stay on their ranges (budget $0-$11, RB Example 10)."""
    for _, _, s in random_states(n, 13, 500, **opts):
        for what in ("B", "W", "crime", "pollution", "goods", "community"):
            assert prod.reserve(s, what) >= 0, what
        assert prod.money_tokens_free(s) >= 0
        assert 0 <= s["budget"] <= 11 and 0 <= s["power"] <= 10
        assert min(s["house"].values()) >= 0 and min(s["funds"]) >= 0
        cards = [c for h in s["hands"] for c in h] + [c for d in s["drawn"] if d for c in d]
        cards += s["deck"] + [c for c, _ in s["fdiscard"]] + s["removed"]
        assert sorted(cards) == sorted(CARDS)
        tiles = [b["tile"] for b in s["buildings"].values() if b["tile"]]
        for sh in SHAPE_ORDER:
            tiles += s["stacks"].get(sh, []) + s["up"].get(sh, []) + s["bdiscard"].get(sh, [])
        tiles += s["reserve_adv"]
        expected = sorted(
            t for t, k in TILES.items() if not (s["mode"] != "standard" and k.name == "Airport")
        )
        assert sorted(tiles) == expected
        cells = [tuple(c) for b in s["buildings"].values() for c in b["cells"]]
        assert len(cells) == len(set(cells))  # no two buildings on one block
