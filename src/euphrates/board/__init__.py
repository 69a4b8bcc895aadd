"""Tigris & Euphrates (1997): the board game's rules engine.

>>> from euphrates.board import BOARD
>>> game = BOARD.new_game(players=3, seed=7)
>>> game.decision().kind
'action'
"""

from euphrates.board.actions import BoardAction, parse_action
from euphrates.board.game import BOARD, BoardGame
from euphrates.board.state import BoardState

__all__ = ["BOARD", "BoardAction", "BoardGame", "BoardState", "parse_action"]
