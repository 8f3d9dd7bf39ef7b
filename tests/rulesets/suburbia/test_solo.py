"""Solo Game 1: The Lone Architect; Solo Game 2: Dale the Bot; solo rank titles."""

from __future__ import annotations

import pytest

from app.rulesets.suburbia import dale
from app.rulesets.suburbia.tables import GOALS, ONE_MORE_ROUND, rank_name
from tests.rulesets.suburbia.helpers import R, game, play, put, with_market, world


def la(**options):
    return R.setup(1, R.Options.model_validate(options), 3)


def test_lone_architect_uses_two_player_stacks_and_no_goals():
    """Solo 1 Set-up: use the 2-player stacks; don't place or distribute any goals."""
    s = la()
    assert (len(s["stacks"]["A"]), len(s["stacks"]["B"]), len(s["stacks"]["C"])) == (8, 15, 20)
    assert s["goals"] == [] and s["secret"] == [] and s["phase"] == "play"
    assert R.to_act(s) == [0]


def test_lone_architect_red_lines_give_two_income_and_reputation():
    """Solo 1: moving past a Red Line results in +2 Income and +2 Reputation (as printed)."""
    w = world(put(la(), 0, pop=14, income=0, rep=0))
    w.move_population(0, 1)
    assert (w.players[0]["income"], w.players[0]["rep"]) == (2, 2)


def test_lone_architect_minus_two_option():
    """Option lone_architect_red_line='minus2': passing a line costs 2 of each instead."""
    w = world(put(la(lone_architect_red_line="minus2"), 0, pop=14, income=0, rep=0))
    w.move_population(0, 1)
    assert (w.players[0]["income"], w.players[0]["rep"]) == (-2, -2)


def test_lone_architect_removes_an_extra_tile_after_each_turn():
    """Solo 1: after your turn you remove an additional market tile, paying its slot cost."""
    s = la()
    s = play(s, {"type": "lake", "slot": 6, "at": [1, 1]})
    assert s["phase"] == "extra_discard" and R.to_act(s) == [0]
    assert {m["type"] for m in R.legal_moves(s, 0)} == {"discard"}
    money = s["p"][0]["money"]
    gone = s["market"][4]
    before_a = len(s["stacks"]["A"])
    s = play(s, {"type": "discard", "slot": 4})
    assert s["p"][0]["money"] == money - 2 and s["discards"][-1] == gone
    assert len(s["stacks"]["A"]) == before_a - 1 and None not in s["market"]
    assert s["phase"] == "play" and s["round"] == 2


def test_lone_architect_plays_one_more_turn_after_the_flip():
    """Game End in solo 1: one more full round (one turn) after 1MR appears."""
    s = dict(la(), stacks={"A": [], "B": [], "C": ["resort", "hotel", "mint", ONE_MORE_ROUND]})
    s = play(s, {"type": "lake", "slot": 6, "at": [1, 1]})  # refill flips 1MR, then Mint
    assert s["one_more_round"]
    s = play(s, {"type": "discard", "slot": 6})
    assert s["phase"] == "play"
    s = play(s, {"type": "lake", "slot": 6, "at": [1, 2]})
    s = play(s, {"type": "discard", "slot": 6})
    assert s["phase"] == "over" and R.outcome(s).extra["rank_name"]


@pytest.mark.parametrize(
    ("pop", "title"),
    [
        (59, "Junior Intern"),
        (60, "Subcontractor"),
        (76, "Draftsman"),
        (91, "Architectural Designer"),
        (106, "Architectural Engineer"),
        (121, "Principal Architect"),
        (135, "Principal Architect"),
        (136, "CEO of Suburbia, Inc."),
    ],
)
def test_solo_rank_titles(pop, title):
    """Scoring for Both Solo Games: population bands and their titles."""
    assert rank_name(pop) == title


def dale_game(seed=0):
    return game(1, seed, solo_mode="dale")


