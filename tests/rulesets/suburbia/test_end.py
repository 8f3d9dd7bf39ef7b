"""Game end (1 More Round), final scoring (goals, money), and winning the game."""

from __future__ import annotations

from collections import Counter

from app.engine.rng import Rng
from app.rulesets.suburbia import scoring
from app.rulesets.suburbia.tables import ONE_MORE_ROUND
from tests.rulesets.suburbia.helpers import R, game, play, put, turn_of


def test_one_more_round_finishes_the_round_then_plays_one_more():
    """Game End: when 1MR is flipped the current round is completed, then one more full round
    from the Start Player; the 1MR tile itself is set aside and replaced."""
    s = dict(game(3, 2), start=0)
    s = turn_of(s, 1)
    s = dict(s, stacks={"A": [], "B": [], "C": ["retirement_village", "resort", ONE_MORE_ROUND]})
    s = play(s, {"type": "lake", "slot": 6, "at": [1, 1]})
    assert s["one_more_round"] and s["market"][0] == "resort"
    turns = []
    while s["phase"] != "over":
        seat = s["turn"]
        if s["phase"] == "play":
            turns.append(seat)
        s = R.apply(s, seat, R.legal_moves(s, seat)[0])
    assert turns == [2, 0, 1, 2]


def test_everyone_takes_the_same_number_of_turns():
    """Game End: everyone should end up having taken the same number of turns."""
    for players in (2, 3, 4):
        s = R.setup(players, R.Options(), 11)
        rng = Rng(5)
        played: Counter[int] = Counter()
        while R.to_act(s):
            seat = R.to_act(s)[0]
            if s["phase"] == "play":
                played[seat] += 1
            s = R.apply(s, seat, rng.choice(R.legal_moves(s, seat)))
        assert len(set(played.values())) == 1, played


def over(state, **per_seat):
    s = dict(state, phase="over")
    for seat, fields in per_seat.items():
        s = put(s, int(seat[1:]), **fields)
    return s


def test_public_goal_goes_to_the_single_best_player():
    """Award Goals: the public goal's bonus goes to the single player who achieves it."""
    s = dict(game(2, 1), goals=["billionaire"], secret=[{"dealt": [], "kept": None}] * 2)
    s = scoring.finalize(over(s, s0={"money": 30, "pop": 10}, s1={"money": 12, "pop": 10}))
    rows = s["final"]["boroughs"]
    assert rows[0]["public_goals"] == {"billionaire": 10} and rows[1]["public_goals"] == {}
    assert rows[0]["total"] == 10 + 10 + 6 and rows[1]["total"] == 10 + 2


def test_tied_goal_is_awarded_to_nobody():
    """Award Goals: if two or more players tie, no one gets the bonus."""
    s = dict(game(2, 1), goals=["billionaire"], secret=[{"dealt": [], "kept": None}] * 2)
    s = scoring.finalize(over(s, s0={"money": 12}, s1={"money": 12}))
    assert all(r["public_goals"] == {} for r in s["final"]["boroughs"])


def test_secret_goal_only_for_its_owner_and_only_if_singular():
    """Secret goals: only the owner can score one, and only without a tie."""
    base = dict(game(2, 1), goals=[])
    s = dict(
        base,
        secret=[
            {"dealt": ["luminary", "miser"], "kept": "luminary"},
            {"dealt": ["investor", "spendthrift"], "kept": "investor"},
        ],
    )
    s = scoring.finalize(over(s, s0={"rep": 5, "income": 3}, s1={"rep": 9, "income": 3}))
    rows = s["final"]["boroughs"]
    assert rows[0]["secret_goal"] == {"luminary": 0}  # seat 1 has the best reputation
    assert rows[1]["secret_goal"] == {"investor": 0}  # income tied
    s = dict(
        base,
        secret=[
            {"dealt": ["luminary", "miser"], "kept": "luminary"},
            {"dealt": ["investor", "spendthrift"], "kept": "investor"},
        ],
    )
    s = scoring.finalize(over(s, s0={"rep": 10, "income": 3}, s1={"rep": 9, "income": 4}))
    rows = s["final"]["boroughs"]
    assert rows[0]["secret_goal"] == {"luminary": 10} and rows[1]["secret_goal"] == {"investor": 15}


def test_goals_are_awarded_before_money_is_converted():
    """Final Scoring: goals first (Billionaire/Spendthrift see the money before conversion)."""
    s = dict(game(2, 1), goals=["spendthrift"], secret=[{"dealt": [], "kept": None}] * 2)
    s = scoring.finalize(over(s, s0={"money": 4}, s1={"money": 9}))
    assert s["final"]["boroughs"][0]["public_goals"] == {"spendthrift": 10}


def test_money_converts_at_five_to_one_and_the_rest_is_kept():
    """Convert Money: 1 Population per $5, rounded down; leftover money stays for tie-breaks."""
    s = dict(game(2, 1), goals=[], secret=[{"dealt": [], "kept": None}] * 2)
    s = scoring.finalize(over(s, s0={"money": 23, "pop": 7}))
    row = s["final"]["boroughs"][0]
    assert (row["money_converted"], row["total"], row["money_left"]) == (4, 11, 3)


