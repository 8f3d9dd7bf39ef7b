"""The conformance checks every registered ruleset must pass, as plain functions.

Used by tests/engine/test_conformance.py (over every ruleset, player count and variant) and by the
benchmarks. Each check raises AssertionError with a message that names the seed and the move.
"""

from __future__ import annotations

import json
from typing import Any

from app.engine.rng import Rng
from app.engine.runner import parse_options, replay
from app.engine.ruleset import IllegalMove, Move, Ruleset, State, play_random, playout, random_move

FORBIDDEN_VIEW_KEYS = {"rng", "seed"}


def _roundtrip(value: Any, what: str) -> None:
    text = json.dumps(value, sort_keys=True)
    assert json.loads(text) == value, f"{what} does not survive a JSON round trip"


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        out = set(value)
        for v in value.values():
            out |= _keys(v)
        return out
    if isinstance(value, list):
        found: set[str] = set()
        for v in value:
            found |= _keys(v)
        return found
    return set()


def check_views(ruleset: Ruleset, state: State, players: int, rng: Rng, label: str) -> None:
    """Views are JSON, name no generator or seed, and survive determinization for every seat."""
    for seat in [*range(players), None]:
        view = ruleset.view(state, seat)
        _roundtrip(view, f"{label}: view for seat {seat}")
        leaked = FORBIDDEN_VIEW_KEYS & _keys(view)
        assert not leaked, f"{label}: view for seat {seat} has keys {leaked}"
        det = ruleset.determinize(state, seat, rng)
        assert ruleset.view(det, seat) == view, (
            f"{label}: view(determinize(s, {seat}), {seat}) differs from view(s, {seat})"
        )


def _strict(value: Any) -> str:
    """A move's JSON text with sorted keys: equal only when types match too (true is not 1)."""
    return json.dumps(value, sort_keys=True)


# What the engine's move check turns into "malformed move" (422) when a move's shape is wrong.
SHAPE_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def perturbations(move: Move, moves: list[Move]) -> list[tuple[Move, bool]]:
    """Near misses of a legal move, each with whether it keeps the move's shape. Same shape:
    other cells and amounts (numbers moved by a little and a lot), other ids (strings other
    legal moves use for the same key, or unknown ones), flipped flags, shorter or longer lists,
    an extra key. Other shape (a key dropped, a number as text or float, a flag as a number,
    null for text): the rules may also refuse these with an error the engine reports as a
    malformed move. Nested objects get the same changes one level down."""
    others: dict[str, list[Any]] = {}
    for m in moves:
        for k, v in m.items():
            if isinstance(v, str) and v not in others.setdefault(k, []):
                others[k].append(v)
    out: list[tuple[Move, bool]] = [(dict(move, unexpected_key=1), True)]
    for k, v in move.items():
        out.append(({kk: vv for kk, vv in move.items() if kk != k}, False))
        if isinstance(v, bool):
            out += [({**move, k: not v}, True), ({**move, k: int(v)}, False)]
        elif isinstance(v, int):
            out += [({**move, k: v + d}, True) for d in (1, -1, 7, 1000)]
            out += [({**move, k: float(v)}, False), ({**move, k: str(v)}, False)]
        elif isinstance(v, str):
            out += [({**move, k: o}, True) for o in others.get(k, [])[:4] if o != v]
            out += [({**move, k: v + "?"}, True), ({**move, k: None}, False)]
        elif isinstance(v, list):
            out += [({**move, k: v[:-1]}, True), ({**move, k: v + (v[-1:] if v else [0])}, True)]
        elif isinstance(v, dict):
            out += [({**move, k: p}, same) for p, same in perturbations(v, [])]
    return out


