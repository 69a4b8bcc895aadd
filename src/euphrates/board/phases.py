"""Which kind of decision is pending, and the fixed numbers of the material (B-1, B-6).

Kept apart from `state` so every rules module can name the phases without an import
cycle."""

from __future__ import annotations

from typing import Final

ACTION: Final = 0  # the active player's action or pass
REVOLT: Final = 1  # a commitment in a revolt (B-20)
WAR_ORDER: Final = 2  # the active player picks the next war (B-22)
WAR: Final = 3  # a commitment in a war (B-24)
MONUMENT: Final = 4  # build a monument or decline (B-28)
TREASURE: Final = 5  # a trader's owner picks a treasure (B-30)
OVER: Final = 6

PHASE_KINDS: Final = ("action", "commit", "war_order", "commit", "monument", "treasure", "over")
PHASE_NAMES: Final = ("action", "revolt", "war_order", "war", "monument", "treasure", "over")

HAND_SIZE: Final = 6
CATASTROPHES_EACH: Final = 2
TILE_COUNTS: Final = (57, 36, 30, 30)  # red, blue, green, black (B-1)
NO_SQUARE: Final = -1
