"""End of the game round (RB-F): new start-player order, privilege tokens, favour cards back."""

from __future__ import annotations

from tests.rulesets.fortuna.helpers import arrange, at, end_round, favours, game, province


def _round_end(s):
    s["events"] = []
    end_round(s)
    return s


def test_fortuna_holder_first_then_by_wealth_ties_clockwise_from_the_start_player():
    """End of the Game Round: the player with the Fortuna card in front of him starts; the rest
    by money; ties go to the player nearest the starting player clockwise."""
    s = game(4, seed=1)
    s = arrange(s, {2: ["fortuna", "water", "clerus"]})
    for seat, money in enumerate([7, 3, 1, 7]):
        s = province(s, seat, money=money)
    s = at(s, turn=3)
    s = _round_end(s)
    assert s["order"] == [2, 3, 0, 1]  # 3 and 0 tie at 7: seat 3 is next clockwise after 2


def test_fortuna_card_face_down_counts_as_in_front_of_the_player():
    """End of the Game Round: the card 'in front of him' includes a protected face-down card."""
    s = arrange(game(3, seed=2), {1: ["water", "clerus", "fortuna"]}, down={1: 2})
    s = _round_end(s)
    assert s["order"][0] == 1


def test_fortuna_card_on_an_empty_side_gives_no_start_player():
    """End of the Game Round (2-3 players, decided): when the Fortuna card lies on an unoccupied
    side nobody holds it; the whole order follows wealth, ties clockwise from the start player."""
    s = arrange(game(2, seed=2), {3: ["fortuna", "water", "clerus"]})
    start = s["order"][0]
    s = province(province(s, 0, money=4), 1, money=4)
    s = _round_end(s)
    assert s["order"] == [start, 1 - start]
    s = province(province(s, 0, money=2), 1, money=9)
    assert _round_end(s)["order"] == [1, 0]


def test_a_token_on_each_unused_favour_card_up_to_three():
    """End of the Game Round: 1 token on each unused (face-up) favour card, at most 3."""
    s = favours(game(3), used=(2, 5), tokens={1: 3, 6: 1})
    s = _round_end(s)
    assert [f["tokens"] for f in s["favours"]] == [3, 0, 1, 1, 0, 2]
    assert s["supply"] == 12 - 3


def test_tokens_run_out_with_the_supply():
    """Tokens (15 in the box, decided): with the supply empty no more tokens are placed."""
    s = at(favours(game(3)), supply=2)
    s = _round_end(s)
    assert [f["tokens"] for f in s["favours"]] == [1, 1, 0, 0, 0, 0] and s["supply"] == 0


def test_used_favour_cards_are_turned_back():
    """End of the Game Round: all used favour cards are flipped back for the next round."""
    s = favours(game(3), used=(1, 2, 3, 4, 5, 6))
    s = _round_end(s)
    assert not any(f["used"] for f in s["favours"]) and s["round"] == 2
