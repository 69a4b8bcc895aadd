"""Bitboard helpers the move generator decodes random actions with. `nth_square`
counts a chunk's bits by `_ones32`'s arithmetic when compiled and by `int.bit_count`
interpreted; both are checked here in either build (`_ones32` is called directly).
`set_bits` (the adapters' action numbers) is its own code in each build: checked in
both (tests/test_package.py runs this file on the compiled build)."""

from __future__ import annotations

import random

import pytest

from euphrates.board.geometry import FULL, SQUARES, _ones32, nth_square, set_bits, squares_of


def test_ones32_counts_every_kind_of_word() -> None:
    r = random.Random(3)
    words = [0, 1, 0xFFFFFFFF, 0x80000000, 0x55555555, 0xAAAAAAAA, 0x0F0F0F0F]
    words += [1 << k for k in range(32)] + [(1 << k) - 1 for k in range(33)]
    words += [r.getrandbits(32) for _ in range(2000)]
    for w in words:
        assert _ones32(w) == w.bit_count(), hex(w)


def test_nth_square_is_the_nth_of_squares_of() -> None:
    r = random.Random(5)
    boards = [FULL, 1, 1 << (SQUARES - 1), FULL ^ 1, (1 << 32) | (1 << 31)]
    for _ in range(400):
        boards.append(r.getrandbits(SQUARES) & r.getrandbits(SQUARES) & r.getrandbits(SQUARES))
    for b in boards:
        squares = list(squares_of(b))
        assert [nth_square(b, n) for n in range(len(squares))] == squares


def test_nth_square_beyond_the_last_raises() -> None:
    with pytest.raises(IndexError):
        nth_square((1 << 40) | 1, 2)


def test_set_bits_lists_the_set_bits_lowest_first() -> None:
    """Over masks as long as the adapters' (8 boards and more) and the edges of its
    32-bit chunks, sparse and dense."""
    r = random.Random(7)
    masks = [0, 1, 1 << 31, 1 << 32, (1 << 64) - 1, FULL, FULL << (5 * SQUARES)]
    masks += [(1 << k) | (1 << (k + 1)) for k in range(0, 200, 31)]
    for _ in range(300):
        bits = r.choice((64, SQUARES, 9 * SQUARES))
        masks.append(r.getrandbits(bits) & (r.getrandbits(bits) if r.random() < 0.5 else -1))
    for b in masks:
        assert set_bits(b) == list(squares_of(b)), hex(b)
