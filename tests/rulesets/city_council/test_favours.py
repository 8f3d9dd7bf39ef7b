"""Favours & Scoring (RB Favors & Scoring, Turn End, General Favor Card Examples)."""

from __future__ import annotations

from app.rulesets.city_council.tables import BUILDING_LEVEL_VP
from app.rulesets.city_council.favours import building_vp, general_vp, metrics
from app.rulesets.city_council.windows import scorable, window_moves
from tests.rulesets.city_council.helpers import R, build, clear_board, clone, game, play_until


def _vp(s, card, turn_end=False):
    return general_vp(s, card, metrics(s), turn_end)


def test_mob_hangouts_basic_and_bonus():
    """RB Mob Hangouts: 3 Crime tokens; the Restaurant / Pawn Shop activated only count in
    addition to the 3 Crime ('+' bonus conditions)."""
    s = clear_board(game(3))
    s["active_names"] = {"Restaurant": 1, "Pawn Shop": 1}
    assert _vp(s, "mob-hangouts") == 0
    s["crime"] = 3
    assert _vp(s, "mob-hangouts") == 3


def test_correctional_activity_best_level():
    """RB Correctional Activity: basic conditions are alternatives: the best one met scores."""
    s = clear_board(game(3))
    s["advanced"] = True
    prison = build(s, "Prison", [(3, 3), (3, 4), (4, 3), (4, 4)])
    s["buildings"][prison]["prison"] = [1, 1]
    s["crime"] = 3
    assert _vp(s, "correctional-activity") == 2
    s["crime"] = 1
    assert _vp(s, "correctional-activity") == 3


def test_goods_reserve_only_at_turn_end():
    """RB Increase Goods Reserve: 'finish a turn with more Goods than money' — checked at turn end."""
    s = clear_board(game(3))
    s.update(goods=5, budget=2)
    assert _vp(s, "increase-goods-reserve") == 0
    assert _vp(s, "increase-goods-reserve", turn_end=True) == 2


def test_white_collar_unemployment_and_pollution_prevention():
    """RB White Collar Unemployment / Pollution Prevention examples: no White in housing; a full
    industrial zone with fewer than 3 Pollution."""
    s = clear_board(game(3))
    s["house"]["W"] = 0
    assert _vp(s, "white-collar-unemployment") == 1
    s["advanced"] = True
    assert _vp(s, "pollution-prevention") == 0
    for r in range(0, 3):  # fill industrial zone 1 (rows 0-2, columns 6-8)
        for c in range(6, 9):
            s["buildings"][f"x{r}{c}"] = {
                "id": f"x{r}{c}",
                "name": "Dump",
                "tile": None,
                "fixed": True,
                "cells": [[r, c]],
                "token": False,
                "prison": [0, 0],
            }
    s["pollution"] = 2
    assert _vp(s, "pollution-prevention") == 1
    s["pollution"] = 0
    assert _vp(s, "pollution-prevention") == 2


def test_improve_residential_facilities():
    """RB Improve Residential Facilities: 2 / 3 / 4 residential buildings activated by anyone."""
    s = clear_board(game(3))
    ids = [build(s, "Clinic", [(3, 3)]), build(s, "Clinic", [(3, 4)]), build(s, "Playground", [(3, 5)])]
    s["activated"] = [{"b": b, "boxes": [0], "by": 0, "put": {}} for b in ids]
    assert _vp(s, "improve-residential-facilities") == 2


def test_building_card_counts_every_built_match():
    """RB Favors & Scoring: a Building card scores every matching building built in the city,
    regardless of when it was built (the printed ones too), at its level's VP."""
    s = game(3)  # printed Diner, Clinic, Workshop
    white, light, _ = BUILDING_LEVEL_VP
    assert building_vp(s, "b01") == white  # the Diner (white level)
    build(s, "Restaurant", [(3, 4)])
    build(s, "Diner", [(3, 5)])
    assert building_vp(s, "b01") == 2 * white + light  # two Diners and the Restaurant


def test_no_scoring_in_turn_one():
    """RB Favors & Scoring: you cannot score favour cards in the first turn of the game."""
    s = play_until(game(3, 5), "turn_end", seed=1)
    assert s["turn"] == 1
    for seat in range(3):
        assert not [m for m in window_moves(s, seat) if m["type"] == "score"]


def test_building_cards_only_at_turn_end():
    """RB: Building Favor cards can only be scored at the end of the turn; General cards whenever
    their condition is met (our windows: after activation, resolution, monitoring, turn end)."""
    s = clone(play_until(game(3, 5), "turn_end", seed=1))
    s["turn"] = 2
    s["hands"][0] = ["b01", "community-spirit"]
    s["community"] = 4
    assert dict(scorable(s, 0)) == {"b01": 1, "community-spirit": 1}
    s["phase"] = "window_monitoring"
    assert dict(scorable(s, 0)) == {"community-spirit": 1}


