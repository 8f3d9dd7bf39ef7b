"""Solo variant: the resource deck, the coin change, reactions to the deck, the Jeweler's coin,
the end and the rank names."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R
from tests.rulesets.tiny_towns.helpers import build, moves_of, new_game, play, town, with_player

E = ". . . ."


def _solo(**fields):
    st = new_game(
        1,
        buildings=["cottage", "farm", "tavern", "chapel", "jeweler", "well", "factory"],
        monuments=["starloom"],
    )
    return with_player(st, 0, fields.pop("grid", None), **fields) if fields else st


def test_choose_one_of_three_cards():
    """Solo: choose 1 of the 3 revealed cards; it goes face down to the bottom of the deck and the
    top card replaces it."""
    st = _solo()
    deck = st["solo_deck"]
    assert moves_of(st, 0, "choose_card") == [{"type": "choose_card", "index": i} for i in range(3)]
    st2 = play(st, 0, {"type": "choose_card", "index": 1})
    assert st2["named"] == deck["shown"][1] and st2["phase"] == "place"
    assert st2["solo_deck"]["shown"] == [deck["shown"][0], deck["deck"][0], deck["shown"][2]]
    assert st2["solo_deck"]["deck"] == deck["deck"][1:] + [deck["shown"][1]]


def test_solo_coin_changes_resource():
    """Solo (RB-F): spend 1 coin to place a different resource than the chosen card shows."""
    st = play(_solo(coins=1), 0, {"type": "choose_card", "index": 0})
    other = next(r for r in ("wood", "glass") if r != st["named"])
    st = play(st, 0, {"type": "place", "resource": other, "cell": 3})
    assert st["p"][0]["coins"] == 0 and st["p"][0]["grid"][3] == other


def test_solo_deck_counts_as_another_player_naming():
    """Solo: Factory and similar cards treat the deck choice as another player naming."""
    st = _solo(grid=town("factory . . .", E, E, E), store={"0": ["wood", "wheat", "brick", "glass", "stone"]})
    st = play(st, 0, {"type": "choose_card", "index": 0})
    assert {m["resource"] for m in moves_of(st, 0, "place")} == {"wood", "wheat", "brick", "glass", "stone"}


def test_solo_jeweler_needs_a_coin():
    """Solo (RB-F): you must be able to spend 1 coin to construct the Jeweler."""
    st = _solo(grid=town(". St . .", "Br Gl Br .", E, E))
    st = play(st, 0, {"type": "choose_card", "index": 0})
    st = play(st, 0, {"type": "place", "resource": st["named"], "cell": 15})
    assert not [m for m in moves_of(st, 0, "build") if m["card"] == "jeweler"]
    with pytest.raises(IllegalMove, match="coin cost"):
        build(st, 0, "jeweler", [1, 4, 5, 6], 5)
    st = with_player(st, 0, None, coins=1)
    st = build(st, 0, "jeweler", [1, 4, 5, 6], 5)
    assert st["p"][0]["coins"] == 0


def test_solo_game_ends_with_rank_name():
    """Solo: the game ends when the town is complete; the score gets a rank name."""
    st = _solo(grid=town(*["well well well well"] * 3, "well well well ."))
    st = play(st, 0, {"type": "choose_card", "index": 0})
    st = play(st, 0, {"type": "place", "resource": st["named"], "cell": 15})
    st = play(st, 0, {"type": "done"})
    out = R.outcome(st)
    assert st["phase"] == "over" and out.ranks == [1]
    assert out.scores == [-1] and out.extra["rank_name"] == "Aspiring Architect"


def test_solo_rank_thresholds():
    """Solo ranks: 38+ Master Architect, 32 Town Planner, 25 Engineer, 18 Carpenter, 10 Builder's
    Apprentice, below Aspiring Architect."""
    from app.rulesets.tiny_towns.scoring import solo_rank

    assert [solo_rank(s) for s in (40, 38, 37, 32, 25, 18, 17, 10, 9)] == [
        "Master Architect",
        "Master Architect",
        "Town Planner",
        "Town Planner",
        "Engineer",
        "Carpenter",
        "Builder's Apprentice",
        "Builder's Apprentice",
        "Aspiring Architect",
    ]


def test_solo_random_game_terminates():
    """Solo: a full random game ends with an outcome."""
    st = R.setup(1, R.Options(fortune=True), 7)
    rng = Rng(7)
    while R.to_act(st):
        st = R.apply(st, 0, rng.choice(R.legal_moves(st, 0)))
    assert R.outcome(st).extra["rank_name"]
