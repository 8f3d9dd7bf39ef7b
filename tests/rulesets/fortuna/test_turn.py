"""A turn in strict order (RB-F Game Play, phases 1-3) and every action card."""

from __future__ import annotations

import pytest

from app.engine.ruleset import IllegalMove
from app.rulesets.fortuna import RULESET as R
from tests.rulesets.fortuna.helpers import arrange, at, game, play, province, seat_to_act

CARDS3 = ["harvest_grain", "building", "grain_trade"]


def _me(n=2, seed=0, cards=CARDS3, **fields):
    s = game(n, seed)
    me = seat_to_act(s)
    s = arrange(s, {me: cards})
    if fields:
        s = province(s, me, **fields)
    return s, me


def test_phases_come_in_strict_order():
    """Game Play: choose/execute, exchange, military power, the Emperor's favour, privileges, in
    that order; a move of a later phase is refused before its time."""
    s, me = _me()
    assert s["phase"] == "play"
    with pytest.raises(IllegalMove, match="strict order"):
        R.apply(s, me, {"type": "skip"})
    s = play(s, {"type": "play", "slot": 0, "args": None})
    assert s["phase"] == "exchange"
    with pytest.raises(IllegalMove, match="strict order"):
        R.apply(s, me, {"type": "pass", "die": 1})
    other = [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0]
    s = play(s, other)
    assert s["phase"] == "military"
    s = play(s, {"type": "skip"})
    assert s["phase"] == "favour" and len(s["rolled"]) == 1


def test_only_the_player_on_turn_may_move():
    """Game Play: players act in turn, following the start-player track."""
    s, me = _me()
    with pytest.raises(IllegalMove, match="not your turn"):
        R.apply(s, 1 - me, {"type": "play", "slot": 0, "args": None})
    assert R.legal_moves(s, 1 - me) == []


def test_the_face_down_card_is_flipped_at_the_start_of_the_turn():
    """Phase 2: the active player flips the face-down action card and has 3 to choose from."""
    s = game(3, seed=2)
    first, second = s["order"][0], s["order"][1]
    assert all(slot["face_up"] for slot in s["sides"][first])
    assert sum(not slot["face_up"] for slot in s["sides"][second]) == 1
    s = play(s, {"type": "play", "slot": 0, "args": None})
    s = play(s, [m for m in R.legal_moves(s, first) if m["type"] == "exchange"][0], {"type": "skip"})
    while s["order"][s["turn"]] == first:
        s = play(s, [m for m in R.legal_moves(s, first) if m["type"] in ("pass", "end")][0])
    assert all(slot["face_up"] for slot in s["sides"][second])
    assert s["last"]["events"][-1]["k"] == "flip_action"


def test_exchange_puts_the_new_card_face_down_and_the_chosen_card_on_the_other_side():
    """Phase 2: the chosen card goes face up to another side; the card taken lies face down in
    its place, so every player still has 3 action cards."""
    s, me = _me()
    s = play(s, {"type": "play", "slot": 0, "args": None})
    other = 1 - me
    j = next(j for j, slot in enumerate(s["sides"][other]) if slot["face_up"])
    taken = s["sides"][other][j]["card"]
    s = play(s, {"type": "exchange", "side": other, "slot": j})
    assert s["sides"][other][j] == {"card": "harvest_grain", "face_up": True, "public": True}
    assert s["sides"][me][0] == {"card": taken, "face_up": False, "public": True}
    assert len(s["sides"][me]) == 3


def test_exchange_only_with_a_face_up_card_of_another_side():
    """Phase 2: the exchange is with a face-up card on one of the other three sides; a face-down
    card is protected."""
    s, me = _me()
    s = play(s, {"type": "play", "slot": 0, "args": None})
    with pytest.raises(IllegalMove, match="other three sides"):
        R.apply(s, me, {"type": "exchange", "side": me, "slot": 1})
    down = next(j for j, slot in enumerate(s["sides"][1 - me]) if not slot["face_up"])
    with pytest.raises(IllegalMove, match="protected"):
        R.apply(s, me, {"type": "exchange", "side": 1 - me, "slot": down})
    sides = {m["side"] for m in R.legal_moves(s, me) if m["type"] == "exchange"}
    assert sides == {0, 1, 2, 3} - {me}  # the empty sides of a 2-player game count too


