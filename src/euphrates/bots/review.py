"""Judging one move of a game for its review, on its mover's view alone.

The review of one move (`review_move`) needs nothing but the mover's view before the
move and the move's text, never the state, which knows every hand: the chance before
is judged on that view; for the move played and for its alternatives, a state is
imagined from the same view (`sample_from_view`, seeded, so the review repeats), the
move applied, and the mover's chance judged on the result. So the chance after is what
the mover could foresee when choosing, not what the next draw revealed. Where the move
played loses more than `LOSS` of a chance, the alternatives are judged the same way and
the best named. A bot worker answers this for a server (bots/worker.py), one move at a
time; match/review.py assembles a whole game's review for the terminal.

Which estimate (`estimate_for`): a game with a shipped value model (`bots/models/`,
the card game) uses it on the mover's view; a game without one (the board game) uses
the chance part of the bots' evaluation (`Evaluator.chances`) on the imagined state,
from the mover's knowledge. Alternatives: all of them up to `ALL_ALTERNATIVES`, else
the `TOP_ALTERNATIVES` the evaluation's prior ranks first (the greedy bot's cheap
guess), so that a board decision among hundreds of placements stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.bots.value import MODELS, ValueModel
from euphrates.bots.value import load as load_value
from euphrates.core.protocol import GameDefinition, GameState, View
from euphrates.core.rng import Rng
from euphrates.games import game_definition

LOSS = 0.05
SAMPLES = 2
ALL_ALTERNATIVES = 40
TOP_ALTERNATIVES = 16


@dataclass(frozen=True)
class Estimate:
    """How a game's chances are judged: by a value model on views, or (`model` None)
    by the bots' evaluation on imagined states."""

    game: str
    evaluator: Evaluator
    model: ValueModel | None = None

    @property
    def kind(self) -> str:
        return "model" if self.model is not None else "evaluation"

    def on_state(self, state: GameState[Any], seat: int) -> float:
        """`seat`'s chance in `state`, judged on what `seat` knows of it."""
        out = state.outcome()
        if out is not None:
            return 1.0 / len(out.winners) if seat in out.winners else 0.0
        if self.model is not None:
            return self.model.chance(state.view(seat))
        return self.evaluator.chances(state, seat)[seat]


def estimate_for(game: str, model: ValueModel | None = None) -> Estimate:
    """The shipped model where there is one, else the evaluation (see the docstring)."""
    if model is None and (MODELS / f"{game}.json").is_file():
        model = load_value(game)
    return Estimate(game, evaluator_for(game), model)


def _samples(definition: GameDefinition[Any], view: View, seed: int) -> list[GameState[Any]]:
    return [definition.sample_from_view(view, Rng(seed * 31 + k)) for k in range(SAMPLES)]


def _after(estimate: Estimate, samples: list[GameState[Any]], seat: int, action: str) -> float:
    """The mover's chance after `action`, averaged over the states imagined."""
    total = 0.0
    for sample in samples:
        state = sample.copy()
        state.apply(action)
        total += estimate.on_state(state, seat)
    return total / len(samples)


def _candidates(estimate: Estimate, sample: GameState[Any], seat: int) -> list[str]:
    """The alternatives judged: all, or the prior's first `TOP_ALTERNATIVES`."""
    legal = list(sample.legal_actions())
    if len(legal) <= ALL_ALTERNATIVES:
        return [str(a) for a in legal]
    ranked = sorted(legal, key=lambda a: -estimate.evaluator.prior(sample, a, seat))
    return [str(a) for a in ranked[:TOP_ALTERNATIVES]]


def review_move(estimate: Estimate, view: View, action: str, seed: int) -> dict[str, Any]:
    """One move's review, {before, after, best}, from the mover's view before it alone;
    `best` is None or {action, after}."""
    definition = game_definition(estimate.game)
    seat = int(view["viewer"])
    samples = _samples(definition, view, seed)
    if estimate.model is not None:
        before = estimate.model.chance(view)
    else:
        before = sum(estimate.on_state(s, seat) for s in samples) / len(samples)
    after = _after(estimate, samples, seat, action)
    best: dict[str, Any] | None = None
    if after < before - LOSS:
        candidates = [a for a in _candidates(estimate, samples[0], seat) if a != action]
        judged = [(_after(estimate, samples, seat, a), a) for a in candidates]
        if judged:
            value, text = max(judged, key=lambda t: t[0])
            if value > after:
                best = {"action": text, "after": round(value, 4)}
    return {"before": round(before, 4), "after": round(after, 4), "best": best}
