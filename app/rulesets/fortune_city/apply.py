"""Playing a move: the check, a private copy changed in place by the phase table, and random
playouts on the same path; listing and drawing legal moves."""

from __future__ import annotations

from collections.abc import Callable

from app.engine.rng import Rng
from app.rulesets.fortune_city.checks import check
from app.rulesets.fortune_city.legal import to_act
from app.rulesets.fortune_city.phases import due_groups, move_groups, run
from app.rulesets.fortune_city.state import Move, State, clone_state
from app.rulesets.fortune_city.table import Table


def apply_move(state: State, seat: int, move: Move) -> State:
    """The state after `seat` plays `move` (checked first; the input is never changed)."""
    check(state, seat, move)
    s = clone_state(state)
    run(Table(s), seat, move)
    return s


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every concrete move `seat` may make now."""
    return [make(args, j) for count, make, args in move_groups(Table(state), seat) for j in range(count)]


def draw_move(state: State, seat: int, rng: Rng) -> Move:
    """The move `rng.choice(legal_moves(state, seat))` draws, building only that one move."""
    if seat not in to_act(state):
        rng.below(0)  # no legal move: refused as rng.choice([]) refuses
    return _draw(Table(state), seat, rng.below)  # the seat is due: to_act says so


def _draw(t: Table, seat: int, below: Callable[[int], int]) -> Move:
    """`draw_move` for a seat known to be due to act, drawing with `below` (the generator's)."""
    groups = due_groups(t, seat)
    total = 0
    for count, _, _ in groups:
        total += count
    j = below(total)
    for count, make, args in groups:
        if j < count:
            return make(args, j)
        j -= count
    raise AssertionError("unreachable: j is below the total count")


def playout(state: State, rng: Rng) -> State:
    """The final state of a random game from `state`, as `engine.ruleset.play_random` reaches it
    with `draw_move` as the random move: one private copy changed in place by the rules of
    `apply_move` (minus its check: every move drawn is legal), through one `Table` whose
    remembered frontiers and spots serve the whole game."""
    s = clone_state(state)
    t = Table(s)
    below = rng.below  # looked up once: two draws a move
    players = s["players"]
    while True:
        phase = s["phase"]
        if phase == "actions":
            below(1)  # play_random's rng.choice(to_act) of the one seat in turn
            seat = s["turn"]
            assert seat is not None  # the Player Actions phase always has a seat in turn
        elif phase == "over":
            return s
        else:
            seats = [i for i, p in enumerate(players) if not p["done"]]
            seat = seats[below(len(seats))]
        run(t, seat, _draw(t, seat, below))