def test_playing_a_card_without_executing_it():
    """Additional Rules: the use of action cards is voluntary."""
    s, me = _me()
    after = play(s, {"type": "play", "slot": 0, "args": None})
    assert after["players"][me] == s["players"][me]


def test_military_power_gives_up_the_top_centurion_and_the_card_stays_face_up():
    """Phase 3: give up at most 1 Centurion (the top one) to play another face-up card of your
    own; it is not exchanged and stays face up."""
    s, me = _me(centurions=2, money=10)
    s = play(s, {"type": "play", "slot": 0, "args": {"water": 0}})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    assert {"type": "military", "slot": 1, "args": {"b": "market"}} in R.legal_moves(s, me)
    s = play(s, {"type": "military", "slot": 1, "args": {"b": "market"}})
    pl = s["players"][me]
    assert pl["centurions"] == 1 and pl["buildings"] == ["market"] and pl["money"] == 8
    assert s["sides"][me][1] == {"card": "building", "face_up": True, "public": True}
    assert s["phase"] == "favour"  # only one Centurion per turn


def test_military_power_needs_a_centurion():
    """Phase 3: without a Centurion there is no military power (the step is skipped)."""
    s, me = _me(centurions=0)
    s = play(s, {"type": "play", "slot": 0, "args": None})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    assert s["phase"] == "favour"


def test_military_power_cannot_play_the_card_just_taken():
    """Phase 3: the extra card must be face up; the newly taken card lies face down."""
    s, me = _me()
    s = play(s, {"type": "play", "slot": 0, "args": None})
    s = play(s, [m for m in R.legal_moves(s, me) if m["type"] == "exchange"][0])
    with pytest.raises(IllegalMove, match="face down"):
        R.apply(s, me, {"type": "military", "slot": 0, "args": {}})


def test_aqueduct_fills_at_the_start_of_the_turn_from_the_next_round():
    """Phase 1 / The Aqueduct: an Aqueduct built in an earlier round receives 1 water if empty;
    the water goes on the Aqueduct, not in the reservoir; never more than one."""
    s, me = _me(buildings=["aqueduct"], aqueduct=0, aqueduct_round=1)
    s = at(s, round=2)
    from tests.rulesets.fortuna.helpers import start_turn

    s["events"] = []
    start_turn(s)
    assert s["players"][me]["aqueduct"] == 1 and s["players"][me]["water"] == 1
    start_turn(s)  # full: no second unit
    assert s["players"][me]["aqueduct"] == 1
    fresh, me2 = _me(buildings=["aqueduct"], aqueduct=0, aqueduct_round=1)
    fresh["events"] = []
    start_turn(fresh)  # built this round: no water yet
    assert fresh["players"][me2]["aqueduct"] == 0


@pytest.mark.parametrize(
    ("water", "aq", "spend", "grain", "left"),
    [(2, None, 0, 2, (2, None)), (2, None, 2, 4, (0, None)), (1, 1, 1, 3, (1, 0)), (1, 1, 2, 4, (0, 0))],
)
def test_harvest_grain_spends_water_aqueduct_first(water, aq, spend, grain, left):
    """Action card Harvesting Grain (reconstructed): +1 grain and +1 per water spent (max 2);
    the Aqueduct's water is used first (The Aqueduct: it may be emptied by harvesting)."""
    s, me = _me(water=water, aqueduct=aq)
    s = play(s, {"type": "play", "slot": 0, "args": {"water": spend}})
    pl = s["players"][me]
    assert pl["grain"] == grain and (pl["water"], pl["aqueduct"]) == left


def test_harvest_cannot_spend_water_it_lacks():
    """Action card Harvesting (reconstructed): at most 2 water, and only water you have."""
    s, me = _me(water=1)
    with pytest.raises(IllegalMove, match="at most 2 water"):
        R.apply(s, me, {"type": "play", "slot": 0, "args": {"water": 2}})


def test_water_distribution_fills_the_reservoir():
    """Action card Water Distribution (reconstructed 2): the only source of reservoir water."""
    s, me = _me(cards=["water", "building", "grain_trade"])
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    assert s["players"][me]["water"] == 3


