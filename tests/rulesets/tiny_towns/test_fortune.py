"""Fortune buildings and monuments, with every clarification of the Fortune rulebook (RB-F)."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R
from tests.rulesets.tiny_towns.helpers import (
    build,
    done_all,
    moves_of,
    name,
    new_game,
    place,
    play,
    round_with,
    score,
    town,
    with_player,
)

E = ". . . ."
SET = ["cottage", "root_cellar", "gamblers_den", "cathedral", "jeweler", "mine", "museum"]


def _game(rows, monument="starloom", buildings=None, n=2, master=1, **fields):
    st = new_game(n, buildings=buildings or SET, monuments=[monument] + ["starloom"] * (n - 1), master=master)
    return with_player(st, 0, town(*rows), **fields)


def _at_build(st, cells=(15, 15, 15, 15, 15, 15), resource="wheat"):
    return round_with(st, resource, list(cells[: st["n"]]))


def _final(rows, monument="starloom", n=2, **fields):
    st = _game(rows, monument=monument, n=n, **fields)
    return score(st)


# ---------------------------------------------------------------- buildings


def test_root_cellar_coin_on_build():
    """Root Cellar: gain 1 coin when constructed."""
    st = _at_build(_game(["Wh Wd . .", "St Br . .", E, E]))
    st = build(st, 0, "root_cellar", [0, 1, 4, 5], 0)
    assert st["p"][0]["coins"] == 1


def test_root_cellar_feeds_lines_with_forced_coins():
    """Root Cellar (RB-F): each coin feeds a chosen row or column; you must spend coins while any
    unfed building can be fed."""
    b = _final(["cottage cottage . root_cellar", ". . . .", "cottage . . .", E], coins=3)
    assert b["cards"]["cottage"] == 9 and b["coins_spent_feeding"] == 2 and b["coins"] == 1


def test_little_barn_adjacent_and_coin_pairs():
    """Little Barn (RB-F): feeds adjacent Cottages; otherwise 1 coin feeds 1 Cottage, 2 coins feed 3."""
    b = _final(["cottage little_barn . .", E, ". . cottage .", ". . . cottage"], coins=1)
    assert b["cards"]["cottage"] == 9 and b["coins"] == 0
    b = _final(["little_barn . . cottage", E, "cottage . cottage .", ". . . cottage"], coins=4)
    assert b["coins_spent_feeding"] == 2 and b["coins"] == 2 and b["cards"]["cottage"] == 12


def test_little_barn_rulebook_example():
    """Little Barn (RB-F example): a single Cottage costs 1 coin; 3 Cottages cost 2 coins."""
    b = _final(["little_barn . . cottage", E, E, E], coins=3)
    assert b["coins_spent_feeding"] == 1 and b["cards"]["cottage"] == 3
    b = _final(["little_barn . . cottage", E, "cottage . . .", ". . . cottage"], coins=3)
    assert b["coins_spent_feeding"] == 2 and b["cards"]["cottage"] == 9 and b["coins"] == 1


def test_little_barn_not_enough_coins():
    """Little Barn (RB-F): without enough coins some Cottages stay unfed; all coins are spent."""
    b = _final(["little_barn . . cottage", E, "cottage . cottage .", ". cottage . cottage"], coins=1)
    assert b["coins"] == 0 and b["cards"]["cottage"] == 6


def test_cathedral_pay_three():
    """Cathedral: pay 3 coins when constructed; 7 VP if not adjacent to another Cathedral."""
    st = _at_build(_game([". . Gl .", "St Gl Br .", E, E], coins=3))
    st = build(st, 0, "cathedral", [2, 4, 5, 6], 5)
    assert {"type": "choose", "pay": True} in R.legal_moves(st, 0)
    st = play(st, 0, {"type": "choose", "pay": True})
    assert st["p"][0]["coins"] == 0 and st["p"][0]["grid"][5] == "cathedral"
    assert score(st)["cards"]["cathedral"] == 7


def test_cathedral_adjacent_cathedral_zero():
    """Cathedral (RB-F): a Cathedral adjacent to another Cathedral is worth 0."""
    assert _final(["cathedral cathedral . cathedral", E, E, E])["cards"]["cathedral"] == 7


def test_cathedral_converts_to_grey_with_benefit():
    """Cathedral (RB-F): without 3 coins it becomes the game's grey building, with its benefit
    (a Mine gains its coin)."""
    st = _at_build(_game([". . Gl .", "St Gl Br .", E, E], coins=1))
    st = build(st, 0, "cathedral", [2, 4, 5, 6], 5)
    assert R.legal_moves(st, 0) == [{"type": "choose", "pay": False}]
    st = play(st, 0, {"type": "choose", "pay": False})
    assert st["p"][0]["grid"][5] == "mine" and st["p"][0]["coins"] == 2


def test_cathedral_converts_to_shed_that_moves():
    """Cathedral (RB-F): a Shed constructed this way may move to any open square."""
    st = _at_build(_game([". . Gl .", "St Gl Br .", E, E], coins=5, buildings=SET[:5] + ["shed", "museum"]))
    st = build(st, 0, "cathedral", [2, 4, 5, 6], 5)
    st = play(st, 0, {"type": "choose", "pay": False, "to": 12})  # chose not to pay
    assert st["p"][0]["grid"][5] is None and st["p"][0]["grid"][12] == "shed"
    assert st["p"][0]["coins"] == 5


def test_parsonage_coins_equal_cottages():
    """Parsonage (RB-F): keep your coins only if they equal your number of Cottages."""
    rows = [". . Gl cottage", "St Wh St cottage", E, E]
    bset = SET[:3] + ["parsonage"] + SET[4:]
    st = _at_build(_game(rows, coins=2, buildings=bset))
    assert build(st, 0, "parsonage", [2, 4, 5, 6], 5)["p"][0]["coins"] == 2
    st = _at_build(_game(rows, coins=3, buildings=bset))
    assert build(st, 0, "parsonage", [2, 4, 5, 6], 5)["p"][0]["coins"] == 0
    st = _at_build(_game(rows, coins=0, buildings=bset))
    assert build(st, 0, "parsonage", [2, 4, 5, 6], 5)["p"][0]["coins"] == 0


def test_parsonage_scoring():
    """Parsonage (RB-F): 4 VP adjacent to a fed Cottage; otherwise 0."""
    assert _final(["parsonage cottage farm .", E, E, E])["cards"]["parsonage"] == 4
    assert _final(["parsonage cottage . .", E, E, E])["cards"]["parsonage"] == 0


def test_jeweler_pays_or_others_gain():
    """Jeweler (RB-F): pay 1 coin if you have it; if not, every other player gains 1 coin at the
    end of the round, including players whose towns are complete."""
    st = new_game(3, buildings=SET, monuments=["starloom"] * 3, master=1)
    st = with_player(st, 0, town(". St . .", "Br Gl Br .", E, E))
    st = with_player(st, 2, town(*["Wd Wd Wd Wd"] * 4), complete=True)
    st = round_with(st, "wheat", [15, 15, None])
    st = build(st, 0, "jeweler", [1, 4, 5, 6], 5)
    assert [pl["coins"] for pl in st["p"]] == [0, 0, 0]
    st = done_all(st)
    assert [pl["coins"] for pl in st["p"]] == [0, 1, 1]
    assert score(st)["cards"]["jeweler"] == 4


def test_jeweler_pays_a_coin():
    """Jeweler (RB-F): you must spend 1 coin if you have it."""
    st = _at_build(_game([". St . .", "Br Gl Br .", E, E], coins=2))
    st = done_all(build(st, 0, "jeweler", [1, 4, 5, 6], 5))
    assert [pl["coins"] for pl in st["p"]] == [1, 0]


def test_teahouse_row_or_column_max_three():
    """Teahouse (RB-F): coins per unique type in its row or its column (not both), not counting
    itself; another Teahouse counts; at most 3. Different amounts: the player chooses the line."""
    bset = ["cottage", "farm", "tavern", "chapel", "teahouse", "well", "factory"]
    rows = [". Wh . farm", "Wd Gl Wd tavern", ". cottage . teahouse", ". well . ."]
    st = _at_build(_game(rows, buildings=bset))
    st = build(st, 0, "teahouse", [1, 4, 5, 6], 5)  # row: tavern -> 1; column: cottage, well -> 2
    assert st["p"][0]["coins"] == 0
    assert R.legal_moves(st, 0) == [{"type": "choose", "line": "row"}, {"type": "choose", "line": "column"}]
    assert play(st, 0, {"type": "choose", "line": "column"})["p"][0]["coins"] == 2
    assert play(st, 0, {"type": "choose", "line": "row"})["p"][0]["coins"] == 1
    rows = [". Wh . .", "Wd Gl Wd farm", ". teahouse . .", ". well . ."]
    st = _at_build(_game(rows, buildings=bset))
    st = build(st, 0, "teahouse", [1, 4, 5, 6], 5)  # row: farm; column: teahouse, well -> 2
    st = play(st, 0, {"type": "choose", "line": "column"})
    assert st["p"][0]["coins"] == 2
    rows = [". Wh . .", "Wd Gl Wd farm", ". tavern . .", ". well . ."]
    st = _at_build(_game(rows, buildings=bset))
    st = build(st, 0, "teahouse", [1, 4, 5, 6], 4)  # row: farm (1); column: nothing (0)
    st = play(st, 0, {"type": "choose", "line": "row"})
    assert st["p"][0]["coins"] == 1


def test_teahouse_same_amount_needs_no_choice():
    """Teahouse (RB-F): when its row and its column give the same number of coins, they are
    gained at once (there is nothing to choose)."""
    bset = ["cottage", "farm", "tavern", "chapel", "teahouse", "well", "factory"]
    rows = [". Wh . .", "Wd Gl Wd farm", ". well . .", E]
    st = _at_build(_game(rows, buildings=bset))
    st = build(st, 0, "teahouse", [1, 4, 5, 6], 5)  # row: farm (1); column: well (1)
    assert st["p"][0]["coins"] == 1 and not st["p"][0]["pending"]


def test_teahouse_fewer_coins_can_be_better():
    """Teahouse choice (NOTES 20): taking the smaller line can pay: with the row's 1 coin a
    following Gamblers' Den (exactly 1 coin: +2) ends at 3 coins, with the column's 2 at only 2."""
    bset = ["cottage", "farm", "gamblers_den", "chapel", "teahouse", "well", "factory"]
    rows = ["Br Wh . .", "Wd Gl Wd farm", "Gl cottage . .", ". well . ."]
    st = _at_build(_game(rows, buildings=bset))
    st = build(st, 0, "teahouse", [1, 4, 5, 6], 5)  # row: farm (1); column: cottage, well (2)
    ends = []
    for line in ("row", "column"):
        s2 = done_all(play(st, 0, {"type": "choose", "line": line}))
        s2 = round_with(s2, "wood", [4, 14])
        ends.append(build(s2, 0, "gamblers_den", [0, 4, 8], 0)["p"][0]["coins"])
    assert ends == [3, 2]


def test_statue_third_statue_gains():
    """Statue (RB-F): the Statue being built counts; the third Statue gains 1 coin."""
    bset = SET[:5] + ["statue", "museum"]
    st = _at_build(_game(["statue statue Wd St", E, E, E], buildings=bset))
    st = build(st, 0, "statue", [2, 3], 2)
    assert st["p"][0]["coins"] == 1
    st = _at_build(_game(["statue . Wd St", E, E, E], buildings=bset))
    assert build(st, 0, "statue", [2, 3], 2)["p"][0]["coins"] == 0
    assert score(st)["cards"]["statue"] == 0


def test_mine_gains_coin():
    """Mine: gain 1 coin when constructed; 0 VP."""
    st = _at_build(_game(["Wd St . .", E, E, E]))
    st = build(st, 0, "mine", [0, 1], 0)
    assert st["p"][0]["coins"] == 1 and score(st)["cards"]["mine"] == 0


def test_museum_resources_and_return_once_per_round():
    """Museum (RB-F): holds 2 resources; when another player names one of them, return it instead
    of placing it and gain 1 coin — only once per round however many Museums you have."""
    st = _at_build(_game(["St Wh Wd .", "Br . Br .", E, E]))
    st = build(st, 0, "museum", [0, 1, 2, 4, 6], 0)
    st = play(st, 0, {"type": "choose", "resource": "glass"})
    st = play(st, 0, {"type": "choose", "resource": "glass"})
    assert st["p"][0]["store"] == {"0": ["glass", "glass"]}
    st = done_all(st)
    st = dict(st)
    st["master"] = 1
    st = name(st, "glass")
    st = play(st, 0, {"type": "museum"})
    assert st["p"][0]["coins"] == 1 and st["p"][0]["grid"].count("glass") == 0
    assert st["p"][0]["flags"]["museum_used"]


def test_museum_only_for_its_resources():
    """Museum: the return is only for a resource lying on one of your Museums."""
    st = _game(["museum . . .", E, E, E], store={"0": ["wood", "brick"]})
    assert not moves_of(name(st, "glass"), 0, "museum")
    assert moves_of(name(st, "brick"), 0, "museum")


def test_oddity_shop_store_and_take():
    """Oddity Shop (RB-F): store a named resource on it; the next Master Builder may take it, place
    it (unchanged) and gain 1 coin before naming."""
    bset = SET[:6] + ["oddity_shop"]
    st = new_game(2, buildings=bset, monuments=["starloom"] * 2, master=1)
    st = with_player(st, 0, town("oddity_shop . . .", E, E, E))
    st = name(st, "glass")
    st = play(st, 0, {"type": "store", "cell": 0})
    st = done_all(place(st, 1, 0))
    assert st["master"] == 0
    st = dict(st)
    st["master"] = 1  # seat 1 is Master Builder again: it may take seat 0's cube
    takes = moves_of(st, 1, "take_oddity")
    assert {"type": "take_oddity", "from": 0, "shop": 0, "to": 5} in takes
    st = play(st, 1, {"type": "take_oddity", "from": 0, "shop": 0, "to": 5})
    assert st["p"][1]["grid"][5] == "glass" and st["p"][1]["coins"] == 1
    assert st["p"][0]["store"] == {} and st["phase"] == "name"
    assert not moves_of(st, 1, "take_oddity")  # once per turn
    assert score(st)["cards"]["oddity_shop"] == 2


def test_oddity_shop_cube_completes_town():
    """Oddity Shop (RB-F): if the taken resource fills your board, your town is complete."""
    bset = SET[:6] + ["oddity_shop"]
    st = new_game(2, buildings=bset, monuments=["starloom"] * 2, master=1)
    st = with_player(st, 0, town("oddity_shop . . .", E, E, E), store={"0": ["wood"]})
    st = with_player(st, 1, town(*["Wd Wd Wd Wd"] * 3, "Wd Wd Wd ."))
    st = play(st, 1, {"type": "take_oddity", "from": 0, "shop": 0, "to": 15})
    assert st["p"][1]["complete"]
    st = name(st, "glass")
    assert R.to_act(st) == [0]


def test_gamblers_den_exactly_one_coin():
    """Gamblers' Den (RB-F): with exactly 1 coin gain 2 (the 1 is not spent); 2 VP."""
    for coins, after in ((1, 3), (0, 0), (2, 2)):
        st = _at_build(_game(["Br Wd Gl .", E, E, E], coins=coins))
        assert build(st, 0, "gamblers_den", [0, 1, 2], 0)["p"][0]["coins"] == after
    assert _final(["gamblers_den . . .", E, E, E])["cards"]["gamblers_den"] == 2