def test_scoring_discards_general_removes_building():
    """RB: a scored General card goes face down to the discard pile; a scored Building card is
    removed from play; the scorer moves up the Scoring Track."""
    s = clone(play_until(game(3, 5), "turn_end", seed=1))
    s["turn"] = 2
    s["hands"][0] = ["b01", "community-spirit"]
    s["community"] = 4
    s["done"] = [False, True, True]
    s2 = R.apply(s, 0, {"type": "score", "card": "b01"})
    assert s2["vp"][0] == 1 and "b01" in s2["removed"]
    s3 = R.apply(s2, 0, {"type": "score", "card": "community-spirit"})
    assert s3["vp"][0] == 2 and s3["fdiscard"][-1][0] == "community-spirit"


def test_hand_limit_seven():
    """RB Turn End: each player discards down to 7 cards, and may discard more."""
    s = clone(play_until(game(3, 5), "turn_end", seed=1))
    s["hands"][0] = ["b0%d" % i for i in range(1, 10)]
    s["done"] = [False, True, True]
    assert {"type": "done"} not in R.legal_moves(s, 0)
    s = R.apply(s, 0, {"type": "discard", "card": "b01"})
    s = R.apply(s, 0, {"type": "discard", "card": "b02"})
    assert {"type": "done"} in R.legal_moves(s, 0)
    assert {"type": "discard", "card": "b03"} in R.legal_moves(s, 0)


def _window_entries(players, seeds):
    """(state in activation, the passes that end it) for turns after the first, along random
    games: every member passes until a scoring window opens."""
    from app.rulesets.city_council.windows import WINDOWS

    for seed in seeds:
        s = game(players, seed)
        rng = __import__("app.engine.rng", fromlist=["Rng"]).Rng(seed + 77)
        for _ in range(3000):
            if not R.to_act(s):
                break
            if s["phase"] == "activate" and s["turn"] > 1 and not s.get("pending"):
                t, passes = s, []
                while t["phase"] == "activate":
                    seat = R.to_act(t)[0]
                    if {"type": "pass"} not in R.legal_moves(t, seat):
                        break  # Prof. Phil as Transport may not pass: not this position
                    passes.append(seat)
                    t = R.apply(t, seat, {"type": "pass"})
                if t["phase"] in WINDOWS:
                    yield _with_scorable_card(s), passes
                    break
            seat = rng.choice(R.to_act(s))
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))


def _with_scorable_card(s):
    """`s` with Community Spirit (at least 4 Community tokens: 1 VP) in seat 0's hand, swapped
    with one of its cards wherever it was, and 4 Community tokens on the section."""
    s = clone(s)
    card = "community-spirit"
    mine = s["hands"][0]
    if card not in mine:
        for pile in [*s["hands"], s["deck"]]:
            if card in pile:
                pile[pile.index(card)] = mine[0]
                break
        else:
            for entry in s["fdiscard"]:
                if entry[0] == card:
                    entry[0] = mine[0]
                    break
            else:
                return s  # scored or removed already: leave the game as it is
        mine[0] = card
    s["community"] = max(s["community"], 4)
    return s


def test_scoring_windows_do_not_reveal_who_holds_a_scorable_card():
    """RB Favors & Scoring: favour cards are 'kept secretly in your hand and only revealed upon
    scoring'. A scoring window asks every member, as at the table, and each answers (score, or
    nothing to score): who must answer, the public state and the log are the same whatever the
    hands hold. Two games that differ only in the hidden hands (a re-deal) open the window alike,
    though in some of them a member can score in one game and not in the other."""
    from app.engine.rng import Rng
    from app.rulesets.city_council.windows import WINDOWS

    differing = 0
    for s, passes in _window_entries(3, range(12)):
        twin = R.determinize(s, None, Rng(5))  # every hand re-dealt (the spectator sees none)
        a, b = s, twin
        for seat in passes:
            assert R.log_text(a, seat, {"type": "pass"}, None) == R.log_text(b, seat, {"type": "pass"}, None)
            a = R.apply(a, seat, {"type": "pass"})
            b = R.apply(b, seat, {"type": "pass"})
        assert a["phase"] in WINDOWS
        assert R.to_act(a) == R.to_act(b) == list(range(3))
        for viewer in (None, 0, 1, 2):
            va, vb = R.view(a, viewer), R.view(b, viewer)
            for key in ("to_act", "done", "phase", "last", "report"):
                assert va[key] == vb[key], key
        for seat in range(3):
            assert R.log_text(a, seat, {"type": "done"}, None) == R.log_text(b, seat, {"type": "done"}, None)
        if [bool(scorable(a, m)) for m in range(3)] != [bool(scorable(b, m)) for m in range(3)]:
            differing += 1
    assert differing  # the check had hands that score in one game and not in the other


def test_a_member_with_nothing_to_score_answers_once_per_window():
    """Few clicks: in a scoring window a member with nothing to score has exactly one answer
    ('done': nothing to score now); a member who scores answers 'done' after his cards."""
    for s, passes in _window_entries(3, range(12)):
        for seat in passes:
            s = R.apply(s, seat, {"type": "pass"})
        if s["phase"] == "turn_end":
            continue
        for seat in range(3):
            moves = R.legal_moves(s, seat)
            assert {"type": "done"} in moves
            assert len(moves) == 1 + len(scorable(s, seat))
            assert all(m["type"] in ("score", "done") for m in moves)
        return
    raise AssertionError("no window sampled")
