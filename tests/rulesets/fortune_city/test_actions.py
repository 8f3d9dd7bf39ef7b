"""Player Actions phase: buy goods, construct, banks, VIPs, pass, turn order."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import (
    BAKERY,
    BOOKS,
    BUS,
    COFFEE,
    FRUIT,
    LAMP,
    SNACK,
    build,
    cell,
    game,
    play,
)


def test_buy_pays_the_price_and_takes_tile_and_citizen():
    """Buy Goods: pay the price, the tile goes goods side up into a vacant construction zone and
    the citizen below it into the park."""
    st = game()
    m = st["market"][2]  # stationery, price 3, yellow citizen
    after = R.apply(st, 0, {"type": "buy", "slot": 2, "card": 0})
    p = after["players"][0]
    assert p["silver"] == 7 - D.TILES[m["tile"]]["price"]
    assert p["zone"] == [m["tile"], None] and p["park"][m["citizen"]] == 1
    assert m not in after["market"] and len(after["market"]) == 3


def test_both_zones_full_forces_returning_a_tile_to_the_box():
    """Buy Goods: with both construction zones full, a tile goes back to the box for good."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, BOOKS]
    with pytest.raises(IllegalMove, match="return one of their tiles"):
        R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0})
    after = R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0, "return": 1})
    assert after["players"][0]["zone"] == [BAKERY, st["market"][0]["tile"]]
    assert after["returned"] == [BOOKS]
    st["players"][0]["zone"] = [BAKERY, None]
    with pytest.raises(IllegalMove, match="only when both construction zones are full"):
        R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0, "return": 0})


def test_park_holds_any_number_of_citizens():
    """Buy Goods: the park holds an unlimited number of citizens."""
    st = game(4)
    st["players"][0]["silver"] = 30
    for _ in range(4):
        st = R.apply(
            st,
            st["turn"],
            {
                "type": "buy",
                "slot": 0,
                "card": 0,
                **({"return": 0} if None not in st["players"][st["turn"]]["zone"] else {}),
            },
        )
    assert sum(p["park"][c] for p in st["players"] for c in D.COLOURS) == 4


def test_construct_pays_again_flips_and_places_next_to_the_city():
    """Construct Buildings: pay the tile's cost again, flip it and place it next to City Hall or
    another building; its production token goes on it."""
    st = game()
    st["players"][0]["zone"] = [COFFEE, None]
    after = R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 1], "card": 0})
    p = after["players"][0]
    assert p["silver"] == 4 and p["zone"] == [None, None]
    assert cell(after, 0, 0, 1) == {"tile": COFFEE, "token": "coin2", "worker": None}


def test_no_building_at_or_below_the_park_row():
    """Construct Buildings: no building at or below the row with the park and construction zones."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    build(st, 0, {(1, 0): BOOKS})
    with pytest.raises(IllegalMove, match="at or below the row of the park"):
        R.apply(st, 0, {"type": "construct", "zone": 0, "at": [1, -1], "card": 0})
    assert "1,-1" not in {
        f"{m['at'][0]},{m['at'][1]}" for m in R.legal_moves(st, 0) if m["type"] == "construct"
    }
    R.apply(st, 0, {"type": "construct", "zone": 0, "at": [-1, 0], "card": 0})  # beside City Hall is fine


def test_buildings_must_connect_to_the_city():
    """Construct Buildings: all building tiles must be adjacent to each other (connected)."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    with pytest.raises(IllegalMove, match="connected"):
        R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 2], "card": 0})
    with pytest.raises(IllegalMove, match="already holds a building"):
        R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 0], "card": 0})


def test_same_border_colour_never_adjacent_but_diagonal_is_fine():
    """How to legally place a building: same border colour not left, right, up or down."""
    st = game()
    st["players"][0]["zone"] = [BAKERY, None]
    build(st, 0, {(0, 1): SNACK, (1, 1): BOOKS})
    with pytest.raises(IllegalMove, match="same border colour"):
        R.apply(st, 0, {"type": "construct", "zone": 0, "at": [-1, 1], "card": 0})
    R.apply(st, 0, {"type": "construct", "zone": 0, "at": [1, 2], "card": 0})  # diagonal to the snack stand
    cells = {tuple(m["at"]) for m in R.legal_moves(st, 0) if m["type"] == "construct"}
    assert (-1, 1) not in cells and (0, 2) not in cells and (1, 2) in cells


def test_production_on_new_tile_and_on_neighbours_with_an_empty_spot():
    """Construct Buildings: tokens go on the new tile and on every adjacent tile with an open
    production location; tiles that already hold a token get none; City Hall has no spot."""
    st = game()
    st["players"][0]["zone"] = [FRUIT, None]
    build(st, 0, {(1, 0): BOOKS, (-1, 0): BUS, (-1, 1): LAMP})
    cell(st, 0, -1, 0)["token"] = "coin"
    after = R.apply(st, 0, {"type": "construct", "zone": 0, "at": [0, 1], "card": 0})
    assert cell(after, 0, 0, 1)["token"] == "diamond"
    assert cell(after, 0, -1, 1)["token"] == "coin"  # neighbour with an empty spot produces
    assert cell(after, 0, -1, 0)["token"] == "coin"  # already had one: unchanged
    assert cell(after, 0, 1, 0)["token"] is None  # diagonal: nothing
    assert cell(after, 0, 0, 0)["token"] is None  # City Hall