def test_schoolhouse():
    """Schoolhouse (RB-F): 2 VP next to a fed Cottage, +2 if you have at least the coins of the
    player on your right (0 and 0 qualifies); not next to a fed Cottage it is worth 0."""
    assert _final(["schoolhouse cottage farm .", E, E, E])["cards"]["schoolhouse"] == 4
    assert _final(["schoolhouse cottage . .", E, E, E])["cards"]["schoolhouse"] == 0
    st = _game(["schoolhouse cottage farm .", E, E, E])
    st = with_player(st, 1, None, coins=2)
    assert score(st)["cards"]["schoolhouse"] == 2


# ---------------------------------------------------------------- monuments


def test_caterinas_grotto():
    """Caterina's Grotto (RB-F): coins on the 4 centre squares; a building already there pays at
    once; a later building there collects it; coins may share a square with a cube; leftovers
    are removed at the end; +1 chest slot."""
    st = _at_build(_game(["St Gl Wd St", "Br well Wd Wh", ". . St .", E], monument="caterinas_grotto"))
    st = build(st, 0, "caterinas_grotto", [0, 1, 2, 3, 4, 7], 0)
    pl = st["p"][0]
    assert pl["coins"] == 1 and pl["marks"] == {"6": "grotto", "9": "grotto", "10": "grotto"}
    assert R.view(st, 1)["towns"][0]["chest"] == 5
    st = build(st, 0, "mine", [6, 10], 10)  # the Grotto coin + the Mine's coin
    assert st["p"][0]["coins"] == 3 and st["p"][0]["grid"][6] is None
    assert st["p"][0]["marks"] == {"6": "grotto", "9": "grotto"}
    b = score(st)
    assert b["coins"] == 3  # the two coins still on the board do not count


