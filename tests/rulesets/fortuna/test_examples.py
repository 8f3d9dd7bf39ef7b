"""The rulebook's worked examples, with their numbers (RB-F)."""

from __future__ import annotations

from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.helpers import arrange, at, favours, game, play, province, seat_to_act


def test_martins_centurion_secures_his_building():
    """Example (phase 3): Martin plays Harvesting Grain (grain onto his field), exchanges it for
    Anna's Grain Trade, which lies face down and protected; then gives up his Centurion to play
    his face-up Building card and builds a Market; Building stays face up in front of him."""
    s = game(4, seed=0)
    martin = seat_to_act(s)
    anna = (martin + 1) % 4
    s = arrange(
        s,
        {martin: ["harvest_grain", "building", "marriage"], anna: ["grain_trade", "wine_trade", "clerus"]},
        down={anna: 2},
    )
    s = province(s, martin, money=6, grain=0, water=0)
    s = play(s, {"type": "play", "slot": 0, "args": {"water": 0}})
    assert s["players"][martin]["grain"] == 1
    s = play(s, {"type": "exchange", "side": anna, "slot": 0})
    assert s["sides"][martin][0] == {"card": "grain_trade", "face_up": False, "public": True}
    assert s["sides"][anna][0]["card"] == "harvest_grain"
    s = play(s, {"type": "military", "slot": 1, "args": {"b": "market"}})
    assert s["players"][martin]["centurions"] == 0 and s["players"][martin]["buildings"] == ["market"]
    assert s["sides"][martin][1] == {"card": "building", "face_up": True, "public": True}
    # the protected Grain Trade cannot be taken by the next player
    while seat_to_act(s) == martin:
        s = play(s, [m for m in R.legal_moves(s, martin) if m["type"] in ("pass", "end", "keep", "flip")][0])
    nxt = seat_to_act(s)
    s = play(s, {"type": "play", "slot": 0, "args": None})
    taken = {(m["side"], m["slot"]) for m in R.legal_moves(s, nxt) if m["type"] == "exchange"}
    assert (martin, 0) not in taken and (martin, 1) in taken


def test_jonathans_grain():
    """Example (favour cards): Jonathan, start player, rolls a 3; he may choose water (1), wine
    (2) or grain (3); he delivers his one grain, moves one step and flips card 3."""
    s = game(4, seed=0)
    jon = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[3], chosen_slot=0)), jon, grain=1, wine=1, water=1)
    assert {m["card"] for m in R.legal_moves(s, jon) if m["type"] == "favour"} == {1, 2, 3}
    s = play(s, {"type": "favour", "card": 3, "n": 1})
    assert s["players"][jon]["grain"] == 0 and s["players"][jon]["position"] == 1 and s["favours"][2]["used"]


def test_erics_tax():
    """Example (taxes): Eric rolls a 3 with Orgy (2) and Water (1) flipped; without grain he pays
    1 money tax; his two Centurions cannot help on a 3, but on a 4 they could give +1 or +2."""
    s = game(4, seed=0)
    eric = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[3], chosen_slot=0), used=(1, 2)),
        eric,
        grain=0,
        centurions=2,
        money=5,
    )
    assert [m for m in R.legal_moves(s, eric) if m["type"] == "favour"] == []
    assert play(s, {"type": "pass", "die": 3})["players"][eric]["money"] == 4
    four = at(s, rolled=[4])
    assert sorted(m["n"] for m in R.legal_moves(four, eric) if m["type"] == "favour") == [1, 2]
    refused = play(four, {"type": "pass", "die": 4})
    assert refused["players"][eric]["money"] == 4 and refused["players"][eric]["centurions"] == 2


def test_eric_rolls_a_one_with_water_flipped_no_tax():
    """Example: Eric rolls a 1 and Water (1) is flipped: no step, and no tax."""
    s = game(4, seed=0)
    eric = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[1], chosen_slot=0), used=(1,)), eric, money=5)
    s = play(s, {"type": "pass", "die": 1})
    assert s["players"][eric]["money"] == 5 and s["players"][eric]["position"] == 0


def test_annas_tax_without_wine():
    """Example: Anna rolls a 3, Water (1) and Feeding (3) flipped, no wine for the Orgy: she pays
    1 money and may not flip the Orgy card."""
    s = game(4, seed=0)
    anna = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[3], chosen_slot=0), used=(1, 3)), anna, wine=0, money=5
    )
    assert [m for m in R.legal_moves(s, anna) if m["type"] == "favour"] == []
    s = play(s, {"type": "pass", "die": 3})
    assert s["players"][anna]["money"] == 4 and not s["favours"][1]["used"]


def test_martins_two_dice_avoid_the_tax():
    """Example: Martin rolls 2 and 3; Water (1) and Orgy (2) are flipped and he has no grain;
    choosing the 2 he pays no tax and flips nothing (the 3 would cost tax)."""
    s = game(4, seed=0)
    martin = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[2, 3], chosen_slot=0), used=(1, 2)), martin, grain=0, money=5
    )
    assert {"type": "pass", "die": 2} in R.legal_moves(s, martin)
    assert play(s, {"type": "pass", "die": 2})["players"][martin]["money"] == 5
    assert play(s, {"type": "pass", "die": 3})["players"][martin]["money"] == 4


