"""Gameplay: take and place a tile (market, basic, lake) or invest; discards; the market."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from tests.rulesets.suburbia.helpers import R, game, play, put, stats, turn_of, with_market

MARKET = [
    "convenience_store",
    "landfill",
    "freeway",
    "mint",
    "office_building",
    "fast_food_restaurant",
    "homeowners_association",
]


def base(money=15, seat=0):
    s = turn_of(with_market(game(2, 3), MARKET), seat)
    return put(s, seat, money=money, income=0, rep=0, pop=2)


def test_buying_pays_tile_cost_plus_market_surcharge():
    """Taking a tile from the Real Estate Market: pay the printed cost plus the slot's cost."""
    s = play(base(), {"type": "buy", "slot": 1, "at": [1, 1]})  # Landfill $4 + $8
    assert s["p"][0]["money"] == 15 - 12 + 2  # then collects its new income of 2
    assert s["p"][0]["tiles"][-1] == {"t": "landfill", "at": [1, 1], "lake": False, "inv": False}


def test_market_slides_right_and_refills_at_the_left_from_a():
    """Adjust the Real Estate Market: tiles slide right into the gap; a new tile from stack A
    goes to the far left."""
    s0 = base()
    top_a = s0["stacks"]["A"][-1]
    s = play(s0, {"type": "buy", "slot": 4, "at": [1, 1]})
    assert s["market"] == [top_a, *MARKET[:4], *MARKET[5:]]
    assert len(s["stacks"]["A"]) == len(s0["stacks"]["A"]) - 1


def test_refill_moves_on_to_stack_b_then_c():
    """Adjust the Real Estate Market: when A is empty flip from B; when B is empty, from C."""
    s0 = base()
    s0 = dict(s0, stacks=dict(s0["stacks"], A=[]))
    s = play(s0, {"type": "buy", "slot": 6, "at": [1, 1]})
    assert s["market"][0] == s0["stacks"]["B"][-1]
    s0 = dict(s0, stacks=dict(s0["stacks"], A=[], B=[]))
    s = play(s0, {"type": "buy", "slot": 6, "at": [1, 1]})
    assert s["market"][0] == s0["stacks"]["C"][-1]


def test_tile_must_be_adjacent_to_your_own_tiles():
    """Tiles must always be placed so that at least one edge touches another of your tiles."""
    with pytest.raises(IllegalMove, match="adjacent"):
        play(base(), {"type": "buy", "slot": 6, "at": [5, 5]})
    with pytest.raises(IllegalMove, match="empty space"):
        play(base(), {"type": "buy", "slot": 6, "at": [0, 1]})


def test_tiles_never_rest_on_the_borough_board_but_may_go_around_it():
    """Tiles: placed around (but not on top of) the Borough Board."""
    with pytest.raises(IllegalMove, match="Borough Board"):
        play(base(), {"type": "buy", "slot": 6, "at": [0, -1]})
    s = put(base(), 0, tiles=[("suburbs", 5, -3), ("community_park", 0, 1)])
    s = play(s, {"type": "buy", "slot": 6, "at": [4, -2]})  # just past the board's end
    assert s["p"][0]["tiles"][-1]["at"] == [4, -2]


def test_cannot_buy_what_you_cannot_afford():
    """Taking a tile: the combined cost is paid to the supply (so it must be affordable)."""
    with pytest.raises(IllegalMove, match="afford"):
        play(base(money=5), {"type": "buy", "slot": 0, "at": [1, 1]})  # $6 + $10


def test_basic_tile_pays_only_its_cost_then_a_market_tile_is_discarded():
    """Taking a basic tile: pay only its cost; then discard a market tile paying its slot cost."""
    s = play(base(), {"type": "basic", "tile": "suburbs", "at": [1, 0]})
    assert s["p"][0]["money"] == 12 and s["basic"]["suburbs"] == 3
    assert s["phase"] == "discard" and R.to_act(s) == [0]
    assert {m["slot"] for m in R.legal_moves(s, 0)} == set(range(7))
    s = play(s, {"type": "discard", "slot": 2})
    assert s["p"][0]["money"] == 12 - 6
    assert s["discards"] == ["freeway"] and s["turn"] == 1


def test_basic_tiles_run_out():
    """Basic tiles are limited and may run out."""
    s = dict(base(), basic={"suburbs": 0, "community_park": 4, "heavy_factory": 4})
    assert not any(m.get("tile") == "suburbs" for m in R.legal_moves(s, 0))
    with pytest.raises(IllegalMove, match="run out"):
        play(s, {"type": "basic", "tile": "suburbs", "at": [1, 0]})