def test_eraflage_vineyard():
    """Eraflage Vineyard (RB-F): 9 VP if fed; -2 per unique type in its row and column, each type
    once, itself excluded."""
    b = _final(
        ["eraflage_vineyard well farm .", "well . . .", E, E],
        monument="eraflage_vineyard",
        built_monument=True,
    )
    assert b["cards"]["eraflage_vineyard"] == 9 - 2 * 2
    b = _final(["eraflage_vineyard . . .", E, E, E], monument="eraflage_vineyard", built_monument=True)
    assert b["cards"]["eraflage_vineyard"] == 0


def test_estival_festival_cost_and_double_coins():
    """Estival Festival (RB-F): costs 2 coins (not buildable without); leftover coins score 2 VP."""
    rows = ["Br Gl Wh .", "Wh Br Gl .", E, E]
    st = _at_build(_game(rows, monument="estival_festival", coins=1))
    assert not [m for m in moves_of(st, 0, "build") if m["card"] == "estival_festival"]
    with pytest.raises(IllegalMove, match="coin cost"):
        build(st, 0, "estival_festival", [0, 1, 2, 4, 5, 6], 0)
    st = _at_build(_game(rows, monument="estival_festival", coins=3))
    st = build(st, 0, "estival_festival", [0, 1, 2, 4, 5, 6], 0)
    assert st["p"][0]["coins"] == 1
    b = score(st)
    assert b["coin_vp"] == 2 and b["cards"]["estival_festival"] == 4


