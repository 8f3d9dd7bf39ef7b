"""The round: naming, simultaneous placing, coins to change a resource, constructing, declaring
done, the Master Builder passing left, completed towns and the end of the game."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R
from tests.rulesets.tiny_towns.helpers import (
    build,
    done_all,
    moves_of,
    name,
    new_game,
    place,
    play,
    round_with,
    town,
    with_player,
)


def test_master_builder_names_then_everyone_places_simultaneously():
    """Round: the Master Builder names a resource; all players place it at the same time."""
    st = new_game(3)
    assert R.to_act(st) == [0]
    st = name(st, "wood")
    assert st["phase"] == "place" and R.to_act(st) == [0, 1, 2]
    st = place(st, 2, 5)
    assert R.to_act(st) == [0, 1]
    st = place(st, 0, 0)
    st = place(st, 1, 15)
    assert st["phase"] == "build"
    assert [pl["grid"][c] for pl, c in zip(st["p"], (0, 15, 5))] == ["wood"] * 3


def test_resource_must_go_on_an_empty_square():
    """Placing: the resource goes on an empty square of your own town."""
    st = new_game(2)
    st = with_player(st, 1, town("Wd . . .", ". . . .", ". . . .", ". . . ."))
    st = name(st, "wood")
    with pytest.raises(IllegalMove, match="empty square"):
        place(st, 1, 0)
    assert len(moves_of(st, 1, "place")) == 15


def test_spend_coin_to_place_a_different_resource():
    """RB-F Using: spend 1 coin to place a different resource than the one named."""
    st = new_game(2)
    st = with_player(st, 1, coins=2)
    st = name(st, "wood")
    st = place(st, 1, 3, "glass")
    assert st["p"][1]["grid"][3] == "glass" and st["p"][1]["coins"] == 1


def test_master_builder_cannot_change_their_resource():
    """RB-F Using: any number of players may change the resource, except the Master Builder."""
    st = new_game(2)
    st = with_player(st, 0, coins=2)
    st = name(st, "wood")
    assert {m["resource"] for m in moves_of(st, 0, "place")} == {"wood"}
    with pytest.raises(IllegalMove, match="Master Builder"):
        place(st, 0, 3, "glass")


def test_no_coin_no_change():
    """RB-F Using: changing the resource needs a coin to spend."""
    st = name(new_game(2), "wood")
    assert {m["resource"] for m in moves_of(st, 1, "place")} == {"wood"}
    with pytest.raises(IllegalMove, match="costs 1 coin"):
        place(st, 1, 3, "glass")


def test_no_coins_without_fortune():
    """Base game (Fortune off): no coins to change resources and no coin for 2 buildings."""
    st = new_game(2, fortune=False)
    st = with_player(st, 1, coins=3)
    st = name(st, "wood")
    assert {m["resource"] for m in moves_of(st, 1, "place")} == {"wood"}


def test_master_builder_passes_left():
    """Round: the Master Builder token passes to the player on the left (next seat)."""
    st = new_game(3, master=1)
    st = round_with(st, "wood", [0, 0, 0])
    st = done_all(st)
    assert st["master"] == 2 and st["round"] == 2 and st["phase"] == "name"
    st = done_all(round_with(st, "wood", [1, 1, 1]))
    assert st["master"] == 0


def test_construct_removes_resources_and_places_building_on_pattern_square():
    """Construction: the pattern's resources are removed; the building goes on one of its squares."""
    st = new_game(2)
    st = with_player(st, 0, town(". Wh . .", "Br . . .", ". . . .", ". . . ."))
    st = round_with(st, "glass", [4 + 1, 0])
    st = build(st, 0, "cottage", [1, 4, 5], 5)
    assert st["p"][0]["grid"][:6] == [None, None, None, None, None, "cottage"]
    with pytest.raises(IllegalMove, match="pattern"):
        build(st, 0, "cottage", [1, 4, 5], 5)


def test_building_target_must_be_a_pattern_square():
    """Construction: the building must go on one of the squares its pattern used (not elsewhere)."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", ". . . .", ". . . .", ". . . ."))
    st = round_with(st, "wheat", [15, 15])
    with pytest.raises(IllegalMove, match="one of the squares"):
        build(st, 0, "well", [0, 1], 2)
    st = build(st, 0, "well", [0, 1], 1)
    assert st["p"][0]["grid"][1] == "well"


def test_patterns_rotate_and_mirror():
    """Construction: a pattern may be rotated or mirrored (here the Cottage upside down and flipped)."""
    st = new_game(2)
    st = with_player(st, 0, town("Gl Br . .", "Wh . . .", ". . . .", ". . . ."))
    st = round_with(st, "stone", [15, 15])
    moves = moves_of(st, 0, "build")
    assert {"type": "build", "card": "cottage", "cells": [0, 1, 4], "at": 4} in moves


def test_complete_pattern_may_wait():
    """Construction: a completed pattern may be left unbuilt for a later round."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", ". . . .", ". . . .", ". . . ."))
    st = done_all(round_with(st, "wheat", [15, 15]))
    assert st["p"][0]["grid"][:2] == ["wood", "stone"]
    st = round_with(st, "wheat", [14, 14])
    assert moves_of(st, 0, "build")


