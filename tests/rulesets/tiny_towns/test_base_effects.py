"""Base building effects and reactions (Shed, Factory, Warehouse, Trading Post, Bank) and the
15 base monuments (rules-data §2.3, §2.4)."""

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
SET = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "factory"]


def _game(rows, monument="starloom", buildings=None, n=2, **fields):
    st = new_game(n, buildings=buildings or SET, monuments=[monument] + ["starloom"] * (n - 1))
    return with_player(st, 0, town(*rows), **fields)


def test_shed_on_any_empty_square():
    """Shed: may be constructed on any empty square of your town."""
    st = _game(["Wd St . .", E, E, E])
    st = round_with(st, "wheat", [4, 15])
    targets = {m["at"] for m in moves_of(st, 0, "build") if m["card"] == "shed"}
    assert targets == set(range(16)) - {4}
    st = build(st, 0, "shed", [0, 1], 15)
    assert st["p"][0]["grid"][15] == "shed" and st["p"][0]["grid"][0] is None


def test_factory_stores_resource_and_swaps():
    """Factory: on build put 1 resource on it; when another player names it, place a different one."""
    st = _game(["Wd . . .", "Br St St Br", E, E])
    st = round_with(st, "wheat", [15, 15])
    st = build(st, 0, "factory", [0, 4, 5, 6, 7], 4)
    assert st["p"][0]["pending"][0]["kind"] == "resource"
    assert [m["resource"] for m in R.legal_moves(st, 0)] == ["wood", "wheat", "brick", "glass", "stone"]
    st = play(st, 0, {"type": "choose", "resource": "glass"})
    assert st["p"][0]["store"] == {"4": ["glass"]}
    st = done_all(st)
    st = name(st, "glass")  # seat 1 is the Master Builder now
    assert st["master"] == 1
    st = place(st, 0, 0, "brick")
    assert st["p"][0]["grid"][0] == "brick" and st["p"][0]["coins"] == 0


def test_warehouse_store_swap_and_capacity():
    """Warehouse: store a named resource instead of placing it (3 at most) or swap with a stored one."""
    st = _game(["warehouse . . .", E, E, E], store={"0": ["wood", "wood"]}, buildings=SET[:6] + ["warehouse"])
    st = with_player(st, 1, town(E, E, E, E))
    st = new_master(st, 1)
    st = name(st, "glass")
    st = play(st, 0, {"type": "store", "cell": 0})
    assert st["p"][0]["store"]["0"] == ["wood", "wood", "glass"]
    st = done_all(place(st, 1, 0))
    st = name(new_master(st, 1), "brick")
    assert not [m for m in R.legal_moves(st, 0) if m["type"] == "store"]  # full
    st = play(st, 0, {"type": "swap", "cell": 0, "take": "glass", "to": 5})
    assert st["p"][0]["store"]["0"] == ["wood", "wood", "brick"]
    assert st["p"][0]["grid"][5] == "glass"


def new_master(st, seat):
    st = dict(st)
    st["master"] = seat
    return st


def test_trading_post_is_wild_and_stays():
    """Trading Post: counts as any resource in a pattern and stays in place."""
    st = _game(["trading_post St . .", E, E, E], buildings=SET[:5] + ["well", "trading_post"])
    st = round_with(st, "wheat", [15, 15])
    st = build(st, 0, "well", [0, 1], 1)
    assert st["p"][0]["grid"][:2] == ["trading_post", "well"]
    with pytest.raises(IllegalMove):
        build(st, 0, "well", [0, 1], 0)


def test_bank_bans_naming_and_distinct():
    """Bank: put on it a resource not on your other Banks; as Master Builder you may not name it."""
    st = _game(["bank . . .", E, E, E], store={"0": ["glass"]}, buildings=SET[:6] + ["bank"])
    names = {m["resource"] for m in moves_of(st, 0, "name")}
    assert names == {"wood", "wheat", "brick", "stone"}
    with pytest.raises(IllegalMove, match="Banks"):
        name(st, "glass")
    st = with_player(st, 0, town("bank Wh Wh .", ". Wd Gl Br", E, E))
    st = round_with(st, "stone", [15, 15])
    st = build(st, 0, "bank", [1, 2, 5, 6, 7], 5)
    assert "glass" not in {m["resource"] for m in R.legal_moves(st, 0)}