def check_refuses_unlisted(
    ruleset: Ruleset, state: State, seat: int, moves: list[Move], sample: list[Move], label: str
) -> None:
    """Moves that are not listed are refused, checked on perturbations of the sampled legal
    moves: never accepted; refused with IllegalMove (naming the rule) when they keep the move's
    shape, and at worst with a shape error (reported as malformed) when they do not."""
    listed = {_strict(m) for m in moves}
    for move in sample:
        for bad, same_shape in perturbations(move, moves):
            if _strict(bad) in listed:
                continue
            try:
                ruleset.apply(state, seat, bad)
            except IllegalMove:
                continue
            except SHAPE_ERRORS as exc:
                if not same_shape:
                    continue
                raise AssertionError(
                    f"{label}: seat {seat}'s unlisted move {bad} raised "
                    f"{type(exc).__name__} instead of IllegalMove"
                ) from exc
            raise AssertionError(
                f"{label}: seat {seat}'s unlisted move {bad} was accepted "
                f"(a perturbation of the legal {move})"
            )


# Long: one game's walk with every contract check at the step it belongs to, read top to bottom.
def random_playout(
    ruleset: Ruleset,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    max_moves: int = 5000,
    check_every_legal: int = 30,
    check_views_every: int = 1,
    check_unlisted: bool = True,
) -> tuple[State, list[tuple[int, Move]]]:
    """Play random legal moves to the end, checking the contract on the way (every listed move
    sampled is accepted, perturbations of one that are not listed are refused); return
    (state, log)."""
    label = f"{ruleset.id} players={players} options={options} seed={seed}"
    opts = parse_options(ruleset, options)
    state = ruleset.setup(players, opts, seed)
    _roundtrip(state, f"{label}: initial state")
    chooser = Rng.from_seed(seed, "chooser")
    probe = Rng.from_seed(seed, "unlisted")  # its own stream: the game played stays the same
    det_rng = Rng.from_seed(seed, "determinize")
    log: list[tuple[int, Move]] = []
    for step in range(max_moves + 1):
        to_act = ruleset.to_act(state)
        if step % check_views_every == 0:
            check_views(ruleset, state, players, det_rng, f"{label} step {step}")
        if not to_act:
            break
        assert ruleset.outcome(state) is None, f"{label}: outcome before the end at step {step}"
        assert len(set(to_act)) == len(to_act) and all(0 <= s < players for s in to_act), (
            f"{label}: bad to_act {to_act}"
        )
        seat = chooser.choice(to_act)
        moves = ruleset.legal_moves(state, seat)
        assert moves, f"{label}: seat {seat} must act at step {step} but has no legal move"
        _roundtrip(moves, f"{label}: legal moves")
        before = json.dumps(state, sort_keys=True)
        sample = (
            moves
            if len(moves) <= check_every_legal
            else [chooser.choice(moves) for _ in range(check_every_legal)]
        )
        for move in sample:
            ruleset.apply(state, seat, move)  # must not raise: every legal move is accepted
        if check_unlisted:
            check_refuses_unlisted(ruleset, state, seat, moves, [probe.choice(moves)], label)
        move = chooser.choice(moves)
        previous, state = state, ruleset.apply(state, seat, move)
        assert json.dumps(previous, sort_keys=True) == before, f"{label}: apply mutated its input"
        log.append((seat, move))
        _roundtrip(state, f"{label}: state after step {step}")
    else:
        raise AssertionError(f"{label}: no end after {max_moves} moves")
    outcome = ruleset.outcome(state)
    assert outcome is not None, f"{label}: to_act is empty but there is no outcome"
    assert len(outcome.scores) == players and len(outcome.ranks) == players, f"{label}: outcome size"
    others = [o["rank"] for o in outcome.extra.get("others", ())]  # e.g. Dale the Bot
    assert min([*outcome.ranks, *others]) == 1, f"{label}: nobody ranked first"
    _roundtrip(outcome.to_json(), f"{label}: outcome")
    rebuilt = replay(ruleset, players, opts, seed, log)
    assert rebuilt == state, f"{label}: replaying the log gives a different state"
    return state, log


def move_kind(move: Move) -> Any:
    """A move's family for coverage checks: its `type` field, else the names of its fields."""
    return move.get("type", tuple(sorted(move))) if isinstance(move, dict) else type(move).__name__


