"""Buildings placed by effects (RB-F Special Note, Masons' Guild, Architect's Guild, Grove
University, Opaleye's Watch): one at a time, each fully resolved; a Shed anywhere; the solo
Jeweler's coin; and the discarded monument kept out of determinize (rules review, version 3)."""

from __future__ import annotations

from app.engine.rng import Rng
from app.rulesets.tiny_towns import RULESET as R
from tests.rulesets.tiny_towns.helpers import build, moves_of, new_game, play, round_with, town, with_player

E = ". . . ."
FORTUNE = ["cottage", "root_cellar", "gamblers_den", "cathedral", "teahouse", "mine", "museum"]
MASONS = ["Gl Br . .", "Br St . .", E, E]
ARCHITECT = [". . Gl .", ". Wh St .", "Wd Br . .", "cottage farm . ."]


def _game(rows, monument, buildings=FORTUNE, n=2, **fields):
    st = new_game(n, buildings=buildings, monuments=[monument] + ["starloom"] * (n - 1), master=1)
    st = with_player(st, 0, town(*rows), **fields)
    return round_with(st, "wheat", [15, 15][:n])


def _choose(st, **fields):
    return play(st, 0, {"type": "choose", **fields})


def test_masons_guild_cathedral_is_paid_before_the_next_building():
    """Masons' Guild (RB-F): coins are spent first, then each building is constructed in turn,
    its costs resolved before the next. With 4 coins and two buildings 2 coins remain, so a
    Cathedral placed first cannot pay 3 and must convert, before a Mine raises the coins."""
    st = build(_game(MASONS, "masons_guild", coins=4), 0, "masons_guild", [0, 1, 4, 5], 0)
    st = _choose(st, coins=2)
    st = _choose(st, card="cathedral", cell=12)
    assert st["p"][0]["pending"][0]["kind"] == "cathedral"
    assert R.legal_moves(st, 0) == [{"type": "choose", "pay": False}]  # 2 coins: no pay
    st = _choose(st, pay=False)
    assert st["p"][0]["grid"][12] == "mine" and st["p"][0]["coins"] == 3
    assert st["p"][0]["pending"][0]["kind"] == "free_build"  # only now the second building
    st = _choose(st, card="gamblers_den", cell=13)
    assert st["p"][0]["coins"] == 3 and not st["p"][0]["pending"]


def test_masons_guild_teahouse_coins_count_before_the_gamblers_den():
    """Masons' Guild (RB-F): each building's benefits resolve before the next one. Spending all
    coins, a Teahouse (its column holds the Guild: +1) then a Gamblers' Den (exactly 1 coin:
    +2) ends with 3 coins, not 1."""
    st = build(_game(MASONS, "masons_guild", coins=2), 0, "masons_guild", [0, 1, 4, 5], 0)
    st = _choose(st, coins=2)
    assert st["p"][0]["coins"] == 0
    st = _choose(st, card="teahouse", cell=8)
    assert R.legal_moves(st, 0) == [{"type": "choose", "line": "row"}, {"type": "choose", "line": "column"}]
    st = _choose(st, line="column")
    assert st["p"][0]["coins"] == 1
    st = _choose(st, card="gamblers_den", cell=14)
    assert st["p"][0]["coins"] == 3


def test_architects_guild_resolves_each_replacement_before_the_next():
    """Architect's Guild + RB-F Special Note: each replacement is a construction whose costs are
    settled before the next one. With 2 coins, a Cathedral must convert at once, before a Mine
    replacing the Farm adds a coin."""
    st = build(_game(ARCHITECT, "architects_guild", coins=2), 0, "architects_guild", [2, 5, 6, 8, 9], 6)
    st = _choose(st, cell=12, card="cathedral")
    assert R.legal_moves(st, 0) == [{"type": "choose", "pay": False}]
    st = _choose(st, pay=False)
    assert st["p"][0]["grid"][12] == "mine" and st["p"][0]["coins"] == 3
    st = _choose(st, cell=13, card="mine")
    assert st["p"][0]["grid"][12:14] == ["mine", "mine"] and st["p"][0]["coins"] == 4


def test_architects_guild_shed_may_go_on_any_empty_square():
    """RB-F Special Note: a building placed by an effect keeps its benefits, the Shed's free
    placement among them; replacing a building with a Shed, the Shed may stay or go to any empty
    square, leaving the replaced building's square empty."""
    buildings = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "factory"]
    st = build(
        _game(ARCHITECT, "architects_guild", buildings=buildings), 0, "architects_guild", [2, 5, 6, 8, 9], 6
    )
    grid = st["p"][0]["grid"]
    targets = {m["to"] for m in R.legal_moves(st, 0) if m.get("card") == "shed" and m["cell"] == 12}
    assert targets == {12} | {i for i in range(16) if grid[i] is None}
    assert {"type": "choose", "cell": 12, "card": "tavern"} in R.legal_moves(st, 0)
    st = _choose(st, cell=12, card="shed", to=3)
    assert st["p"][0]["grid"][12] is None and st["p"][0]["grid"][3] == "shed"
    st = _choose(st, cell=13, card="shed", to=13)
    assert st["p"][0]["grid"][13] == "shed"


