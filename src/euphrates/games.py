"""The games a host can start, by name: the one registry the bots' worker, the match
tools, the terminal and the server look a game up in.

It sits above both engines and below everything that hosts or plays them."""

from __future__ import annotations

from typing import Any

from euphrates.board import BOARD
from euphrates.cards import CARDS
from euphrates.core.errors import ArgumentError, short_repr
from euphrates.core.protocol import GameDefinition

GAMES: dict[str, GameDefinition[Any]] = {"board": BOARD, "cards": CARDS}


def game_definition(name: str) -> GameDefinition[Any]:
    """The game called `name`; ArgumentError (a ValueError) for any other name."""
    definition = GAMES.get(name) if isinstance(name, str) else None
    if definition is None:
        raise ArgumentError(
            f"unknown game {short_repr(name)}; games are {', '.join(sorted(GAMES))}"
        )
    return definition
