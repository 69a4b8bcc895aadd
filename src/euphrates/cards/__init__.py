"""Contest of Kings, the card game of Tigris & Euphrates (Knizia, 2005), as a rules engine.

``CARDS`` is the game definition (``euphrates.core.GameDefinition``); ``CardsState`` the
state. The rules are in /rules (German text, RULINGS.md C-1..C-19); the notation, the
position format and the choices where the rules are silent are in docs/cards.md.
"""

from euphrates.cards.actions import CardsAction, parse_action
from euphrates.cards.game import CARDS, CardsGame, new_game
from euphrates.cards.state import CardsState

__all__ = ["CARDS", "CardsAction", "CardsGame", "CardsState", "new_game", "parse_action"]