def _solo_build(monument, coins, rows):
    st = new_game(
        1, buildings=["cottage", "farm", "tavern", "chapel", "jeweler", "well", "mine"], monuments=[monument]
    )
    st = with_player(st, 0, town(*rows), coins=coins)
    st = play(st, 0, {"type": "choose_card", "index": 0})
    return play(st, 0, {"type": "place", "resource": st["named"], "cell": 15})


def test_solo_jeweler_needs_a_coin_when_placed_by_grove_university():
    """Solo Variant (RB-F): a Jeweler cannot be built without spending 1 coin; the Special Note:
    a building placed by an effect still pays. Grove University with 0 coins offers no Jeweler;
    with 1 coin it does, and the coin is spent."""
    rows = [". Br . .", "St Gl St .", E, E]
    st = build(_solo_build("grove_university", 0, rows), 0, "grove_university", [1, 4, 5, 6], 5)
    assert R.legal_moves(st, 0) and not [m for m in R.legal_moves(st, 0) if m["card"] == "jeweler"]
    st = build(_solo_build("grove_university", 1, rows), 0, "grove_university", [1, 4, 5, 6], 5)
    st = _choose(st, card="jeweler", cell=12)
    assert st["p"][0]["grid"][12] == "jeweler" and st["p"][0]["coins"] == 0


def test_solo_jeweler_needs_a_coin_left_after_masons_guild_spending():
    """Solo Variant + Masons' Guild (RB-F): the coins are spent first, so spending the only coin
    leaves none for a Jeweler's cost; a Mine built first pays for it."""
    st = build(_solo_build("masons_guild", 1, MASONS), 0, "masons_guild", [0, 1, 4, 5], 0)
    st = _choose(st, coins=1)
    assert not [m for m in R.legal_moves(st, 0) if m["card"] == "jeweler"]
    st = build(_solo_build("masons_guild", 2, MASONS), 0, "masons_guild", [0, 1, 4, 5], 0)
    st = _choose(st, coins=2)
    assert not [m for m in R.legal_moves(st, 0) if m["card"] == "jeweler"]
    st = _choose(st, card="mine", cell=12)
    st = _choose(st, card="jeweler", cell=13)
    assert st["p"][0]["grid"][13] == "jeweler" and st["p"][0]["coins"] == 0


def test_opaleyes_watch_building_waits_on_the_card_until_a_square_is_free():
    """Opaleye's Watch (NOTES 18): a building taken while its owner's town is full stays on the
    card and is placed as soon as a square is free, whoever acts first in the step."""
    sets = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "factory"]
    st = new_game(3, buildings=sets, monuments=["opaleyes_watch", "starloom", "starloom"])
    st = with_player(
        st,
        0,
        town("opaleyes_watch Wh Wh .", "farm farm farm farm", "farm farm farm Wh", "farm farm Br Gl"),
        built_monument=True,
        flags={"watch": ["shed", "tavern"]},
    )
    st = with_player(st, 2, town("Wd St . .", E, E, E))
    st = round_with(st, "wheat", [3, 15, 15])  # seat 0's town is now full
    st = build(st, 2, "shed", [0, 1], 0)
    assert st["p"][0]["pending"] == [] and st["p"][0]["flags"]["watch_waiting"] == ["shed"]
    st = build(st, 0, "cottage", [11, 14, 15], 15)  # frees squares 11 and 14
    assert st["p"][0]["pending"] == [{"kind": "watch_place", "card": "shed"}]
    assert moves_of(st, 0, "choose") == [{"type": "choose", "cell": 11}, {"type": "choose", "cell": 14}]
    st = _choose(st, cell=14)
    assert st["p"][0]["grid"][14] == "shed" and "watch_waiting" not in st["p"][0]["flags"]


def test_determinize_never_deals_my_discarded_monument_to_an_opponent():
    """Monuments (RB: keep 1 of 2, the other returns to the box): the seat knows which one it
    discarded, so no determinized state may give it to another player; the card stays out of
    every view and log."""
    st = R.setup(3, R.Options(fortune=True), 4)
    for seat in range(3):
        st = R.apply(st, seat, {"type": "keep_monument", "monument": st["p"][seat]["dealt"][0]})
    mine = st["p"][0]["discarded"]
    assert mine is not None and mine != st["p"][0]["monument"]
    rng = Rng(7)
    for _ in range(300):
        det = R.determinize(st, 0, rng)
        assert det["p"][0]["discarded"] == mine
        for other in (1, 2):
            assert mine not in (det["p"][other]["monument"], det["p"][other]["discarded"])
    planted = dict(st, p=[dict(pl, discarded=f"CANARY-{i}") for i, pl in enumerate(st["p"])])
    for viewer in (0, 1, None):
        assert R.view(planted, viewer) == R.view(st, viewer)
        assert "CANARY" not in str(R.view(planted, viewer))
    assert mine not in str(st["last"])