def test_several_constructions_one_at_a_time_and_coin():
    """RB-F Gaining: constructing 2+ buildings by removing resources in a round gains exactly 1 coin."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", "Wd St . .", "Wd St . .", ". . . ."))
    st = round_with(st, "wheat", [15, 15])
    st = build(st, 0, "well", [0, 1], 0)
    st = build(st, 0, "well", [4, 5], 4)
    st = build(st, 0, "well", [8, 9], 8)
    st = done_all(st)
    assert st["p"][0]["coins"] == 1 and st["p"][1]["coins"] == 0


def test_one_construction_gains_nothing():
    """RB-F Gaining: a single construction in a round gains no coin."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", ". . . .", ". . . .", ". . . ."))
    st = done_all(build(round_with(st, "wheat", [15, 15]), 0, "well", [0, 1], 0))
    assert st["p"][0]["coins"] == 0


def test_chest_holds_four():
    """RB-F Storing: at most 4 coins; a coin gained beyond that is lost."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", "Wd St . .", ". . . .", ". . . ."), coins=4)
    st = round_with(st, "wheat", [15, 15])
    st = done_all(build(build(st, 0, "well", [0, 1], 0), 0, "well", [4, 5], 4))
    assert st["p"][0]["coins"] == 4


def test_monument_only_by_owner_once():
    """Monuments: only the player who kept a monument may construct it, and only once."""
    st = new_game(2, monuments=["cathedral_of_caterina", "starloom"])
    st = with_player(st, 0, town(". Wh . .", "St Gl . .", ". Wh . .", "St Gl . ."))
    st = with_player(st, 1, town(". Wh . .", "St Gl . .", ". . . .", ". . . ."))
    st = round_with(st, "wood", [15, 15])
    with pytest.raises(IllegalMove, match="only by the player who kept it"):
        build(st, 1, "cathedral_of_caterina", [1, 4, 5], 5)
    st = build(st, 0, "cathedral_of_caterina", [1, 4, 5], 5)
    assert st["p"][0]["built_monument"]
    assert not [m for m in moves_of(st, 0, "build") if m["card"] == "cathedral_of_caterina"]


def test_complete_town_drops_out_and_game_ends():
    """Town complete: no empty square at the end of a round; complete players drop out of
    naming and placing; the game ends when every town is complete."""
    st = new_game(2, master=0)
    full = town("Wd Wd Wd Wd", "Wd Wd Wd Wd", "Wd Wd Wd Wd", "Wd Wd Wd .")
    st = with_player(st, 0, list(full))
    st = done_all(round_with(st, "glass", [15, 0]))
    assert st["p"][0]["complete"] and not st["p"][1]["complete"]
    assert st["finish"] == [1, None]
    assert st["master"] == 1
    st = name(st, "glass")
    assert R.to_act(st) == [1]
    st = with_player(st, 1, list(full))
    st = done_all(place(st, 1, 15))
    assert st["phase"] == "over" and R.to_act(st) == []
    assert R.outcome(st) is not None


def test_last_player_names_every_resource():
    """Base rules: once the other towns are complete, the last player names every resource."""
    st = new_game(3, master=0)
    full = town("Wd Wd Wd Wd", "Wd Wd Wd Wd", "Wd Wd Wd Wd", "Wd Wd Wd Wd")
    st = with_player(st, 1, list(full), complete=True)
    st = with_player(st, 2, list(full), complete=True)
    for _ in range(3):
        assert st["master"] == 0
        st = done_all(round_with(st, "glass", [st["round"] - 1 + 0, None, None]))


def test_done_ends_your_constructions():
    """Round: after declaring done a player constructs nothing more this round."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", ". . . .", ". . . .", ". . . ."))
    st = round_with(st, "wheat", [15, 15])
    st = play(st, 0, {"type": "done"})
    assert R.to_act(st) == [1] and R.legal_moves(st, 0) == []
    with pytest.raises(IllegalMove, match="not your turn"):
        build(st, 0, "well", [0, 1], 0)


def test_outcome_absent_before_end():
    """End of game: no outcome while any town is incomplete."""
    assert R.outcome(new_game(2)) is None


def test_last_move_shown_without_foreign_fields():
    """View: the table shows the last move, with only the move's own fields; a move carrying a
    foreign field is refused outright (only listed moves are played)."""
    st = new_game(2)
    st = with_player(st, 0, town("Wd St . .", ". . . .", ". . . .", ". . . ."))
    st = round_with(st, "wheat", [15, 15])
    with pytest.raises(IllegalMove):
        R.apply(st, 0, {"type": "build", "card": "well", "cells": [0, 1], "at": 0, "note": "x" * 50})
    st = play(st, 0, {"type": "build", "card": "well", "cells": [0, 1], "at": 0})
    assert R.view(st, 1)["last"] == {
        "seat": 0,
        "move": {"type": "build", "card": "well", "cells": [0, 1], "at": 0},
    }
