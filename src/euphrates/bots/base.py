"""What a bot is: something that picks an action from its own view.

A bot is handed its seat's view (a JSON dict with nothing hidden in it, G-3) and the
game's definition, whose `sample_from_view` it may use to imagine full states that
agree with that view. It is never given the true state, so it cannot read another
hand, the bag or the deck.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from euphrates.core.protocol import GameDefinition, View
from euphrates.core.rng import Rng


class Bot(ABC):
    """A player. `choose` returns the text of one of the view's legal actions."""

    name: str = "bot"
    reads_history: bool = False
    """Whether the bot reads the public history beside its view (core.history). Hosts
    send it only to those that do: a card game's history handed over at every decision
    is some hundred megabytes of JSON over a game, for a bot that never looks."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = Rng(seed)

    def reseed(self, seed: int) -> None:
        """Reproducible play: the same seed, views and budget give the same choices."""
        self.seed = seed
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, game: GameDefinition[Any], view: View) -> str:
        """The action to take, as text, for the decision pending in `view` (which must
        be this bot's: `view["legal"]` lists its legal actions)."""

    def describe(self) -> str:
        return self.name


def legal_of(view: View) -> list[str]:
    legal = view.get("legal") or []
    if not legal:
        raise ValueError("the view holds no decision for its viewer; nothing to choose")
    return list(legal)


class RandomBot(Bot):
    """Uniformly random among the legal actions: the floor every other bot must beat."""

    name = "random"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        return legal[self.rng.below(len(legal))]