def test_red_lines_are_ignored_during_final_scoring():
    """Red Lines are ignored during final scoring (goal and money population)."""
    s = dict(game(2, 1), goals=["billionaire"], secret=[{"dealt": [], "kept": None}] * 2)
    s = scoring.finalize(over(s, s0={"money": 50, "pop": 14, "income": 3, "rep": 3}))
    p = s["p"][0]
    assert (p["pop"], p["income"], p["rep"]) == (14 + 10 + 10, 3, 3)


def test_winner_by_population_then_reputation_income_money():
    """Winning the Game: highest population; ties by reputation, then income, then money."""
    base = dict(game(3, 1), goals=[], secret=[{"dealt": [], "kept": None}] * 3)
    common = {"pop": 20, "money": 0}
    s = scoring.finalize(
        over(
            base,
            s0={**common, "rep": 4, "income": 1},
            s1={**common, "rep": 4, "income": 2},
            s2={**common, "rep": 3, "income": 9},
        )
    )
    assert R.outcome(s).ranks == [2, 1, 3]
    s = scoring.finalize(
        over(
            base,
            s0={**common, "rep": 4, "income": 2, "money": 3},
            s1={**common, "rep": 4, "income": 2, "money": 3},
            s2={**common, "rep": 4, "income": 2, "money": 2},
        )
    )
    assert R.outcome(s).ranks == [1, 1, 3]  # a full tie shares first place


def test_outcome_breakdown_lists_every_component():
    """Outcome: score, rank and per-seat breakdown (goals, money, tie-break values)."""
    s = dict(game(2, 1), goals=["billionaire"], secret=[{"dealt": [], "kept": None}] * 2)
    out = R.outcome(scoring.finalize(over(s, s0={"money": 30})))
    assert set(out.breakdown[0]) >= {
        "population",
        "public_goals",
        "secret_goal",
        "money_converted",
        "total",
        "reputation",
        "income",
        "money_left",
    }
    assert out.scores == [b["total"] for b in out.breakdown]
    assert R.outcome(game(2, 1)) is None


def test_every_goal_measures_what_its_tile_says():
    """Award Goals, for each of the 20 goal tiles (rules-data §1.7): lakes, largest group of
    lakes, Airport icons, money, Residential / Commercial / Industrial / Civic tiles (a lake is
    none of these, whatever tile it was), largest group of Civic tiles, Income, Reputation,
    Investment Markers played; most or fewest; a tie awards nobody."""
    from app.rulesets.suburbia.tables import GOALS

    start = [("suburbs", 0, 0), ("community_park", 0, 1), ("heavy_factory", 0, 2)]
    s = game(2, 1)
    s = put(
        s,
        0,
        money=20,
        income=3,
        rep=2,
        tiles=[
            *start,
            ("mint", 1, 0, "lake"),
            ("mint", 2, 0, "lake"),
            ("municipal_airport", 1, 1, "inv"),
            ("museum", -1, 1),
        ],
    )
    s = put(
        s,
        1,
        money=20,
        income=5,
        rep=2,
        tiles=[
            *start,
            ("office_building", 1, 0, "lake"),
            ("homeowners_association", -1, 1),
            ("convenience_store", 1, 1),
            ("office_building", 2, 1),
            ("elementary_school", -1, 2),
            ("mint", 5, 5),
        ],
    )
    expected = {
        "aquatic_engineer": 0,
        "aquaphobian": 1,
        "harbormaster": 0,
        "air_traffic_controller": 0,
        "billionaire": None,
        "spendthrift": None,
        "builder": 1,
        "capitalist": 0,
        "developer": 1,
        "socialist": 0,
        "industrialist": 0,
        "environmentalist": 1,
        "civil_engineer": 1,
        "libertarian": 0,
        "public_official": None,
        "investor": 1,
        "miser": 0,
        "luminary": None,
        "miscreant": None,
        "employer": 1,
    }
    assert set(expected) == set(GOALS)
    assert {g: scoring.goal_winner(s["p"], g) for g in GOALS} == expected


def test_tag_measures_count_the_tiles_of_their_category_icon_or_lake():
    """The goals that count tiles read the borough's tag counts (a tile's tags: its category
    and its icon, a lake's "lake"): over random finished games, every such count equals a walk
    over the tiles by category, Airport icon or face-down lake."""
    from app.rulesets.suburbia.tables import KINDS

    def walked(tiles, what):
        if what == "lakes":
            return sum(1 for t in tiles if t["lake"])
        if what == "airport":
            return sum(1 for t in tiles if not t["lake"] and KINDS[t["t"]].icon == "airport")
        return sum(1 for t in tiles if not t["lake"] and KINDS[t["t"]].category == what)

    assert set(scoring.TAG_MEASURES) == {
        "lakes",
        "airport",
        "residential",
        "commercial",
        "industrial",
        "civic",
    }
    checked = 0
    for players in (1, 2, 4):
        for seed in range(6):
            s = R.setup(players, R.Options(), seed)
            end = R.playout(s, Rng.from_seed(seed, "measures"))
            for p in end["p"]:
                for what in scoring.TAG_MEASURES:
                    assert scoring.measure(p, what) == walked(p["tiles"], what), what
                    checked += walked(p["tiles"], what)
    assert checked > 100  # the boroughs held many such tiles
