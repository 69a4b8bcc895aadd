"""Legal actions as bitmasks (B-8, B-9, B-12, B-15, B-16, G-2).

For each kind of action the legal squares are one bitboard, so counting legal actions
is a handful of popcounts and a uniform random choice picks an index and decodes it,
without building hundreds of action objects. `legal_actions` builds the full list
from the same masks, so the count, the list and the check in `apply` cannot disagree.
"""

from __future__ import annotations

from typing import Final

from euphrates.board.actions import (
    CATASTROPHE_ACTIONS,
    DECLINE,
    LEADER_ACTIONS,
    PASS,
    TABLE_IDS,
    TILE_ACTIONS,
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
    check_action,
)
from euphrates.board.data import BoardData, occupied_squares
from euphrates.board.geometry import FULL, SQUARE_BITS, expand, nth_square, squares_of
from euphrates.board.kingdoms import parts_reach
from euphrates.board.phases import ACTION, MONUMENT, REVOLT, TREASURE, WAR, WAR_ORDER
from euphrates.core.colours import BLUE, RED
from euphrates.core.errors import GameOverError
from euphrates.core.rng import Rng


def leader_targets(st: BoardData, colour: int) -> int:
    """Squares where the active player's leader of `colour` may go (B-8, B-9): empty
    land next to a temple, touching at most one kingdom, judged with the leader lifted."""
    return masks(st)[2][colour]


def masks(st: BoardData) -> tuple[int, int, list[int], int]:
    """(tile land squares, tile river squares, leader squares by colour, catastrophe
    squares) for the active player, computed once per state version."""
    cached = st._masks
    if cached is not None:
        return cached
    kingdoms = BoardData.kingdoms(st)
    nbs = BoardData.kingdom_neighbourhoods(st)
    # Squares next to one, two, three or more kingdoms. `two` lies within `one`, so
    # `two & nb` is `two & overlap`: a kingdom whose neighbourhood meets no other
    # costs two operations instead of five.
    one = two = three = 0
    for nb in nbs:
        overlap = one & nb
        if overlap:
            if two:
                three |= two & overlap
            two |= overlap
        one |= nb
    occupied = occupied_squares(st)
    # Operands stay non-negative (`a ^ (a & b)` for `a & ~b`): see geometry.
    empty = FULL ^ (occupied | st.catas)
    free = empty ^ (empty & three)
    on_river = free & st.map.river
    on_land = free ^ on_river
    base = empty & st.map.land & near_temples(st.tiles[RED])
    row = st.leader_sq[st.active]
    leaders = st.leader_bits
    off_board = base ^ (base & two)
    leader_masks = [off_board, off_board, off_board, off_board]
    if row[0] < 0 and row[1] < 0 and row[2] < 0 and row[3] < 0:
        result = (on_land, on_river, leader_masks, catastrophe_targets(st))
        st._masks = result
        return result
    for colour in range(4):
        sq = row[colour]
        if sq < 0:
            continue
        b = SQUARE_BITS[sq]
        home = nb = 0
        for i in range(len(kingdoms)):
            if kingdoms[i] & b:
                home = kingdoms[i]
                nb = nbs[i]
                break
        # Counters over every other kingdom: those of all kingdoms, less one on the
        # squares next to this one (`two_l`; `one_l` only if the kingdom has parts
        # left below). Empty counters are skipped: each operation makes an integer.
        two_nb = two & nb if two else 0
        two_l = two ^ two_nb if two_nb else two
        if three:
            two_l |= three & nb
        # Then the remains of its own kingdom with the leader lifted (B-8).
        reach, reach_two = parts_reach(home, b, leaders)
        if reach:
            one_l = (one ^ (one & nb)) | two_nb
            two_l |= (one_l & reach) | reach_two
        leader_masks[colour] = base ^ (base & two_l) if two_l else base
    result = (on_land, on_river, leader_masks, catastrophe_targets(st))
    st._masks = result
    return result


_NEAR_TEMPLES: Final[list[tuple[int, int]]] = [(0, 0)]


def near_temples(temples: int) -> int:
    """`expand(temples)`, remembered for the last temples asked about: temples change
    seldom (a catastrophe, a revolt's or war's losses, a monument), the legal leader
    squares need their neighbourhood at every decision. The pair is replaced whole, so
    a reader never sees one state's temples with another's neighbourhood."""
    last = _NEAR_TEMPLES[0]
    if last[0] == temples:
        return last[1]
    near = expand(temples)
    _NEAR_TEMPLES[0] = (temples, near)
    return near


def catastrophe_targets(st: BoardData) -> int:
    """B-15: any square but a leader, a catastrophe, a treasure's tile or a monument's."""
    if st.catas_left[st.active] <= 0:
        return 0
    return FULL ^ (st.leader_bits | st.catas | st.treasures | st.flipped)


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


# Segments of the turn-action table: (kind, colour, mask, count).
_TILE, _LEADER, _WITHDRAW, _CATASTROPHE, _SWAP, _PASS = range(6)
Segment = tuple[int, int, int, int]


