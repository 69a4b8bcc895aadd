"""The evaluation each game offers the bots, behind one interface.

`scores(state, viewer)` gives every player's absolute score (from the viewer's
knowledge: a sampled state holds invented hands, so the evaluation uses its own hand
exactly and others' only as counts); `prior(state, action, seat)` ranks actions
without playing them. See `board_eval` and `cards_eval` for what they weigh.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from euphrates.core.protocol import GameState


@dataclass(frozen=True)
class Evaluator:
    scores: Callable[[Any, int], list[float]]
    prior: Callable[[Any, Any, int], float]

    def value(self, state: GameState[Any], seat: int) -> float:
        """Own score minus the best opponent's."""
        values = self.scores(state, seat)
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)

    def rewards(self, state: GameState[Any], viewer: int, scale: float = 2.0) -> list[float]:
        """A reward in [0, 1] per seat for search: the final placing once the game is
        over (shared places split), else a logistic of the evaluation margin."""
        out = state.outcome()
        n = state.players
        if out is not None:
            winners = out.winners
            margin = self.margins(self.scores(state, viewer))
            return [
                0.8 * ((1.0 / len(winners)) if s in winners else 0.0)
                + 0.2 / (1.0 + math.exp(-margin[s] / scale))
                for s in range(n)
            ]
        margin = self.margins(self.scores(state, viewer))
        return [1.0 / (1.0 + math.exp(-m / scale)) for m in margin]

    @staticmethod
    def margins(values: list[float]) -> list[float]:
        out = []
        for s, v in enumerate(values):
            out.append(v - max(w for t, w in enumerate(values) if t != s))
        return out


def evaluator_for(game: str) -> Evaluator:
    if game == "board":
        from euphrates.bots import board_eval

        return Evaluator(board_eval.scores, board_eval.prior)
    if game == "cards":
        from euphrates.bots import cards_eval

        return Evaluator(cards_eval.scores, cards_eval.prior)
    raise ValueError(f"no evaluation for game {game!r}")
