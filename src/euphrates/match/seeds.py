"""The seeds of games and bots, kept importable here for the hosts that name this module:
they live in `euphrates.core.seeds`, below the bots, which derive decision seeds too."""

from euphrates.core.seeds import bot_seed, decision_seed, derive, fresh_seed, game_seed

__all__ = ["bot_seed", "decision_seed", "derive", "fresh_seed", "game_seed"]