def test_a_monument_built_from_cubes_counts_toward_the_round_coin():
    """End of round (RB-F; NOTES 43): 2 or more buildings constructed from resources give 1
    coin, and a monument constructed from resources is one of them."""
    st = _game(
        ["Gl Br Wd St", "Br St . .", E, E],
        "masons_guild",
        buildings=["cottage", "farm", "tavern", "chapel", "theater", "shed", "factory"],
    )
    st = build(st, 0, "masons_guild", [0, 1, 4, 5], 0)
    st = _choose(st, coins=0)
    st = build(st, 0, "shed", [2, 3], 2)
    st = play(play(st, 0, {"type": "done"}), 1, {"type": "done"})
    assert st["p"][0]["coins"] == 1


def test_every_construction_needs_at_least_one_real_cube():
    """Constructing (NOTES 44): a pattern made only of Trading Posts (wild, they stay) has no
    resource to remove, so it cannot be built."""
    bset = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "trading_post"]
    st = _game(["trading_post trading_post . .", E, E, E], "starloom", buildings=bset)
    assert not [m for m in moves_of(st, 0, "build") if m["card"] == "shed"]
    st = _game(["trading_post St . .", E, E, E], "starloom", buildings=bset)
    assert [m for m in moves_of(st, 0, "build") if m["card"] == "shed" and m["cells"] == [0, 1]]


def test_barrett_castle_is_not_a_cottage_for_the_statue():
    """Statue (RB-F; NOTES 45): 1 coin per building type with 3 or more copies; Barrett Castle is
    its own type, so 2 Cottages and Barrett Castle give no coin for Cottages."""
    bset = ["cottage", "farm", "tavern", "chapel", "theater", "statue", "museum"]
    st = _game(
        ["cottage cottage barrett_castle .", "Wd St . .", E, E],
        "barrett_castle",
        buildings=bset,
        built_monument=True,
    )
    assert build(st, 0, "statue", [4, 5], 4)["p"][0]["coins"] == 0
    st = _game(["cottage cottage cottage .", "Wd St . .", E, E], "starloom", buildings=bset)
    assert build(st, 0, "statue", [4, 5], 4)["p"][0]["coins"] == 1


def test_a_buildings_own_decision_comes_before_decisions_already_waiting():
    """RB-F Special Note and NOTES 15/18: each building placed by an effect resolves its costs
    before the next one, also when the next one was already waiting. A neighbour's Cathedral
    (unpaid, so it converts to a Mine) hands Opaleye's Watch a Cathedral and then a Mine; the
    Cathedral placed from the card is paid or converted with 2 coins, before the Mine adds one."""
    st = new_game(3, buildings=FORTUNE, monuments=["opaleyes_watch", "starloom", "starloom"])
    st = with_player(
        st,
        0,
        town("opaleyes_watch . . .", E, E, E),
        coins=2,
        built_monument=True,
        flags={"watch": ["cathedral", "mine", "cottage"]},
    )
    st = with_player(st, 1, town(". . Gl .", "St Gl Br .", E, E))
    st = round_with(st, "wheat", [15, 15, 15])
    st = build(st, 1, "cathedral", [2, 4, 5, 6], 2)
    st = play(st, 1, {"type": "choose", "pay": False})  # 0 coins: it becomes a Mine
    assert [i["card"] for i in st["p"][0]["pending"]] == ["cathedral", "mine"]
    st = _choose(st, cell=4)
    assert R.legal_moves(st, 0) == [{"type": "choose", "pay": False}]  # 2 coins: no pay
    st = _choose(st, pay=False)
    assert st["p"][0]["grid"][4] == "mine" and st["p"][0]["coins"] == 3
    st = _choose(st, cell=5)
    assert st["p"][0]["grid"][5] == "mine" and st["p"][0]["coins"] == 4


def test_opaleyes_watch_building_does_not_depend_on_who_constructs_first():
    """Opaleye's Watch (NOTES 18; rules-data recommendation): in the simultaneous construction
    step the owner gets the building whichever of the two constructs first, their town full or
    not at the moment the neighbour builds."""
    sets = ["cottage", "farm", "tavern", "chapel", "theater", "shed", "factory"]
    st = new_game(3, buildings=sets, monuments=["opaleyes_watch", "starloom", "starloom"])
    st = with_player(
        st,
        0,
        town("opaleyes_watch Wh Wh .", "farm farm farm farm", "farm farm farm Wh", "farm farm Br Gl"),
        built_monument=True,
        flags={"watch": ["shed", "tavern"]},
    )
    st = with_player(st, 2, town("Wd St . .", E, E, E))
    st = round_with(st, "wheat", [3, 15, 15])  # seat 0's town is now full
    owner_first = build(build(st, 0, "cottage", [11, 14, 15], 15), 2, "shed", [0, 1], 0)
    neighbour_first = build(build(st, 2, "shed", [0, 1], 0), 0, "cottage", [11, 14, 15], 15)
    for st in (owner_first, neighbour_first):
        assert st["p"][0]["pending"] == [{"kind": "watch_place", "card": "shed"}]
        st = _choose(st, cell=14)
        assert st["p"][0]["grid"][14] == "shed" and st["p"][0]["flags"] == {"watch": ["tavern"]}
