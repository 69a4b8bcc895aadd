"""Bitboard helpers the move generator decodes random actions with. `nth_square`
counts a chunk's bits by `_ones32`'s arithmetic when compiled and by `int.bit_count`
interpreted; both are checked here in either build (`_ones32` is called directly)."""

from __future__ import annotations

import random

import pytest

from euphrates.board.geometry import FULL, SQUARES, _ones32, nth_square, squares_of


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
