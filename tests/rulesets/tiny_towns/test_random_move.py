"""The fast `random_move` sampler: the same draw as a uniform pick from legal_moves, and apply's
shortcut for the move it drew accepts that move only."""

from __future__ import annotations

import pytest

from app.engine.rng import Rng
from app.engine.ruleset import IllegalMove
from app.rulesets.tiny_towns import RULESET as R


def _placing_state(seed: int, filled: int = 0):
    """A 3-player game played at random until a seat with at least `filled` squares taken owes
    a placement (the indexed draw)."""
    state = R.setup(3, R.Options(fortune=True), seed)
    rng = Rng.from_seed(seed, "to-place")
    while True:
        for seat in R.to_act(state):
            pl = state["p"][seat]
            taken = sum(v is not None for v in pl["grid"])
            if state["phase"] == "place" and not pl["pending"] and taken >= filled:
                return state, seat
        seat = rng.choice(R.to_act(state))
        state = R.apply(state, seat, R.random_move(state, seat, rng))


@pytest.mark.parametrize("seed", range(4))
def test_random_move_draws_what_a_uniform_pick_from_legal_moves_draws(seed):
    """Placing a named resource (RB: place it on an empty square): the sampler indexes the
    (resource, square) moves and reactions in listing order, so it uses the generator exactly as
    rng.choice(legal_moves) does and returns the same move."""
    state, seat = _placing_state(seed)
    for k in range(30):
        a, b = Rng.from_seed(seed, k), Rng.from_seed(seed, k)
        assert R.random_move(state, seat, a) == b.choice(R.legal_moves(state, seat))
        assert a.state == b.state


def test_a_drawn_move_changed_by_the_caller_is_refused():
    """A resource must be placed on an empty square of your town: apply's shortcut for the
    drawn move compares with its own copy, so a caller's edit is checked against the rules."""
    state, seat = _placing_state(7, filled=2)
    move = R.random_move(state, seat, Rng.from_seed(7, "draw"))
    assert move["type"] == "place"
    taken = next(i for i, v in enumerate(state["p"][seat]["grid"]) if v is not None)
    move["cell"] = taken
    with pytest.raises(IllegalMove, match="empty square"):
        R.apply(state, seat, move)


def test_the_drawn_move_gives_the_same_state_as_a_listed_move():
    """Placing the drawn resource: applying it through the shortcut or through the listed moves
    gives the same next state."""
    state, seat = _placing_state(11)
    move = R.random_move(state, seat, Rng.from_seed(11, "draw"))
    fast = R.apply(state, seat, move)
    other_state, other_seat = _placing_state(12)
    R.random_move(other_state, other_seat, Rng.from_seed(12, "draw"))  # forgets the first draw
    assert R.apply(state, seat, dict(move)) == fast
