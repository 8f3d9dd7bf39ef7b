"""Every base building's scoring and feeding (rules-data §2.3), and end-of-game totals."""

from __future__ import annotations

from tests.rulesets.tiny_towns.helpers import new_game, score, town, with_player

E = ". . . ."


def _s(rows, seat_fields=None, n=2, **fields):
    st = new_game(n, monuments=["starloom"] * n)
    st = with_player(st, 0, town(*rows), **fields)
    return score(st, 0)


def test_cottage_fed_and_unfed():
    """Cottage: 3 VP if fed, 0 if not."""
    assert _s(["cottage . . .", E, E, E])["cards"]["cottage"] == 0
    assert _s(["cottage farm . .", E, E, E])["cards"]["cottage"] == 3


def test_farm_feeds_four_anywhere():
    """Farm: feeds 4 Cottages anywhere; 0 VP."""
    b = _s(["cottage cottage cottage cottage", "cottage . . .", E, "farm . . ."])
    assert b["cards"] == {"cottage": 12, "farm": 0}


def test_granary_feeds_surrounding_eight():
    """Granary: feeds the Cottages on the 8 surrounding squares (diagonals included)."""
    b = _s(["cottage cottage cottage cottage", "cottage granary cottage .", "cottage cottage cottage .", E])
    assert b["cards"]["cottage"] == 8 * 3


def test_greenhouse_feeds_one_group():
    """Greenhouse: feeds 1 contiguous group of Cottages (the largest here)."""
    b = _s(["cottage cottage . cottage", "cottage . . .", E, "greenhouse . . ."])
    assert b["cards"]["cottage"] == 9
    assert len(b["fed"]) == 3


def test_orchard_feeds_row_and_column():
    """Orchard: feeds all Cottages in its row and column."""
    b = _s(["cottage orchard cottage .", ". cottage . .", "cottage . . .", E])
    assert b["cards"]["cottage"] == 9


def test_tavern_table():
    """Tavern: 1/2/3/4/5 Taverns score 2/5/9/14/20."""
    rows = ["tavern tavern tavern tavern", "tavern tavern . .", E, E]
    assert _s(rows)["cards"]["tavern"] == 20
    assert _s(["tavern tavern tavern . ", E, E, E])["cards"]["tavern"] == 9


def test_almshouse_table():
    """Almshouse: 1..6 score -1/5/-3/15/-5/26."""
    assert _s(["almshouse . . .", E, E, E])["cards"]["almshouse"] == -1
    assert _s(["almshouse almshouse almshouse almshouse", E, E, E])["cards"]["almshouse"] == 15
    assert (
        _s(["almshouse almshouse almshouse almshouse", "almshouse almshouse . .", E, E])["cards"]["almshouse"]
        == 26
    )


def test_inn_alone_in_row_and_column():
    """Inn: 3 VP if no other Inn in its row or column."""
    assert _s(["inn . . .", ". inn . .", E, E])["cards"]["inn"] == 6
    assert _s(["inn . inn .", ". inn . .", E, E])["cards"]["inn"] == 3  # only the one at row 2


def test_feast_hall_compares_with_right():
    """Feast Hall: 2 VP, 3 VP if you have more Feast Halls than the player on your right."""
    st = new_game(3, monuments=["starloom"] * 3)
    st = with_player(st, 0, town("feast_hall feast_hall . .", E, E, E))
    st = with_player(st, 2, town("feast_hall . . .", E, E, E))  # seat 2 is on seat 0's right
    st = with_player(st, 1, town("feast_hall feast_hall feast_hall .", E, E, E))
    assert score(st, 0)["cards"]["feast_hall"] == 6
    assert score(st, 2)["cards"]["feast_hall"] == 2
    assert score(st, 1)["cards"]["feast_hall"] == 9


def test_chapel_per_fed_cottage():
    """Chapel: 1 VP per fed Cottage in your town."""
    b = _s(["chapel cottage cottage cottage", "farm . . .", E, E])
    assert b["cards"]["chapel"] == 3


def test_temple_two_fed_cottages_adjacent():
    """Temple: 4 VP if adjacent to 2 or more fed Cottages."""
    assert _s(["cottage temple cottage farm", E, E, E])["cards"]["temple"] == 4
    assert _s(["cottage temple . farm", E, E, E])["cards"]["temple"] == 0
    assert _s(["cottage temple cottage .", E, E, E])["cards"]["temple"] == 0


def test_abbey_not_next_to_black_green_yellow():
    """Abbey: 3 VP unless adjacent to a black, green or yellow building."""
    assert _s(["abbey well . .", E, E, E])["cards"]["abbey"] == 3
    assert _s(["abbey tavern . .", E, E, E])["cards"]["abbey"] == 0
    assert _s(["abbey . . .", "factory . . .", E, E])["cards"]["abbey"] == 0


def test_cloister_corners():
    """Cloister: 1 VP per Cloister in a corner, for each Cloister."""
    assert _s(["cloister . . cloister", ". cloister . .", E, E])["cards"]["cloister"] == 6


def test_theater_unique_types_in_lines():
    """Theater: 1 VP per other unique building type in its row and column."""
    b = _s(["theater well well tavern", "cottage . . .", "theater . . .", E])
    # top Theater: well, tavern (row) + cottage (column); lower Theater: cottage (column only);
    # another Theater is not an "other" type
    assert b["cards"]["theater"] == 3 + 1


