"""Points during the game (C-9) and the final result (C-18).

Every card that reaches a point pile is a public event (G-3); the piles are kept as the
exact sequence of cards so that the closed pile's top card (C-9) and the final tallies
both come from the same record.
"""

from __future__ import annotations

from euphrates.cards.layout import TREASURE, extent, spot_column
from euphrates.core.colours import BLACK
from euphrates.core.protocol import Outcome
from euphrates.core.scoring import final_outcome


def point_owner(lpos: list[int], gaps: list[int], col: int, colour: int) -> int:
    """Who may pay a point for a card appended to ``col`` (C-9): the owner of the leader
    of the card's colour in the kingdom, else the king's owner, else no one (-1)."""
    lo, hi = extent(gaps, col)
    king = -1
    for lid, pos in enumerate(lpos):
        if pos >= 0 and lo <= spot_column(pos) <= hi:
            c = lid & 3
            if c == colour:
                return lid >> 2
            if c == BLACK:
                king = lid >> 2
    return king


def tallies(pile: list[int]) -> tuple[list[int], int]:
    """(points per colour, treasure cards) of one pile."""
    counts = [0, 0, 0, 0]
    treasures = 0
    for card in pile:
        if card == TREASURE:
            treasures += 1
        else:
            counts[card] += 1
    return counts, treasures


def result(piles: list[list[int]]) -> Outcome:
    """C-18: treasure cards are wildcards; rank by the weakest colour, then the next."""
    points = []
    wild = []
    for pile in piles:
        counts, treasures = tallies(pile)
        points.append(counts)
        wild.append(treasures)
    return final_outcome(points, wild)
