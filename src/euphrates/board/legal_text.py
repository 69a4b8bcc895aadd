"""The legal actions as notation, straight from the action table.

Every view of the seat to move lists its legal actions as text, and a host builds
that view after every action. Building ~300 action objects only to print them cost
most of a server's time per move; the texts come as cheaply from the same masks, in
exactly the order `legal_actions` gives (seeded bots choose by index).
"""

from __future__ import annotations

from euphrates.board.data import BoardData
from euphrates.board.geometry import SQUARE_NAMES, squares_of
from euphrates.board.legal import (
    _CATASTROPHE,
    _LEADER,
    _PASS,
    _SWAP,
    _TILE,
    _WITHDRAW,
    action_table,
    legal_actions,
    swap_at,
)
from euphrates.board.phases import ACTION
from euphrates.core.colours import COLOUR_LETTERS, LEADER_LETTERS


def legal_texts(st: BoardData) -> list[str]:
    if st.phase != ACTION:
        return [str(a) for a in legal_actions(st)]
    names = SQUARE_NAMES
    out: list[str] = []
    for kind, colour, mask, n in action_table(st)[1]:
        if kind == _TILE:
            head = COLOUR_LETTERS[colour]
            out.extend([head + names[sq] for sq in squares_of(mask)])
        elif kind == _LEADER:
            head = LEADER_LETTERS[colour]
            out.extend([head + names[sq] for sq in squares_of(mask)])
        elif kind == _WITHDRAW:
            out.append(LEADER_LETTERS[colour] + "-")
        elif kind == _CATASTROPHE:
            out.extend(["x" + names[sq] for sq in squares_of(mask)])
        elif kind == _SWAP:
            hand = st.hands[st.active]
            out.extend([str(swap_at(hand, i)) for i in range(n)])
        elif kind == _PASS:
            out.append("pass")
    return out