def test_five_coin_slot():
    """RB-F Storing: a constructed monument with a coin slot lets the chest hold 5."""
    st = _game(
        ["estival_festival Wd St .", "Wd St . .", E, E],
        monument="estival_festival",
        built_monument=True,
        coins=4,
    )
    st = done_all(build(build(_at_build(st), 0, "mine", [1, 2], 1), 0, "mine", [4, 5], 4))
    assert st["p"][0]["coins"] == 5


def test_hollow_hill_penalty():
    """Hollow Hill (RB-F): 7 VP, -2 VP per coin spent changing a resource after it is built."""
    st = _game(["hollow_hill . . .", E, E, E], monument="hollow_hill", built_monument=True, coins=2)
    st = place(name(st, "wood"), 0, 5, "glass")
    assert st["p"][0]["flags"]["hollow"] == 1
    assert score(st)["cards"]["hollow_hill"] == 5


def test_masons_guild():
    """Masons' Guild (RB-F): spend any number of coins first, then construct that many unique
    buildings one at a time, each resolved separately."""
    st = _at_build(_game(["Gl Br . .", "Br St . .", E, E], monument="masons_guild", coins=2))
    st = build(st, 0, "masons_guild", [0, 1, 4, 5], 0)
    assert [m["coins"] for m in R.legal_moves(st, 0)] == [0, 1, 2]
    st = play(st, 0, {"type": "choose", "coins": 2})
    assert st["p"][0]["coins"] == 0
    st = play(st, 0, {"type": "choose", "card": "mine", "cell": 14})
    assert st["p"][0]["coins"] == 1  # the Mine's benefit resolves at once
    assert not [m for m in R.legal_moves(st, 0) if m.get("card") == "mine"]  # unique types
    st = play(st, 0, {"type": "choose", "card": "cottage", "cell": 13})
    assert st["p"][0]["grid"][13:15] == ["cottage", "mine"] and not st["p"][0]["pending"]


