"""Which kind of decision is pending and why a point decision is (docs/cards.md).

Kept apart from the state and the flow so that every module can name them: the data,
the flow in turn.py, the handlers, the position format and its checks."""

from __future__ import annotations

from typing import Final

# decision kinds; OVER when nothing is pending
OVER: Final = -1
ACTION: Final = 0
COMMIT: Final = 1
WAR_ORDER: Final = 2
POINT: Final = 3
EXCHANGE: Final = 4
SHIP: Final = 5
SHIP_POINT: Final = 6
KIND_NAMES: Final = ("action", "commit", "war_order", "point", "exchange", "ship", "ship_point")

# why a "point" decision is pending, i.e. what follows it
FOR_COLUMN: Final = 0  # C-9
FOR_REVOLT: Final = 1  # C-10, nothing committed
FOR_WAR: Final = 2  # C-13, nothing committed
REASON_NAMES: Final = ("column", "revolt", "war")