def test_bank_is_bought_and_built_in_one_action_for_3():
    """Banks: pay 3, place directly in the city with 1 coin on it (no citizen, no zone); the first
    bank brings a credit card."""
    st = game()
    build(st, 0, {(1, 0): BOOKS})
    after = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    p = after["players"][0]
    assert p["silver"] == 4 and p["zone"] == [None, None] and sum(p["park"].values()) == 0
    assert cell(after, 0, 1, 1)["tile"] == D.BANK and cell(after, 0, 1, 1)["token"] == "coin"
    assert cell(after, 0, 1, 0)["token"] == "coin"  # the neighbour with an open spot produces too
    assert p["card"] == {"silver": 0, "gold": 0} and after["banks"] == 7
    assert after["turn"] == 1  # one action


def test_bank_never_next_to_city_hall_or_another_bank():
    """Banks cannot be placed next to City Hall or other banks."""
    st = game()
    build(st, 0, {(1, 0): BOOKS, (1, 1): D.BANK})
    for at in ([0, 1], [-1, 0]):
        with pytest.raises(IllegalMove, match="next to City Hall or another bank"):
            R.apply(st, 0, {"type": "bank", "at": at, "card": 0})
    with pytest.raises(IllegalMove, match="next to City Hall or another bank"):
        R.apply(st, 0, {"type": "bank", "at": [1, 2], "card": 0})
    R.apply(st, 0, {"type": "bank", "at": [2, 0], "card": 0})


def test_at_most_two_banks_per_city_and_eight_in_all():
    """Banks: cities can have up to 2 banks; the supply holds 8."""
    st = game()
    build(st, 0, {(1, 0): BOOKS, (1, 1): D.BANK, (2, 0): D.BANK})
    st["players"][0]["banks"] = 2
    with pytest.raises(IllegalMove, match="up to 2 banks"):
        R.apply(st, 0, {"type": "bank", "at": [3, 0], "card": 0})
    assert not [m for m in R.legal_moves(st, 0) if m["type"] == "bank"]
    st["players"][0]["banks"] = 1
    st["banks"] = 0
    with pytest.raises(IllegalMove, match="No bank buildings are left"):
        R.apply(st, 0, {"type": "bank", "at": [1, 3], "card": 0})


def test_vip_costs_3_and_the_supply_is_6():
    """Invite VIP Citizens: pay 3 to put a VIP in the park; 6 VIPs on the board."""
    st = game()
    after = R.apply(st, 0, {"type": "vip", "card": 0})
    assert (
        after["players"][0]["park"]["vip"] == 1 and after["players"][0]["silver"] == 4 and after["vips"] == 5
    )
    st["vips"] = 0
    with pytest.raises(IllegalMove, match="No VIP citizens"):
        R.apply(st, 0, {"type": "vip", "card": 0})


def test_turns_go_clockwise_and_passed_players_are_skipped():
    """Player Actions: one action per turn clockwise from the start player; a player who passed
    is skipped; the phase ends when everybody has passed."""
    st = game(3)
    st["players"][0]["silver"] = st["players"][1]["silver"] = st["players"][2]["silver"] = 20
    st = play(st, (0, {"type": "vip", "card": 0}))
    assert R.to_act(st) == [1]
    st = play(st, (1, {"type": "pass"}), (2, {"type": "vip", "card": 0}))
    assert R.to_act(st) == [0]
    st = play(st, (0, {"type": "vip", "card": 0}))
    assert R.to_act(st) == [2]  # seat 1 has passed
    with pytest.raises(IllegalMove, match="not your turn"):
        R.apply(st, 1, {"type": "vip", "card": 0})
    st = play(st, (2, {"type": "pass"}), (0, {"type": "pass"}))
    # nobody had a building to staff or a square to drive to, so the round ended at once
    assert st["round"] == 2 and st["phase"] == "actions"


def test_cannot_afford_means_only_passing():
    """Pass: a player who cannot take an action passes (only pass is legal)."""
    st = game()
    st["players"][0]["silver"] = 1
    assert R.legal_moves(st, 0) == [{"type": "pass"}]
    with pytest.raises(IllegalMove, match="cannot pay"):
        R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0})


def test_a_player_who_can_pay_for_nothing_passes_at_once():
    """Pass: a player who cannot take any action passes; the rules take that only move at once,
    including for the start player of a new round."""
    st = game(3)
    st["players"][1]["silver"] = 0
    st = R.apply(st, 0, {"type": "vip", "card": 0})
    assert st["players"][1]["passed"] and R.to_act(st) == [2]
    assert st["last"]["auto"] == [{"seat": 1, "kind": "pass"}]
