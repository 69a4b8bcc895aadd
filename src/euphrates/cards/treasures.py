"""The treasure exchange after a bridge's wars (C-14).

Only a bridge triggers it, only a trader can do it (the king is no substitute), and the
exchange stops while two original treasure cards remain in the kingdom, so every
kingdom keeps at least one treasure card and the end check (C-17) stays reachable.
"""

from __future__ import annotations

from euphrates.cards.layout import extent, spot_column
from euphrates.core.colours import GREEN


def originals(orig: list[bool], lo: int, hi: int) -> list[int]:
    return [c for c in range(lo, hi + 1) if orig[c]]


def trader_owner(lpos: list[int], lo: int, hi: int) -> int:
    """The seat whose trader stands in ``lo..hi``, or -1."""
    for lid in range(GREEN, len(lpos), 4):
        pos = lpos[lid]
        if pos >= 0 and lo <= spot_column(pos) <= hi:
            return lid >> 2
    return -1


def exchange_kingdom(gaps: list[int], gap: int) -> tuple[int, int]:
    """The joined kingdom as it stands after the wars: the one holding the bridge."""
    return extent(gaps, gap)
