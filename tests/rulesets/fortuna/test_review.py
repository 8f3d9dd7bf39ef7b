"""Clauses an independent review found without a test of their own (RB-F; see REVIEW.md)."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import data
from tests.rulesets.fortuna.helpers import arrange, at, end_round, favours, game, play, province, seat_to_act


def test_favour_one_may_empty_the_aqueduct():
    """The Aqueduct: its water may be used 'by supplying water for the Emperor's favor' (favour
    card 1), even with an empty reservoir; the Aqueduct is then empty and refills next turn."""
    s = game(3, seed=0)
    me = seat_to_act(s)
    s = province(
        favours(at(s, phase="favour", rolled=[1], chosen_slot=0)),
        me,
        water=0,
        aqueduct=1,
        buildings=["aqueduct"],
        aqueduct_round=0,
    )
    assert {"type": "favour", "card": 1, "n": 1} in R.legal_moves(s, me)
    s = play(s, {"type": "favour", "card": 1, "n": 1})
    assert (s["players"][me]["aqueduct"], s["players"][me]["water"], s["players"][me]["position"]) == (
        0,
        0,
        1,
    )


def test_military_power_frees_the_most_expensive_centurion_slot():
    """Phase 3: the Centurion given up is the top (most expensive) one, so hiring again costs
    that slot's price (reconstructed prices 1/2/3)."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    s = arrange(s, {me: ["harvest_grain", "centurions", "water"]})
    s = province(s, me, centurions=3, money=10)
    s = play(s, {"type": "play", "slot": 0, "args": {"water": 0}})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    s = play(s, {"type": "military", "slot": 1, "args": {"n": 1}})
    # gave up the 3rd Centurion (slot price 3), then hired it back for 3: 10 - 3 = 7
    assert s["players"][me]["centurions"] == 3 and s["players"][me]["money"] == 7


