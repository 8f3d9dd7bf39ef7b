"""The playout's remembered data (frontiers, hiring spots, payment lists) always equals what the
rules work out afresh, so the fast path plays the very games `apply` plays."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.rulesets.fortune_city import rules

from .helpers import R


class _Checked(rules._InPlace):
    """The playout's writer, checking every remembered answer against a fresh one."""

    asked = {"spots": 0, "hires": 0, "targets": 0}

    def spots(self, p, tile):  # type: ignore[no-untyped-def]
        """The remembered placements, checked against `placements`."""
        got = super().spots(p, tile)
        assert got == rules.placements(p, tile)
        _Checked.asked["spots"] += 1
        return got

    def hires(self, p):  # type: ignore[no-untyped-def]
        """The remembered hiring spots, checked against `hire_spots`."""
        got = super().hires(p)
        assert got == rules.hire_spots(p)
        _Checked.asked["hires"] += 1
        return got

    def targets(self, p):  # type: ignore[no-untyped-def]
        """The remembered truck squares, checked against `drive_targets`."""
        got = super().targets(p)
        assert got == rules.drive_targets(p)
        _Checked.asked["targets"] += 1
        return got


@pytest.mark.parametrize("players", [2, 3, 4])
def test_remembered_frontiers_hiring_spots_and_truck_squares_equal_fresh_ones(monkeypatch: pytest.MonkeyPatch,
                                                                 players: int) -> None:
    """Over whole random playouts, from the start and from mid-game states (where the writer
    meets cities it has not followed from the start), every placement list, hiring list and
    list of truck squares the playout uses is the one the rules work out afresh."""
    monkeypatch.setattr(rules, "_InPlace", _Checked)
    _Checked.asked = {"spots": 0, "hires": 0, "targets": 0}
    for seed in range(8):
        st = R.setup(players, R.Options(), seed)
        rules.playout(st, Rng.from_seed(seed, "cache"))
        rng = Rng.from_seed(seed, "mid")
        for _ in range(60 + seed * 7):  # a mid-game state, then a playout from it
            if not R.to_act(st):
                break
            seat = rng.choice(R.to_act(st))
            st = R.apply(st, seat, R.random_move(st, seat, rng))
        rules.playout(st, Rng.from_seed(seed, "cache-mid"))
    assert min(_Checked.asked.values()) > 20


def test_shared_payment_lists_match_the_payment_rule_and_stay_unchanged() -> None:
    """Payment lists are shared between draws: each is the rule's list (card silver from the
    least the hand cannot cover to the most the card holds, then gold if gold may pay), and
    playing moves built from them never changes them."""
    for seed in range(4):
        st = R.setup(2, R.Options(), seed)
        rules.playout(st, Rng.from_seed(seed, "pay"))
    for opts in ({}, {"gold_after_hand_silver": True}):
        st = R.setup(2, R.Options(**opts), 1)
        for silver in range(0, 8):
            for on_card in range(0, 4):
                for gold in range(0, 3):
                    p = {**st["p"][0], "silver": silver, "card": {"silver": on_card, "gold": gold}}
                    for price in (2, 3, 4):
                        want = [{"card": c} for c in range(max(0, price - silver), min(on_card, price) + 1)]
                        if gold and not (opts and silver > 0):
                            want.append({"gold": True})
                        assert rules.pay_options(st, p, price) == want
                        assert list(rules._pays(rules._purse(st, p), price)) == want
    for purse, table in rules._PAY_TABLES.items():
        assert table == {price: rules._pays(purse, price) for price in rules._PRICES}
        for price, pays in table.items():
            low, high, gold = rules._purse_range(purse, price)
            assert list(pays) == [{"card": c} for c in range(low, high + 1)] + ([{"gold": True}] if gold else [])