def check_random_move(
    ruleset: Ruleset, state: State, seat: int, rng: Rng, label: str, *, draws_per_move: int = 20
) -> None:
    """`random_move` returns only members of `legal_moves` (strict JSON equality), draws the same
    move from the same generator state, leaves the state unchanged, and reaches every kind of move
    listed: draws continue until each kind is seen, up to `draws_per_move` x the number of legal
    moves (a uniform sampler misses a kind of one move in M with probability e^-20)."""
    moves = ruleset.legal_moves(state, seat)
    legal = {json.dumps(m, sort_keys=True) for m in moves}
    wanted = {move_kind(m) for m in moves}
    before = json.dumps(state, sort_keys=True)
    twin = Rng(rng.state)
    first = random_move(ruleset, state, seat, rng)
    assert random_move(ruleset, state, seat, twin) == first, (
        f"{label}: random_move differs for the same generator state"
    )
    seen = {move_kind(first)}
    draws = 1
    while draws < draws_per_move * len(moves) and not wanted <= seen:
        move = random_move(ruleset, state, seat, rng)
        assert json.dumps(move, sort_keys=True) in legal, (
            f"{label}: random_move gave {move!r}, which is not in legal_moves"
        )
        seen.add(move_kind(move))
        draws += 1
    assert json.dumps(first, sort_keys=True) in legal, (
        f"{label}: random_move gave {first!r}, which is not in legal_moves"
    )
    assert wanted <= seen, (
        f"{label}: random_move never drew a move of kind {sorted(map(str, wanted - seen))} in {draws} draws"
    )
    assert json.dumps(state, sort_keys=True) == before, f"{label}: random_move mutated the state"


def random_move_playout(
    ruleset: Ruleset,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    check_every: int = 3,
    max_moves: int = 5000,
) -> int:
    """Play a game with `random_move` alone (every drawn move must be accepted), checking
    `check_random_move` every `check_every` steps; returns the number of moves."""
    label = f"{ruleset.id} players={players} options={options} seed={seed}"
    state = ruleset.setup(players, parse_options(ruleset, options), seed)
    chooser = Rng.from_seed(seed, "random-move")
    for step in range(max_moves + 1):
        to_act = ruleset.to_act(state)
        if not to_act:
            return step
        seat = chooser.choice(to_act)
        if step % check_every == 0:
            check_random_move(
                ruleset, state, seat, Rng.from_seed(seed, "draws", step), f"{label} step {step}"
            )
        state = ruleset.apply(state, seat, random_move(ruleset, state, seat, chooser))
    raise AssertionError(f"{label}: no end after {max_moves} moves with random_move")


def check_playout(
    ruleset: Ruleset,
    players: int,
    options: dict[str, Any],
    seed: int,
    *,
    starts: tuple[int, ...] = (0, 7, 40),
) -> None:
    """The `playout` hook (a ruleset's fast path or the default) ends in exactly the state that
    the reference `play_random` reaches from the same state and generator, leaves its input
    unchanged, and leaves the generator where the reference leaves it; checked from the setup
    and from states some random moves into the game."""
    label = f"{ruleset.id} players={players} options={options} seed={seed}"
    state = ruleset.setup(players, parse_options(ruleset, options), seed)
    walker = Rng.from_seed(seed, "playout-walk")
    step = 0
    for start in starts:
        while step < start and (to_act := ruleset.to_act(state)):
            seat = walker.choice(to_act)
            state = ruleset.apply(state, seat, random_move(ruleset, state, seat, walker))
            step += 1
        before = json.dumps(state, sort_keys=True)
        fast_rng, reference_rng = Rng.from_seed(seed, "playout", step), Rng.from_seed(seed, "playout", step)
        fast = playout(ruleset, state, fast_rng)
        assert json.dumps(state, sort_keys=True) == before, f"{label} step {step}: playout mutated its input"
        reference = play_random(ruleset, state, reference_rng)
        assert json.dumps(fast, sort_keys=True) == json.dumps(reference, sort_keys=True), (
            f"{label} step {step}: playout's final state differs from play_random's"
        )
        assert fast_rng.below(1 << 30) == reference_rng.below(1 << 30), (
            f"{label} step {step}: playout left the generator elsewhere than play_random"
        )
        assert ruleset.outcome(fast) is not None, f"{label} step {step}: playout did not finish the game"


