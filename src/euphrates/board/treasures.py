"""Treasures (B-30).

At the end of every leader and tile action, a kingdom with two or more treasures and
a trader gives all but one of them to the trader's owner, bordered treasures first.
Where the owner has a real choice of which to take, that is a decision of the owner,
who need not be the active player.
"""

from __future__ import annotations

from euphrates.board.data import BoardData
from euphrates.board.geometry import SQUARE_BITS, lowest_square, square_name
from euphrates.board.phases import TREASURE
from euphrates.core.colours import GREEN
from euphrates.core.events import event
from euphrates.core.protocol import Event


def giving_kingdom(st: BoardData) -> tuple[int, int] | None:
    """(owner, treasure squares) of the first kingdom that must give treasures,
    in seat order of the owners from the active player; None if none. Only kingdoms
    with a trader qualify. Kingdoms with two treasures are few, so they are found first
    (usually none) and only then the traders are looked for in them."""
    treasures = st.treasures
    rich: list[int] = []
    for k in BoardData.kingdoms(st):
        held = k & treasures
        # Two or more: more than the highest one alone (no wide `held - 1`).
        if held and held != SQUARE_BITS[held.bit_length() - 1]:
            rich.append(k)
    if not rich:
        return None
    for i in range(st.players):
        owner = (st.active + i) % st.players
        sq = st.leader_sq[owner][GREEN]
        if sq < 0:
            continue
        b = SQUARE_BITS[sq]
        for k in rich:
            if k & b:
                return owner, k & treasures
    return None


def first_to_take(st: BoardData, held: int) -> int:
    """Of the treasures `held` in a giving kingdom, those that may be taken now:
    the bordered ones while any is left (board-map.md), else all."""
    return held & st.map.bordered or held


def take(st: BoardData, seat: int, sq: int, events: list[Event]) -> None:
    st.treasures &= ~(1 << sq)
    st.held[seat] += 1
    events.append(event("treasure_taken", {"seat": seat, "square": square_name(sq)}))


def settle(st: BoardData, events: list[Event]) -> bool:
    """Hand out treasures until a real choice is needed. Returns True when a choice is
    now pending (phase TREASURE), False when every kingdom is settled."""
    while True:
        pending = giving_kingdom(st)
        if pending is None:
            return False
        owner, held = pending
        to_take = held.bit_count() - 1
        candidates = first_to_take(st, held)
        if to_take >= candidates.bit_count():
            # Every candidate will be taken whatever the order: no real choice.
            while candidates:
                sq = lowest_square(candidates)
                take(st, owner, sq, events)
                candidates ^= SQUARE_BITS[sq]
            continue
        st.phase = TREASURE
        st.treasure_owner = owner
        st.treasure_choices = candidates
        return True