def test_bribe_money_beyond_twenty_is_lost_by_the_owner():
    """Additional Rules: a player cannot have more than 20 Money (the bribed owner too)."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    other = 1 - me
    s = arrange(
        s, {me: ["bribe", "building", "water"], other: ["water", "clerus", "marriage"]}, down={other: 2}
    )
    s = province(province(s, other, money=19), me, money=5)
    s = play(s, {"type": "play", "slot": 0, "args": {"side": other, "slot": 0, "args": {}}})
    assert (
        s["players"][other]["money"] == 20
        and s["players"][me]["money"] == 3
        and s["players"][me]["water"] == 3
    )


def test_favour_cards_used_stay_flipped_for_later_players_in_the_round():
    """Important (favour cards): a flipped card is not available to the players who follow in
    this round; at round end it is turned back and gets no token, the unused ones get one."""
    s = game(3, seed=0)
    first = seat_to_act(s)
    s = province(favours(at(s, phase="favour", rolled=[3], chosen_slot=0)), first, grain=1)
    s = play(s, {"type": "favour", "card": 3, "n": 1})
    while seat_to_act(s) == first:
        s = play(s, [m for m in R.legal_moves(s, first) if m["type"] != "privilege"][0])
    nxt = seat_to_act(s)
    s = province(at(s, phase="favour", rolled=[3]), nxt, grain=2, wine=0, water=0)
    assert [m for m in R.legal_moves(s, nxt) if m["type"] == "favour"] == []
    t = at(s, turn=3)
    t["events"] = []
    end_round(t)
    assert [f["tokens"] for f in t["favours"]] == [1, 1, 0, 1, 1, 1]
    assert not any(f["used"] for f in t["favours"])


def test_start_player_track_ties_count_clockwise_from_the_new_start_player():
    """End of the Game Round: the Fortuna holder starts; equal money is ordered by who sits
    nearest clockwise after that (new) start player, not after the old one."""
    s = game(4, seed=0)
    s = arrange(s, {2: ["fortuna", "water", "clerus"]})
    for seat in range(4):
        s = province(s, seat, money=5)
    s = at(s, turn=4, order=[0, 1, 2, 3])
    s["events"] = []
    end_round(s)
    assert s["order"] == [2, 3, 0, 1]


def test_malformed_moves_get_a_sentence_and_leave_the_game_unchanged():
    """Bad input: any malformed move (wrong type, missing or nonsense fields), by the player on
    turn or another, raises IllegalMove with a sentence and never changes the game."""
    import json

    import pytest

    from app.engine.rng import Rng
    from app.engine.ruleset import IllegalMove

    values = [
        None,
        -1,
        0,
        2,
        7,
        True,
        1.5,
        "x",
        "A1",
        [1],
        {},
        {"water": 9},
        {"n": "a"},
        {"side": 0, "slot": 0, "args": {}},
        ["A1", "A2"],
    ]
    types = [
        "play",
        "exchange",
        "military",
        "skip",
        "favour",
        "pass",
        "flip",
        "keep",
        "palace",
        "privilege",
        "end",
        "zzz",
        None,
        3,
    ]
    for n in (2, 4):
        s = R.setup(n, R.Options(), n)
        rng = Rng(n)
        for i in range(120):
            if not R.to_act(s):
                break
            seat = R.to_act(s)[0]
            if i % 8 == 0:
                before = json.dumps(s, sort_keys=True)
                legal = R.legal_moves(s, seat)
                for t in types:
                    for key in ("slot", "args", "side", "card", "n", "die", "cards"):
                        for v in values:
                            move = {"type": t, key: v}
                            if move in legal:
                                continue
                            for who in (seat, (seat + 1) % n):
                                with pytest.raises(IllegalMove) as err:
                                    R.apply(s, who, move)
                                assert str(err.value).strip().endswith(".")
                assert json.dumps(s, sort_keys=True) == before
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))


def _check_table(s):
    """Every limit and every component count of RB-F / rules-data B2 in one state."""
    n = s["player_count"]
    for pl in s["players"]:
        assert 0 <= pl["money"] <= 20 and 1 <= pl["dice"] <= 3, pl  # 20 money, no debts, 3 dice
        assert 0 <= pl["vestals"] <= 3 and 0 <= pl["centurions"] <= 3, pl
        assert len(pl["buildings"]) <= 3 and len(set(pl["buildings"])) == len(pl["buildings"]), pl
        assert ("palace" not in pl["buildings"]) or pl["married"], pl
        assert 0 <= pl["position"] <= 15 and min(pl["grain"], pl["wine"], pl["water"]) >= 0, pl
        assert pl["aqueduct"] in ((None,) if "aqueduct" not in pl["buildings"] else (0, 1)), pl
    assert all(0 <= f["tokens"] <= 3 for f in s["favours"])
    assert s["supply"] + s["palace_tokens"] + sum(f["tokens"] for f in s["favours"]) == 15
    cards = (
        list(s["deck"])
        + [d["card"] for d in s["discard"]]
        + s["palace"]["cards"]
        + [c for pl in s["players"] for c in pl["hand"]]
        + (s["choice"]["cards"] if s["choice"] else [])
        + (s["palace_choice"]["cards"] if s["palace_choice"] else [])
    )
    assert sorted(cards) == sorted(set(cards)) and len(cards) == (26 if n == 4 else 22)
    assert sorted(slot["card"] for row in s["sides"] for slot in row) == sorted(data.ACTIONS)
    for side, row in enumerate(s["sides"]):
        assert sum(not slot["face_up"] for slot in row) <= (1 if side < n else 0)
    for b, row in data.BUILDINGS.items():
        built = sum(b in pl["buildings"] for pl in s["players"])
        assert s["piles"][b] + built == row["copies_4p" if n == 4 else "copies_2_3p"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_limits_and_component_counts_hold_in_every_state_of_played_games(n):
    """Additional Rules and the limits (20 money, no debts, 3 dice / Vestals / Centurions /
    buildings, one of each type, the Palace only when married, steps 0-15, at most 3 tokens a
    card) and the components (15 tokens, 26 / 22 privilege cards, the 12 action cards with at
    most one face down per player, the building piles) hold after every move of games played by
    the bot and by random legal play."""
    states = 0
    for seed in range(4):
        s = R.setup(n, R.Options(), seed)
        rng = Rng(seed * 7 + n)
        _check_table(s)
        while R.to_act(s):
            seat = R.to_act(s)[0]
            move = R.bot_move(s, seat, rng) if rng.below(2) else rng.choice(R.legal_moves(s, seat))
            s = R.apply(s, seat, move)
            _check_table(s)
            states += 1
    assert states > 200
