"""Ships: four cards of one colour in a row at the bottom of a column (C-15, C-16).

A run is checked only below the card just appended, so cards moving up never make a
ship; a ship code never equals a colour, so a ship breaks any run above it.
"""

from __future__ import annotations

from euphrates.cards.layout import SHIP_BASE, extent, spot_column
from euphrates.core.colours import BLUE


def run_length(col: list[int]) -> int:
    """How many cards at the bottom of the column share the last card's colour."""
    last = col[-1]
    n = 0
    for card in reversed(col):
        if card != last:
            break
        n += 1
    return n


def ship_options(col: list[int], available: list[int]) -> list[int]:
    """Ships the active player may build after appending the column's last card."""
    if not col or run_length(col) < 4:
        return []
    colour = col[-1]
    if colour == BLUE:
        return list(available)
    code = SHIP_BASE + colour
    return [code] if code in available else []


def ship_point_colours(
    cols: list[list[int]], gaps: list[int], lpos: list[int], seat: int
) -> list[int]:
    """The active player's leaders that may pay a ship point, in the order priest,
    farmer, trader, king (C-16): one per leader whose kingdom shows its colour on a ship."""
    out: list[int] = []
    if not _any_ship(cols):
        return out
    for colour in range(4):
        pos = lpos[seat * 4 + colour]
        if pos < 0:
            continue
        lo, hi = extent(gaps, spot_column(pos))
        for c in range(lo, hi + 1):
            col = cols[c]
            if any(
                card >= SHIP_BASE and (colour == BLUE or card == SHIP_BASE + colour) for card in col
            ):
                out.append(colour)
                break
    return out


def _any_ship(cols: list[list[int]]) -> bool:
    for col in cols:
        for card in col:
            if card >= SHIP_BASE:
                return True
    return False
