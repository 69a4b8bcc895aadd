"""Regions and kingdoms (B-4, B-9, B-12).

Tiles (face up or under a monument) and leaders that touch orthogonally form a
region; a region with a leader is a kingdom. Kingdoms are found by flooding from the
leaders over the occupied squares, so the work grows with the number of leaders
(at most 16), not with the board.
"""

from __future__ import annotations

from euphrates.board.geometry import expand, flood


def kingdoms_of(occupied: int, leaders: int) -> list[int]:
    """The kingdoms as bitboards: one flood per kingdom, seeded at its lowest leader."""
    out: list[int] = []
    rest = leaders
    while rest:
        k = flood(rest & -rest, occupied)
        out.append(k)
        rest &= ~k
    return out


def touching_counts(kingdoms: list[int]) -> tuple[int, int, int]:
    """Bit-sliced counters: the squares adjacent to at least one, two and three of the
    given kingdoms. A tile may touch at most two kingdoms (B-12), a leader one (B-9)."""
    one = two = three = 0
    for k in kingdoms:
        nb = expand(k)
        three |= two & nb
        two |= one & nb
        one |= nb
    return one, two, three


def split_without(kingdoms: list[int], square_bit: int, occupied: int, leaders: int) -> list[int]:
    """The kingdoms after the leader on `square_bit` is lifted (B-8): only its own
    kingdom can fall apart, so only that one is flooded again."""
    out: list[int] = []
    for k in kingdoms:
        if k & square_bit:
            rest = k & leaders & ~square_bit
            within = occupied & ~square_bit
            while rest:
                part = flood(rest & -rest, within)
                out.append(part)
                rest &= ~part
        else:
            out.append(k)
    return out
