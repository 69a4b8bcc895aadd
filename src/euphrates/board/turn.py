"""The end of a turn and the end of the game (B-17 – B-19, B-31).

In order: monument points, refills (the active player, then everyone else short of
six, in seat order from the active player), the treasure end check. A refill the bag
cannot complete ends the game at once, after that player drew what was left.
"""

from __future__ import annotations

import euphrates.board.monuments as monuments
from euphrates.board.data import BoardData
from euphrates.board.phases import ACTION, HAND_SIZE
from euphrates.core.events import event
from euphrates.core.protocol import Event


def refill(st: BoardData, seat: int, events: list[Event]) -> bool:
    """Refill `seat` to six; False if the bag could not cover it (the game ends)."""
    need = HAND_SIZE - sum(st.hands[seat])
    if need <= 0:
        return True
    short = need > len(st.bag)
    BoardData.draw(st, seat, need, events)
    return not short


def end_turn(st: BoardData, events: list[Event]) -> None:
    monuments.end_of_turn_points(st, events)
    for i in range(st.players):
        seat = (st.active + i) % st.players
        if not refill(st, seat, events):
            events.append(event("bag_empty", {"seat": seat}))
            BoardData.finish(st, events)
            return
    if st.treasures.bit_count() <= 2:
        events.append(event("treasures_low", {"left": st.treasures.bit_count()}))
        BoardData.finish(st, events)
        return
    st.active = (st.active + 1) % st.players
    st.actions_done = 0
    st.phase = ACTION
    events.append(event("turn_started", {"seat": st.active}))


def end_action(st: BoardData, events: list[Event]) -> None:
    """An action and all it triggered is done (B-7): the next action, or the turn ends."""
    st.actions_done += 1
    if st.actions_done >= 2:
        end_turn(st, events)
    else:
        st.phase = ACTION
