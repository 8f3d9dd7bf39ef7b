"""Seeded, serialisable randomness: a SplitMix64 generator whose whole state is one integer.

Rulesets keep that integer inside the game state (conventionally `state["rng"]`), so replaying
(setup, moves) reproduces every shuffle and die roll. `view` must never expose it.
"""

from __future__ import annotations

import hashlib
from typing import Any, MutableSequence, Sequence, TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_LIMITS: dict[int, int] = {}  # bound -> the largest multiple of it not above 2**64


class Rng:
    """A small deterministic generator; `state` is its full, JSON-storable state."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = int(state) & _MASK

    @classmethod
    def from_seed(cls, seed: int | str, *labels: Any) -> "Rng":
        """A generator derived from a seed and optional labels (e.g. a purpose, a seat)."""
        text = ":".join(str(part) for part in (seed, *labels)).encode()
        return cls(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))

    def next64(self) -> int:
        """The next 64-bit output (SplitMix64)."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        # next64 inlined, and the rejection limit kept per bound: playouts draw millions of
        # these (the same outputs and generator steps as calling next64 in a loop).
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("below() needs a positive bound")
            limit = (1 << 64) - ((1 << 64) % n)
            if len(_LIMITS) < 4096:
                _LIMITS[n] = limit
        s = self.state
        while True:
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = s
                return z % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], like a die roll."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One element, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out


def seed_hash(seed: int | str) -> str:
    """The public commitment to a game's seed: SHA-256 of its decimal text."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
