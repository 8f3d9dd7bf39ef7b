"""Setup and the data tables (RB-F Setup as restated in rules-data B2, and the card tables)."""

from __future__ import annotations

from collections import Counter

import pytest

from app.rulesets.fortuna import RULESET as R
from app.rulesets.fortuna import data
from tests.rulesets.fortuna.helpers import arrange, game, play, seat_to_act


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_province_starts_with_money_5_and_one_of_each(n):
    """Setup: pawn on its village (step 0), money 5, 1 grain, water, wine, die, Vestal, Centurion,
    no buildings, not married, no privilege cards."""
    s = game(n)
    for pl in s["players"]:
        assert (pl["position"], pl["money"], pl["grain"], pl["water"], pl["wine"]) == (0, 5, 1, 1, 1)
        assert (pl["dice"], pl["vestals"], pl["centurions"]) == (1, 1, 1)
        assert pl["buildings"] == [] and not pl["married"] and pl["hand"] == [] and pl["aqueduct"] is None


@pytest.mark.parametrize("n", [2, 3, 4])
def test_twelve_action_cards_three_per_side_one_face_down_per_player(n):
    """Setup: all 12 action cards dealt 3 per board side; each player has one face down; an
    unoccupied side's 3 cards lie face up. (The first player's card is already flipped: their
    turn has begun.)"""
    s = game(n, seed=3)
    cards = [slot["card"] for row in s["sides"] for slot in row]
    assert sorted(cards) == sorted(data.ACTIONS) and len(s["sides"]) == 4
    first = s["order"][0]
    for side, row in enumerate(s["sides"]):
        down = [slot for slot in row if not slot["face_up"]]
        if side < n and side != first:
            assert len(down) == 1 and not down[0]["public"]
        else:
            assert down == []


@pytest.mark.parametrize(("n", "deck", "piles"), [(2, 22, 2), (3, 22, 2), (4, 26, 3)])
def test_privilege_deck_and_building_piles_by_player_count(n, deck, piles):
    """Setup: 26 privilege cards, the 4 with the 4 pawns removed with 2-3 players; building
    piles of 3 per type (8 cards in all with 2-3 players)."""
    s = game(n)
    assert len(s["deck"]) == deck and len(set(s["deck"])) == deck
    if n < 4:
        assert sorted(s["removed"]) == sorted(r["id"] for r in data.PRIVILEGE_ROWS if r.get("four_pawns"))
    assert s["piles"] == {b: piles for b in data.BUILDINGS}


def test_tokens_three_on_the_palace_and_favour_cards_face_up():
    """Setup: 15 privilege tokens, 3 on Caesar's palace; the 6 favour cards face up, no tokens."""
    s = game(3)
    assert s["palace_tokens"] == 3 and s["supply"] == 12
    assert s["favours"] == [{"used": False, "tokens": 0}] * 6


def test_start_player_order_is_random_and_the_first_player_acts():
    """Setup: discs on the start-player track in random order; the start player begins."""
    orders = {tuple(game(4, seed=k)["order"]) for k in range(12)}
    assert len(orders) > 3
    s = game(4, seed=5)
    assert sorted(s["order"]) == [0, 1, 2, 3] and R.to_act(s) == [s["order"][0]]


def test_setup_is_reproducible_from_the_seed():
    """Chance: the whole setup comes from the seed (same seed, same deal and deck)."""
    assert game(3, seed=9) == game(3, seed=9)
    assert game(3, seed=9)["deck"] != game(3, seed=10)["deck"]


def test_tables_have_the_rulebook_counts_and_sources():
    """Content as data: 12 action cards, 6 favour cards with RB-F maxima, 4 building types of 3,
    privilege cards A 5 / B 8 / C 13; every row names its source."""
    assert len(data.ACTIONS) == 12
    assert {k: f["max_steps"] for k, f in data.FAVOURS.items()} == {1: 1, 2: 2, 3: 2, 4: 3, 5: 2, 6: 3}
    assert Counter(r["cls"] for r in data.PRIVILEGE_ROWS) == {"A": 5, "B": 8, "C": 13}
    assert sum(b["copies_4p"] for b in data.BUILDING_ROWS) == 12
    for rows in (data.ACTION_ROWS, data.FAVOUR_ROWS, data.BUILDING_ROWS, data.PRIVILEGE_ROWS):
        assert all(row.get("source") for row in rows)
    assert data.ACTIONS["wine_trade"]["price"] == 3 and not data.ACTIONS["wine_trade"]["proposed"]
    assert data.ACTIONS["harvest_grain"]["proposed"]
    # the values adjusted after simulation (version 4) stay marked as reconstructions and say so
    adjusted = [data.ACTIONS["grain_trade"], data.ACTIONS["fortuna"]]
    assert all(r["proposed"] and "adjusted after simulation" in r["source"] for r in adjusted)
    assert data.BUILDINGS["basilica"]["proposed_cost"]
    assert "after simulation" in data.BUILDINGS["basilica"]["source"]
    assert (
        data.ACTIONS["grain_trade"]["price"],
        data.ACTIONS["fortuna"]["not_start_player"],
        data.BUILDINGS["basilica"]["cost"],
    ) == (3, True, 2)
    assert (
        data.LIMITS["money"],
        data.LIMITS["dice"],
        data.LIMITS["vestals"],
        data.LIMITS["centurions"],
        data.LIMITS["buildings"],
    ) == (20, 3, 3, 3, 3)


def test_registered_with_a_version_and_labelled_options_defaulting_to_the_standard_game():
    """Registration: `fortuna` is registered with a version and an Options model whose fields
    (the 2-player rule, peeking at the face-down starting card) are labelled for people; the
    defaults give the standard game (the 2-player flip on, nobody sees the face-down card)."""
    import app.rulesets  # noqa: F401  (registers the product's rulesets)
    from app.engine import registry

    assert registry.get("fortuna") is R
    assert R.version and (R.min_players, R.max_players) == (2, 4)
    schema = R.Options.model_json_schema()["properties"]
    assert set(schema) == {"two_player_flip", "peek_own_card"}
    assert "2-player" in schema["two_player_flip"]["title"]
    for prop in schema.values():
        assert len(prop["title"]) > 10 and len(prop["description"]) > 40
    assert R.Options().model_dump() == {"two_player_flip": True, "peek_own_card": False}
    standard = game(2, seed=3)
    assert standard["options"] == {"two_player_flip": True, "peek_own_card": False}
    assert standard == R.setup(2, R.Options(two_player_flip=True, peek_own_card=False), 3)


def test_the_general_stock_has_no_limit():
    """Components (decision 19): the box holds 15 grain, water and wine, 12 Vestals and
    Centurions and 9 dice (rules-data B2), but RB-F never says what happens when the stock runs
    out, so it is unlimited: with 4 players every province may reach 3 dice (12 > 9)."""
    assert data.GAME["stock"]["dice"] == 9 and data.GAME["stock"]["limits"] is False
    s = game(4, seed=0)
    me = seat_to_act(s)
    for seat in range(4):
        s["players"][seat].update(dice=3 if seat != me else 2, grain=15)
    s = arrange(s, {me: ["clerus", "harvest_grain", "water"]})
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    assert [pl["dice"] for pl in s["players"]] == [3, 3, 3, 3]
    assert sum(pl["grain"] for pl in s["players"]) == 60
