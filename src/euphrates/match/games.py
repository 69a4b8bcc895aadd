"""The games a host can start, by name."""

from __future__ import annotations

from typing import Any

from euphrates.board import BOARD
from euphrates.core.errors import ArgumentError, short_repr
from euphrates.core.protocol import GameDefinition

GAMES: dict[str, GameDefinition[Any]] = {"board": BOARD}

try:  # the card game registers itself once its engine is present
    from euphrates.cards import CARDS

    GAMES["cards"] = CARDS
except ImportError:  # pragma: no cover - only while the card engine is absent
    pass


def game_definition(name: str) -> GameDefinition[Any]:
    """The game called `name`; ArgumentError (a ValueError) for any other name."""
    definition = GAMES.get(name) if isinstance(name, str) else None
    if definition is None:
        raise ArgumentError(
            f"unknown game {short_repr(name)}; games are {', '.join(sorted(GAMES))}"
        )
    return definition
