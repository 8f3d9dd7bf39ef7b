"""What a `Table` remembers within a move or a playout (frontiers, hiring spots, truck squares)
always equals what the rules work out afresh, so the playout plays the very games `apply`
plays; and the constant payment tables are the payment rule."""

from __future__ import annotations

from typing import ClassVar

import pytest

from app.engine.rng import Rng
from app.rulesets.fortune_city import apply, board, legal, table

from .helpers import R


class _Checked(table.Table):
    """The rules' table, checking every remembered answer against a fresh one."""

    asked: ClassVar[dict[str, int]] = {"spots": 0, "hires": 0, "targets": 0}

    def spots(self, seat: int, tile: str) -> list[str]:
        """The remembered placements, checked against `placements`."""
        got = super().spots(seat, tile)
        assert got == board.placements(self.player(seat), tile)
        _Checked.asked["spots"] += 1
        return got

    def hires(self, seat: int) -> list[tuple[str, str]]:
        """The remembered hiring spots, checked against `hire_spots`."""
        got = super().hires(seat)
        assert got == board.hire_spots(self.player(seat))
        _Checked.asked["hires"] += 1
        return got

    def targets(self, seat: int) -> list[str]:
        """The remembered truck squares, checked against `drive_targets`."""
        got = super().targets(seat)
        assert got == board.drive_targets(self.player(seat))
        _Checked.asked["targets"] += 1
        return got


@pytest.mark.parametrize("players", [2, 3, 4])
def test_remembered_frontiers_hiring_spots_and_truck_squares_equal_fresh_ones(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    """Over whole random playouts, from the start and from mid-game states (where the table
    meets cities it has not followed from the start), and over single moves, every placement
    list, hiring list and list of truck squares the rules use is the one worked out afresh."""
    monkeypatch.setattr(apply, "Table", _Checked)
    _Checked.asked = {"spots": 0, "hires": 0, "targets": 0}
    for seed in range(8):
        st = R.setup(players, R.Options(), seed)
        R.playout(st, Rng.from_seed(seed, "cache"))
        rng = Rng.from_seed(seed, "mid")
        for _ in range(60 + seed * 7):  # a mid-game state, then a playout from it
            if not R.to_act(st):
                break
            seat = rng.choice(R.to_act(st))
            st = R.apply(st, seat, R.random_move(st, seat, rng))
        R.playout(st, Rng.from_seed(seed, "cache-mid"))
    assert min(_Checked.asked.values()) > 20


def test_payment_tables_are_the_payment_rule_for_every_purse() -> None:
    """The payment lists are a constant table: for any purse (silver beyond the dearest price
    included) each is the rule's list (card silver from the least the hand cannot cover to the
    most the card holds, then gold if gold may pay), and playing games never changes them."""
    before = repr(legal.PAY_TABLES)
    for seed in range(4):
        st = R.setup(2, R.Options(), seed)
        R.playout(st, Rng.from_seed(seed, "pay"))
    assert repr(legal.PAY_TABLES) == before
    for opts in ({}, {"gold_after_hand_silver": True}):
        st = R.setup(2, R.Options(**opts), 1)
        for silver in range(12):
            for on_card in range(6):
                for gold in range(3):
                    p = {**st["players"][0], "silver": silver, "card": {"silver": on_card, "gold": gold}}
                    for price in (2, 3, 4):
                        want = [{"card": c} for c in range(max(0, price - silver), min(on_card, price) + 1)]
                        if gold and not (opts and silver > 0):
                            want.append({"gold": True})
                        assert legal.pay_options(st, p, price) == want
