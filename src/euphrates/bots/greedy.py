"""The greedy bot: one ply, every legal action, the documented evaluation.

It imagines the hidden tiles or cards (one state sampled from its own view), plays each
legal action on a copy of that state and keeps the action whose result evaluates best
for it (`board_eval` / `cards_eval`: weakest colour first, then the others, treasures,
leaders' safety, conflict odds). Ties are broken by its seeded generator.
"""

from __future__ import annotations

from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.evaluation import evaluator_for
from euphrates.core.protocol import GameDefinition, View


class GreedyBot(Bot):
    name = "greedy"

    def ranked(
        self, game: GameDefinition[Any], view: View, samples: int = 1
    ) -> list[tuple[float, str]]:
        """Every legal action with its evaluation (averaged over `samples` imagined
        states), best first."""
        seat = view["viewer"]
        evaluator = evaluator_for(game.name)
        legal = legal_of(view)
        base = game.sample_from_view(view, self.rng.fork())
        totals = dict.fromkeys(legal, 0.0)
        for i in range(samples):
            state = base if i == 0 else base.copy()
            if i:
                state.redeal(seat, self.rng)
            for action in state.legal_actions():
                text = str(action)
                child = state.copy()
                child.apply(action)
                totals[text] += evaluator.value(child, seat)
        jitter = {a: self.rng.below(1 << 20) for a in legal}
        return sorted(
            ((v / samples, a) for a, v in totals.items()), key=lambda t: (-t[0], jitter[t[1]])
        )

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        return self.ranked(game, view)[0][1]
