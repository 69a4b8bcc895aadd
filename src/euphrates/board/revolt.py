"""Revolts, the internal conflict (B-11, B-20, B-21).

A leader placed or moved into a kingdom that already holds a leader of its colour
fights with temples: each side counts the temples next to its own leader, then the
attacker and the defender commit red tiles from hand, in that order.
"""

from __future__ import annotations

from euphrates.board.data import BoardData
from euphrates.board.geometry import NEIGHBOURS, square_name
from euphrates.board.phases import REVOLT
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, RED
from euphrates.core.events import event
from euphrates.core.protocol import Event


def start(st: BoardData, seat: int, colour: int, defender: int, events: list[Event]) -> None:
    """Open a revolt: the mover attacks, the leader already there defends (B-20)."""
    temples = st.tiles[RED]
    st.phase = REVOLT
    st.conflict_colour = colour
    st.attacker, st.defender = seat, defender
    st.att_sq = st.leader_sq[seat][colour]
    st.def_sq = st.leader_sq[defender][colour]
    st.att_base = (NEIGHBOURS[st.att_sq] & temples).bit_count()
    st.def_base = (NEIGHBOURS[st.def_sq] & temples).bit_count()
    st.att_commit = -1
    events.append(
        event(
            "revolt",
            {
                "leader": LEADER_NAMES[colour],
                "attacker": seat,
                "defender": defender,
                "attacker_square": square_name(st.att_sq),
                "defender_square": square_name(st.def_sq),
                "attacker_strength": st.att_base,
                "defender_strength": st.def_base,
            },
        )
    )


def resolve(st: BoardData, def_commit: int, events: list[Event]) -> None:
    """B-21: higher total wins, a tie goes to the defender; the loser's leader returns,
    the winner scores one red point; committed tiles have already left the game."""
    colour = st.conflict_colour
    att = st.att_base + st.att_commit
    dfn = st.def_base + def_commit
    if att > dfn:
        winner, loser = st.attacker, st.defender
    else:
        winner, loser = st.defender, st.attacker
    events.append(
        event(
            "conflict_resolved",
            {
                "conflict": "revolt",
                "colour": COLOUR_NAMES[colour],
                "attacker_total": att,
                "defender_total": dfn,
                "winner": winner,
                "loser": loser,
            },
        )
    )
    BoardData.return_leader(st, loser, colour, "revolt lost", events)
    BoardData.score(st, winner, RED, 1, "revolt", events)
