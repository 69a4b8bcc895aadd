"""Monuments (B-17, B-28, B-29).

A tile that completes a 2×2 block of one colour lets the active player build a
monument there, after any wars; the four tiles flip and connect but no longer count
as any colour. At the end of each turn, the active player's leaders in a kingdom with
a monument of their colour score.
"""

from __future__ import annotations

from euphrates.board.actions import MONUMENT_CODES, MONUMENTS, monument_name
from euphrates.board.data import BoardData, occupied_squares
from euphrates.board.geometry import HEIGHT, NEIGHBOURS, WIDTH, expand, flood, square_name
from euphrates.core.colours import RED
from euphrates.core.events import event
from euphrates.core.protocol import Event


def block_mask(top_left: int) -> int:
    return (0b11 | 0b11 << WIDTH) << top_left


def available(st: BoardData) -> list[int]:
    built = {m for m, _, _ in st.monuments}
    return [m for m in range(len(MONUMENTS)) if m not in built]


def options(st: BoardData) -> list[tuple[int, int]]:
    """(monument, top-left square) pairs the placed tile makes possible now."""
    sq = st.placed
    colour = BoardData.tile_colour_at(st, sq)
    if colour < 0:
        return []
    tiles = st.tiles[colour]
    if (NEIGHBOURS[sq] & tiles).bit_count() < 2:
        return []  # a 2×2 block needs two orthogonal neighbours of the colour
    x, y = sq % WIDTH, sq // WIDTH
    blocks = [
        (by * WIDTH + bx)
        for by in (y - 1, y)
        for bx in (x - 1, x)
        if 0 <= bx < WIDTH - 1 and 0 <= by < HEIGHT - 1
    ]
    blocks = [tl for tl in blocks if block_mask(tl) & tiles == block_mask(tl)]
    if not blocks:
        return []
    ms = [m for m in available(st) if colour in MONUMENTS[m]]
    return [(m, tl) for tl in blocks for m in ms]


def build(st: BoardData, monument: int, top_left: int, events: list[Event]) -> None:
    """Flip the block and put the monument on it; treasures stay on their tiles; a
    leader that loses its last temple returns (B-10, B-28)."""
    colour = BoardData.tile_colour_at(st, top_left)
    block = block_mask(top_left)
    st.tiles[colour] &= ~block
    st.flipped |= block
    st.monuments.append((monument, top_left, colour))
    # Flipped tiles still connect (B-5): the kingdoms are unchanged.
    # `code` is the monument as views and notation write it (`rb`), `monument` in words.
    events.append(
        event(
            "monument_built",
            {
                "seat": st.active,
                "monument": monument_name(monument),
                "code": MONUMENT_CODES[monument],
                "square": square_name(top_left),
            },
        )
    )
    if colour == RED:
        BoardData.return_leaders_without_temple(st, expand(block), events)


def end_of_turn_points(st: BoardData, events: list[Event]) -> None:
    """B-17: each of the active player's leaders in a kingdom with a monument showing
    its colour scores one point of that colour, once per such monument."""
    seat = st.active
    row = st.leader_sq[seat]
    if not st.monuments or all(sq < 0 for sq in row):
        return
    occupied = occupied_squares(st)
    for m, top_left, _ in st.monuments:
        region = flood(block_mask(top_left), occupied)
        for colour in MONUMENTS[m]:
            sq = row[colour]
            if sq >= 0 and region >> sq & 1:
                BoardData.score(st, seat, colour, 1, "monument", events)
