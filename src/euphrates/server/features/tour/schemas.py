"""What the guided games' routes receive."""

from __future__ import annotations

from euphrates.server.features.api import GameName, Strict


class TourIn(Strict):
    game: GameName