def test_architects_guild_replaces_two():
    """Architect's Guild: on build, replace up to 2 of your buildings with other types (with their
    on-build effects)."""
    st = _game([". . Gl .", ". Wh St .", "Wd Br . .", "cottage shed . ."], monument="architects_guild")
    st = round_with(st, "wheat", [15, 15])
    st = build(st, 0, "architects_guild", [2, 5, 6, 8, 9], 6)
    st = play(st, 0, {"type": "choose", "cell": 12, "card": "tavern"})
    st = play(st, 0, {"type": "choose", "cell": 13, "card": "factory"})
    assert st["p"][0]["grid"][12:14] == ["tavern", "factory"]
    assert st["p"][0]["pending"][0]["kind"] == "resource"  # the Factory's own on-build choice


def test_architects_guild_may_stop():
    """Architect's Guild: 'up to' 2 — the player may stop early."""
    st = _game([". . Gl .", ". Wh St .", "Wd Br . .", "cottage . . ."], monument="architects_guild")
    st = build(round_with(st, "wheat", [15, 15]), 0, "architects_guild", [2, 5, 6, 8, 9], 6)
    st = play(st, 0, {"type": "choose", "stop": True})
    assert not st["p"][0]["pending"] and st["p"][0]["grid"][12] == "cottage"


def test_archive_unique_types():
    """Archive of the Second Age: 1 VP per unique non-monument building type."""
    st = _game(
        ["archive_second_age cottage cottage shed", "farm . . .", E, E],
        monument="archive_second_age",
        built_monument=True,
    )
    assert score(st)["cards"]["archive_second_age"] == 3


def test_barrett_castle_fed_and_two_cottages():
    """Barrett Castle: 5 VP if fed; counts as 2 Cottages (a Well next to it scores 2)."""
    st = _game(["barrett_castle well farm .", E, E, E], monument="barrett_castle", built_monument=True)
    b = score(st)
    assert b["cards"]["barrett_castle"] == 5 and b["cards"]["well"] == 2


def test_cathedral_of_caterina_empty_zero():
    """Cathedral of Caterina: 2 VP; empty squares score 0 instead of -1."""
    st = _game(
        ["cathedral_of_caterina Wd . .", E, E, E], monument="cathedral_of_caterina", built_monument=True
    )
    b = score(st)
    assert b["empty_vp"] == 0 and b["total"] == 2


def test_fort_ironweed_skips_master_builder():
    """Fort Ironweed: 7 VP; you no longer act as Master Builder unless you are the last player."""
    st = new_game(3, buildings=SET, monuments=["fort_ironweed", "starloom", "starloom"], master=2)
    st = with_player(st, 0, town("fort_ironweed . . .", E, E, E), built_monument=True)
    st = done_all(round_with(st, "wood", [15, 15, 15]))
    assert st["master"] == 1
    assert score(st)["cards"]["fort_ironweed"] == 7
    full = town(*["Wd Wd Wd Wd"] * 4)
    st = with_player(st, 1, full, complete=True)
    st = with_player(st, 2, full, complete=True)
    st = done_all(round_with(st, "wood", [14, None, None]))
    assert st["master"] == 0  # the last player names even with Fort Ironweed


def test_grand_mausoleum_unfed_cottages():
    """Grand Mausoleum of the Rodina: unfed Cottages are worth 3 VP each."""
    st = _game(
        ["grand_mausoleum cottage cottage .", E, E, E], monument="grand_mausoleum", built_monument=True
    )
    assert score(st)["cards"]["cottage"] == 6


def test_grove_university_places_a_building():
    """Grove University: 3 VP; on build place a building on any empty square."""
    st = _game([". Br . .", "St Gl St .", E, E], monument="grove_university")
    st = build(round_with(st, "wheat", [15, 15]), 0, "grove_university", [1, 4, 5, 6], 5)
    opts = R.legal_moves(st, 0)
    assert {"type": "choose", "card": "tavern", "cell": 10} in opts
    st = play(st, 0, {"type": "choose", "card": "tavern", "cell": 10})
    assert st["p"][0]["grid"][10] == "tavern"
    st = done_all(st)
    assert st["p"][0]["coins"] == 0  # effect-placed buildings do not count for the 2-building coin
    assert score(st)["cards"]["grove_university"] == 3


def test_mandras_palace_adjacent_types():
    """Mandras Palace: 2 VP per unique building type adjacent to it."""
    st = _game(
        ["cottage mandras_palace cottage .", ". farm . .", E, E],
        monument="mandras_palace",
        built_monument=True,
    )
    assert score(st)["cards"]["mandras_palace"] == 4