@pytest.mark.parametrize(
    ("card", "res", "have", "sell", "market", "money"),
    [
        ("grain_trade", "grain", 3, 3, False, 14),
        ("grain_trade", "grain", 3, 2, True, 13),
        ("grain_trade", "grain", 1, 1, False, 8),
        ("grain_trade", "grain", 1, 1, True, 9),
        ("wine_trade", "wine", 3, 3, False, 14),
        ("wine_trade", "wine", 3, 3, True, 17),
    ],
)
def test_trade_cards_and_the_market(card, res, have, sell, market, money):
    """Grain Trade (3 each, reconstructed; 2 before version 4, NOTES "Adjusted after simulation")
    and Wine Trade (3 each, RB-F); a Market adds +1 per unit sold (The Market). From 5 money."""
    s, me = _me(cards=[card, "building", "water"], **{res: have, "buildings": ["market"] if market else []})
    s = play(s, {"type": "play", "slot": 0, "args": {"n": sell}})
    assert s["players"][me]["money"] == money and s["players"][me][res] == have - sell


def test_money_stops_at_twenty():
    """Additional Rules: a player cannot have more than 20 money (the surplus is lost)."""
    s, me = _me(cards=["wine_trade", "building", "water"], wine=5, money=15)
    s = play(s, {"type": "play", "slot": 0, "args": {"n": 5}})
    assert s["players"][me]["money"] == 20


@pytest.mark.parametrize(("have", "n", "cost"), [(1, 1, 2), (1, 2, 5), (0, 2, 3), (2, 1, 3)])
def test_recruiting_pays_the_slot_prices(have, n, cost):
    """Centurions / Vestal Virgins (reconstructed): each new one costs its slot's price 1/2/3;
    at most 2 per action and 3 in all."""
    for card, key in (("centurions", "centurions"), ("vestals", "vestals")):
        s, me = _me(cards=[card, "building", "water"], money=10, **{key: have})
        s = play(s, {"type": "play", "slot": 0, "args": {"n": n}})
        assert s["players"][me][key] == have + n and s["players"][me]["money"] == 10 - cost


def test_no_more_than_three_centurions_or_vestals_and_no_debts():
    """Limits: 3 Centurions, 3 Vestals; no debts (you cannot recruit what you cannot pay)."""
    s, me = _me(cards=["centurions", "vestals", "water"], money=20, centurions=2, vestals=3)
    moves = R.legal_moves(s, me)
    assert {"type": "play", "slot": 0, "args": {"n": 1}} in moves
    assert {"type": "play", "slot": 0, "args": {"n": 2}} not in moves
    assert not any(m["slot"] == 1 and m["args"] for m in moves if m["type"] == "play")
    poor, me = _me(cards=["centurions", "vestals", "water"], money=1, centurions=1)
    with pytest.raises(IllegalMove, match="no debts"):
        R.apply(poor, me, {"type": "play", "slot": 0, "args": {"n": 1}})


def test_clerus_trades_a_vestal_for_a_die_up_to_three():
    """Clerus (RB-F: more dice through the Clerus; reconstructed exchange): 1 Vestal for 1 die,
    at most 3 dice."""
    s, me = _me(cards=["clerus", "building", "water"], vestals=2, dice=2)
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    assert (s["players"][me]["vestals"], s["players"][me]["dice"]) == (1, 3)
    full, me = _me(cards=["clerus", "building", "water"], vestals=2, dice=3)
    with pytest.raises(IllegalMove, match="fewer than 3 dice"):
        R.apply(full, me, {"type": "play", "slot": 0, "args": {}})


def test_building_limits():
    """Buildings: one Aqueduct (RB-F), one of each type (reconstructed), at most 3 (RB-F), the
    Palace only after marriage (RB-F), paid in full, while the pile lasts."""
    s, me = _me(money=20)
    builds = {
        m["args"]["b"] for m in R.legal_moves(s, me) if m["type"] == "play" and m["slot"] == 1 and m["args"]
    }
    assert builds == {"aqueduct", "market", "basilica"}
    wed, me = _me(money=20, married=True, buildings=["aqueduct"])
    builds = {
        m["args"]["b"] for m in R.legal_moves(wed, me) if m["type"] == "play" and m["slot"] == 1 and m["args"]
    }
    assert builds == {"market", "basilica", "palace"}
    three, me = _me(money=20, married=True, buildings=["aqueduct", "market", "basilica"])
    with pytest.raises(IllegalMove, match="at most 3 buildings"):
        R.apply(three, me, {"type": "play", "slot": 1, "args": {"b": "palace"}})
    empty, me = _me(money=20)
    empty["piles"]["market"] = 0
    with pytest.raises(IllegalMove, match="pile"):
        R.apply(empty, me, {"type": "play", "slot": 1, "args": {"b": "market"}})
    s = play(s, {"type": "play", "slot": 1, "args": {"b": "basilica"}})
    assert s["players"][me]["money"] == 18 and s["piles"]["basilica"] == 1  # Basilica 2 (version 4)