def test_lake_pays_only_the_market_cost_and_two_dollars_per_adjacent_tile():
    """Taking a tile to use as a lake: pay only the market cost; place face down; $2 per
    adjacent Commercial, Industrial, Residential or Civic tile."""
    s = play(base(), {"type": "lake", "slot": 0, "at": [1, 1]})  # next to Park and Factory
    p = s["p"][0]
    assert p["tiles"][-1] == {"t": "convenience_store", "at": [1, 1], "lake": True, "inv": False}
    assert p["money"] == 15 - 10 + 4


def test_later_tiles_next_to_a_lake_pay_two_but_other_lakes_do_not():
    """Lake: a C/I/R/Civic tile placed next to a lake takes $2; another lake next to it does not."""
    s = put(base(), 0, tiles=[("suburbs", 0, 0), ("community_park", 0, 1), ("mint", 1, 1, "lake")])
    after_tile = play(s, {"type": "buy", "slot": 6, "at": [1, 2]})  # HOA next to the lake
    # -$6 for the HOA, +$2 from the lake, +$2 per Residential in every borough (3 of them)
    assert after_tile["last"]["changes"][0]["money"] == -6 + 2 + 2 * 3
    after_lake = play(s, {"type": "lake", "slot": 6, "at": [2, 0]})  # touches lake only... and
    # (2, 0) touches (1, 1) lake and nothing else of ours: no money for lake-lake adjacency
    assert after_lake["last"]["changes"][0]["money"] == 0


def test_investment_pays_cost_again_and_doubles_effects():
    """Placing an Investment Marker: pay the tile's cost again; its effects double."""
    s = play(base(), {"type": "invest", "at": [0, 2]})  # Heavy Factory, $3: +1 Income, -1 Rep
    p = s["p"][0]
    assert (p["money"], p["income"], p["rep"], p["markers"]) == (12, 1, -1, 2)
    assert p["tiles"][2]["inv"] and s["phase"] == "discard"


def test_invested_tile_counts_double_for_later_tiles():
    """Investment: later qualifying neighbours count twice (invested Park: +2 per Suburb)."""
    s = put(base(), 0, tiles=[("suburbs", 0, 0), ("community_park", 0, 1, "inv"), ("heavy_factory", 0, 2)])
    s = play(s, {"type": "basic", "tile": "suburbs", "at": [-1, 1]})
    assert s["p"][0]["rep"] == 2


def test_one_marker_per_tile_and_only_three_markers():
    """An Investment Marker goes on a tile without one; each player has 3 markers."""
    s = put(base(), 0, tiles=[("suburbs", 0, 0, "inv"), ("community_park", 0, 1)])
    assert {tuple(m["at"]) for m in R.legal_moves(s, 0) if m["type"] == "invest"} == {(0, 1)}
    with pytest.raises(IllegalMove, match="does not already"):
        play(s, {"type": "invest", "at": [0, 0]})
    s = put(s, 0, markers=0)
    assert not any(m["type"] == "invest" for m in R.legal_moves(s, 0))
    with pytest.raises(IllegalMove, match="no Investment Markers"):
        play(s, {"type": "invest", "at": [0, 1]})


def test_investing_does_not_retrigger_other_tiles():
    """Investment: investing in a Park next to a Heavy Factory does not trigger its -1 again."""
    s = play(base(), {"type": "invest", "at": [0, 1]})  # Park next to Suburbs and Factory
    assert stats(s, 0)["rep"] == 2 and stats(s, 0)["income"] == -1


def test_turn_steps_income_then_reputation_then_market():
    """Gameplay: take/place, collect money by income, adjust population by reputation, then
    add a new market tile; play passes to the next player."""
    s = put(base(), 0, income=3, rep=2)
    s = play(s, {"type": "lake", "slot": 6, "at": [-1, 1]})  # $2 from the Suburbs, $2 from Park
    assert stats(s, 0) == {"money": 15 + 4 + 3, "income": 3, "rep": 2, "pop": 4}
    assert s["turn"] == 1 and s["market"][0] is not None


def test_two_copies_of_the_same_tile_may_be_built():
    """Tile effects stack; a borough may hold two tiles of the same name."""
    s = with_market(base(), ["fast_food_restaurant"] * 7)
    s = play(s, {"type": "buy", "slot": 6, "at": [1, 1]})
    s = play(turn_of(s, 0), {"type": "buy", "slot": 6, "at": [1, 2]})
    assert [t["t"] for t in s["p"][0]["tiles"]].count("fast_food_restaurant") == 2


def test_stray_move_fields_are_refused_and_never_enter_the_state():
    """A move is exactly one of the legal moves: one with a field no rule knows is refused,
    naming the fields it may have; the legal one is recorded by its rule fields."""
    with pytest.raises(IllegalMove, match="only the fields slot, at"):
        play(base(), {"type": "lake", "slot": 6, "at": [1, 1], "note": "junk"})
    s = play(base(), {"type": "lake", "slot": 6, "at": [1, 1]})
    assert s["last"]["move"] == {"type": "lake", "slot": 6, "at": [1, 1]}


