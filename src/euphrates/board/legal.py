"""Legal actions as bitmasks (B-8, B-9, B-12, B-15, B-16, G-2).

For each kind of action the legal squares are one bitboard, so counting legal actions
is a handful of popcounts and a uniform random choice picks an index and decodes it,
without building hundreds of action objects. `legal_actions` builds the full list
from the same masks, so the count, the list and the check in `apply` cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from euphrates.board.actions import (
    DECLINE,
    PASS,
    BoardAction,
    BuildMonument,
    ChooseWar,
    Commit,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    WithdrawLeader,
)
from euphrates.board.geometry import FULL, nth_square, squares_of
from euphrates.board.kingdoms import split_without, touching_counts
from euphrates.core.colours import BLUE, RED
from euphrates.core.rng import Rng

if TYPE_CHECKING:
    from euphrates.board.state import BoardState

# Phase numbers, repeated here to avoid an import cycle with state.py.
_ACTION, _REVOLT, _WAR_ORDER, _WAR, _MONUMENT, _TREASURE, _OVER = range(7)


def tile_targets(st: BoardState) -> tuple[int, int]:
    """(land, river) squares where a tile may go (B-12): empty, and touching at most two
    kingdoms."""
    _, _, three = touching_counts(st.kingdoms())
    free = FULL & ~(st.occupied | st.catas | three)
    river = st.map.river
    return free & ~river, free & river


def leader_targets(st: BoardState, colour: int) -> int:
    """Squares where the active player's leader of `colour` may go (B-8, B-9): empty
    land next to a temple, touching at most one kingdom, judged with the leader lifted."""
    sq = st.leader_sq[st.active][colour]
    occupied = st.occupied
    kingdoms = st.kingdoms()
    if sq >= 0:
        b = 1 << sq
        kingdoms = split_without(kingdoms, b, occupied, st.leader_bits)
        occupied &= ~b
    _, two, _ = touching_counts(kingdoms)
    mask = st.map.land & ~(occupied | st.catas | two) & st.temple_neighbourhood()
    if sq >= 0:
        mask &= ~(1 << sq)
    return mask


def catastrophe_targets(st: BoardState) -> int:
    """B-15: any square but a leader, a catastrophe, a treasure's tile or a monument's."""
    if st.catas_left[st.active] <= 0:
        return 0
    return FULL & ~(st.leader_bits | st.catas | st.treasures | st.flipped)


def swap_count(hand: list[int]) -> int:
    """Distinct non-empty discards: tiles of one colour are interchangeable (B-16)."""
    return (hand[0] + 1) * (hand[1] + 1) * (hand[2] + 1) * (hand[3] + 1) - 1


def swap_at(hand: list[int], index: int) -> Swap:
    """The `index`-th non-empty discard in mixed-radix order (red fastest)."""
    n = index + 1
    counts = []
    for c in range(4):
        base = hand[c] + 1
        counts.append(n % base)
        n //= base
    return Swap((counts[0], counts[1], counts[2], counts[3]))


def _action_masks(st: BoardState) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int, bool]:
    """(tile masks by colour, leader masks by colour, catastrophe mask, may-withdraw)."""
    hand = st.hands[st.active]
    land, river = tile_targets(st)
    tiles = [(c, river if c == BLUE else land) for c in range(4) if hand[c] > 0]
    leaders = [(c, leader_targets(st, c)) for c in range(4)]
    return tiles, leaders, catastrophe_targets(st), True


def count(st: BoardState) -> int:
    p = st.phase
    if p == _ACTION:
        tiles, leaders, cat, _ = _action_masks(st)
        n = sum(m.bit_count() for _, m in tiles) + sum(m.bit_count() for _, m in leaders)
        n += sum(1 for c in range(4) if st.leader_sq[st.active][c] >= 0)
        return n + cat.bit_count() + swap_count(st.hands[st.active]) + 1
    if p == _REVOLT or p == _WAR:
        seat = st.attacker if st.att_commit < 0 else st.defender
        return st.hands[seat][st.conflict_colour] + 1
    if p == _WAR_ORDER:
        return len(st.wars)
    if p == _MONUMENT:
        return len(st.monument_options) + 1
    if p == _TREASURE:
        return st.treasure_choices.bit_count()
    return 0


def random_action(st: BoardState, rng: Rng) -> BoardAction:
    p = st.phase
    if p != _ACTION:
        acts = legal_actions(st)
        return acts[rng.below(len(acts))]
    tiles, leaders, cat, _ = _action_masks(st)
    active = st.active
    withdraw = [c for c in range(4) if st.leader_sq[active][c] >= 0]
    counts = [m.bit_count() for _, m in tiles] + [m.bit_count() for _, m in leaders]
    total = sum(counts) + len(withdraw) + cat.bit_count() + swap_count(st.hands[active]) + 1
    k = rng.below(total)
    for i, (c, m) in enumerate(tiles):
        if k < counts[i]:
            return PlaceTile(c, nth_square(m, k))
        k -= counts[i]
    off = len(tiles)
    for i, (c, m) in enumerate(leaders):
        if k < counts[off + i]:
            return PlaceLeader(c, nth_square(m, k))
        k -= counts[off + i]
    if k < len(withdraw):
        return WithdrawLeader(withdraw[k])
    k -= len(withdraw)
    nc = cat.bit_count()
    if k < nc:
        return PlaceCatastrophe(nth_square(cat, k))
    k -= nc
    ns = swap_count(st.hands[active])
    if k < ns:
        return swap_at(st.hands[active], k)
    return PASS


def legal_actions(st: BoardState) -> list[BoardAction]:
    p = st.phase
    out: list[BoardAction] = []
    if p == _ACTION:
        tiles, leaders, cat, _ = _action_masks(st)
        for c, m in tiles:
            out.extend(PlaceTile(c, sq) for sq in squares_of(m))
        for c, m in leaders:
            out.extend(PlaceLeader(c, sq) for sq in squares_of(m))
        out.extend(WithdrawLeader(c) for c in range(4) if st.leader_sq[st.active][c] >= 0)
        out.extend(PlaceCatastrophe(sq) for sq in squares_of(cat))
        hand = st.hands[st.active]
        out.extend(swap_at(hand, i) for i in range(swap_count(hand)))
        out.append(PASS)
    elif p == _REVOLT or p == _WAR:
        seat = st.attacker if st.att_commit < 0 else st.defender
        out.extend(Commit(n) for n in range(st.hands[seat][st.conflict_colour] + 1))
    elif p == _WAR_ORDER:
        out.extend(ChooseWar(c) for c in st.wars)
    elif p == _MONUMENT:
        out.extend(BuildMonument(m, sq) for m, sq in st.monument_options)
        out.append(DECLINE)
    elif p == _TREASURE:
        out.extend(TakeTreasure(sq) for sq in squares_of(st.treasure_choices))
    return out


__all__ = [
    "RED",
    "catastrophe_targets",
    "count",
    "leader_targets",
    "legal_actions",
    "random_action",
    "swap_at",
    "swap_count",
    "tile_targets",
]