def test_marriage_once_for_four_money():
    """Marriage (reconstructed 4 money): once per game."""
    s, me = _me(cards=["marriage", "building", "water"])
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    assert s["players"][me]["married"] and s["players"][me]["money"] == 1
    again, me = _me(cards=["marriage", "building", "water"], married=True, money=9)
    with pytest.raises(IllegalMove, match="once per game"):
        R.apply(again, me, {"type": "play", "slot": 0, "args": {}})


def test_bribe_pays_the_owner_and_plays_their_card_in_place():
    """Bribe (rules-data B2; fee reconstructed 2): pay the owner to execute one of their face-up
    cards; their card does not move."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    other = 1 - me
    s = arrange(
        s, {me: ["bribe", "building", "water"], other: ["wine_trade", "clerus", "marriage"]}, down={other: 2}
    )
    s = province(s, me, wine=2)
    s = play(s, {"type": "play", "slot": 0, "args": {"side": other, "slot": 0, "args": {"n": 2}}})
    assert s["players"][me]["money"] == 5 - 2 + 6 and s["players"][other]["money"] == 7
    assert s["sides"][other][0]["card"] == "wine_trade"
    with pytest.raises(IllegalMove):  # a face-down card of theirs cannot be bribed
        R.apply(
            arrange(game(2), {me: ["bribe", "building", "water"]}, down={other: 2}),
            me,
            {"type": "play", "slot": 0, "args": {"side": other, "slot": 2, "args": {}}},
        )


def test_fortuna_card_moves_one_step_except_the_start_player():
    """Fortuna (reconstructed; version 4, NOTES "Adjusted after simulation"): 1 step toward Rome
    for a player who is not the start player of the round; the start player may still play the
    card, without executing it (it makes its holder start player or moves them, not both)."""
    s = game(3, seed=2)
    second = s["order"][1]
    s = province(at(arrange(s, {second: ["fortuna", "building", "water"]}), turn=1), second, position=4)
    assert seat_to_act(s) == second
    s = play(s, {"type": "play", "slot": 0, "args": {}})
    assert s["players"][second]["position"] == 5
    start, me = _me(n=3, seed=2, cards=["fortuna", "building", "water"], position=4)
    assert me == start["order"][0]
    fortuna = [m for m in R.legal_moves(start, me) if m["type"] == "play" and m["slot"] == 0]
    assert fortuna == [{"type": "play", "slot": 0, "args": None}]
    with pytest.raises(IllegalMove, match="not the start player"):
        R.apply(start, me, {"type": "play", "slot": 0, "args": {}})
    start = play(start, {"type": "play", "slot": 0, "args": None})
    assert start["players"][me]["position"] == 4


def test_bribe_reaches_only_cards_in_front_of_other_players():
    """Bribe (decision 2): the cards on an unoccupied side of a 2-player game belong to nobody,
    so nobody can be paid for them; only the other player's face-up cards can be bribed."""
    s = game(2, seed=0)
    me = seat_to_act(s)
    other = 1 - me
    s = arrange(
        s,
        {
            me: ["bribe", "building", "water"],
            other: ["wine_trade", "clerus", "marriage"],
            2: ["fortuna", "harvest_grain", "harvest_wine"],
        },
        down={other: 2},
    )
    s = province(s, me, money=5, wine=0)
    targets = {
        (m["args"]["side"], m["args"]["slot"])
        for m in R.legal_moves(s, me)
        if m["type"] == "play" and m["slot"] == 0 and m["args"]
    }
    assert targets == {(other, 1)}  # Clerus; Wine Trade has no wine to sell, Marriage lies face down
    with pytest.raises(IllegalMove, match="in\\s+front of another player"):
        R.apply(s, me, {"type": "play", "slot": 0, "args": {"side": 2, "slot": 0, "args": {}}})
