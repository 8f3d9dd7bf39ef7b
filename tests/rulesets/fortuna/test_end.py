"""The end of the game and the palace race, scoring and ties (RB-F The End of the Game, The
Winner of the Game, Privilege cards C)."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna.scoring import breakdown, card_points
from tests.rulesets.fortuna.helpers import at, end_round, favours, game, play, province, seat_to_act


def _about_to_arrive(n=3, seed=0):
    s = game(n, seed)
    me = seat_to_act(s)
    s = favours(at(s, phase="favour", rolled=[6], chosen_slot=0))
    return province(s, me, position=13, vestals=2), me


def test_first_arrival_takes_three_cards_keeps_one_and_the_round_is_finished():
    """The End of the Game: the first pawn at Caesar's palace (step 15) takes the 3 tokens and
    the top 3 privilege cards, keeps one; the other players finish the round; the game ends."""
    s, me = _about_to_arrive()
    top3 = s["deck"][-3:]
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    assert s["phase"] == "palace" and sorted(s["palace_choice"]["cards"]) == sorted(top3)
    assert s["palace_tokens"] == 0 and s["last_round"]
    keep = top3[0]
    s = play(s, {"type": "palace", "card": keep})
    assert keep in s["players"][me]["hand"] and sorted(s["palace"]["cards"]) == sorted(top3[1:])
    while s["phase"] not in ("over",):
        seat = seat_to_act(s)
        assert seat != me or s["turn"] == 0
        moves = R.legal_moves(s, seat)
        s = play(
            s,
            next(
                (m for m in moves if m["type"] in ("pass", "end", "skip", "keep", "flip", "palace")), moves[0]
            ),
        )
    assert s["round"] == 1 and R.outcome(s) is not None


def test_later_arrivals_choose_from_what_is_left_and_basilica_does_not_help():
    """The End of the Game: the second to arrive chooses from the 2 cards left; a third gets the
    last one; the Basilica has no effect at the palace."""
    s, me = _about_to_arrive(n=4)
    s = province(s, me, buildings=["basilica"])
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    assert len(R.legal_moves(s, me)) == 3  # keep exactly one despite the Basilica
    first_keep = s["palace_choice"]["cards"][0]
    s = play(s, {"type": "palace", "card": first_keep})
    left = list(s["palace"]["cards"])
    while s["turn"] == 0:
        s = play(
            s,
            {"type": "end"}
            if s["phase"] == "wrap"
            else [m for m in R.legal_moves(s, me) if m["type"] != "privilege"][0],
        )
    second = seat_to_act(s)
    s = favours(at(s, phase="favour", rolled=[6]))
    s = province(s, second, position=14, vestals=1)
    s = play(s, {"type": "favour", "card": 6, "n": 1})
    assert sorted(s["palace_choice"]["cards"]) == sorted(left)
    s = play(s, {"type": "palace", "card": left[1]})
    assert left[1] in s["players"][second]["hand"] and s["palace"]["cards"] == [left[0]]
    while s["phase"] != "over" and seat_to_act(s) == second:
        s = play(s, [m for m in R.legal_moves(s, second) if m["type"] != "privilege"][0])
    third = seat_to_act(s)
    s = favours(at(s, phase="favour", rolled=[6]))
    s = province(s, third, position=14, vestals=1)
    s = play(s, {"type": "favour", "card": 6, "n": 1})
    assert left[0] in s["players"][third]["hand"] and s["arrivals"] == [me, second, third]


def test_the_pawn_stops_at_the_palace():
    """Scoring: no more than 15 steps."""
    s, me = _about_to_arrive()
    s = province(s, me, position=14, vestals=3)
    s = play(s, {"type": "favour", "card": 6, "n": 3})
    assert s["players"][me]["position"] == 15


def _final(positions, hands=None):
    """A game whose last round has just ended with the pawns at `positions`."""
    s = game(len(positions))
    for seat, pos in enumerate(positions):
        s = province(s, seat, position=pos, hand=(hands or {}).get(seat, []))
    s = at(s, last_round=True, turn=len(positions) - 1)
    s["events"] = []
    end_round(s)
    return s


def test_score_is_steps_plus_privilege_points_only_inside_rome():
    """The Winner: steps (1 VP each) plus privilege points; only players at step 10 or more can
    win, even with a higher total."""
    s = _final([9, 10, 15], hands={0: ["C1", "C2", "C3"], 1: ["C9"]})
    s = province(s, 0, buildings=["market", "aqueduct", "basilica"])
    s = province(s, 1, centurions=3)
    out = R.outcome(s)
    assert out.scores == [9, 16, 15]
    assert out.ranks == [3, 1, 2]
    assert out.breakdown[0]["inside_rome"] is False and out.breakdown[0]["privileges"] == []


def test_ties_by_steps_then_money_then_centurions_then_vestals():
    """The Winner: a tie goes to the most steps, then most money, then Centurions, then Virgins."""
    s = _final([12, 11], hands={1: ["C12"]})
    s = province(s, 1, married=True)  # 11 + 4 = 15 vs 12 + ... 0
    s = province(s, 0, hand=["C13"], money=12)  # 12 + 3 = 15
    assert R.outcome(s).scores == [15, 15] and R.outcome(s).ranks == [1, 2]  # steps decide
    s = province(
        province(s, 0, position=11, hand=["C12"], married=True, money=5, centurions=1),
        1,
        money=5,
        centurions=2,
    )
    assert R.outcome(s).ranks == [2, 1]  # same steps and money: Centurions decide
    s = province(s, 0, centurions=2, vestals=2)
    assert R.outcome(s).ranks == [1, 2]
    s = province(s, 1, vestals=2)
    assert R.outcome(s).ranks == [1, 1]  # a full tie is shared


@pytest.mark.parametrize(
    ("card", "fields", "points"),
    [
        ("C1", {"buildings": ["market", "palace", "aqueduct"]}, 6),
        ("C4", {"grain": 5}, 5),
        ("C7", {"wine": 2}, 2),
        ("C8", {"water": 2, "aqueduct": 1}, 3),
        ("C9", {"centurions": 2}, 4),
        ("C10", {"vestals": 3}, 6),
        ("C11", {"dice": 2}, 4),
        ("C12", {"married": True}, 4),
        ("C13", {"money": 19}, 4),
        ("A1", {}, 0),
        ("B1", {}, 0),
    ],
)
def test_privilege_c_points(card, fields, points):
    """Privilege cards C: points at the end for the matching resources (Buildings 2 VP each, at
    most 6; Grain 1 VP per grain; the others reconstructed); A and B score nothing."""
    pl = {
        "buildings": [],
        "grain": 0,
        "wine": 0,
        "water": 0,
        "aqueduct": None,
        "centurions": 0,
        "vestals": 0,
        "dice": 1,
        "married": False,
        "money": 0,
        **fields,
    }
    assert card_points(pl, card) == points


def test_each_c_card_scores_and_resources_count_for_several_cards():
    """Privilege cards C: each card scores once; the resources are not used up by scoring."""
    s = _final([15, 10], hands={0: ["C4", "C5"]})
    s = province(s, 0, grain=3)
    assert breakdown(s)[0]["privilege_points"] == 6


def test_end_hands_inside_rome_are_revealed():
    """The Winner: players inside Rome reveal their privilege cards; others keep them secret."""
    s = _final([15, 4], hands={0: ["C4"], 1: ["C5"]})
    v = R.view(s, None)
    assert v["p"][0]["hand"] == ["C4"] and v["p"][1]["hand"] is None


def test_no_outcome_before_the_end():
    """The game ends only after the palace round is finished."""
    s = game(2)
    assert R.outcome(s) is None
    with pytest.raises(IllegalMove, match="game is over"):
        R.apply(_final([15, 3]), 0, {"type": "end"})


def test_arriving_with_a_favour_card_that_carries_tokens_gets_both_draws():
    """The End of the Game with phase 5 (decision 12): a pawn that reaches the palace with a
    favour card carrying tokens first takes its palace card (of the top 3 privilege cards), then
    receives its privileges for the tokens from the cards below them (2 tokens: 2 cards, keep 1)."""
    s, me = _about_to_arrive()
    s = favours(s, tokens={6: 2})
    s["supply"] -= 2  # the 2 tokens came from the supply at earlier round ends
    top5 = s["deck"][-5:]
    s = play(s, {"type": "favour", "card": 6, "n": 2})
    assert s["phase"] == "palace" and sorted(s["palace_choice"]["cards"]) == sorted(top5[2:])
    s = play(s, {"type": "palace", "card": top5[4]})
    assert s["phase"] == "keep" and sorted(s["choice"]["cards"]) == sorted(top5[:2])
    s = play(s, {"type": "keep", "cards": [top5[0]]})
    assert sorted(s["players"][me]["hand"]) == sorted([top5[4], top5[0]])
    assert sorted(s["palace"]["cards"]) == sorted(top5[2:4]) and s["supply"] == 15  # all tokens back
