"""Seeded, serialisable randomness: a SplitMix64 generator whose whole state is one integer.

Rulesets keep that integer inside the game state (conventionally `state["rng"]`), so replaying
(setup, moves) reproduces every shuffle and die roll. `view` must never expose it.
"""

from __future__ import annotations

import hashlib
from typing import Any, MutableSequence, Sequence, TypeVar

try:
    import cython
except ImportError:  # Cython is a build tool; without it the hints below are plain Python
    from app.engine import cython_hints as cython  # type: ignore[no-redef]  # Cython's stand-in

T = TypeVar("T")
# SplitMix64's constants. Compiled (scripts/compile_rules.py), they and the generator's arithmetic
# are C unsigned 64-bit integers, whose wrap-around is the `& _MASK` the Python source spells out:
# the same outputs, without the arbitrary-precision integers a draw otherwise costs (a quarter
# of a compiled Fortune City playout went to `below`).
_MASK = cython.declare(cython.ulonglong, (1 << 64) - 1)
_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)


@cython.cfunc
@cython.inline
@cython.locals(s=cython.ulonglong, z=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _output(s: int) -> int:
    """SplitMix64's output for the generator state `s` (the state already advanced)."""
    z = ((s ^ (s >> 30)) * _MIX1) & _MASK
    z = ((z ^ (z >> 27)) * _MIX2) & _MASK
    return z ^ (z >> 31)


@cython.cfunc
@cython.inline
@cython.locals(bound=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _top(bound: int) -> int:
    """The largest output a draw below `bound` (1 <= bound < 2**64) accepts: the last one under
    the largest multiple of `bound` not above 2**64. Outputs above it are drawn again, so every
    result is equally likely (no modulo bias). 2**64 % bound is written (MASK % bound + 1) %
    bound: 2**64 itself does not fit in the compiled 64-bit integers."""
    return _MASK - (_MASK % bound + 1) % bound


@cython.cclass
class Rng:
    """A small deterministic generator; `state` is its full, JSON-storable state."""

    # Compiled, an extension type whose state is a C 64-bit integer: choice, shuffle and randint
    # call below directly, not as Python methods (draws are a tenth of a compiled playout).
    state = cython.declare(cython.ulonglong, visibility="public")

    def __init__(self, state: int) -> None:
        self.state = int(state) & _MASK

    @classmethod
    def from_seed(cls, seed: int | str, *labels: Any) -> "Rng":
        """A generator derived from a seed and optional labels (e.g. a purpose, a seat)."""
        text = ":".join([str(part) for part in (seed, *labels)]).encode()
        return cls(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))

    @cython.locals(s=cython.ulonglong)
    @cython.ccall
    def next64(self) -> int:
        """The next 64-bit output (SplitMix64)."""
        s = (self.state + _GOLDEN) & _MASK
        self.state = s
        return _output(s)

    @cython.locals(s=cython.ulonglong, z=cython.ulonglong, top=cython.ulonglong, bound=cython.ulonglong)
    @cython.ccall
    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n > _MASK:
            raise ValueError("below() draws from 64 bits: the bound must be below 2**64")
        bound = n
        top = _top(bound)
        s = self.state
        while True:  # next64, inlined: playouts draw millions of these
            s = (s + _GOLDEN) & _MASK
            z = _output(s)
            if z <= top:
                self.state = s
                return z % bound

    @cython.ccall
    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], like a die roll."""
        return low + self.below(high - low + 1)

    @cython.ccall
    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.below(len(items))]

    @cython.locals(
        s=cython.ulonglong,
        z=cython.ulonglong,
        top=cython.ulonglong,
        bound=cython.ulonglong,
        i=cython.Py_ssize_t,
        j=cython.Py_ssize_t,
    )
    @cython.ccall
    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates): item i swaps with below(i + 1), from the last index
        down to 1."""
        # below(i + 1) inlined, the generator's state kept in a C integer until the end: a game's
        # setup shuffles a hundred or more items, a method call each cost more than the draw.
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            top = _top(bound)
            while True:
                s = (s + _GOLDEN) & _MASK
                z = _output(s)
                if z <= top:
                    break
            j = z % bound
            items[i], items[j] = items[j], items[i]
        self.state = s

    @cython.ccall
    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out


def seed_hash(seed: int | str) -> str:
    """The public commitment to a game's seed: SHA-256 of its decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
