"""The shared checks: game over, seat not to act, stale versions with the simultaneous rule, legality."""

import pytest

from app.engine.errors import ErrorCode, GameError
from app.engine.runner import History, play
from tests.support.testgame import TEST_GAME, TestGameOptions


def _state(players=2, rounds=1):
    return TEST_GAME.setup(players, TestGameOptions(rounds=rounds), 7)


def test_seat_not_asked_is_refused():
    """A seat that is not in to_act gets move/not_your_turn (403)."""
    state = _state()
    state = TEST_GAME.apply(state, 0, TEST_GAME.legal_moves(state, 0)[0])
    with pytest.raises(GameError) as err:
        play(TEST_GAME, state, 0, {"type": "bid", "card": "K001"}, sent_version=1, current_version=1)
    assert err.value.code is ErrorCode.NOT_YOUR_TURN  # 403 over REST: tests/test_error_codes.py


def test_illegal_move_names_the_rule():
    """An illegal move gets move/illegal (422) with the ruleset's sentence."""
    state = _state()
    with pytest.raises(GameError) as err:
        play(TEST_GAME, state, 0, {"type": "bid", "card": "K999"}, sent_version=0, current_version=0)
    assert err.value.code is ErrorCode.ILLEGAL_MOVE and "card from your hand" in err.value.detail


def test_malformed_move_is_refused():
    """A move that is not an object is malformed (422)."""
    with pytest.raises(GameError) as err:
        play(TEST_GAME, _state(), 0, ["bid"], sent_version=0, current_version=0)
    assert err.value.code is ErrorCode.MALFORMED_MOVE


def test_stale_version_in_a_simultaneous_phase_is_accepted():
    """Seat 1 was asked at version 0, still is at 1, and has not moved: its version-0 move stands."""
    state = _state()
    state1 = TEST_GAME.apply(state, 0, TEST_GAME.legal_moves(state, 0)[0])
    history = History(0, [TEST_GAME.to_act(state), TEST_GAME.to_act(state1)], [0])
    move = TEST_GAME.legal_moves(state1, 1)[0]
    assert play(TEST_GAME, state1, 1, move, sent_version=0, current_version=1, history=history)


def test_stale_version_after_a_turn_change_is_refused():
    """A seat that was not asked at every version since, or has moved since, gets 409 with the version."""
    state = _state()
    state1 = TEST_GAME.apply(state, 0, TEST_GAME.legal_moves(state, 0)[0])
    move = TEST_GAME.legal_moves(state1, 1)[0]
    for history in (History(0, [[0], [0, 1]], [0]), History(0, [[0, 1], [0, 1]], [1]), None):
        with pytest.raises(GameError) as err:
            play(TEST_GAME, state1, 1, move, sent_version=0, current_version=1, history=history)
        assert err.value.code is ErrorCode.STALE_VERSION and err.value.version == 1


def test_version_ahead_is_refused():
    """A version ahead of the game is always stale, even with a history that would let an older
    version through."""
    state = _state()
    for history in (None, History(5, [[0, 1]], [])):
        with pytest.raises(GameError) as err:
            play(
                TEST_GAME,
                state,
                0,
                TEST_GAME.legal_moves(state, 0)[0],
                sent_version=5,
                current_version=0,
                history=history,
            )
        assert err.value.code is ErrorCode.STALE_VERSION


def test_moves_after_the_end_are_refused():
    """Once the outcome exists, every move gets game/over."""
    state = _state(players=1)
    while TEST_GAME.to_act(state):
        seat = TEST_GAME.to_act(state)[0]
        state = TEST_GAME.apply(state, seat, TEST_GAME.legal_moves(state, seat)[0])
    with pytest.raises(GameError) as err:
        play(TEST_GAME, state, 0, {"type": "pass"}, sent_version=0, current_version=0)
    assert err.value.code is ErrorCode.GAME_OVER


class _Crashing(type(TEST_GAME)):
    """The test game, but its rules crash on a move of the wrong shape (as real rules may)."""

    def apply(self, state, seat, move):
        return {"x": 1}[move["type"]]


def test_each_refusal_is_a_sentence_naming_what_is_wrong():
    """Refusals: game over, seat not asked, stale or ahead version, not an object, wrong shape;
    each detail is the exact sentence the player sees, with the seat or versions it concerns."""
    state = _state()
    over = _state(players=1)
    while TEST_GAME.to_act(over):
        seat = TEST_GAME.to_act(over)[0]
        over = TEST_GAME.apply(over, seat, TEST_GAME.legal_moves(over, seat)[0])
    moved = TEST_GAME.apply(state, 0, TEST_GAME.legal_moves(state, 0)[0])
    cases = [
        (
            dict(ruleset=TEST_GAME, state=over, seat=0, move={}, sent_version=0, current_version=0),
            ErrorCode.GAME_OVER,
            "The game is over; no more moves are accepted.",
        ),
        (
            dict(ruleset=TEST_GAME, state=moved, seat=0, move={}, sent_version=1, current_version=1),
            ErrorCode.NOT_YOUR_TURN,
            "Seat 0 is not asked to act now.",
        ),
        (
            dict(ruleset=TEST_GAME, state=state, seat=1, move={}, sent_version=3, current_version=2),
            ErrorCode.STALE_VERSION,
            "The game is at version 2, not 3; reload the game and try again.",
        ),
        (
            dict(ruleset=TEST_GAME, state=state, seat=1, move=[], sent_version=0, current_version=0),
            ErrorCode.MALFORMED_MOVE,
            "A move must be a JSON object.",
        ),
        (
            dict(
                ruleset=_Crashing(),
                state=state,
                seat=1,
                move={"type": "y"},
                sent_version=0,
                current_version=0,
            ),
            ErrorCode.MALFORMED_MOVE,
            "The move is not one of this game's move shapes; ask for the legal moves to see them.",
        ),
    ]
    for kwargs, code, detail in cases:
        ruleset, state_, seat, move = (kwargs.pop(k) for k in ("ruleset", "state", "seat", "move"))
        with pytest.raises(GameError) as err:
            play(ruleset, state_, seat, move, **kwargs)
        assert (err.value.code, err.value.detail) == (code, detail)
    with pytest.raises(GameError) as err:
        play(TEST_GAME, state, 1, {}, sent_version=3, current_version=2)
    assert err.value.version == 2


def test_replay_from_setup_or_from_a_snapshot_gives_the_same_state():
    """Replay: (setup, moves) rebuilds the state; so does a snapshot plus the moves after it;
    options may be given raw (None means the defaults) or parsed."""
    from app.engine.runner import parse_options, replay

    state, log = _state(rounds=2), []
    for _ in range(6):
        seat = TEST_GAME.to_act(state)[0]
        move = TEST_GAME.legal_moves(state, seat)[-1]
        log.append((seat, move))
        state = TEST_GAME.apply(state, seat, move)
        if len(log) == 3:
            snapshot = state
    assert replay(TEST_GAME, 2, {"rounds": 2}, 7, log) == state
    assert replay(TEST_GAME, 2, TestGameOptions(rounds=2), 7, log) == state
    assert replay(TEST_GAME, 2, {}, 7, log[3:], start=snapshot) == state
    assert parse_options(TEST_GAME, None) == TestGameOptions()
    assert replay(TEST_GAME, 2, None, 7, []) == TEST_GAME.setup(2, TestGameOptions(), 7)