def check_determinize_depends_only_on_view(
    ruleset: Ruleset, state: State, seat: int, seed: int, label: str
) -> None:
    """Two states that look the same to `seat` determinize to the same state with the same
    generator: a bot (or a search) that reads the game through `determinize` can then act only
    on what its seat may see. The twin is a re-deal of `state` itself, which by the view rule
    has the same view for `seat` but other hidden contents."""
    twin = ruleset.determinize(state, seat, Rng.from_seed(seed, "twin"))
    assert ruleset.view(twin, seat) == ruleset.view(state, seat), (
        f"{label}: the twin's view differs for seat {seat}"
    )
    first = ruleset.determinize(state, seat, Rng.from_seed(seed, "same"))
    second = ruleset.determinize(twin, seat, Rng.from_seed(seed, "same"))
    assert json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True), (
        f"{label}: determinize for seat {seat} depends on more than the seat's view "
        f"(two states with equal views re-deal differently from one generator)"
    )


def sampled_states(
    ruleset: Ruleset, players: int, options: dict[str, Any], seed: int, count: int
) -> list[State]:
    """`count` states spread over random games (every 7th position), for checks per state."""
    out: list[State] = []
    game = 0
    while len(out) < count:
        state = ruleset.setup(players, parse_options(ruleset, options), seed * 1000 + game)
        walker = Rng.from_seed(seed, "sample", game)
        step = 0
        while (to_act := ruleset.to_act(state)) and len(out) < count:
            if step % 7 == 0:
                out.append(state)
            mover = walker.choice(to_act)
            state = ruleset.apply(state, mover, random_move(ruleset, state, mover, walker))
            step += 1
        game += 1
    return out


class SealedState:
    """The true state handed to a search under test: any read of it fails the test, except
    `determinize` through a `SealedRuleset` (which unwraps it for the observer's seat only)."""

    __slots__ = ("_seat", "_state")

    def __init__(self, state: State, seat: int) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_seat", seat)

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the search read the true state other than through determinize for its own seat")

    __getitem__ = __iter__ = __len__ = __contains__ = __eq__ = _refuse
    get = keys = items = values = copy = _refuse

    def __getattr__(self, name: str) -> Any:
        self._refuse()


class SealedRuleset:
    """A ruleset whose `determinize` alone may open a SealedState, for its own seat."""

    def __init__(self, ruleset: Any) -> None:
        self._ruleset = ruleset

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ruleset, name)

    def determinize(self, state: Any, seat: int | None, rng: Any) -> State:
        """The real determinize; a sealed state is opened only for the seat it was sealed for."""
        if isinstance(state, SealedState):
            inner, sealed_for = (
                object.__getattribute__(state, "_state"),
                object.__getattribute__(state, "_seat"),
            )
            assert seat == sealed_for, (
                f"the search determinized the true state for seat {seat}, not its own {sealed_for}"
            )
            state = inner
        return self._ruleset.determinize(state, seat, rng)  # type: ignore[no-any-return]  # ruleset: Any


def check_search_is_fair(
    ruleset: Ruleset, state: State, seat: int, seed: int, label: str, choose: Any, iterations: int = 24
) -> Move:
    """A search bot (`choose(ruleset, state, seat, seed, iterations)`) is fair: it reads the true
    state only through `determinize` for its own seat (any other read fails), and two states
    that look the same to the seat give the same move with the same seed and iteration cap.
    Returns the move."""
    twin = ruleset.determinize(state, seat, Rng.from_seed(seed, "twin"))
    assert ruleset.view(twin, seat) == ruleset.view(state, seat), (
        f"{label}: the twin's view differs for seat {seat}"
    )
    sealed = SealedRuleset(ruleset)
    first = choose(sealed, SealedState(state, seat), seat, seed, iterations)
    second = choose(sealed, SealedState(twin, seat), seat, seed, iterations)
    assert _strict(first) == _strict(second), (
        f"{label}: seat {seat} chose {first} and {second} from states it cannot tell apart "
        f"(same seed {seed}, {iterations} iterations)"
    )
    assert _strict(first) in {_strict(m) for m in ruleset.legal_moves(state, seat)}, (
        f"{label}: the search chose {first}, which is not a legal move"
    )
    return first  # type: ignore[no-any-return]  # choose: Any (any search under test)
