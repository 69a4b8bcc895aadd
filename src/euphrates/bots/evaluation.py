"""The evaluation each game offers the bots, behind one interface.

`scores(state, viewer)` gives every player's absolute score (from the viewer's
knowledge: a sampled state holds invented hands, so the evaluation uses its own hand
exactly and others' only as counts); `prior(state, action, seat)` ranks actions
without playing them; `remaining(state)`, where a game offers it, is the share of the
game still to come (1 at the start, 0 at the end). See `board_eval` and `cards_eval`
for what they weigh.

Search with `by_progress` needs a reward that means the same before and after the end:
a lead of five points with three cards left in the deck is a near-certain win, with a
hundred left it is not. So the reward is mostly a chance of winning, a logistic of the
margin whose width shrinks with the game left, and exactly the result once the game is
over; a small share of it is the margin itself, through a fixed logistic, so that a
search that is sure to win or lose still prefers the bigger lead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import euphrates.bots.board_eval as board_eval
import euphrates.bots.cards_eval as cards_eval
from euphrates.core.protocol import GameState

MIN_REMAINING = 0.02  # a game is never quite decided before its end
MARGIN_SHARE = 0.2  # of the reward that goes to the margin rather than the chance of winning


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(x, 40.0), -40.0)))


@dataclass(frozen=True)
class Evaluator:
    scores: Callable[[Any, int], list[float]]
    prior: Callable[[Any, Any, int], float]
    remaining: Callable[[Any], float] | None = None
    # Whether one ply credits an action that leaves the turn open with what the end of
    # turn is worth (`greedy.turn_end`): on the board, where passing for ever otherwise
    # looked best with monuments (B-17); not in the card game, where no stall was seen
    # and it cost the rollout search games (docs/bots.md).
    credits_turn_end: bool = False

    def value(self, state: GameState[Any], seat: int) -> float:
        """Own score minus the best opponent's."""
        values = self.scores(state, seat)
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)

    def rewards(
        self, state: GameState[Any], viewer: int, scale: float = 2.0, by_progress: bool = False
    ) -> list[float]:
        """A reward in [0, 1] per seat for search: mostly the chance of winning (the
        result once the game is over, shared wins split), a little the margin. With
        `by_progress` the chance sharpens as the game nears its end; without, it is the
        margin's logistic throughout."""
        margin = self.margins(self.scores(state, viewer))
        chance = self._chances(state, margin, scale, by_progress)
        return [
            (1 - MARGIN_SHARE) * c + MARGIN_SHARE * _logistic(m / scale)
            for c, m in zip(chance, margin, strict=True)
        ]

    def chances(
        self, state: GameState[Any], viewer: int, scale: float = 2.0, by_progress: bool = True
    ) -> list[float]:
        """The chance part of `rewards` alone: each seat's chance of winning as the
        evaluation judges it from `viewer`'s knowledge (the result once the game is
        over). The review (match/review.py) uses it where a game has no value model."""
        return self._chances(state, self.margins(self.scores(state, viewer)), scale, by_progress)

    def _chances(
        self, state: GameState[Any], margin: list[float], scale: float, by_progress: bool
    ) -> list[float]:
        out = state.outcome()
        if out is not None:
            winners = out.winners
            return [(1.0 / len(winners)) if s in winners else 0.0 for s in range(state.players)]
        left = self.remaining(state) if by_progress and self.remaining else 1.0
        width = scale * math.sqrt(max(left, MIN_REMAINING))
        return [_logistic(m / width) for m in margin]

    @staticmethod
    def margins(values: list[float]) -> list[float]:
        out = []
        for s, v in enumerate(values):
            out.append(v - max(w for t, w in enumerate(values) if t != s))
        return out


EVALUATORS: dict[str, Evaluator] = {
    "board": Evaluator(board_eval.scores, board_eval.prior, credits_turn_end=True),
    "cards": Evaluator(cards_eval.scores, cards_eval.prior, cards_eval.remaining),
}
"""Each game's evaluation, by the game's name: the bots' own knowledge of a game, so it
is theirs to keep, and a new game brings its own here rather than a branch."""


def evaluator_for(game: str) -> Evaluator:
    evaluator = EVALUATORS.get(game) if isinstance(game, str) else None
    if evaluator is None:
        raise ValueError(f"no evaluation for game {game!r}")
    return evaluator
