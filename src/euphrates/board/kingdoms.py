"""Regions and kingdoms (B-4, B-9, B-12).

Tiles (face up or under a monument) and leaders that touch orthogonally form a
region; a region with a leader is a kingdom. Kingdoms are found by flooding from the
leaders over the occupied squares, so the work grows with the number of leaders
(at most 16), not with the board.
"""

from __future__ import annotations

from typing import Final

from euphrates.board.geometry import (
    NEIGHBOURS,
    NOT_COLUMN_A,
    NOT_COLUMN_P,
    SQUARE_BITS,
    WIDTH,
    expand,
    flood,
    lowest_square,
)


def kingdoms_of(occupied: int, leaders: int) -> list[int]:
    """The kingdoms as bitboards: one flood per kingdom, seeded at its lowest leader."""
    out: list[int] = []
    rest = leaders
    while rest:
        k = flood(SQUARE_BITS[lowest_square(rest)], occupied)
        out.append(k)
        rest ^= rest & k
    return out


_PARTS: dict[tuple[int, int, int], tuple[int, ...]] = {}
_PARTS_LIMIT: Final = 1 << 16


def parts_without(kingdom: int, square_bit: int, leaders: int) -> tuple[int, ...]:
    """What is left of `kingdom` as kingdoms once the leader on `square_bit` is lifted.

    The answer depends only on the kingdom, its leaders and the square (a kingdom is a
    whole connected part of the occupied squares), and kingdoms mostly outlive many
    decisions, so answers are memoised."""
    within = kingdom ^ (kingdom & square_bit)
    rest = within & leaders
    if not rest:
        return ()
    ends = NEIGHBOURS[square_bit.bit_length() - 1] & kingdom
    if ends.bit_count() <= 1:
        return (within,)  # a leaf: lifting it splits nothing
    key = (kingdom, rest, square_bit)
    hit = _PARTS.get(key)
    if hit is not None:
        return hit
    # The kingdom stays whole if the lifted square's neighbours still meet without it:
    # every square of the kingdom reaches the lifted one through one of them. Flood from
    # one neighbour and stop as soon as it holds them all, which is usually soon.
    region = SQUARE_BITS[lowest_square(ends)]
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
        if grown & ends == ends:
            result: tuple[int, ...] = (within,)
            break
        if grown == region:
            # It fell apart: the parts that still hold a leader are kingdoms.
            out: list[int] = [region] if region & rest else []
            others = ends ^ (ends & region)
            while others:
                part = flood(SQUARE_BITS[lowest_square(others)], within)
                others ^= others & part
                if part & rest:
                    out.append(part)
            result = tuple(out)
            break
        region = grown
    if len(_PARTS) >= _PARTS_LIMIT:
        _PARTS.clear()
    _PARTS[key] = result
    return result


_REACH: dict[tuple[int, int, int], tuple[int, int]] = {}
_NO_REACH: Final = (0, 0)


def parts_reach(kingdom: int, square_bit: int, leaders: int) -> tuple[int, int]:
    """(squares next to a part, squares next to two or more parts) of what
    `parts_without` leaves: what the legal leader squares need of a lifted leader's
    kingdom (B-8). Memoised alike, since every part's neighbourhood is several
    operations on wide integers."""
    held = kingdom & leaders
    if held == square_bit:
        return _NO_REACH  # the lifted leader was its only one: no kingdom is left
    key = (kingdom, held, square_bit)
    hit = _REACH.get(key)
    if hit is not None:
        return hit
    one = two = 0
    for part in parts_without(kingdom, square_bit, leaders):
        nb = expand(part)
        two |= one & nb
        one |= nb
    result = (one, two)
    if len(_REACH) >= _PARTS_LIMIT:
        _REACH.clear()
    _REACH[key] = result
    return result
