"""The row of treasure columns, the gaps between them and the kingdoms they form (C-2, C-4).

The layout is kept as plain lists so that the hot path of random play touches only ints:

* ``cols[c]`` - the cards below head ``c`` (top to bottom); a card is a colour 0..3 or a
  ship code (``SHIP_BASE`` + the ship's second colour), so a ship never equals a colour
  and therefore never joins a run, never counts in a war and is never a catastrophe target;
* ``orig[c]`` - whether head ``c`` is still the original treasure card (C-14);
* ``gaps[g]`` - the bridge between columns ``g`` and ``g + 1`` (a colour) or ``EMPTY``.

A spot a leader (or a catastrophe) can name is one int: ``col * 16 + row`` for a column
(row 0 is the head, rows 1..8 the cards) and ``GAP_BASE + g`` for the bridge in gap ``g``.
Leaders do not connect anything in the card game, so kingdoms depend only on bridges:
a kingdom is always a run of neighbouring columns ``lo..hi`` joined by bridges.
"""

from __future__ import annotations

from typing import Final

from euphrates.core.colours import COLOUR_LETTERS

COLUMNS: Final = 8
GAPS: Final = 7
MAX_CARDS: Final = 8  # C-2: at most 8 cards below a head (a ship counts as one)
BRIDGE_MIN: Final = 3  # C-6: each neighbouring column needs at least 3 cards
HAND_SIZE: Final = 8
EMPTY: Final = -1
SUPPLY: Final = -1  # a leader's position while it is with its owner

TREASURE: Final = 4  # a treasure card in a point pile (C-18 wildcard)
SHIP_BASE: Final = 4
SHIPS: Final = (SHIP_BASE + 0, SHIP_BASE + 2, SHIP_BASE + 3)  # blue-red, blue-green, blue-black
GAP_BASE: Final = 128
ROW_MASK: Final = 15

# How many cards of each colour exist besides the 8 treasure cards (C-1).
CARD_TOTALS: Final = (65, 40, 40, 40)
TREASURE_CARDS: Final = 8
CIVILISATION_CARDS: Final = 193
REMOVED_TWO_PLAYERS: Final = 30


def spot(col: int, row: int) -> int:
    return col * 16 + row


def gap_spot(gap: int) -> int:
    return GAP_BASE + gap


def spot_column(pos: int) -> int:
    """The column whose kingdom holds the spot (a bridge joins its two columns)."""
    return pos - GAP_BASE if pos >= GAP_BASE else pos >> 4


def spot_name(pos: int) -> str:
    """``3.2`` for column 3 row 2, ``3.0`` for its head, ``3-4`` for the bridge (1-based)."""
    name = _SPOT_NAMES.get(pos)
    return name if name is not None else _spot_name(pos)


def _spot_name(pos: int) -> str:
    if pos >= GAP_BASE:
        g = pos - GAP_BASE
        return f"{g + 1}-{g + 2}"
    return f"{(pos >> 4) + 1}.{pos & ROW_MASK}"


_SPOT_NAMES: dict[int, str] = {
    p: _spot_name(p) for p in [*range(GAP_BASE), *range(GAP_BASE, GAP_BASE + GAPS)]
}


def gap_name(gap: int) -> str:
    return f"{gap + 1}-{gap + 2}"


def ship_code_name(code: int) -> str:
    """``bk`` for the blue-black ship: blue and the ship's second colour."""
    return "b" + COLOUR_LETTERS[code - SHIP_BASE]


def ship_colours(code: int) -> tuple[int, int]:
    return (1, code - SHIP_BASE)


def card_letter(card: int) -> str:
    if card >= SHIP_BASE:
        return ship_code_name(card)
    return COLOUR_LETTERS[card]


def extent(gaps: list[int], col: int, skip: int = EMPTY) -> tuple[int, int]:
    """The kingdom of column ``col`` as ``(lo, hi)``; gap ``skip`` counts as empty
    (the face-down bridge during a war, C-12)."""
    lo = col
    while lo > 0 and gaps[lo - 1] >= 0 and lo - 1 != skip:
        lo -= 1
    hi = col
    while hi < COLUMNS - 1 and gaps[hi] >= 0 and hi != skip:
        hi += 1
    return lo, hi


def kingdoms(gaps: list[int]) -> list[tuple[int, int]]:
    """All kingdoms, left to right."""
    out: list[tuple[int, int]] = []
    c = 0
    while c < COLUMNS:
        lo, hi = extent(gaps, c)
        out.append((lo, hi))
        c = hi + 1
    return out


def leaders_in(lpos: list[int], lo: int, hi: int) -> list[int]:
    """Leader ids (seat * 4 + colour) standing in columns ``lo..hi`` or their bridges."""
    out = []
    for lid, pos in enumerate(lpos):
        if pos >= 0:
            c = pos - GAP_BASE if pos >= GAP_BASE else pos >> 4
            if lo <= c <= hi:
                out.append(lid)
    return out


def card_at(cols: list[list[int]], gaps: list[int], pos: int) -> int:
    """The card on a spot (a head reads as red, C-10), or EMPTY if the spot is not there."""
    if pos >= GAP_BASE:
        return gaps[pos - GAP_BASE]
    row = pos & ROW_MASK
    if row == 0:
        return 0
    col = cols[pos >> 4]
    return col[row - 1] if row <= len(col) else EMPTY


def remove_card(cols: list[list[int]], lpos: list[int], col: int, row: int) -> int:
    """Take the card at ``col.row`` out of its column; the cards below move up, leaders
    with them (C-7, C-13). Returns the card."""
    card = cols[col].pop(row - 1)
    base = col * 16
    for lid, pos in enumerate(lpos):
        if base + row < pos < base + 16:
            lpos[lid] = pos - 1
    return card