def test_dale_setup():
    """Solo 2 Set-up: 25-tile stacks, 1MR mixed into the bottom 12 C tiles, 3 public goals
    without lake or investment goals, a 4-tile market on $6/$4/$2/$0, you go first."""
    for seed in range(6):
        s = R.setup(1, R.Options(solo_mode="dale"), seed)
        assert (len(s["stacks"]["A"]), len(s["stacks"]["B"]), len(s["stacks"]["C"])) == (21, 25, 26)
        assert s["stacks"]["C"].index(ONE_MORE_ROUND) <= 12
        assert len(s["goals"]) == 3 and not any(GOALS[g].lake_or_investment for g in s["goals"])
        assert len(s["market"]) == 4 and R.view(s, 0)["surcharges"] == [6, 4, 2, 0]
        assert s["turn"] == 0 and len(s["p"]) == 2 and R.to_act(s) == [0]


def test_dale_buys_the_most_expensive_tile_leftmost_on_ties():
    """Dale's Turn: the most expensive tile (price + market cost); ties to the leftmost."""
    assert dale.choose_slot(["museum", "movie_theater", None, "hostel"], [6, 4, 2, 0]) == 0
    assert dale.choose_slot([None, "movie_theater", "stadium", "hostel"], [6, 4, 2, 0]) == 2


def test_market_tiles_stay_put_and_dale_pays_three():
    """Solo 2: the three tiles you did not buy stay in place; Dale pays only $3 for his, the
    other two are discarded, and 4 new tiles are dealt."""
    s = with_market(dale_game(), ["stadium", "hostel", "museum", "farm"])
    top4 = s["stacks"]["A"][-4:]
    s = play(s, {"type": "buy", "slot": 1, "at": [1, 1]})
    d = s["last"]["dale"]
    assert d["tile"] == "stadium" and d["slot"] == 0 and d["paid"] == 3
    assert d["discarded"] == ["museum", "farm"] and s["discards"][-2:] == ["museum", "farm"]
    assert s["market"] == list(reversed(top4)) and s["turn"] == 0 and s["phase"] == "play"
    assert s["p"][1]["tiles"][-1]["t"] == "stadium"


def test_dale_places_for_most_income_plus_reputation_ties_to_reputation():
    """Dale's placement: raise Income + Reputation the most; ties favour Reputation."""
    s = with_market(dale_game(), ["freeway", "hostel", "hostel", "hostel"])
    s = put(s, 1, tiles=[("community_park", 0, 0), ("convenience_store", 3, 0)])
    s = play(s, {"type": "buy", "slot": 1, "at": [1, 1]})
    placed = s["p"][1]["tiles"][-1]
    assert placed["t"] == "freeway"
    # next to the Park: +1 Reputation (Park likes Industrial) beats +1 Income by the store
    assert tuple(placed["at"]) in {(0, 1), (1, 0), (-1, 1)}


def test_dale_never_makes_lakes_basics_or_investments():
    """Dale never buys a basic tile, never creates a lake, never invests."""
    s = dale_game(2)
    for _ in range(4):
        s = play(s, R.legal_moves(s, 0)[0])
    assert s["p"][1]["markers"] == 3 and not any(t["lake"] for t in s["p"][1]["tiles"])
    assert all(t["t"] not in {"suburbs", "community_park", "heavy_factory"} for t in s["p"][1]["tiles"][3:])


def test_basic_tile_turn_discards_before_dale():
    """Solo 2: a basic tile still makes you discard; Dale then buys from what is left."""
    s = with_market(dale_game(), ["stadium", "hostel", "museum", "farm"])
    s = play(s, {"type": "basic", "tile": "suburbs", "at": [1, 0]})
    s = play(s, {"type": "discard", "slot": 3})
    assert s["last"]["dale"]["tile"] == "stadium" and s["last"]["dale"]["discarded"] == ["hostel", "museum"]


def test_one_more_round_ends_the_dale_game_immediately():
    """Solo 2 Game End: when 1MR appears the game ends at once (you take no further turn);
    Dale's score, your title and whether you beat Dale are reported."""
    s = dale_game()
    s = dict(s, goals=[], stacks={"A": [], "B": [], "C": ["hotel", ONE_MORE_ROUND, "resort"]})
    s = put(s, 0, pop=40, money=0)
    s = put(s, 1, pop=5, money=0)
    s = play(s, {"type": "lake", "slot": 3, "at": [1, 1]})
    assert s["phase"] == "over" and R.to_act(s) == [] and s["round"] == 1
    out = R.outcome(s)
    assert out.ranks == [1] and out.extra["rank_name"] == rank_name(out.scores[0])
    assert out.extra["dale"]["total"] < out.scores[0]
    assert out.extra["beat_dale"] is True
    assert out.extra["others"][0]["rank"] == 2