def test_petal_promenade():
    """The Petal Promenade (RB-F): coins on 3 empty squares; resources named by others must go
    there (also a coin-changed one) and you gain the coin; your own named resource may not."""
    st = _at_build(_game(["Wh Br Wd Wh", E, E, E], monument="petal_promenade"))
    st = build(st, 0, "petal_promenade", [0, 1, 2, 3], 0)
    for cell in (5, 6, 7):
        st = play(st, 0, {"type": "choose", "cell": cell})
    assert st["p"][0]["marks"] == {"5": "petal", "6": "petal", "7": "petal"}
    st = done_all(st)
    st = dict(st)
    st["master"] = 1
    st = name(st, "wood")
    assert {m["cell"] for m in moves_of(st, 0, "place")} == {5, 6, 7}
    st = with_player(st, 0, coins=1)
    changed = {m["cell"] for m in moves_of(st, 0, "place") if m["resource"] != "wood"}
    assert changed == {5, 6, 7}  # a coin-changed resource must also go on a coin square
    st = place(st, 0, 6, "glass")
    assert st["p"][0]["coins"] == 1 and "6" not in st["p"][0]["marks"]
    st = done_all(place(st, 1, 0))
    assert st["master"] == 0
    st = name(st, "wood")
    assert not {5, 7} & {m["cell"] for m in moves_of(st, 0, "place")}


