"""A small deterministic random number generator.

`random.Random` is not guaranteed to give the same sequence across Python versions
for `shuffle`/`randrange`, and copying it is slow. A game must be exactly its
options, its seed and its actions, and search copies states thousands of times, so
the engines use SplitMix64: the whole generator state is one 64-bit number.

The state is kept as two 32-bit halves and every step is done on them, with products
of a half and a 16-bit quarter of a constant: no intermediate value reaches 2**51, so
they are `i64`, machine integers when compiled, which never overflow (and plain ints
interpreted, with the same values): a product of two `int`s over 2**30 takes mypyc's
general path, and a 64-bit state in one Python int would be a boxed integer, its
products 128-bit ones, allocated at every step. Interpreted,
every operation costs about the same whatever the size, so the pure build steps the
whole number instead (a quarter of the operations). Both give SplitMix64's numbers,
bit for bit (tests/board/test_rng.py checks each path against the other).
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

from mypy_extensions import i64

_MASK64: Final = (1 << 64) - 1
_LOW32: Final = 0xFFFFFFFF
"""The low half of a whole number (an `int`: the whole number does not fit an `i64`)."""
_M32: Final[i64] = 0xFFFFFFFF
_M16: Final[i64] = 0xFFFF
_HALVES: Final = not __file__.endswith(".py")
"""Whether this module is compiled: `below` then takes the halves' path."""
_SMALL: Final = 1 << 28
"""Bounds below this take the halves' path of `below` (the remainder's products stay
small); larger ones, never asked by the engines, the whole number's."""

# 0x9E3779B97F4A7C15 in halves; 0xBF58476D1CE4E5B9 and 0x94D049BB133111EB in quarters.
_GAMMA_HI: Final[i64] = 0x9E3779B9
_GAMMA_LO: Final[i64] = 0x7F4A7C15
_A0: Final[i64] = 0xE5B9
_A1: Final[i64] = 0x1CE4
_A2: Final[i64] = 0x476D
_A3: Final[i64] = 0xBF58
_B0: Final[i64] = 0x11EB
_B1: Final[i64] = 0x1331
_B2: Final[i64] = 0x49BB
_B3: Final[i64] = 0x94D0
T = TypeVar("T")


def _join(hi: i64, lo: i64) -> int:
    """The 64-bit number of two halves, as an `int` (in `i64` it would overflow)."""
    whole: int = hi
    low: int = lo
    return whole << 32 | low


class Rng:
    """SplitMix64 (Steele, Lea & Flood 2014); state is a single 64-bit int, kept in
    `whole` by the interpreted build and in the halves `hi` and `lo` by the compiled
    one (`_HALVES`): each build reads and writes only its own."""

    __slots__ = ("hi", "lo", "whole")

    hi: i64
    lo: i64
    whole: int

    def __init__(self, seed: int = 0) -> None:
        state = seed & _MASK64
        self.whole = state
        self.hi = state >> 32
        self.lo = state & _LOW32

    @property
    def state(self) -> int:
        return _join(self.hi, self.lo) if _HALVES else self.whole

    def _step(self) -> tuple[i64, i64]:
        """The next output as (high half, low half)."""
        lo = self.lo + _GAMMA_LO
        hi = (self.hi + _GAMMA_HI + (lo >> 32)) & _M32
        lo &= _M32
        self.hi = hi
        self.lo = lo
        # z ^= z >> 30; z *= 0xBF58476D1CE4E5B9 (mod 2**64)
        lo ^= (lo >> 30 | hi << 2) & _M32
        hi ^= hi >> 30
        a = lo * _A0
        b = lo * _A1
        s = a + ((b & _M16) << 16)
        hi = (
            (s >> 32)
            + (b >> 16)
            + lo * _A2
            + ((lo * _A3 & _M16) << 16)
            + hi * _A0
            + ((hi * _A1 & _M16) << 16)
        ) & _M32
        lo = s & _M32
        # z ^= z >> 27; z *= 0x94D049BB133111EB (mod 2**64)
        lo ^= (lo >> 27 | hi << 5) & _M32
        hi ^= hi >> 27
        a = lo * _B0
        b = lo * _B1
        s = a + ((b & _M16) << 16)
        hi = (
            (s >> 32)
            + (b >> 16)
            + lo * _B2
            + ((lo * _B3 & _M16) << 16)
            + hi * _B0
            + ((hi * _B1 & _M16) << 16)
        ) & _M32
        lo = s & _M32
        # z ^ (z >> 31)
        return hi ^ hi >> 31, lo ^ ((lo >> 31 | hi << 1) & _M32)

    def next64(self) -> int:
        if _HALVES:
            hi, lo = self._step()
            return _join(hi, lo)
        self.whole = z = (self.whole + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (rejection sampling, no modulo bias: a draw
        at or above the largest multiple of n under 2**64 is drawn again)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if _HALVES and n < _SMALL:
            return self._below_halves(n)
        limit = (1 << 64) - (1 << 64) % n
        if _HALVES:
            while True:
                x = self.next64()
                if x < limit:
                    return x % n
        while True:
            # next64() inlined: this is on every random choice of search and benchmarks.
            self.whole = state = (self.whole + 0x9E3779B97F4A7C15) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def _below_halves(self, n: int) -> int:
        """`below` for 0 < n < 2**28, on the halves."""
        m: i64 = n
        while True:
            hi, lo = self._step()
            # The draw is refused only within 2**64 % n (< n) of 2**64: hi is all ones.
            if hi == _M32:
                r = (1 << 32) % m
                if lo >= (1 << 32) - r * r % m:
                    continue
            return ((hi % m) << 32 | lo) % m

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.below(len(items))]

    def copy(self) -> Rng:
        new = Rng.__new__(Rng)
        new.hi = self.hi
        new.lo = self.lo
        new.whole = self.whole
        return new

    def fork(self) -> Rng:
        """An independent generator seeded from this one (for sub-tasks such as sampling)."""
        return Rng(self.next64())
