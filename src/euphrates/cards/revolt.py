"""Revolts: two leaders of one colour in a kingdom after a leader action (C-10).

Only red cards decide a revolt, so its strength needs no layout scan beyond the card
under each leader: +1 for a leader on a red card, where every head counts as red (a
treasure card is a temple's treasure; a replacement head is a red card, C-14).
"""

from __future__ import annotations

from euphrates.cards.layout import card_at, extent, spot_column
from euphrates.core.colours import RED


def rival(lpos: list[int], gaps: list[int], lid: int) -> int:
    """The other leader of ``lid``'s colour in ``lid``'s kingdom, or -1 (G-5: at most one)."""
    lo, hi = extent(gaps, spot_column(lpos[lid]))
    for other in range(lid & 3, len(lpos), 4):
        pos = lpos[other]
        if other != lid and pos >= 0 and lo <= spot_column(pos) <= hi:
            return other
    return -1


def on_red(cols: list[list[int]], gaps: list[int], pos: int) -> int:
    """1 if the spot is a red card or a head (C-10: "a temple or a head"), else 0."""
    return 1 if card_at(cols, gaps, pos) == RED else 0
