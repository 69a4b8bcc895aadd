"""Players that see only their own view, for either game: random, greedy, and
information-set Monte Carlo tree search, with named levels."""

from euphrates.bots.base import Bot, RandomBot
from euphrates.bots.greedy import GreedyBot
from euphrates.bots.levels import LEVELS, make_bot
from euphrates.bots.mcts import MctsBot

__all__ = ["LEVELS", "Bot", "GreedyBot", "MctsBot", "RandomBot", "make_bot"]
