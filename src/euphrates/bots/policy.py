"""A model of how a card-game player chooses, for reading the table (bots.inference).

The reading weighs each imagined hand by how likely its holder was to decide as the
real player did. Its first model is the greedy judgement's softmax at one temperature
(fitted to greedy play). This is the second: a multinomial logit over a few features
of each legal action — the greedy judgement less the best action's, per kind of
decision, and what kind of action it is — fitted to the search's own play
(`examples/opponent_model.py`, docs/bots.md). A few weights in a JSON file that ships
with the package (`bots/models/cards-policy.json`), evaluated in pure Python.
"""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from euphrates.bots.evaluation import evaluator_for
from euphrates.bots.greedy import judge, turn_end
from euphrates.core.errors import ArgumentError

FORMAT = 1
GAME = "cards"
"""The game whose players the model was fitted to (a reading of another game's table
does not use it)."""
MODEL_FILE = Path(__file__).resolve().parent / "models" / "cards-policy.json"
FEATURES = (
    "judgement",  # the greedy judgement less the best legal action's (<= 0)
    "judgement_commit",  # the same, in a commitment (C-10, C-12)
    "judgement_other",  # the same, in any other decision but an action
    "leader",  # a leader placed or moved
    "card",  # a card played to the board
    "red_card",  # a red card played to the board
    "bridge",  # a bridge laid
    "pass",  # the action passed
    "commit_share",  # the cards committed, of the most that could be
    "commit_none",  # nothing committed
    "take",  # a point, ship or exchange taken rather than declined
)
_LEADER = re.compile(r"^[PFTK]\d")
_CARD = re.compile(r"^[rbgk]\d")


def greedy_values(state: Any, seat: int, game: str = "cards") -> dict[str, float]:
    """The greedy judgement of each legal action of `seat` (bots.greedy)."""
    evaluator = evaluator_for(game)
    end = turn_end(state, seat, evaluator)
    return {str(a): judge(state, a, seat, evaluator, end) for a in state.legal_actions()}


def _committed(text: str) -> int:
    return int(text.split()[1]) if text.startswith("commit ") else 0


def action_features(kind: str, text: str, values: dict[str, float]) -> list[float]:
    """The features (FEATURES) of the legal action `text` of a decision of `kind`,
    whose legal actions' greedy judgements are `values`."""
    d = values[text] - max(values.values())
    most = max((_committed(a) for a in values), default=0)
    word = text.split()[0]
    return [
        d,
        d if kind == "commit" else 0.0,
        d if kind not in ("action", "commit") else 0.0,
        1.0 if _LEADER.match(text) else 0.0,
        1.0 if _CARD.match(text) else 0.0,
        1.0 if text[0] == "r" and _CARD.match(text) else 0.0,
        1.0 if word[0] == "x" else 0.0,
        1.0 if text == "pass" else 0.0,
        _committed(text) / most if kind == "commit" and most else 0.0,
        1.0 if kind == "commit" and _committed(text) == 0 else 0.0,
        1.0
        if word in ("point", "ship", "exchange") and not text.endswith(" none") and kind != "commit"
        else 0.0,
    ]


class PolicyModel:
    """Weights over FEATURES: an action's logit is their dot product with its features."""

    def __init__(self, weights: list[float], doc: dict[str, Any] | None = None) -> None:
        if len(weights) != len(FEATURES) or not all(math.isfinite(w) for w in weights):
            raise ArgumentError(f"a policy model holds {len(FEATURES)} finite weights")
        self.weights = list(weights)
        self.doc = doc or {}

    def logit(self, x: list[float]) -> float:
        return sum(w * f for w, f in zip(self.weights, x, strict=True))

    def choice_logs(self, state: Any, seat: int) -> dict[str, float]:
        """Each legal action's log-probability for this player."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return {str(legal[0]): 0.0}
        values = greedy_values(state, seat)
        kind = state.decision().kind
        z = {a: self.logit(action_features(kind, a, values)) for a in values}
        top = max(z.values())
        total = math.log(sum(math.exp(v - top) for v in z.values()))
        return {a: v - top - total for a, v in z.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": "cards",
            "names": list(FEATURES),
            "weights": self.weights,
            **{k: v for k, v in self.doc.items() if k not in ("format", "names", "weights")},
        }


def from_json(doc: Any) -> PolicyModel:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArgumentError(f"not a policy model of format {FORMAT}")
    if doc.get("names") != list(FEATURES):
        raise ArgumentError("the policy model's features are not this version's")
    weights = doc.get("weights")
    if not isinstance(weights, list) or not all(isinstance(w, int | float) for w in weights):
        raise ArgumentError("a policy model's weights are numbers")
    return PolicyModel([float(w) for w in weights], doc)


@lru_cache(maxsize=1)
def shipped() -> PolicyModel:
    """The model that ships with the package, read once."""
    return from_json(json.loads(MODEL_FILE.read_text(encoding="utf-8")))
