"""Wars, the external conflict (B-22 – B-27).

A tile that joins two kingdoms carries the unification tile. Every colour with two
leaders in the joined kingdom is a war; they are fought one at a time in the order the
active player picks, each with the joining tile treated as absent, so each leader's
side is the region it is in without that tile. A war lapses once its two leaders no
longer share a region containing the joining tile.
"""

from __future__ import annotations

from typing import Final

from euphrates.board.data import BoardData, occupied_squares
from euphrates.board.geometry import (
    NEIGHBOURS,
    SQUARE_BITS,
    expand,
    flood,
    square_name,
    squares_of,
)
from euphrates.board.phases import WAR
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, RED
from euphrates.core.events import event
from euphrates.core.protocol import Event

_JOINED: Final[list[tuple[int, int, int]]] = [(0, -1, 0)]


def joined_region(st: BoardData) -> int:
    """The region of the joining tile. A unification asks for it up to three times on
    the same board (which wars there are, which are left, the first war's sides), and
    each is a flood over two kingdoms, so the last answer is kept with the board it is
    for (replaced whole: a reader never mixes two boards)."""
    occupied = occupied_squares(st)
    sq = st.unification
    last = _JOINED[0]
    if last[1] == sq and last[0] == occupied:
        return last[2]
    region = flood(SQUARE_BITS[sq], occupied)
    _JOINED[0] = (occupied, sq, region)
    return region


def war_colours(st: BoardData, colours: list[int] | range) -> list[int]:
    """Of `colours`, those that still have two leaders in the region of the joining
    tile (B-27: a war lapses otherwise; no new war can arise)."""
    region = joined_region(st)
    return [c for c in colours if len(BoardData.leaders_in(st, region, c)) == 2]


def attacker_of(st: BoardData, seats: list[int]) -> tuple[int, int]:
    """B-23: the active player attacks if involved, else the first involved owner
    clockwise after the active player. Returns (attacker, defender)."""
    a, b = seats
    da = (a - st.active) % st.players
    db = (b - st.active) % st.players
    return (a, b) if da < db else (b, a)


def begin(st: BoardData, colour: int, events: list[Event]) -> None:
    """Start the war of `colour`: sides and base strengths are fixed now (B-24)."""
    region = joined_region(st)
    attacker, defender = attacker_of(st, BoardData.leaders_in(st, region, colour))
    st.phase = WAR
    st.conflict_colour = colour
    st.attacker, st.defender = attacker, defender
    st.att_sq = st.leader_sq[attacker][colour]
    st.def_sq = st.leader_sq[defender][colour]
    within = occupied_squares(st) & ~(1 << st.unification)
    tiles = st.tiles[colour]
    st.att_base = (flood(1 << st.att_sq, within) & tiles).bit_count()
    st.def_base = (flood(1 << st.def_sq, within) & tiles).bit_count()
    st.att_commit = -1
    events.append(
        event(
            "war",
            {
                "leader": LEADER_NAMES[colour],
                "attacker": attacker,
                "defender": defender,
                "attacker_square": square_name(st.att_sq),
                "defender_square": square_name(st.def_sq),
                "attacker_strength": st.att_base,
                "defender_strength": st.def_base,
            },
        )
    )


def removable(st: BoardData, colour: int, loser_sq: int) -> int:
    """B-25/B-26: the face-up tiles of the war colour on the loser's side, determined
    with the losing leader still on the board; in a war of priests, temples holding a
    treasure or next to any other leader stay."""
    within = occupied_squares(st) & ~(1 << st.unification)
    side = flood(1 << loser_sq, within)
    out = side & st.tiles[colour]
    if colour == RED:
        others = st.leader_bits & ~(1 << loser_sq)
        out &= ~(st.treasures | expand(others))
    return out


def resolve(st: BoardData, def_commit: int, events: list[Event]) -> None:
    """Compare, remove the loser's supporters and leader, score the winner (B-25)."""
    colour = st.conflict_colour
    att = st.att_base + st.att_commit
    dfn = st.def_base + def_commit
    if att > dfn:
        winner, loser, loser_sq = st.attacker, st.defender, st.def_sq
    else:
        winner, loser, loser_sq = st.defender, st.attacker, st.att_sq
    gone = removable(st, colour, loser_sq)
    events.append(
        event(
            "conflict_resolved",
            {
                "conflict": "war",
                "colour": COLOUR_NAMES[colour],
                "attacker_total": att,
                "defender_total": dfn,
                "winner": winner,
                "loser": loser,
            },
        )
    )
    BoardData.return_leader(st, loser, colour, "war lost", events)
    n = gone.bit_count()
    if n:
        st.tiles[colour] &= ~gone
        st.removed[colour] += n
        BoardData.board_changed(st)
        events.append(
            event(
                "tiles_removed",
                {
                    "colour": COLOUR_NAMES[colour],
                    "squares": [square_name(s) for s in squares_of(gone)],
                },
            )
        )
    BoardData.score(st, winner, colour, 1 + n, "war", events)
    st.wars = [c for c in st.wars if c != colour]
    # B-10 cannot trigger here: B-26 keeps every temple that touches another leader.
    assert all(NEIGHBOURS[sq] & st.tiles[RED] for row in st.leader_sq for sq in row if sq >= 0), (
        "a war left a leader without a temple"
    )