def _final(human: dict, dale_borough: dict):
    from app.rulesets.suburbia import scoring

    s = dict(dale_game(), goals=[], phase="over")
    s = put(put(s, 0, **human), 1, **dale_borough)
    return R.outcome(scoring.finalize(s))


def test_dale_wins_the_ranking_when_his_population_is_higher():
    """Solo 2 / Winning: Dale takes part in the ranking like a player, so a higher Dale
    population makes him the winner: you rank 2nd, no seat wins, and the outcome names Dale."""
    out = _final({"pop": 40, "money": 0}, {"pop": 87, "money": 0})
    assert out.ranks == [2] and out.winners == []
    assert out.extra["beat_dale"] is False
    assert out.extra["others"] == [
        {"name": "Dale the Bot", "score": 87, "rank": 1, "breakdown": out.extra["dale"]}
    ]
    assert out.to_json()["winners"] == [] and out.to_json()["others"][0]["rank"] == 1


def test_dale_ties_are_broken_like_players_and_a_full_tie_is_shared():
    """Winning (RB-S): ties on population go to reputation, then income, then money; a full
    tie is shared, so you and Dale both rank first."""
    same = {"pop": 30, "money": 3, "rep": 2, "income": 1}
    out = _final(same, same)
    assert out.ranks == [1] and out.extra["others"][0]["rank"] == 1
    assert out.extra["beat_dale"] is False  # a shared win is not beating him
    out = _final(dict(same, rep=3), same)
    assert out.ranks == [1] and out.extra["others"][0]["rank"] == 2 and out.extra["beat_dale"]
    out = _final(same, dict(same, income=2))
    assert out.ranks == [2] and out.extra["others"][0]["rank"] == 1


def test_dale_competes_for_public_goals():
    """Solo 2: goals are awarded between you and Dale (ties: nobody)."""
    from app.rulesets.suburbia import scoring

    s = dict(dale_game(), goals=["billionaire"], phase="over")
    s = put(s, 1, money=40)
    s = scoring.finalize(s)
    assert s["final"]["boroughs"][1]["public_goals"] == {"billionaire": 10}


def test_dale_pays_three_and_what_he_has_when_short():
    """Dale's Turn: 'he only pays $3' for the tile he buys (a Hostel, $0 on the +$4 space:
    $3; you remove one tile a turn, so the $6 or $4 space is always left and his tile never
    costs under $4); with less than $3 he pays what he has (RB-S silent; NOTES.md)."""
    s = with_market(dale_game(), ["hostel", "hostel", "hostel", "hostel"])
    s = play(s, {"type": "buy", "slot": 0, "at": [1, 1]})  # leaves $4 + $0, $2 + $0, $0 + $0
    d = s["last"]["dale"]
    assert (d["tile"], d["slot"], d["paid"]) == ("hostel", 1, 3)
    s = with_market(dale_game(), ["museum", "hostel", "hostel", "hostel"])
    s = put(s, 1, money=2, income=0)
    s = play(s, {"type": "buy", "slot": 3, "at": [1, 1]})
    assert s["last"]["dale"]["paid"] == 2


def test_dale_takes_the_income_and_reputation_steps():
    """Dale's Turn: after placing his tile he adjusts Income and Reputation; like any
    borough his money then moves by his Income and his Population by his Reputation
    (NOTES.md: RB-S does not say he skips those steps)."""
    s = with_market(dale_game(), ["convenience_store", "hostel", "hostel", "hostel"])
    s = put(s, 1, money=10, income=2, rep=3, pop=5)
    s = play(s, {"type": "buy", "slot": 3, "at": [1, 1]})
    assert s["last"]["dale"]["tile"] == "convenience_store"
    dale_p = s["p"][1]
    # +1 Income from the store, +1 Reputation at most from a Park next to it
    assert dale_p["income"] == 3
    assert dale_p["money"] == 10 - 3 + 3
    assert dale_p["pop"] == 5 + dale_p["rep"]
