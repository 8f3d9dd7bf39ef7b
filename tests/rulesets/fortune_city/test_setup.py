"""Setup per player count: starting market, goods stack, bag, boards, start player."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from app.rulesets.fortune_city import RULESET as R
from app.rulesets.fortune_city import data as D
from tests.rulesets.fortune_city.helpers import build, game


@pytest.mark.parametrize(("n", "tiles", "per_colour"), [(2, 32, 8), (3, 36, 9), (4, 44, 11)])
def test_goods_and_citizens_removed_per_player_count(n, tiles, per_colour):
    """Setup 3: 2 players remove a 2, 3 and 4 cost tile per colour and 3 citizens per colour;
    3 players a 2 and 3 cost tile and 2 citizens per colour; 4 players nothing."""
    st = R.setup(n, R.Options(), 5)
    assert len(st["stack"]) == tiles and len(st["bag"]) == tiles
    assert Counter(st["bag"]) == {c: per_colour for c in D.COLOURS}
    removed = Counter((D.TILES[t]["type"], D.TILES[t]["price"]) for t in st["box"])
    assert removed == {(t, p): 1 for t in D.TYPES for p in D.REMOVAL[n]["prices"]}
    assert not set(st["box"]) & set(st["stack"])


def test_removed_tiles_differ_between_games():
    """Setup 3: the removed tiles are chosen at random (face down) among that colour and price."""
    boxes = {tuple(R.setup(2, R.Options(), s)["box"]) for s in range(8)}
    assert len(boxes) > 1


def test_starting_market_is_the_four_starting_goods_with_their_citizens():
    """Setup 2: the four starting goods go to the market with a citizen of their colour below."""
    st = R.setup(3, R.Options(), 1)
    assert [m["tile"] for m in st["market"]] == D.STARTING
    for m in st["market"]:
        assert m["citizen"] == D.CITIZEN_OF[D.TILES[m["tile"]]["type"]]
    assert not set(D.STARTING) & set(st["stack"])


def test_player_boards_start_with_truck_on_city_hall_markers_centred_and_7_silver():
    """Setup 4-5: truck on City Hall, expense markers in the centres, 7 silver, no credit card."""
    st = R.setup(4, R.Options(), 2)
    for p in st["players"]:
        assert p["truck"]["at"] == "0,0" and list(p["city"]) == ["0,0"]
        assert p["tracks"] == {t: 0 for t in D.TYPES}
        assert p["silver"] == 7 and p["card"] is None and p["zone"] == [None, None]
    assert st["banks"] == 8 and st["vips"] == 6


def test_start_player_is_random_and_acts_first():
    """Setup 6 (decision 2): the start player is chosen at random and takes the first action."""
    starts = {R.setup(4, R.Options(), s)["start"] for s in range(20)}
    assert starts == {0, 1, 2, 3}
    st = R.setup(4, R.Options(), 3)
    assert R.to_act(st) == [st["start"]] and st["phase"] == "actions"


def test_chinese_edition_card_from_the_start():
    """Variant (Chinese edition): the card holds 3 of the 7 silver from the start."""
    st = R.setup(2, R.Options(starting_credit_card=True), 0)
    assert st["players"][0]["silver"] == 4 and st["players"][0]["card"] == {"silver": 3, "gold": 0}


def test_setup_is_reproducible_from_the_seed():
    """Setup is a pure function of the player count, options and seed (replays rebuild it)."""
    assert R.setup(3, R.Options(), 9) == R.setup(3, R.Options(), 9)


def test_options_are_labelled_and_default_to_the_english_rules():
    """Registration: every option has a title and a description for people; defaults are the
    standard (English) game."""
    schema = R.Options.model_json_schema()["properties"]
    assert set(schema) == {"starting_credit_card", "gold_after_hand_silver"}
    for prop in schema.values():
        assert prop["title"] and len(prop["description"]) > 30 and prop["default"] is False


def test_conformance_plays_each_variant_alone_and_together():
    """Conformance: the platform's conformance test plays every variant at every player count,
    each option on its own (the Chinese edition's card without its gold rule, and the gold rule
    without the card) as well as both together."""
    fields = set(R.Options.model_fields)
    for field in fields:
        assert {field: True} in R.conformance_options, field
    assert {f: True for f in fields} in R.conformance_options


def test_a_version_4_stored_state_is_carried_to_version_5_with_full_key_names():
    """Version bump (5: the state's keys have their full names, issue 31; the games are version
    4's): a state stored by version 4 (tests/rulesets/fortune_city/version4_state.json, written by
    the version-4 rules) is carried to exactly the state version 5 reaches by replaying the same
    moves from setup, without changing the stored object, and plays on to the end; a version-4
    game without a snapshot replays from setup (None)."""
    from app.engine.rng import Rng

    assert R.version == "5"
    stored = json.loads((Path(__file__).parent / "version4_state.json").read_text())
    old = stored["state"]
    assert {"n", "opts", "p"} <= set(old) and old["p"][0]["city"]["0,0"]["t"] == D.CITY_HALL
    kept = copy.deepcopy(old)
    carried = R.upgrade_state(old, "4")
    assert old == kept
    replayed = R.setup(stored["players"], R.Options(**stored["options"]), stored["seed"])
    for seat, move in stored["moves"]:
        replayed = R.apply(replayed, seat, move)
    assert json.loads(json.dumps(carried)) == json.loads(json.dumps(replayed))
    assert set(carried) == set(replayed) and "player_count" in carried
    assert carried["players"][0]["truck"].keys() == {"at", "previous", "steps_left"}
    assert R.outcome(R.playout(carried, Rng(4))) is not None
    seat = R.to_act(carried)[0]
    assert R.apply(carried, seat, R.legal_moves(carried, seat)[0])["round"] == carried["round"]
    assert R.upgrade_state(None, "4") is None


def test_a_version_3_snapshot_plays_on_under_version_5_and_older_games_are_refused():
    """Version 4 re-valued the magazines and the stationery for seat order (NOTES "Seat
    order") without changing the stored state's shape, so a version-3 snapshot is carried as
    version 4's are (a Stationery Store built then keeps the 1 coin it produced; one built now
    produces 2) and plays to the end; a version-3 game without a snapshot (its moves replayed
    from setup would pick up other coins), or from versions 1-2, is refused (the platform's 409)."""
    from app.engine.rng import Rng
    from app.engine.ruleset import CannotUpgrade
    from app.rulesets.fortune_city import upgrade

    old = game(3, seed=4)
    build(old, 0, {(1, 0): "stationery"}, tokens=True)
    old["players"][0]["city"]["1,0"]["token"] = "coin"  # produced under version 3
    old["players"][1]["zone"] = ["stationery", None]
    stored = _version4_shape(old)
    carried = R.upgrade_state(copy.deepcopy(stored), "3")
    assert carried == old
    assert upgrade.v4_to_v5(stored) == old
    built = R.apply(dict(carried, turn=1), 1, {"type": "construct", "zone": 0, "at": [1, 0], "card": 0})
    assert built["players"][1]["city"]["1,0"]["token"] == "coin2"
    assert built["players"][0]["city"]["1,0"]["token"] == "coin"
    assert R.outcome(R.playout(carried, Rng(4))) is not None
    for state, older in ((None, "3"), (stored, "2"), (stored, "1")):
        with pytest.raises(CannotUpgrade, match="cannot carry"):
            R.upgrade_state(state, older)


def _version4_shape(state: dict[str, Any]) -> dict[str, Any]:
    """A version-5 state written with version 4's (and 3's) key names."""
    players = [
        {
            **p,
            "city": {
                k: {"t": c["tile"], "token": c["token"], "worker": c["worker"]} for k, c in p["city"].items()
            },
            "truck": {
                "at": p["truck"]["at"],
                "prev": p["truck"]["previous"],
                "left": p["truck"]["steps_left"],
            },
        }
        for p in state["players"]
    ]
    rest = {k: v for k, v in state.items() if k not in ("player_count", "options", "players")}
    return copy.deepcopy({**rest, "n": state["player_count"], "opts": state["options"], "p": players})
