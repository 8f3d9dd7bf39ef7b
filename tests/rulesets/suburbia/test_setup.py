"""Set-Up and Starting the Game."""

from __future__ import annotations

import pytest

from app.rulesets.suburbia.effects import World
from app.rulesets.suburbia.tables import GOALS, ONE_MORE_ROUND
from tests.rulesets.suburbia.helpers import R, game, put


def fresh(players: int, seed: int = 0, **options):
    return R.setup(players, R.Options.model_validate(options), seed)


@pytest.mark.parametrize(("players", "size", "mixed"), [(2, 15, 6), (3, 18, 9), (4, 21, 12)])
def test_stack_sizes_and_one_more_round_position(players, size, mixed):
    """Set-Up: A, B, C stacks of 15/18/21; 1MR mixed with 6/9/12 C tiles at the bottom of C,
    then 4 more C tiles on the very bottom; 7 market tiles come from A."""
    for seed in range(8):
        s = fresh(players, seed)
        assert len(s["stacks"]["A"]) == size - 7 and len(s["market"]) == 7
        assert len(s["stacks"]["B"]) == size
        c = s["stacks"]["C"]  # stored bottom-first
        assert len(c) == size + 1 + 4
        assert c.count(ONE_MORE_ROUND) == 1
        assert 4 <= c.index(ONE_MORE_ROUND) <= 4 + mixed


def test_one_more_round_is_not_always_in_the_same_place():
    """Set-Up: the 1MR tile is shuffled into its group."""
    spots = {fresh(4, seed)["stacks"]["C"].index(ONE_MORE_ROUND) for seed in range(30)}
    assert len(spots) > 3


def test_basic_supply_and_player_start():
    """Set-Up: 4 of each basic tile; $15, Income 0, Reputation 1, Population 2, 3 markers and
    the Suburbs / Community Park / Heavy Factory line below the Borough Board."""
    s = fresh(3)
    assert s["basic"] == {"suburbs": 4, "community_park": 4, "heavy_factory": 4}
    for p in s["p"]:
        assert (p["money"], p["income"], p["rep"], p["pop"], p["markers"]) == (15, 0, 1, 2, 3)
        assert [(t["t"], t["at"]) for t in p["tiles"]] == [
            ("suburbs", [0, 0]),
            ("community_park", [0, 1]),
            ("heavy_factory", [0, 2]),
        ]


def test_start_values_come_from_the_three_starting_tiles():
    """Starting the Game: Heavy Factory +1 and Community Park -1 Income = 0; the Park gives +2
    Reputation (Suburb, Heavy Factory), the Factory -1 (Park) = 1; the Suburb gives 2 people."""
    s = put(fresh(2), 0, tiles=[], income=0, rep=0, pop=0)
    w = World(s)
    for kind, q, r in [("suburbs", 0, 0), ("community_park", 0, 1), ("heavy_factory", 0, 2)]:
        w.place(0, kind, (q, r), lake=False)
    p = w.players[0]
    assert (p["income"], p["rep"], p["pop"]) == (0, 1, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_public_goal_per_player_and_two_secret_goals_each(players):
    """Set-Up: 1 random public goal per player; each player takes 2 goals and keeps 1."""
    s = fresh(players, 5)
    assert len(s["goals"]) == players
    dealt = [g for sec in s["secret"] for g in sec["dealt"]]
    assert len(dealt) == 2 * players
    assert len(set(dealt) | set(s["goals"])) == 3 * players  # all different goal tiles
    assert s["phase"] == "choose_goal" and R.to_act(s) == list(range(players))


def test_goal_choice_is_simultaneous_and_then_play_starts():
    """Set-Up: every player keeps 1 of their 2 goals (a simultaneous decision)."""
    s = fresh(3, 2)
    s = R.apply(s, 2, {"type": "keep_goal", "goal": s["secret"][2]["dealt"][1]})
    assert R.to_act(s) == [0, 1]
    s = R.apply(s, 0, {"type": "keep_goal", "goal": s["secret"][0]["dealt"][0]})
    s = R.apply(s, 1, {"type": "keep_goal", "goal": s["secret"][1]["dealt"][0]})
    assert s["phase"] == "play" and R.to_act(s) == [s["start"]]
    assert s["secret"][2]["kept"] == s["secret"][2]["dealt"][1]


def test_start_player_is_random():
    """Starting the Game: randomly choose a start player."""
    assert {fresh(4, seed)["start"] for seed in range(20)} == {0, 1, 2, 3}


def test_goals_are_from_the_twenty_goal_tiles():
    """Contents: 20 goal tiles."""
    s = game(4, 1)
    assert set(s["goals"]) <= set(GOALS)
