"""One game being played in a server process: the only place its live state changes.

`Room` is assembled from a module per kind of change, each a step of the class's
line: roomstate.py (what it holds, and `_take`, the one writer of its row and marks),
play.py (moves and undos), clocks.py (a clock written between versions), endings.py
(ends that are not the engine's), seating.py (seats, and players leaving for good) and
timing.py (deadlines, forfeits, stand-ins, vacations). Every change is one of the lifecycle's
(lifecycle.py). Nothing outside `game/` assigns to a room's state (tests/test_shape.py).
"""

from __future__ import annotations

from euphrates.server.game.roomstate import UNDO_DEPTH, RoomHost
from euphrates.server.game.standing import Played
from euphrates.server.game.timing import Timing

__all__ = ["UNDO_DEPTH", "Played", "Room", "RoomHost"]


class Room(Timing):
    """A game of this process: its state, its versions, its seats, its clock."""
