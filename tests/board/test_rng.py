"""The engines' generator is SplitMix64 bit for bit, on both of its paths: the pure
build draws on the whole 64-bit number, the compiled one on 32-bit halves, and a seed
must give the same games in both. Each build's public methods take its own path; the
halves' methods are also called directly, so the pure build checks them too."""

from __future__ import annotations

import random

import pytest

from euphrates.core.rng import Rng, _join

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


class Reference:
    """SplitMix64 as published, on one Python int."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next64(self) -> int:
        self.state = (self.state + GAMMA) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n


def _unmix(x: int) -> int:
    """The state whose next output is `x` (each step of the mix can be undone)."""

    def unshift(z: int, s: int) -> int:
        out = z
        for _ in range(64 // s + 1):
            out = z ^ (out >> s)
        return out

    z = unshift(x, 31)
    z = unshift((z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK, 27)
    z = unshift((z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK, 30)
    return (z - GAMMA) & MASK


BOUNDS = [1, 2, 3, 5, 7, 100, 176, 1 << 20, (1 << 28) - 1, 1 << 28, (1 << 40) + 7, MASK]


@pytest.mark.parametrize("seed", [0, 1, 7, MASK, 1 << 63, 0x1234_5678_9ABC_DEF0, -5, 1 << 70])
def test_both_paths_are_splitmix64(seed: int) -> None:
    r = random.Random(seed)
    ref, public, halves = Reference(seed), Rng(seed), Rng(seed)
    ref_halves = Reference(seed)
    assert public.state == _join(halves.hi, halves.lo) == ref.state
    for i in range(400):
        n = BOUNDS[i % len(BOUNDS)] if i % 3 else r.randrange(1, 10**6)
        assert public.below(n) == ref.below(n)
        if n < 1 << 28:
            assert halves._below_halves(n) == ref_halves.below(n)
        if i % 9 == 0:
            assert public.next64() == ref.next64()
            assert _join(*halves._step()) == ref_halves.next64()
    assert public.state == ref.state
    assert _join(halves.hi, halves.lo) == ref_halves.state
    copy = public.copy()
    assert copy.state == public.state and copy.below(1000) == public.below(1000)


@pytest.mark.parametrize("n", [3, 7, 1000, (1 << 28) - 1])
def test_a_draw_in_the_biased_tail_is_drawn_again(n: int) -> None:
    """Outputs at or above the largest multiple of n below 2**64 are refused; only then
    is the high half all ones, the case the halves' path checks apart."""
    top = MASK - ((1 << 64) % n) + 1  # the first refused output
    for x in (top, MASK, top - 1):
        state = _unmix(x)
        ref, halves = Reference(state), Rng(state)
        assert Reference(state).next64() == x
        expected = ref.below(n)
        assert halves._below_halves(n) == expected
        assert Rng(state).below(n) == expected
        assert _join(halves.hi, halves.lo) == ref.state
        assert (ref.state == (state + GAMMA) & MASK) == (x < top)
