"""Taking moves back (engine.takeback): over 300 random games per game, every take-back leaves
each seat's view as it was before the moves taken back, never spans another seat's move or a
move that showed its mover something hidden, and the log with its take-back rows replays.

`CIVITAS_TAKEBACK_GAMES` changes the number of games per ruleset (300 by default)."""

from __future__ import annotations

import os

import pytest

import app.rulesets  # noqa: F401  (registers the product's rulesets)
from app.engine import registry
from app.engine.rng import Rng
from app.engine.ruleset import random_move
from app.engine.runner import parse_options, replay
from app.engine.takeback import MAX_TAKEBACK, Line, LineTooShort, reveals, takeable, undo_count, undo_move
from tests.support.testgame import TEST_GAME

GAMES = int(os.environ.get("CIVITAS_TAKEBACK_GAMES", "300"))
MOVES_PER_GAME = 60  # a random prefix of each game (long games would only repeat the same turns)
# The independent look at each move taken back: as many re-deals as the service makes, drawn
# from another generator.
CHECK_DEALS = 16


CHUNK = 50  # games per test case, so that no case nears the per-test timeout on a busy machine


def _chunks():
    """(ruleset, first game, games) cases covering GAMES games per ruleset."""
    rulesets = {r.id: r for r in registry.all_rulesets()}
    rulesets[TEST_GAME.id] = TEST_GAME
    return [
        pytest.param(r, start, min(CHUNK, GAMES - start), id=f"{r.id}-{start}")
        for r in rulesets.values()
        for start in range(0, GAMES, CHUNK)
    ]


