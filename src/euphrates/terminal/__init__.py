"""Playing against bots in the terminal, rendered with `rich`.

One seat is yours; the bots play the others and see only their own views, as you do.
Type moves in the notation (docs/board.md, docs/cards.md); `help` lists your legal
moves, `log` the moves so far, `save FILE` writes the game record, `quit` leaves (the
game is saved after every move: `euphrates play --resume` continues it). A wrong move is
explained and nothing changes.
"""

from euphrates.terminal.app import new_record, play_in_terminal
from euphrates.terminal.game import TerminalGame

__all__ = ["TerminalGame", "new_record", "play_in_terminal"]