def test_a_lake_counts_as_a_tile_for_adjacency():
    """Tiles must touch another tile, face up or face down (a lake)."""
    s = put(base(), 0, tiles=[("suburbs", 0, 0), ("mint", 1, 0, "lake")])
    s = play(s, {"type": "buy", "slot": 6, "at": [2, 0]})  # touches only the lake
    assert s["p"][0]["tiles"][-1]["at"] == [2, 0]


def test_investment_doubles_built_after_penalties_already_taken():
    """Investment 'doubles the effects of the tile': a Fancy Restaurant (+3 Income, -1 for
    every Restaurant built after it) with two later Restaurants stands at +1; invested it
    gains +3 - 2 = +1 more (2 x (3 - 2)), and each further Restaurant now costs 2."""
    from app.rulesets.suburbia.effects import World

    s = put(base(), 0, income=0)
    s = put(s, 1, income=0)
    w = World(s)
    w.place(0, "fancy_restaurant", (1, 1), lake=False)
    w.place(1, "fast_food_restaurant", (1, 1), lake=False)
    w.place(0, "fancy_restaurant", (1, 2), lake=False)  # its own, also built after
    mine = w.players[0]["income"]
    assert mine == 3 - 1 + 3 - 1  # the first one lost 1 for each later Restaurant
    w.invest(0, 3)
    assert w.players[0]["income"] == mine + 3 - 2
    w.place(1, "fast_food_restaurant", (1, 2), lake=False)
    assert w.players[0]["income"] == mine + 1 - 2 - 1  # doubled old one -2, newer one -1


def test_investment_doubles_red_line_bonuses_already_earned():
    """Investment on a Casino (+1 Income each time you pass a red line after it is built):
    the lines passed since it was built count again; lines passed before it do not."""
    from app.rulesets.suburbia.effects import World

    s = put(base(money=50), 0, pop=14, income=0, rep=5)
    w = World(s)
    w.move_population(0, 1)  # the line at 15, before the Casino: -1 Income, -1 Reputation
    w.place(0, "casino", (1, 1), lake=False)
    w.move_population(0, 8)  # the line at 22: -1 Income, Casino +1
    # Reputation: 5, -1 (line 15), -3 (Casino), +1 (the Park next to it), -1 (line 22)
    assert (w.players[0]["income"], w.players[0]["rep"]) == (-1, 1)
    w.invest(0, 3)
    # invested: -3 Reputation again, +1 Income for the one line passed since it was built
    assert (w.players[0]["income"], w.players[0]["rep"]) == (0, -2)
    w.move_population(0, 7)  # the line at 29: -1, and the invested Casino +2
    assert w.players[0]["income"] == 1


def test_investment_record_survives_a_real_purchase():
    """The record an investment needs ('built after' count) is kept on a tile bought
    through a normal turn, and a Restaurant built later is seen by the investment."""
    s = with_market(base(money=40), ["hostel"] * 6 + ["fancy_restaurant"])
    s = play(s, {"type": "buy", "slot": 6, "at": [1, 1]})
    s = put(turn_of(s, 1), 1, money=40)
    s = with_market(s, ["hostel"] * 6 + ["fast_food_restaurant"])
    s = play(s, {"type": "buy", "slot": 6, "at": [1, 1]}, seat=1)
    income = s["p"][0]["income"]
    assert income == 3 - 1
    s = play(turn_of(put(s, 0, money=40), 0), {"type": "invest", "at": [1, 1]})
    assert s["p"][0]["income"] == income + 3 - 1


def test_when_every_stack_is_empty_the_market_shrinks_from_the_left():
    """Adjust the Real Estate Market with A, B and C all used up (possible with 3-4 players
    when the 1 More Round tile lies low in its group: up to 2n - 1 more turns, 4 spare tiles):
    tiles still slide right to fill the gap, the far-left spaces stay empty, and empty
    spaces can be neither bought, made into a lake nor discarded (NOTES.md)."""
    s0 = base(money=40)
    s0 = dict(s0, stacks={"A": [], "B": [], "C": []})
    s = play(s0, {"type": "buy", "slot": 6, "at": [1, 1]})
    assert s["market"] == [None, *MARKET[:6]]
    s = put(turn_of(s, 0), 0, money=40)
    s = play(s, {"type": "buy", "slot": 3, "at": [1, 2]})  # MARKET[2], slid to space 3
    assert s["market"] == [None, None, *MARKET[:2], *MARKET[3:6]]
    s = turn_of(s, 0)
    slots = {m.get("slot") for m in R.legal_moves(s, 0) if m["type"] in ("buy", "lake")}
    assert slots == {2, 3, 4, 5, 6}
    s = play(s, {"type": "basic", "tile": "suburbs", "at": [1, 0]})
    assert {m["slot"] for m in R.legal_moves(s, 0)} <= {2, 3, 4, 5, 6}
