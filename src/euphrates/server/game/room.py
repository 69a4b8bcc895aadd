"""One game being played in a server process: the only place its live state changes.

`Room` is assembled from a module per kind of change, each a step of the class's
line: roomstate.py (what it holds, and `_take`, the one writer of its row and marks),
play.py (moves and undos), timing.py (clocks and deadlines), endings.py (ends that are
not the engine's) and seating.py (seats). Every change is one of the lifecycle's
(lifecycle.py). Nothing outside `game/` assigns to a room's state (tests/test_shape.py).
"""

from __future__ import annotations

from euphrates.server.game.roomstate import UNDO_DEPTH, Played, RoomHost
from euphrates.server.game.seating import Seating

__all__ = ["UNDO_DEPTH", "Played", "Room", "RoomHost"]


class Room(Seating):
    """A game of this process: its state, its versions, its seats, its clock."""
