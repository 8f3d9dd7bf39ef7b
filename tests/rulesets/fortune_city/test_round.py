"""Income, credit-card rewards, market refill, the start marker, the end and final scoring."""

from __future__ import annotations

from collections import Counter

from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import BOOKS, FRUIT, SNACK, build, game, pass_all


def _end_round(st):
    st = pass_all(st)
    while st["phase"] in ("hire", "truck"):
        seat = R.to_act(st)[0]
        st = R.apply(st, seat, {"type": "done"} if st["phase"] == "hire" else R.legal_moves(st, seat)[0])
    return st


def test_income_is_4_plus_meals_and_merchandise_bonuses_of_current_sectors():
    """Obtain Income: 4 + X silver, X the bonuses of the current Meals and Merchandise sectors
    (not of sectors passed through; Home and Transportation give no income)."""
    st = game()
    st["players"][0]["tracks"] = {"meals": 4, "merchandise": 2, "transportation": 6, "home": 6}
    st = _end_round(st)
    expected = 4 + D.TRACKS["meals"]["bonus"][4] + D.TRACKS["merchandise"]["bonus"][2]
    assert st["players"][0]["silver"] == 7 + expected == 7 + 4 + 2 + 1
    assert st["players"][1]["silver"] == 7 + 4  # markers in the centre: the base only
    assert st["round_end"]["players"][0]["income"] == expected


def test_first_bank_fills_the_card_with_3_silver_and_1_gold():
    """Credit Card Rewards: in the round a bank is built, fill the vacant locations with 3 silver
    and 1 gold."""
    st = game()
    build(st, 0, {(1, 0): BOOKS})
    st = R.apply(st, 0, {"type": "bank", "at": [1, 1], "card": 0})
    st = _end_round(st)
    assert st["players"][0]["card"] == {"silver": 3, "gold": 1}
    st = _end_round(st)
    assert st["players"][0]["card"] == {"silver": 3, "gold": 1}  # no bank built: no reward


def test_second_bank_refills_only_vacant_silver_and_adds_a_gold():
    """Credit Card Rewards: the second bank refills only the vacant silver locations; a second
    gold joins an unspent first one (2 gold locations); gold is saved for later."""
    st = game()
    build(st, 0, {(1, 0): BOOKS, (1, 1): D.BANK})
    st["players"][0].update(banks=1, card={"silver": 2, "gold": 1})
    st = R.apply(st, 0, {"type": "bank", "at": [2, 0], "card": 0})
    st = _end_round(st)
    assert st["players"][0]["card"] == {"silver": 3, "gold": 2}


def test_no_refill_without_a_bank_built_this_round():
    """Credit Card Rewards: silver used from the card is not refilled in rounds without a new bank."""
    st = game()
    st["players"][0]["card"] = {"silver": 3, "gold": 0}
    st = R.apply(st, 0, {"type": "vip", "card": 3})
    st = _end_round(st)
    assert st["players"][0]["card"] == {"silver": 0, "gold": 0}


def test_market_refills_to_players_plus_3_with_random_citizens():
    """Refill Goods Market: unsold goods stay; new goods from the top of the stack until there are
    players + 3, each with a citizen drawn at random from the bag."""
    st = game(3)
    before = st["market"][1:]
    st = R.apply(st, 0, {"type": "buy", "slot": 0, "card": 0})
    top = st["stack"][-3:]
    st = _end_round(st)
    assert len(st["market"]) == 6 and st["market"][:3] == before
    assert sorted(m["tile"] for m in st["market"][3:]) == sorted(top)
    assert len(st["bag"]) == len(st["stack"]) == 36 - 3
    drawn = Counter(m["citizen"] for m in st["market"][3:])
    assert Counter(st["bag"]) + drawn == {c: 9 for c in D.COLOURS}


def test_citizens_are_paired_at_random_with_new_goods():
    """Refill Goods Market: citizen and tile colours may or may not match (random pairing)."""
    matches = set()
    for seed in range(6):
        st = _end_round(game(4, seed))
        for m in st["market"][4:]:
            matches.add(m["citizen"] == D.CITIZEN_OF[D.TILES[m["tile"]]["type"]])
    assert matches == {True, False}


def test_start_marker_passes_left_each_round():
    """Pass Starting Player Marker: the next player clockwise starts the next round."""
    st = game(3)
    st = _end_round(st)
    assert st["start"] == 1 and st["turn"] == 1
    st = _end_round(st)
    assert st["start"] == 2 and R.to_act(st) == [2]
    st = _end_round(st)
    assert st["start"] == 0