def test_petal_promenade_last_player():
    """The Petal Promenade (RB-F): the last player may put their own resource on a coin square."""
    st = _game(
        ["petal_promenade . . .", E, E, E],
        monument="petal_promenade",
        built_monument=True,
        marks={"5": "petal"},
        master=0,
    )
    st = with_player(st, 1, town(*["Wd Wd Wd Wd"] * 4), complete=True)
    st = name(st, "wood")
    assert 5 in {m["cell"] for m in moves_of(st, 0, "place")}


def test_prism_forge_second_building():
    """The Prism Forge: the glass just used by a Cottage also completes a Tavern (Br Br Gl)."""
    bset = ["cottage", "farm", "tavern", "chapel", "theater", "well", "factory"]
    st = _game(
        ["prism_forge . . .", ". Wh . .", "Br Gl Br Br", E],
        monument="prism_forge",
        built_monument=True,
        buildings=bset,
    )
    st = _at_build(st, cells=(15, 15))
    st = build(st, 0, "cottage", [5, 8, 9], 8)
    tav = [m for m in moves_of(st, 0, "build") if m["card"] == "tavern"]
    assert {"type": "build", "card": "tavern", "cells": [9, 10, 11], "at": 9} in tav
    st = build(st, 0, "tavern", [9, 10, 11], 9)
    assert st["p"][0]["grid"][8:12] == ["cottage", "tavern", None, None]
    assert st["p"][0]["flags"]["forge_used"]
    assert not [m for m in moves_of(st, 0, "build") if m["card"] == "tavern"]


def test_southern_semaphore():
    """Southern Semaphore (RB-F): when another player names a resource, also place 1 extra cube of
    that type on an empty square and gain 1 coin."""
    st = _game(["southern_semaphore . . .", E, E, E], monument="southern_semaphore", built_monument=True)
    st = place(name(st, "brick"), 0, 5)
    assert st["p"][0]["pending"] == [{"kind": "semaphore", "resource": "brick"}]
    st = play(st, 0, {"type": "choose", "cell": 6})
    assert st["p"][0]["grid"][5:7] == ["brick", "brick"] and st["p"][0]["coins"] == 1


def test_southern_semaphore_with_factory():
    """Southern Semaphore (RB-F): with a Factory the first cube may differ; the extra is the named type."""
    st = _game(
        ["southern_semaphore factory . .", E, E, E],
        monument="southern_semaphore",
        built_monument=True,
        store={"1": ["brick"]},
        buildings=["cottage", "farm", "tavern", "chapel", "theater", "well", "factory"],
    )
    st = place(name(st, "brick"), 0, 5, "glass")
    assert st["p"][0]["coins"] == 0
    assert R.legal_moves(st, 0)[-1] == {"type": "choose", "skip": True}
    st = play(st, 0, {"type": "choose", "cell": 6})
    assert st["p"][0]["grid"][5:7] == ["glass", "brick"]