def test_obelisk_any_square():
    """Obelisk of the Crescent: every later building may go on any empty square."""
    st = _game(
        ["obelisk_crescent . . .", E, ". . Wh .", ". Br Gl Br"],
        monument="obelisk_crescent",
        built_monument=True,
    )
    st = round_with(st, "wood", [0 + 1, 15])
    targets = {m["at"] for m in moves_of(st, 0, "build") if m["card"] == "cottage"}
    assert 5 in targets and 1 not in targets


def test_opaleyes_watch():
    """Opaleye's Watch: put 3 unique buildings on it; when a neighbour constructs one, you take it
    and place it on an empty square."""
    st = new_game(3, buildings=SET, monuments=["opaleyes_watch", "starloom", "starloom"])
    st = with_player(st, 0, town("Wd . . .", "Br Gl Wh Wh", "St . . .", E))
    st = with_player(st, 2, town("Wd St . .", E, E, E))
    st = round_with(st, "wheat", [15, 15, 15])
    st = build(st, 0, "opaleyes_watch", [0, 4, 5, 6, 7, 8], 4)
    for card in ("shed", "tavern", "farm"):
        st = play(st, 0, {"type": "choose", "card": card})
    assert st["p"][0]["flags"]["watch"] == ["shed", "tavern", "farm"]
    st = build(st, 2, "shed", [0, 1], 0)  # seat 2 is seat 0's right-hand neighbour
    assert st["p"][0]["pending"] == [{"kind": "watch_place", "card": "shed"}]
    st = play(st, 0, {"type": "choose", "cell": 9})
    assert st["p"][0]["grid"][9] == "shed" and st["p"][0]["flags"]["watch"] == ["tavern", "farm"]


def test_shrine_of_the_elder_tree():
    """Shrine of the Elder Tree: VP by buildings in town at construction (6+ = 8 VP)."""
    st = _game(["Br Wh St shed", "Wd Gl Wd shed", "shed shed . .", E], monument="shrine_elder_tree")
    st = build(round_with(st, "wheat", [15, 15]), 0, "shrine_elder_tree", [0, 1, 2, 4, 5, 6], 0)
    assert st["p"][0]["flags"]["shrine"] == 5
    assert score(st)["cards"]["shrine_elder_tree"] == 5


def test_silva_forum_largest_group():
    """Silva Forum: 1 VP + 1 per building in your largest contiguous same-type group."""
    st = _game(
        ["silva_forum shed shed .", ". . shed .", "cottage cottage . .", E],
        monument="silva_forum",
        built_monument=True,
    )
    assert score(st)["cards"]["silva_forum"] == 4


def test_sky_baths_missing_types():
    """The Sky Baths: 2 VP per building type in this game not in your town."""
    st = _game(["sky_baths cottage farm tavern", E, E, E], monument="sky_baths", built_monument=True)
    assert score(st)["cards"]["sky_baths"] == 2 * 4


def test_starloom_completion_order():
    """The Starloom: VP by completion order: 1st 6, 2nd 3, 3rd 2; same-round finishers tie."""
    st = new_game(3, buildings=SET, monuments=["starloom"] * 3)
    for seat in range(3):
        st = with_player(st, seat, town("starloom . . .", E, E, E), built_monument=True)
    st = dict(st)
    st["finish"] = [2, 1, 1]
    assert [score(st, i)["cards"]["starloom"] for i in range(3)] == [2, 6, 6]


def test_statue_of_the_bondmaker():
    """Statue of the Bondmaker: put a resource named by another player on one of your Cottages
    (one each) instead of placing it."""
    st = _game(
        ["statue_bondmaker cottage cottage .", E, E, E], monument="statue_bondmaker", built_monument=True
    )
    st = new_master(st, 1)
    st = name(st, "glass")
    assert [m["cell"] for m in moves_of(st, 0, "bondmaker")] == [1, 2]
    st = play(st, 0, {"type": "bondmaker", "cell": 1})
    assert st["p"][0]["store"] == {"1": ["glass"]} and st["p"][0]["grid"][1] == "cottage"
    st = done_all(place(st, 1, 0))
    st = name(new_master(st, 1), "wood")
    assert [m["cell"] for m in moves_of(st, 0, "bondmaker")] == [2]


def test_master_builder_has_no_reactions():
    """Reactions (Factory, Warehouse, Bondmaker, ...) apply only when another player names."""
    st = _game(["statue_bondmaker cottage . .", E, E, E], monument="statue_bondmaker", built_monument=True)
    st = name(st, "glass")
    assert not moves_of(st, 0, "bondmaker")
