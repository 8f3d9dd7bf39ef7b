"""Collect or pay money (income) and adjust population (reputation)."""

from __future__ import annotations

from tests.rulesets.suburbia.helpers import game, play, put, stats, turn_of, world


def player(**fields):
    return put(game(2, 4), 0, **{"income": 0, "rep": 0, "pop": 5, "money": 10, **fields})


def test_positive_income_is_collected():
    """Income on a positive number: collect that amount."""
    w = world(player(income=4))
    w.income_step(0)
    assert w.players[0]["money"] == 14


def test_negative_income_is_paid():
    """Income on a negative number: pay that amount."""
    w = world(player(income=-3))
    w.income_step(0)
    assert w.players[0]["money"] == 7


def test_short_of_money_population_pays_the_rest():
    """Not enough money: pay what you have, then move population back $1 per space."""
    w = world(player(income=-5, money=2, pop=10))
    w.income_step(0)
    assert (w.players[0]["money"], w.players[0]["pop"]) == (0, 7)


def test_population_never_goes_below_zero_for_income():
    """Population cannot go below 0; if money is still owed, nothing happens."""
    w = world(player(income=-5, money=1, pop=2))
    w.income_step(0)
    assert (w.players[0]["money"], w.players[0]["pop"]) == (0, 0)


def test_reputation_moves_population():
    """Adjust Population by the Reputation value (up or down)."""
    w = world(player(rep=3))
    w.reputation_step(0)
    assert w.players[0]["pop"] == 8
    w = world(player(rep=-2))
    w.reputation_step(0)
    assert w.players[0]["pop"] == 3


def test_below_zero_population_costs_a_dollar_per_step():
    """At Population 0, further backward steps cost $1 each; unpaid steps do nothing."""
    w = world(player(rep=-4, pop=1, money=2))
    w.reputation_step(0)
    assert (w.players[0]["pop"], w.players[0]["money"]) == (0, 2 - 2)
    w = world(player(rep=-3, pop=0, money=0))
    w.reputation_step(0)
    assert (w.players[0]["pop"], w.players[0]["money"]) == (0, 0)


def test_reputation_step_crosses_red_lines():
    """Red Lines apply to the reputation step: up costs Income and Reputation."""
    w = world(player(rep=3, pop=13, income=2))
    w.reputation_step(0)
    assert (w.players[0]["pop"], w.players[0]["income"], w.players[0]["rep"]) == (16, 1, 2)


def test_income_debt_can_drop_population_below_a_red_line():
    """Red Lines: dipping below a line (here by paying income debt) gives Income and
    Reputation back."""
    w = world(player(income=-3, money=0, pop=16, rep=0))
    w.income_step(0)
    assert (w.players[0]["pop"], w.players[0]["income"], w.players[0]["rep"]) == (13, -2, 1)


def test_steps_run_in_order_within_a_turn():
    """Gameplay order: collect income before reputation moves population."""
    s = turn_of(player(income=-4, rep=-1, money=3, pop=3), 0)
    s = play(s, {"type": "lake", "slot": 6, "at": [0, 3]})  # next to the Factory: +$2
    # income: pay 4 of $5, none left; reputation: 3 -> 2
    assert stats(s, 0) == {"money": 1, "income": -4, "rep": -1, "pop": 2}
