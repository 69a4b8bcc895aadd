"""Which kind of decision is pending and why a point decision is (docs/cards.md).

Kept apart from the state and the flow so that every module can name them: the data,
the flow in turn.py, the handlers, the position format and its checks."""

from __future__ import annotations

from typing import Final

OVER: Final = -1  # nothing is pending: the game is over (C-17)
ACTION: Final = 0  # the active player's action or pass (C-5 – C-8)
COMMIT: Final = 1  # a commitment in a revolt or a war (C-10, C-12)
WAR_ORDER: Final = 2  # the active player picks the next war (C-11)
POINT: Final = 3  # a point card paid or not (C-9, C-10, C-13)
EXCHANGE: Final = 4  # a treasure exchanged for a red card or not (C-14)
SHIP: Final = 5  # a ship built or declined (C-15)
SHIP_POINT: Final = 6  # a ship point paid or not (C-16)
KIND_NAMES: Final = ("action", "commit", "war_order", "point", "exchange", "ship", "ship_point")

# why a "point" decision is pending, i.e. what follows it
FOR_COLUMN: Final = 0  # C-9
FOR_REVOLT: Final = 1  # C-10, nothing committed
FOR_WAR: Final = 2  # C-13, nothing committed
REASON_NAMES: Final = ("column", "revolt", "war")
