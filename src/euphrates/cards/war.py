"""Wars: a bridge joining two kingdoms that hold leaders of one colour (C-11..C-13).

The bridge lies face down while the wars are fought and counts for no one, so each
leader's *side* is the kingdom it stands in with that gap treated as empty. Removing the
loser's cards can empty other gaps and split the joined kingdom, which makes later wars
lapse; no new war can arise because removals only ever split kingdoms.
"""

from __future__ import annotations

from euphrates.cards.layout import EMPTY, GAP_BASE, extent, spot_column
from euphrates.core.colours import RED


def wars_in(lpos: list[int], lo: int, hi: int) -> list[int]:
    """Colours with two leaders in columns ``lo..hi`` (G-5: at most one war per colour)."""
    count = [0, 0, 0, 0]
    for lid, pos in enumerate(lpos):
        if pos >= 0 and lo <= spot_column(pos) <= hi:
            count[lid & 3] += 1
    return [c for c in range(4) if count[c] >= 2]


def combatants(lpos: list[int], gaps: list[int], down: int, colour: int) -> list[int]:
    """The two leader ids of ``colour`` in the kingdom joined by the face-down bridge."""
    lo, hi = extent(gaps, down)
    return [
        lid
        for lid in range(colour, len(lpos), 4)
        if lpos[lid] >= 0 and lo <= spot_column(lpos[lid]) <= hi
    ]


def attacker_first(pair: list[int], active: int, players: int) -> tuple[int, int]:
    """(attacker, defender) leader ids: the active player if involved, else the owner
    first clockwise after the active player (C-11)."""
    a, b = pair
    if (((a >> 2) - active) % players) <= (((b >> 2) - active) % players):
        return a, b
    return b, a


def side(lpos: list[int], gaps: list[int], down: int, lid: int) -> tuple[int, int]:
    """The columns of the leader's side: its kingdom without the face-down bridge (C-12)."""
    return extent(gaps, spot_column(lpos[lid]), down)


def strength(cols: list[list[int]], gaps: list[int], lo: int, hi: int, colour: int) -> int:
    """Face-up cards of ``colour`` on a side: column cards, earlier bridges and, in a red
    war, the heads (C-12). Ships never equal a colour, so they count for nothing."""
    n = 0
    for c in range(lo, hi + 1):
        n += cols[c].count(colour)
    for g in range(lo, hi):
        if gaps[g] == colour:
            n += 1
    if colour == RED:
        n += hi - lo + 1
    return n


def strip_side(
    cols: list[list[int]], gaps: list[int], lpos: list[int], lo: int, hi: int, colour: int
) -> list[int]:
    """Remove every face-up card of ``colour`` on the loser's side that is neither a head
    nor carrying a leader (C-13); cards below move up with their leaders. Returns the
    removed cards in reading order: each column top to bottom, then the bridge to its right.
    """
    taken: list[int] = []
    for c in range(lo, hi + 1):
        col = cols[c]
        if colour in col:
            base = c * 16
            held = {
                lpos[lid] - base: lid for lid in range(len(lpos)) if base < lpos[lid] < base + 16
            }
            keep: list[int] = []
            moved: dict[int, int] = {}
            for row, card in enumerate(col, 1):
                if card == colour and row not in held:
                    taken.append(card)
                else:
                    keep.append(card)
                    if row in held:
                        moved[held[row]] = base + len(keep)
            col[:] = keep
            for lid, pos in moved.items():
                lpos[lid] = pos
        if c < hi and gaps[c] == colour and (GAP_BASE + c) not in lpos:
            gaps[c] = EMPTY
            taken.append(colour)
    return taken


def still_on(lpos: list[int], gaps: list[int], down: int, colour: int) -> bool:
    """A war is still on while both its leaders stand in the joined kingdom (C-13)."""
    return len(combatants(lpos, gaps, down, colour)) >= 2
