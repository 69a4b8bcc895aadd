"""Squares and bitboards of the 16 × 11 board (board-map.md).

The board is a set of 176 bits in one Python int (square index = row * 16 + column,
A1 = 0), as python-chess does with 64. Regions, kingdoms and legal squares are then a
few shifts and masks instead of loops over squares.

A bitboard is wider than a machine word, so every operation on one makes a new Python
integer. The rule modules therefore keep both operands of `&`, `|` and `^` non-negative
(`a ^ (a & b)` rather than `a & ~b`, `FULL ^ b` rather than `FULL & ~b`): compiled,
an operation on two non-negative integers is a loop over their digits, while a
negative operand takes the interpreter's general path, several times slower. Single
squares come from `SQUARE_BITS` rather than `1 << sq`, for the same reason.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress
from typing import Final

from mypy_extensions import i64

from euphrates.core.actions import is_ascii_number
from euphrates.core.errors import InvalidActionError

WIDTH: Final = 16
HEIGHT: Final = 11
SQUARES: Final = WIDTH * HEIGHT
FULL: Final = (1 << SQUARES) - 1

_COLUMN_A = sum(1 << (y * WIDTH) for y in range(HEIGHT))
NOT_COLUMN_A: Final = FULL & ~_COLUMN_A
NOT_COLUMN_P: Final = FULL & ~(_COLUMN_A << (WIDTH - 1))

COLUMN_LETTERS: Final = "ABCDEFGHIJKLMNOP"


SQUARE_NAMES: Final = tuple(
    f"{COLUMN_LETTERS[sq % WIDTH]}{sq // WIDTH + 1}" for sq in range(SQUARES)
)


def square_name(sq: int) -> str:
    """`0` → ``"A1"``; the names used everywhere a person reads a square."""
    return SQUARE_NAMES[sq]


def square_at(x: int, y: int) -> int:
    return y * WIDTH + x


def parse_square(text: object) -> int:
    """``"F4"`` → its index; raises InvalidActionError for anything that is not a square.
    Only ASCII is read: `str.upper()` maps some other letters onto A–P ('ı' → 'I'), and
    `int()` reads other scripts' digits, so 'ı5' or 'F٣' would name squares otherwise."""
    if not isinstance(text, str) or not text.isascii():
        raise InvalidActionError(f"{text!r} is not a square name (A1 … P11)")
    t = text.strip().upper()
    if len(t) < 2 or t[0] not in COLUMN_LETTERS or not is_ascii_number(t[1:], 2):
        raise InvalidActionError(f"{text!r} is not a square name (A1 … P11)")
    row = int(t[1:])
    if not 1 <= row <= HEIGHT:
        raise InvalidActionError(f"{text!r} is not on the board: rows run from 1 to {HEIGHT}")
    return square_at(COLUMN_LETTERS.index(t[0]), row - 1)


SQUARE_BITS: Final = tuple(1 << sq for sq in range(SQUARES))
"""`SQUARE_BITS[sq]` is `1 << sq`, made once."""


def bit(sq: int) -> int:
    return SQUARE_BITS[sq]


def expand(b: int) -> int:
    """All squares orthogonally adjacent to a square of `b` (not including `b` itself
    unless adjacent to another of its squares)."""
    return (
        ((b << 1) & NOT_COLUMN_A) | ((b >> 1) & NOT_COLUMN_P) | (b >> WIDTH) | ((b << WIDTH) & FULL)
    )


NEIGHBOURS: Final = tuple(expand(1 << sq) for sq in range(SQUARES))


def flood(seed: int, within: int) -> int:
    """The connected part of `within` that contains the squares of `seed` (B-4)."""
    region = seed & within
    while True:
        grown = region | (
            (
                ((region << 1) & NOT_COLUMN_A)
                | ((region >> 1) & NOT_COLUMN_P)
                | (region >> WIDTH)
                | (region << WIDTH)
            )
            & within
        )
        if grown == region:
            return region
        region = grown


def lowest_square(b: int) -> int:
    """The square of the lowest set bit of a non-empty `b` (without `b & -b`, whose
    negative operand is slow compiled)."""
    return (b ^ (b - 1)).bit_length() - 1


def squares_of(b: int) -> Iterator[int]:
    """The square indices of the set bits of `b`, lowest first."""
    while b:
        rest = b & (b - 1)
        yield (b ^ rest).bit_length() - 1
        b = rest


_DIGITS: Final = bytes.maketrans(b"01", b"\x00\x01")


def bits_of(b: int) -> bytes:
    """Bit i of a non-negative `b` as byte i, 0 or 1, lowest first: for
    `itertools.compress`, which picks the squares (or their names, or action numbers)
    of the set bits in one C loop where `squares_of` takes a Python step each."""
    return bin(b)[:1:-1].encode("ascii").translate(_DIGITS)


def mask_of(squares: list[int] | tuple[int, ...]) -> int:
    m = 0
    for sq in squares:
        m |= 1 << sq
    return m


_CHUNK: Final = 32
_CHUNK_MASK: Final = (1 << _CHUNK) - 1
_COMPILED: Final = not __file__.endswith(".py")
"""Whether this module is compiled: `_ones` then counts in machine arithmetic."""


def _ones(x: i64) -> i64:
    """The set bits of a 32-bit `x`. `int.bit_count` is no primitive of mypyc: compiled,
    every call boxes `x` and calls the method by name, where `_ones32`'s few operations
    stay in machine registers; interpreted, the method is the cheaper."""
    return _ones32(x) if _COMPILED else int(x).bit_count()


def _ones32(x: i64) -> i64:
    """The set bits of a 32-bit `x`, counted in parallel in pairs, nibbles and bytes."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


def set_bits(b: int) -> list[int]:
    """The indices of the set bits of a non-negative `b`, lowest first, as a list: what
    `list(squares_of(b))` gives, for masks of hundreds of bits (the adapters' legal
    action numbers). Compiled, bit by bit in machine integers; interpreted, the binary
    digits picked out by `compress` in C loops, where a Python step a bit costs more."""
    if not _COMPILED:
        digits = bits_of(b)
        return list(compress(range(len(digits)), digits))
    out: list[int] = []
    base: i64 = 0
    while b:
        chunk: i64 = b & _CHUNK_MASK
        while chunk:
            low: i64 = chunk & (chunk ^ (chunk - 1))
            out.append(base + _ones32(low - 1))
            chunk ^= low
        b >>= _CHUNK
        base += _CHUNK
    return out


def nth_square(b: int, n: int) -> int:
    """The square of the n-th set bit of `b` (0-based, lowest first). Chunks of 32
    squares are skipped by their counts; inside the chunk that holds it, the bit is
    found with machine-sized integers (a compiled build keeps those unboxed)."""
    base = 0
    left: i64 = n
    chunk: i64 = b & _CHUNK_MASK
    c = _ones(chunk)
    while left >= c:
        left -= c
        b >>= _CHUNK
        if not b:
            raise IndexError(f"bitboard has fewer than {left + 1} more squares")
        base += _CHUNK
        chunk = b & _CHUNK_MASK
        c = _ones(chunk)
    while left:
        chunk &= chunk - 1
        left -= 1
    # The lowest bit's index is the count of ones in it and below it, less one.
    return base + int(_ones(chunk ^ (chunk - 1))) - 1
