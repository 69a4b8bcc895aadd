"""A small deterministic random number generator.

`random.Random` is not guaranteed to give the same sequence across Python versions
for `shuffle`/`randrange`, and copying it is slow. A game must be exactly its
options, its seed and its actions, and search copies states thousands of times, so
the engines use SplitMix64: the whole generator state is one int.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

_SPAN: Final = 1 << 64
_MASK64: Final = _SPAN - 1
T = TypeVar("T")


class Rng:
    """SplitMix64 (Steele, Lea & Flood 2014); state is a single 64-bit int."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        while True:
            # next64() inlined: this is on every random choice of search and benchmarks.
            self.state = state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        return Rng(self.state)

    def fork(self) -> Rng:
        """An independent generator seeded from this one (for sub-tasks such as sampling)."""
        return Rng(self.next64())