def test_short_stack_means_the_next_round_is_the_last():
    """Game End: when the tiles left cannot fill the market to players + 3, the remainder goes
    out and the next round is the final round."""
    st = game()
    st["market"] = []
    st["stack"], st["bag"] = st["stack"][:3], st["bag"][:3]
    st = _end_round(st)
    assert st["final"] and len(st["market"]) == 3 and st["stack"] == []
    assert st["phase"] == "actions"  # the final round is still played


def test_final_round_scores_right_after_the_trucks_without_income():
    """Game End: in the final round scoring begins right after the Move Delivery Truck phase;
    remaining coins and income are not scored."""
    st = game()
    st["final"] = True
    build(st, 0, {(0, 1): FRUIT}, tokens=True)
    st["players"][0]["park"]["red"] = 1
    st = pass_all(st)
    st = R.apply(st, 0, {"type": "hire", "citizen": "red", "at": [0, 1]})  # hire still happens
    # the truck's one way (to the fruit market) is driven at once, then scoring
    assert st["phase"] == "over" and R.to_act(st) == []
    assert st["players"][0]["silver"] == 7  # no income in the final round
    out = R.outcome(st)
    b = out.breakdown[0]
    assert (
        b["diamonds"] == 1
        and b["buildings"] == D.TILES[FRUIT]["vp"]
        and b["track_meals"] == D.TRACKS["meals"]["vp"][1]
    )


def test_scoring_adds_buildings_diamonds_tracks_and_subtracts_garbage_on_tiles():
    """Scoring: constructed buildings' VP (not tiles in the construction zone), collected
    diamonds (not those still on tiles), expense-track sectors, minus 1 per garbage on tiles."""
    st = game()
    st["phase"] = "over"
    build(st, 0, {(0, 1): SNACK, (1, 0): BOOKS, (1, 1): D.BANK, (-1, 0): FRUIT}, tokens=True)
    st["players"][0]["zone"] = ["sushi", None]
    st["players"][0]["diamonds"] = 3
    st["players"][0]["tracks"] = {"meals": 2, "merchandise": 5, "transportation": 0, "home": 6}
    b = R.outcome(st).breakdown[0]
    tracks = D.TRACKS["meals"]["vp"][2] + D.TRACKS["merchandise"]["vp"][5] + D.TRACKS["home"]["vp"][6]
    vp = D.TILES[SNACK]["vp"] + D.TILES[BOOKS]["vp"] + D.TILES[FRUIT]["vp"]  # the bank scores 0
    assert vp == 2 + 1 + 0
    assert b["buildings"] == vp
    assert b["diamonds"] == 3 and b["tracks"] == tracks and b["garbage"] == -1
    assert b["total"] == vp + 3 + tracks - 1


def test_tie_break_diamonds_then_garbage_then_coins_else_shared():
    """Tie-break (decision 8): most collected diamonds, then fewest garbage on tiles, then most
    coins; a full tie shares the rank."""
    st = game(3)
    st["phase"] = "over"
    for p in st["players"]:
        p["silver"] = 0
    build(st, 0, {(0, 1): "bread"})  # 1 VP
    st["players"][1]["diamonds"] = 1  # 1 VP, from a diamond
    st["players"][2]["diamonds"] = 1
    out = R.outcome(st)
    assert out.scores == [1, 1, 1] and out.ranks == [3, 1, 1]
    st["players"][2]["silver"] = 1
    assert R.outcome(st).ranks == [3, 2, 1]
    st = game(2)
    st["phase"] = "over"
    build(st, 0, {(0, 1): "bread", (1, 0): SNACK}, tokens=True)  # 1 + 2 VP, 1 garbage: 2
    cell0 = st["players"][0]["city"]["0,1"]
    cell0["token"] = None
    build(st, 1, {(0, 1): SNACK})  # 2 VP, no garbage: 2
    out = R.outcome(st)
    assert out.scores == [2, 2] and out.ranks == [2, 1]
    st["players"][0]["city"]["1,0"]["token"] = None
    st["players"][0]["city"]["0,1"]["tile"] = "tea"  # now 1 + 2 = 3
    assert R.outcome(st).ranks == [1, 2]


def test_round_30_is_always_the_last():
    """Game End safeguard (decision 20): a table where nobody buys still ends; round 30 is final."""
    st = game()
    st["round"] = 29
    st = _end_round(st)
    assert st["round"] == 30 and st["final"] and len(st["stack"]) == 31  # tiles remain
    st = _end_round(st)
    assert st["phase"] == "over" and R.outcome(st) is not None
