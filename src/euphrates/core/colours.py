"""The four colours and their leaders, shared by both games (RULINGS.md, names table).

Colours are small ints so hands, point tallies and bitboards index lists directly.
"""

from __future__ import annotations

from typing import Final

RED: Final = 0
BLUE: Final = 1
GREEN: Final = 2
BLACK: Final = 3
COLOURS: Final = (RED, BLUE, GREEN, BLACK)

COLOUR_NAMES: Final = ("red", "blue", "green", "black")
# One letter each; black is "k" so that "b" stays blue.
COLOUR_LETTERS: Final = ("r", "b", "g", "k")
LEADER_NAMES: Final = ("priest", "farmer", "trader", "king")
LEADER_LETTERS: Final = ("P", "F", "T", "K")
# Tile/card names of the 2nd English edition, by colour.
TILE_NAMES: Final = ("temple", "farm", "market", "settlement")

_COLOUR_ALIASES: dict[str, int] = {}
for _c in COLOURS:
    for _alias in (COLOUR_NAMES[_c], COLOUR_LETTERS[_c], TILE_NAMES[_c]):
        _COLOUR_ALIASES[_alias] = _c
_LEADER_ALIASES: dict[str, int] = {}
for _c in COLOURS:
    for _alias in (LEADER_NAMES[_c], LEADER_LETTERS[_c].lower()):
        _LEADER_ALIASES[_alias] = _c


def parse_colour(text: str) -> int | None:
    """Colour from a name, a letter or a tile name (case-insensitive); None if unknown."""
    return _COLOUR_ALIASES.get(text.strip().lower())


def parse_leader(text: str) -> int | None:
    """Leader colour from a leader name or its letter (case-insensitive); None if unknown."""
    return _LEADER_ALIASES.get(text.strip().lower())


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour]
