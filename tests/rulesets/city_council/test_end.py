"""Game end (RB Game End: Victory, Defeat) and the turn-end steps (RB 5. Turn End)."""

from __future__ import annotations

from app.rulesets.city_council.council import available_tiles
from app.rulesets.city_council.phases import advance
from app.rulesets.city_council.turn_end import replenish
from tests.rulesets.city_council.helpers import R, clone, game, play_until


def _turn_end(players=3, seed=5, **opts):
    s = clone(play_until(game(players, seed, **opts), "turn_end", seed=seed))
    s["done"] = [True] * players
    return s


def test_eleven_vp_ends_at_end_of_turn():
    """RB Victory: a player reaching 11 VP ends the game at the end of that turn (the turn goes
    on so the others can score)."""
    s = _turn_end()
    s["vp"] = [11, 3, 0]
    s["phase"] = "finish"
    advance(s)
    assert s["phase"] == "over"
    assert R.outcome(s).ranks[0] == 1
    s = _turn_end()
    s["vp"] = [10, 3, 0]
    s["phase"] = "finish"
    advance(s)
    assert s["phase"] == "committees" and s["turn"] == 2


def test_ties_fewest_cards_then_funds():
    """RB Victory: ties go to the fewest cards in hand, then the most private funds."""
    s = _turn_end()
    s["vp"] = [11, 11, 11]
    s["hands"] = [["b01", "b02"], ["b03"], ["b04"]]
    s["funds"] = [5, 0, 1]
    s["phase"] = "over"
    assert R.outcome(s).ranks == [3, 2, 1]


def test_cards_running_out_ends_the_game():
    """RB: if there are not enough favour cards to draw even after reshuffling the discards, the
    game ends at the end of the current turn."""
    s = game(3, 2)
    s = clone(s)
    s["deck"] = ["b01"]
    s["fdiscard"] = []
    d = s["decider"]
    s = R.apply(s, d, R.legal_moves(s, d)[0])
    while s["phase"] == "treasury":
        s = R.apply(s, R.to_act(s)[0], {"type": "decline"})
    assert s["end_flag"]


def test_discards_reshuffled_when_deck_short():
    """RB: if there are not enough cards to draw, shuffle the discard pile to form a new deck."""
    s = clone(game(3, 2))
    s["fdiscard"] = [[c, 0] for c in s["deck"][2:]]
    s["deck"] = s["deck"][:2]
    d = s["decider"]
    s = R.apply(s, d, R.legal_moves(s, d)[0])
    while s["phase"] == "treasury":
        s = R.apply(s, R.to_act(s)[0], {"type": "decline"})
    assert not s["end_flag"] and s["fdiscard"] == [] and all(d for d in s["drawn"])


def test_sandbox_no_card_end_and_thirteen_vp():
    """RB Sandbox: the game continues with no cards left; 13 VP ends it."""
    s = clone(game(3, 2, mode="sandbox"))
    s["deck"], s["fdiscard"] = [], []
    d = s["decider"]
    s = R.apply(s, d, R.legal_moves(s, d)[0])
    assert not s["end_flag"]
    s = _turn_end(mode="sandbox")
    s["vp"] = [12, 0, 0]
    s["phase"] = "finish"
    advance(s)
    assert s["phase"] == "committees"


def test_turn_end_returns_zone_tokens_and_advances_counters():
    """RB Turn End: Power and Community tokens on zones go back (the Power track is not
    restored), and each member's committee token moves to A or B."""
    s = _turn_end()
    s["zones_on"] = {"res1": "section"}
    s["phase"] = "finish"
    power = s["power"]
    advance(s)
    assert s["zones_on"] == {} and s["power"] == power
    assert s["streak"] == [1, 1, 1]


def test_planning_area_replenished():
    """RB Turn End: unconstructed tiles are discarded by size and new ones drawn; the stack tops
    stay (and are drawn next)."""
    s = _turn_end()
    s["phase"] = "replenish"
    up_before = list(s["up"]["S"])
    top = s["stacks"]["S"][0]
    replenish(s)
    assert set(up_before) <= set(s["bdiscard"]["S"])
    assert s["up"]["S"][0] == top and len(s["up"]["S"]) == 3


def test_advanced_phase_when_starting_zone_full():
    """RB Turn End: once the Starting Zone is full, the starting and advanced stacks are combined
    and shuffled, 3 small, 3 medium, 2 large and 1 L-shaped tile are laid out (13 available) and
    a second Relocation and Sale token are added; it stays advanced for the rest of the game."""
    s = _turn_end()
    for i, cell in enumerate([(3, 4), (3, 5), (4, 4), (4, 5), (5, 5)]):
        s["buildings"][f"f{i}"] = {
            "id": f"f{i}",
            "name": "Firm",
            "tile": None,
            "fixed": True,
            "cells": [list(cell)],
            "token": False,
            "prison": [0, 0],
        }
    replenish(s)
    assert s["advanced"] and len(available_tiles(s)) == 13
    assert s["tokens"] == {"sale": 2, "relocate": 2}
    assert {len(s["up"][sh]) for sh in ("S", "M")} == {3} and len(s["up"]["L"]) == 2


def test_planning_area_refilled_from_reshuffled_discards_when_stack_runs_low():
    """RB Turn End: 'Draw new buildings from the stacks to fill the planning area. Reshuffle
    discard piles if needed.' A stack down to its last tiles is refilled from its discard pile,
    so the area is full again (3 small tiles below a face-up stack top)."""
    s = _turn_end()
    s["phase"] = "replenish"
    tiles = s["stacks"]["S"] + s["up"]["S"] + s["bdiscard"]["S"]
    s["stacks"]["S"], s["up"]["S"], s["bdiscard"]["S"] = tiles[:2], tiles[2:5], tiles[5:]
    replenish(s)
    assert len(s["up"]["S"]) == 3 and len(s["stacks"]["S"]) >= 1
    assert sorted(s["stacks"]["S"] + s["up"]["S"] + s["bdiscard"]["S"]) == sorted(tiles)


def test_advanced_phase_stays_when_starting_zone_empties():
    """RB Turn End: 'Once the advanced city planning phase is triggered ... you will stay in this
    state until the end of the game, even if empty blocks are created in the Starting Zone.'"""
    s = _turn_end()
    for i, cell in enumerate([(3, 4), (3, 5), (4, 4), (4, 5), (5, 5)]):
        s["buildings"][f"f{i}"] = {
            "id": f"f{i}",
            "name": "Firm",
            "tile": None,
            "fixed": True,
            "cells": [list(cell)],
            "token": False,
            "prison": [0, 0],
        }
    replenish(s)
    assert s["advanced"]
    s["buildings"] = {}  # every Starting-Zone block empty again
    replenish(s)
    assert s["advanced"] and len(available_tiles(s)) == 13
    assert s["tokens"] == {"sale": 2, "relocate": 2}