def action_table(st: BoardData) -> tuple[int, list[Segment]]:
    """All turn actions as (total, segments), in the order `legal_actions` lists them:
    tiles by colour, leaders by colour, withdrawals, catastrophes, swaps, pass."""
    cached = st._table
    if cached is not None:
        return cached
    active = st.active
    hand = st.hands[active]
    land, river, leader_masks, cat = masks(st)
    segs: list[Segment] = []
    total = 0
    # Each distinct mask is counted once: three colours share the land, and leaders
    # not on the board share one mask (`bit_count` is a call by name compiled).
    n_land = -1
    for c in range(4):
        if hand[c] > 0:
            if c == BLUE:
                m = river
                n = river.bit_count()
            else:
                m = land
                if n_land < 0:
                    n_land = land.bit_count()
                n = n_land
            segs.append((_TILE, c, m, n))
            total += n
    last_m = last_n = 0
    for c in range(4):
        m = leader_masks[c]
        if m:
            if m != last_m:
                last_m = m
                last_n = m.bit_count()
            segs.append((_LEADER, c, m, last_n))
            total += last_n
    row = st.leader_sq[active]
    for c in range(4):
        if row[c] >= 0:
            segs.append((_WITHDRAW, c, 0, 1))
            total += 1
    n = cat.bit_count()
    if n:
        segs.append((_CATASTROPHE, 0, cat, n))
    n_swap = swap_count(hand)
    segs.append((_SWAP, 0, 0, n_swap))
    segs.append((_PASS, 0, 0, 1))
    table = (total + n + n_swap + 1, segs)
    st._table = table
    return table


def _decode(st: BoardData, seg: Segment, k: int) -> BoardAction:
    kind, colour, mask, _ = seg
    if kind == _TILE:
        return TILE_ACTIONS[colour][nth_square(mask, k)]
    if kind == _LEADER:
        return LEADER_ACTIONS[colour][nth_square(mask, k)]
    if kind == _WITHDRAW:
        return WithdrawLeader(colour)
    if kind == _CATASTROPHE:
        return CATASTROPHE_ACTIONS[nth_square(mask, k)]
    if kind == _SWAP:
        return swap_at(st.hands[st.active], k)
    return PASS


def count(st: BoardData) -> int:
    p = st.phase
    if p == ACTION:
        return action_table(st)[0]
    if p in (REVOLT, WAR):
        seat = st.attacker if st.att_commit < 0 else st.defender
        return st.hands[seat][st.support_colour] + 1
    if p == WAR_ORDER:
        return len(st.wars)
    if p == MONUMENT:
        return len(st.monument_options) + 1
    if p == TREASURE:
        return st.treasure_choices.bit_count()
    return 0


def random_action(st: BoardData, rng: Rng) -> BoardAction:
    if st.phase != ACTION:
        acts = legal_actions(st)
        if not acts:
            raise GameOverError("the game is over; no action is legal", "B-31")
        return acts[rng.below(len(acts))]
    total, segs = action_table(st)
    k = rng.below(total)
    for seg in segs:
        n = seg[3]
        if k < n:
            kind = seg[0]
            if kind == _TILE:
                return TILE_ACTIONS[seg[1]][nth_square(seg[2], k)]
            if kind == _LEADER:
                return LEADER_ACTIONS[seg[1]][nth_square(seg[2], k)]
            return _decode(st, seg, k)
        k -= n
    raise AssertionError("index beyond the action table")


def is_legal(st: BoardData, action: BoardAction) -> bool:
    """Membership in `legal_actions` answered from the masks, once the object is known to
    be an action (as `apply` checks it: `Swap((0.5, 0, 0, 0))` is none)."""
    if id(action) not in TABLE_IDS:
        check_action(action)
    if st.phase != ACTION:
        return action in legal_actions(st)
    if isinstance(action, PlaceTile):
        land, river, _, _ = masks(st)
        ok = st.hands[st.active][action.colour] > 0
        return ok and bool((river if action.colour == BLUE else land) >> action.square & 1)
    if isinstance(action, PlaceLeader):
        return bool(masks(st)[2][action.colour] >> action.square & 1)
    if isinstance(action, WithdrawLeader):
        return st.leader_sq[st.active][action.colour] >= 0
    if isinstance(action, PlaceCatastrophe):
        return bool(masks(st)[3] >> action.square & 1)
    if isinstance(action, Swap):
        hand = st.hands[st.active]
        return sum(action.counts) > 0 and all(
            0 <= k <= hand[c] for c, k in enumerate(action.counts)
        )
    return action == PASS


def legal_actions(st: BoardData) -> list[BoardAction]:
    p = st.phase
    out: list[BoardAction] = []
    if p == ACTION:
        for seg in action_table(st)[1]:
            kind, colour, mask, n = seg
            if kind == _TILE:
                tiles = TILE_ACTIONS[colour]
                out.extend(tiles[sq] for sq in squares_of(mask))
            elif kind == _LEADER:
                leaders = LEADER_ACTIONS[colour]
                out.extend(leaders[sq] for sq in squares_of(mask))
            elif kind == _CATASTROPHE:
                out.extend(CATASTROPHE_ACTIONS[sq] for sq in squares_of(mask))
            else:
                out.extend(_decode(st, seg, i) for i in range(n))
    elif p in (REVOLT, WAR):
        seat = st.attacker if st.att_commit < 0 else st.defender
        out.extend(Commit(n) for n in range(st.hands[seat][st.support_colour] + 1))
    elif p == WAR_ORDER:
        out.extend(ChooseWar(c) for c in st.wars)
    elif p == MONUMENT:
        out.extend(BuildMonument(m, sq) for m, sq in st.monument_options)
        out.append(DECLINE)
    elif p == TREASURE:
        out.extend(TakeTreasure(sq) for sq in squares_of(st.treasure_choices))
    return out


__all__ = [
    "catastrophe_targets",
    "count",
    "leader_targets",
    "legal_actions",
    "random_action",
    "swap_at",
    "swap_count",
]