def _game(ruleset, index: int):
    """Setup for game `index`: its player count and option set vary with the index."""
    counts = ruleset.conformance_players or list(range(ruleset.min_players, ruleset.max_players + 1))
    option_sets = [{}, *ruleset.conformance_options]
    players = counts[index % len(counts)]
    options = option_sets[(index // len(counts)) % len(option_sets)]
    return players, options, ruleset.setup(players, parse_options(ruleset, options), 1000 + index)


def _views(ruleset, state, players):
    """Every seat's view and the spectator's."""
    return [ruleset.view(state, seat) for seat in [*range(players), None]]


@pytest.mark.parametrize(("ruleset", "start", "games"), _chunks())
def test_take_backs_restore_every_view_and_never_span_a_reveal_or_another_seat(ruleset, start, games):
    """Random play where, after a move, its mover often takes back as many of its latest moves as
    `takeable` allows (a random number of them): the views of every seat and the spectator then
    equal the views they had before those moves; every move taken back was the taker's own,
    after the last row of any other seat, and reveals nothing on twice as many re-deals; the
    whole log, take-back rows included, replays to the final state."""
    taken = 0
    for index in range(start, start + games):
        chooser = Rng.from_seed(index, "takeback-test", ruleset.id)
        players, options, state = _game(ruleset, index)
        line = Line()
        rows: list[tuple[int, dict]] = []
        # The state at each step and who made the move to it, kept apart from the Line to check
        # its bookkeeping (a view is a pure function of the state: the views seen at a step are
        # the views of its state, computed when compared).
        history = [(state, None)]
        last_row_seat = None
        for _ in range(MOVES_PER_GAME):
            to_act = ruleset.to_act(state)
            if not to_act:
                break
            seat = chooser.choice(to_act)
            move = random_move(ruleset, state, seat, chooser)
            state = line.step(ruleset, state, seat, move)
            rows.append((seat, move))
            history.append((state, seat))
            last_row_seat = seat
            if chooser.below(3):
                continue
            allowed = takeable(ruleset, line, state, seat, MAX_TAKEBACK, chooser)
            if not allowed:
                continue
            count = 1 + chooser.below(allowed)
            undone = [(step.before, step.move) for step in list(line.steps)[-count:]]
            # Never another seat's move: the moves taken back are all the taker's, made after
            # the last row of any other seat.
            assert [mover for _state, mover in history[-count:]] == [seat] * count
            assert last_row_seat == seat
            # Never a reveal: each move taken back looks the same to its mover on fresh re-deals.
            afters = [before for before, _m in undone[1:]] + [state]
            for (before, undone_move), after in zip(undone, afters):
                assert not reveals(
                    ruleset,
                    seat,
                    before,
                    undone_move,
                    after,
                    Rng.from_seed(index, "check"),
                    deals=CHECK_DEALS,
                )
            state = line.took_back(seat, count)
            rows.append((seat, undo_move(count)))
            del history[-count:]
            assert _views(ruleset, state, players) == _views(ruleset, history[-1][0], players)
            taken += 1
        rebuilt = replay(ruleset, players, options, 1000 + index, rows)
        assert rebuilt == state
    # The property is not vacuous: take-backs happened.
    assert taken >= games // 10, f"only {taken} take-backs in {games} games"


def test_a_move_that_shows_the_mover_a_hidden_card_is_not_takeable():
    """The test game's draw shows the drawer the deck's top card, using no randomness: the
    re-deals see it, so it is not takeable; a pass beside it is."""
    state = TEST_GAME.setup(2, parse_options(TEST_GAME, {}), 7)
    line = Line()
    for seat in (0, 1):  # both bid: the draw phase, seat 0 to act
        state = line.step(TEST_GAME, state, seat, TEST_GAME.legal_moves(state, seat)[0])
    drawn = line.step(TEST_GAME, state, 0, {"type": "draw"})
    assert takeable(TEST_GAME, line, drawn, 0, 5, Rng(1)) == 0
    line.took_back(0, 1)
    passed = line.step(TEST_GAME, state, 0, {"type": "pass"})
    assert takeable(TEST_GAME, line, passed, 0, 5, Rng(1)) == 1
    assert takeable(TEST_GAME, line, passed, 1, 5, Rng(1)) == 0  # not seat 1's move


def test_suburbia_most_moves_reveal_a_tile_and_cannot_be_taken_back():
    """Suburbia: buying from the market slides a hidden tile in (no random draw involved); such
    moves are refused, and a take-back never lets a player see the next tile twice."""
    suburbia = registry.get("suburbia")
    refused = allowed = 0
    for seed in range(20):
        state = suburbia.setup(2, parse_options(suburbia, {}), seed)
        chooser = Rng.from_seed(seed, "suburbia")
        for _ in range(12):
            to_act = suburbia.to_act(state)
            if not to_act:
                break
            seat = to_act[0]
            line = Line()
            after = line.step(suburbia, state, seat, random_move(suburbia, state, seat, chooser))
            if takeable(suburbia, line, after, seat, 1, chooser):
                allowed += 1
            else:
                refused += 1
            state = after
    assert refused > allowed > 0


def test_line_refuses_what_it_does_not_hold():
    """A take-back longer than the run, or by another seat, is refused; a new seat's move starts
    a new run; the row's shape is strict."""
    line = Line(limit=3)
    for i in range(5):
        line.played(0, {"v": i}, {"m": i}, tag=i)
    assert len(line) == 3 and line.tags(2) == [3, 4]
    with pytest.raises(LineTooShort):
        line.target(0, 4)
    with pytest.raises(LineTooShort):
        line.target(1, 1)
    assert line.took_back(0, 2) == {"v": 3}
    line.played(1, {"v": 9}, {"m": 9})
    assert line.seat == 1 and len(line) == 1
    assert undo_count({"undo": 2}) == 2
    assert [
        undo_count(m) for m in ({"undo": 0}, {"undo": True}, {"undo": 1, "x": 1}, {"type": "undo"}, [1])
    ] == [None] * 5


def test_run_start_is_where_the_last_seats_run_began():
    """The version before the trailing run of the last mover's rows, at most MAX_TAKEBACK back."""
    from app.engine.takeback import run_start

    assert run_start([]) == 0
    assert run_start([0, 1, 1, 0, 0]) == 3
    assert run_start([1, 1]) == 0
    assert run_start([2] * (MAX_TAKEBACK + 5)) == 5
