"""Setup (RB Setup), Sandbox and Hard modes, registration and options."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.engine import registry
from app.rulesets.city_council.council import available_tiles
from app.rulesets.city_council.state import is_phil
from app.rulesets.city_council.tables import CARDS, TILES
from tests.rulesets.city_council.helpers import R, game


@pytest.mark.parametrize(
    ("n", "budget", "blue", "white"), [(2, 7, 3, 1), (3, 7, 3, 1), (4, 8, 4, 2), (5, 9, 5, 2)]
)
def test_budget_and_workers_by_player_count(n, budget, blue, white):
    """RB Setup: budget $7 (2-3 players), $8 (4), $9 (5); 3/3/4/5 Blue and 1/1/2/2 White in
    Workforce Housing; 1 Goods token in the depot."""
    s = game(n)
    assert s["budget"] == budget
    assert s["house"] == {"B": blue, "W": white}
    assert s["goods"] == 1 and s["crime"] == 0 and s["pollution"] == 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_two_favour_cards_each_and_phil(n):
    """RB Setup: each player is dealt 2 favour cards; RB 2 players: Prof. Phil gets 2 as well."""
    s = game(n)
    members = n + 1 if n == 2 else n
    assert len(s["hands"]) == members and all(len(h) == 2 for h in s["hands"])
    assert len(s["deck"]) == 52 - 2 * members
    assert is_phil(s, 2) == (n == 2)


def test_starting_zone_and_planning_area():
    """RB Setup / Buildings: the Starting Zone has 3 pre-constructed buildings; the planning area
    holds the small and medium starting stacks face up plus 3 tiles under each: 8 available; 1
    Relocation and 1 Sale token."""
    s = game(3)
    assert sorted(b["name"] for b in s["buildings"].values()) == ["Clinic", "Diner", "Workshop"]
    assert all(b["fixed"] for b in s["buildings"].values())
    tiles = available_tiles(s)
    assert len(tiles) == 8
    assert all(TILES[t].set == "start" and TILES[t].shape in ("S", "M") for t in tiles)
    assert s["tokens"] == {"sale": 1, "relocate": 1}
    assert len(s["reserve_adv"]) == 28 and not s["advanced"]


def test_sandbox_mode():
    """RB Sandbox Mode: no fixed buildings (covered by the face-down Airport), $11, 13 VP, all
    buildings available from the start (advanced area: 13 face up), no end by cards."""
    s = game(3, mode="sandbox")
    assert s["buildings"] == {}
    assert s["budget"] == 11 and s["goal"] == 13 and not s["card_end"] and s["advanced"]
    tiles = available_tiles(s)
    assert len(tiles) == 13
    assert all(TILES[t].name != "Airport" for sh in s["stacks"] for t in s["stacks"][sh] + s["up"][sh])
    assert s["tokens"] == {"sale": 2, "relocate": 2}


def test_hard_mode_budget():
    """RB Hard Mode: Sandbox with a $9 City Budget, or lower."""
    assert game(4, mode="hard")["budget"] == 9
    assert game(4, mode="hard", hard_budget=6)["budget"] == 6
    assert game(4, mode="hard")["goal"] == 13


def test_options_are_labelled_and_default_to_standard():
    """Registration: id city-council, a version, Options with a labelled field per variant."""
    assert registry.get("city-council") is R and R.version
    fields = R.Options.model_fields
    assert R.Options().mode == "standard"
    assert all(fields[f].description and fields[f].title for f in fields)
    with pytest.raises(ValidationError):
        R.Options.model_validate({"mode": "easy"})


def test_first_election_chairman_is_random_and_never_phil():
    """RB Committees: in the first turn a random player is placed on the Election Committee;
    RB 2 players: Prof. Phil cannot chair it."""
    seen = {game(2, seed)["decider"] for seed in range(30)}
    assert seen == {0, 1}
    seen = {game(5, seed)["decider"] for seed in range(60)}
    assert seen == {0, 1, 2, 3, 4}


def test_data_counts():
    """RB Components: 52 favour cards, 44 building tiles (Errata 1)."""
    assert len(CARDS) == 52 and len(TILES) == 44
    assert sum(1 for c in CARDS.values() if c.kind == "general") == 26


def test_sandbox_starting_zone_is_free_without_the_printed_buildings():
    """RB Sandbox Mode: 'Play without the fixed buildings in the Starting Zone. Cover the fixed
    buildings by placing the Airport tile face down over them.' The face-down Airport only hides
    the printing (NOTES 23): all 9 Starting-Zone blocks are free, so a building can stand where
    the printed Workshop, Diner and Clinic are in the standard game, and the zone is not full
    until 9 blocks are built on."""
    from app.rulesets.city_council.board import placements, start_full
    from app.rulesets.city_council.tables import FIXED, ZONE_CELLS

    for mode in ("sandbox", "hard"):
        s = game(3, mode=mode)
        printed = sorted(tuple(c) for f in FIXED for c in f["cells"])
        assert tuple(printed) in placements(s, "LT")
        free = [cell for cell in ZONE_CELLS["start"] if any(cell in cells for cells in placements(s, "S"))]
        assert len(free) == 9
        assert not start_full(s)


def test_a_version_2_snapshot_plays_on_under_version_3_and_older_games_are_refused():
    """Version bump (3: rules review 2, NOTES "Version history"): a version-2 snapshot is carried
    forward: the Sandbox cover frees its blocks, a covering tile no longer keeps the printed
    building beneath, and in the planning phase Prof. Phil's plan is made (he proposes first);
    it then plays to the end. A game without a snapshot, or from version 1, is refused (the
    platform's 409)."""
    import pytest

    from app.engine.rng import Rng
    from app.engine.ruleset import CannotUpgrade
    from app.rulesets.city_council import phil
    from app.rulesets.city_council.council import plan_options
    from app.rulesets.city_council.tables import FIXED
    from tests.rulesets.city_council.helpers import clone, play_until

    assert R.version == "3"
    # a Sandbox game as version 2 stored it: the printed blocks under the face-down Airport
    s = clone(game(2, 4, mode="sandbox"))
    s["covered"] = sorted([list(c) for f in FIXED for c in f["cells"]])
    carried = R.upgrade_state(s, "2")
    assert carried["covered"] == [] and R.view(carried, 0)["covered"] == []
    # a standard 2-player game in its planning phase, Phil not yet asked, a Restaurant covering
    # the printed Diner with the version-2 record of it
    s = clone(play_until(game(2, 4), "plan", seed=4))
    printed = next(b for b in s["buildings"].values() if b["name"] == "Diner")
    s["buildings"]["b99"] = {
        **printed,
        "id": "b99",
        "name": "Restaurant",
        "tile": "restaurant-1",
        "fixed": False,
        "covers": dict(printed),
    }
    del s["buildings"][printed["id"]]
    s["plans"][2] = None
    carried = R.upgrade_state(s, "2")
    assert "covers" not in carried["buildings"]["b99"]
    assert carried["plans"][2] and carried["plans"][2]["kind"] in ("build", "none")
    assert carried["plans"][2] == {
        "kind": "build",
        "target": phil.pick_building(s, {m["target"] for m in plan_options(s, 2) if m["kind"] == "build"}),
    }
    rng = Rng(4)
    while R.to_act(carried):
        seat = R.to_act(carried)[0]
        carried = R.apply(carried, seat, R.bot_move(carried, seat, rng))
    assert R.outcome(carried) is not None
    for state, older in ((None, "2"), (s, "1")):
        with pytest.raises(CannotUpgrade, match="cannot carry"):
            R.upgrade_state(state, older)
