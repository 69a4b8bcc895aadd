"""The registry of games, kept importable here for the hosts that name this module: it
lives in `euphrates.games`, below the bots, whose worker process looks games up too."""

from euphrates.games import GAMES, game_definition

__all__ = ["GAMES", "game_definition"]