def test_treasury_at_okaver():
    """The Treasury at Okaver: when your chest fills to 4 coins, you may construct a Cottage on
    any empty square; 1 VP per adjacent Cottage."""
    st = _game(["treasury_okaver Wd St .", E, E, E], monument="treasury_okaver", built_monument=True, coins=3)
    st = build(_at_build(st), 0, "mine", [1, 2], 1)
    assert st["p"][0]["coins"] == 4 and st["p"][0]["pending"] == [{"kind": "okaver"}]
    st = play(st, 0, {"type": "choose", "cell": 4})
    assert st["p"][0]["grid"][4] == "cottage"
    assert score(st)["cards"]["treasury_okaver"] == 1


def test_shrine_of_the_windseed():
    """Shrine of the Windseed: on build gain 1 coin per building of your most numerous type; +1 slot."""
    st = _game(["Gl . mine mine", "St Br mine .", E, E], monument="shrine_windseed")
    st = build(_at_build(st), 0, "shrine_windseed", [0, 4, 5], 0)
    assert st["p"][0]["coins"] == 3
    assert R.view(st, 0)["towns"][0]["chest"] == 5


# ---------------------------------------------------------------- further RB-F clarifications


def test_special_note_effect_placed_buildings_pay_costs_and_gain_benefits():
    """RB-F Special Note: a building placed by a monument (Grove University) still pays its coin
    cost (Jeweler: 1 coin; Cathedral: 3 coins or the grey building) and still gains its benefits
    (Mine: +1 coin)."""
    rows = [". Br . .", "St Gl St .", E, E]
    base = _at_build(_game(rows, monument="grove_university", coins=2))
    st = build(base, 0, "grove_university", [1, 4, 5, 6], 5)
    assert play(st, 0, {"type": "choose", "card": "jeweler", "cell": 12})["p"][0]["coins"] == 1
    assert play(st, 0, {"type": "choose", "card": "mine", "cell": 12})["p"][0]["coins"] == 3
    st = play(st, 0, {"type": "choose", "card": "cathedral", "cell": 12})
    assert st["p"][0]["pending"][0]["kind"] == "cathedral"
    assert {"type": "choose", "pay": True} not in R.legal_moves(st, 0)  # only 2 coins
    st = play(st, 0, {"type": "choose", "pay": False})
    assert st["p"][0]["grid"][12] == "mine" and st["p"][0]["coins"] == 3


def test_petal_promenade_master_builder_with_only_coin_squares_left():
    """The Petal Promenade (RB-F): a Master Builder who cannot place the resource they named on an
    empty square without a coin may place it on a coin square (and gains the coin)."""
    full = ["petal_promenade Wd Wd Wd", "Wd . . Wd", "Wd Wd Wd Wd", "Wd Wd Wd Wd"]
    st = _game(
        full, monument="petal_promenade", built_monument=True, marks={"5": "petal", "6": "petal"}, master=0
    )
    st = name(st, "stone")
    assert {m["cell"] for m in moves_of(st, 0, "place")} == {5, 6}
    st = place(st, 0, 5)
    assert st["p"][0]["coins"] == 1 and "5" not in st["p"][0]["marks"]


def test_prism_forge_needs_a_different_type():
    """The Prism Forge (RB-F): shared cubes may be used twice only for 2 *unique* building types:
    the glass of a Cottage just built cannot make a second Cottage."""
    bset = ["cottage", "farm", "tavern", "chapel", "theater", "well", "factory"]
    st = _game(
        ["prism_forge . . .", ". Wh . .", "Br Gl Br .", ". Wh . ."],
        monument="prism_forge",
        built_monument=True,
        buildings=bset,
    )
    st = _at_build(st, cells=(15, 15))
    st = build(st, 0, "cottage", [5, 8, 9], 8)
    assert not [m for m in moves_of(st, 0, "build") if 9 in m["cells"]]
    with pytest.raises(IllegalMove):
        build(st, 0, "cottage", [9, 10, 13], 10)


def test_caterinas_grotto_on_a_centre_square_pays_itself():
    """Caterina's Grotto (RB-F): a building already on a centre square — Caterina's Grotto itself
    included — gains its coin at once; the other centre squares get coins."""
    st = _at_build(_game([E, "St Gl Wd St", "Br . . Wh", E], monument="caterinas_grotto"))
    st = build(st, 0, "caterinas_grotto", [4, 5, 6, 7, 8, 11], 5)
    assert st["p"][0]["coins"] == 1
    assert st["p"][0]["marks"] == {"6": "grotto", "9": "grotto", "10": "grotto"}
