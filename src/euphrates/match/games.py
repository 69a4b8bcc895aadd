"""The games a host can start, by name."""

from __future__ import annotations

from typing import Any

from euphrates.board import BOARD
from euphrates.core.protocol import GameDefinition

GAMES: dict[str, GameDefinition[Any]] = {"board": BOARD}

try:  # the card game registers itself once its engine is present
    from euphrates.cards import CARDS

    GAMES["cards"] = CARDS
except ImportError:  # pragma: no cover - only while the card engine is absent
    pass


def game_definition(name: str) -> GameDefinition[Any]:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; games are {', '.join(sorted(GAMES))}") from None