def test_annas_three_tokens_on_religion():
    """Example (phase 5): Religion unused for three rounds carries 3 tokens; Anna rolls a 6 with
    two Virgins: 2 steps, takes the 3 tokens, flips the card, draws 3 cards, keeps 1 and
    discards 2; the tokens return to the stock."""
    s = game(4, seed=0)
    anna = seat_to_act(s)
    for _ in range(3):  # three round ends with Religion unused
        s = favours(s, used=(1, 2, 3, 4, 5), tokens={6: s["favours"][5]["tokens"]})
        from tests.rulesets.fortuna.helpers import end_round

        s["events"] = []
        s["turn"] = 3
        end_round(s)
    assert s["favours"][5]["tokens"] == 3
    anna = seat_to_act(s)
    s = province(at(s, phase="favour", rolled=[6], chosen_slot=0), anna, vestals=2)
    supply = s["supply"]
    top3 = s["deck"][-3:]
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    assert (
        s["players"][anna]["position"] == 2 and s["players"][anna]["vestals"] == 2 and s["favours"][5]["used"]
    )
    assert s["favours"][5]["tokens"] == 0 and s["supply"] == supply + 3
    assert sorted(s["choice"]["cards"]) == sorted(top3)
    s = play(s, {"type": "keep", "cards": [top3[2]]})
    assert s["players"][anna]["hand"] == [top3[2]] and len(s["discard"]) == 2


def test_annas_basilica():
    """Example (Basilica): Anna rolls a 4, gives up a Centurion for 1 step; Battle carries 3
    tokens and she owns a Basilica: she keeps two of the three cards."""
    s = game(4, seed=0)
    anna = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[4], chosen_slot=0), tokens={4: 3}),
        anna,
        centurions=1,
        buildings=["basilica"],
    )
    s = play(s, {"type": "favour", "card": 4, "n": 1})
    assert s["players"][anna]["position"] == 1 and s["choice"]["keep"] == 2 and len(s["choice"]["cards"]) == 3
    cards = s["choice"]["cards"]
    s = play(s, {"type": "keep", "cards": sorted(cards[:2])})
    assert len(s["players"][anna]["hand"]) == 2 and len(s["discard"]) == 1


def test_market_sells_three_wine_for_twelve():
    """Example (The Market): 3 wine sell for 9 money, 12 with a Market."""
    for market, money in ((False, 9), (True, 12)):
        s = game(2, seed=0)
        me = seat_to_act(s)
        s = arrange(s, {me: ["wine_trade", "water", "clerus"]})
        s = province(s, me, wine=3, money=0, buildings=["market"] if market else [])
        assert play(s, {"type": "play", "slot": 0, "args": {"n": 3}})["players"][me]["money"] == money


def test_the_race_to_the_palace():
    """Example (The End of the Game): Anna arrives first and keeps 1 of 3 cards; Eric has played
    already; Jonathan ends on 13; Martin reaches the palace too and chooses from the 2 left;
    then the game ends."""
    s = game(4, seed=0)
    eric, anna, jonathan, martin = s["order"][0], s["order"][1], s["order"][2], s["order"][3]

    def finish_turn(s, seat):
        while s["phase"] != "over" and seat_to_act(s) == seat:
            moves = [m for m in R.legal_moves(s, seat) if m["type"] != "privilege"]
            s = play(s, next((m for m in moves if m["type"] in ("pass", "end", "skip")), moves[0]))
        return s

    s = play(s, {"type": "play", "slot": 0, "args": None})
    s = finish_turn(s, eric)  # Eric has had his turn
    s = province(favours(at(s, phase="favour", rolled=[6], chosen_slot=0)), anna, position=13, vestals=2)
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    offered = list(s["palace_choice"]["cards"])
    s = play(s, {"type": "palace", "card": offered[0]})
    s = finish_turn(s, anna)
    s = province(
        favours(at(s, phase="favour", rolled=[4], chosen_slot=0)), jonathan, position=11, centurions=2
    )
    s = play(s, {"type": "favour", "card": 4, "n": 2})
    assert s["players"][jonathan]["position"] == 13
    s = finish_turn(s, jonathan)
    s = province(favours(at(s, phase="favour", rolled=[6], chosen_slot=0)), martin, position=12, vestals=3)
    s = play(s, {"type": "favour", "card": 6, "n": 3})
    assert sorted(s["palace_choice"]["cards"]) == sorted(offered[1:])
    s = play(s, {"type": "palace", "card": offered[2]})
    s = finish_turn(s, martin)
    assert s["phase"] == "over" and s["arrivals"] == [anna, martin]
    out = R.outcome(s)
    assert out.breakdown[jonathan]["steps"] == 13 and out.breakdown[eric]["inside_rome"] is False