def test_bakery_next_to_red_or_black():
    """Bakery: 3 VP if adjacent to a red or black building."""
    assert _s(["bakery farm . .", E, E, E])["cards"]["bakery"] == 3
    assert _s(["bakery well . .", E, E, E])["cards"]["bakery"] == 0


def test_market_row_or_column():
    """Market: 1 VP per Market in its row or its column, the better (itself included)."""
    b = _s(["market market market .", "market . . .", E, E])
    assert b["cards"]["market"] == 3 + 3 + 3 + 2


def test_tailor_centre():
    """Tailor: 1 VP, +1 per Tailor in the 4 centre squares (for each Tailor)."""
    assert _s(["tailor . . .", ". tailor tailor .", E, E])["cards"]["tailor"] == 3 * 3


def test_well_adjacent_cottages():
    """Well: 1 VP per adjacent Cottage."""
    assert _s(["cottage well cottage .", ". cottage . .", E, E])["cards"]["well"] == 3


def test_fountain_next_to_fountain():
    """Fountain: 2 VP if adjacent to another Fountain."""
    assert _s(["fountain fountain . fountain", E, E, E])["cards"]["fountain"] == 4


def test_millstone_next_to_red_or_yellow():
    """Millstone: 2 VP if adjacent to a red or yellow building."""
    assert _s(["millstone theater . millstone", E, E, E])["cards"]["millstone"] == 2


def test_shed_and_trading_post_and_bank_flat():
    """Shed 1 VP, Trading Post 1 VP, Bank 4 VP, Factory 0 VP."""
    b = _s(["shed trading_post bank factory", E, E, E])
    assert b["cards"] == {"shed": 1, "trading_post": 1, "bank": 4, "factory": 0}


def test_warehouse_minus_per_stored():
    """Warehouse: -1 VP per resource on it at game end."""
    b = _s(["warehouse . . .", E, E, E], store={"0": ["wood", "glass"]})
    assert b["cards"]["warehouse"] == -2


def test_empty_squares_and_cubes_cost_one():
    """Scoring: each square without a building (resource cubes included) scores -1."""
    b = _s(["Wd . well .", E, E, E])
    assert b["empty_squares"] == 15 and b["empty_vp"] == -15 and b["total"] == -15


def test_coins_worth_one_each():
    """RB-F End: each leftover coin is worth 1 VP."""
    b = _s(["well well well well"] * 4, coins=3)
    assert b["coins"] == 3 and b["total"] == 3


def test_farm_prefers_cottages_next_to_temple():
    """Feeding (NOTES decision): with spare Farm capacity short, Cottages next to a Temple are fed first."""
    b = _s(["cottage cottage cottage cottage", "cottage . temple .", ". . cottage .", "farm . . ."])
    assert b["cards"]["temple"] == 4 and b["cards"]["cottage"] == 12


def test_outcome_breakdown_and_tie_break():
    """End of game (NOTES decision 10): ties go to fewer empty squares, then more coins; the
    breakdown lists each card's points, coins and empty squares."""
    from app.rulesets.tiny_towns import RULESET as R

    st = new_game(3, monuments=["starloom"] * 3)
    st = with_player(st, 0, town("shed shed shed .", E, E, E))  # 3 - 13 = -10
    st = with_player(st, 1, town(*["shed shed shed shed"] * 3, "Wd Wd Wd Wd"), coins=2)  # 12 - 4 + 2
    st = with_player(st, 2, town(*["shed shed shed shed"] * 3, "Wd Wd Wd Wd"), coins=2)
    st = dict(st)
    st["phase"] = "over"
    out = R.outcome(st)
    assert out.scores == [-10, 10, 10] and out.ranks == [3, 1, 1]
    st = with_player(st, 2, town(*["shed shed shed shed"] * 3, "Wd Wd Wd shed"), coins=0)  # 13 - 3
    out = R.outcome(st)
    assert out.scores == [-10, 10, 10] and out.ranks == [3, 2, 1]  # fewer empty squares wins
    assert out.breakdown[2]["cards"] == {"shed": 13}
    assert out.breakdown[2]["empty_squares"] == 3 and out.breakdown[2]["coins"] == 0
    st = with_player(st, 2, town(*["shed shed shed shed"] * 3, "Wd Wd Wd Wd"), coins=3)
    st = with_player(st, 1, None, coins=3)
    st = with_player(st, 2, town(*["shed shed shed shed"] * 3, "Wd Wd Wd Wd"), coins=3)
    assert R.outcome(st).ranks == [3, 1, 1]


def test_feast_hall_tie_is_not_more():
    """Feast Hall: 3 VP only with *more* Feast Halls than the player on your right; an equal
    number scores the base 2 VP each (2 players: each compares with the other)."""
    st = new_game(2, monuments=["starloom"] * 2)
    st = with_player(st, 0, town("feast_hall feast_hall . .", E, E, E))
    st = with_player(st, 1, town("feast_hall . feast_hall .", E, E, E))
    assert score(st, 0)["cards"]["feast_hall"] == 4
    assert score(st, 1)["cards"]["feast_hall"] == 4
    st = with_player(st, 1, town("feast_hall . . .", E, E, E))
    assert score(st, 0)["cards"]["feast_hall"] == 6 and score(st, 1)["cards"]["feast_hall"] == 2
