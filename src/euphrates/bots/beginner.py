"""The beginner: the greedy bot's judgement, followed loosely.

A beginner is not a player who picks moves at random (nobody plays that way) but one
who sees roughly what is good and often takes something a little worse. So this bot
ranks every legal action exactly as the greedy bot does (one ply, the documented
evaluation, its own follow-ups answered) and draws one with a probability proportional
to exp(value / temperature): a much worse action is rarely played, a nearly as good
one often. The evaluation is in points of the weakest colour in both games, so one
temperature means the same in each; at 0 it is the greedy bot, very high it is random.
"""

from __future__ import annotations

import math
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.greedy import GreedyBot
from euphrates.core.protocol import GameDefinition, View

DEFAULT_TEMPERATURE = 0.5
MAX_TEMPERATURE = 1000.0


def softmax_pick(values: list[float], temperature: float, draw: float) -> int:
    """The index drawn for `draw` in [0, 1) from the softmax of `values`."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    target = draw * sum(weights)
    for i, w in enumerate(weights):
        target -= w
        if target < 0:
            return i
    return len(values) - 1


class SoftmaxBot(Bot):
    """Softmax over the greedy evaluation of the legal actions, at `temperature`."""

    name = "softmax"

    def __init__(self, seed: int = 0, temperature: float = DEFAULT_TEMPERATURE) -> None:
        super().__init__(seed)
        if not 0 < temperature <= MAX_TEMPERATURE:
            raise ValueError(f"temperature must lie in (0, {MAX_TEMPERATURE:g}]")
        self.temperature = temperature

    def describe(self) -> str:
        return f"softmax:{self.temperature:g}"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        greedy = GreedyBot(self.rng.below(1 << 30))
        ranked = greedy.ranked(game, view)
        draw = self.rng.below(1 << 30) / (1 << 30)
        return ranked[softmax_pick([v for v, _ in ranked], self.temperature, draw)][1]
