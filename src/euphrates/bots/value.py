"""A learned value: a seat's chance of winning, from the features of its view.

The model is a logistic regression over `bots.features` (a few dozen weights), fitted
to self-play outcomes by `euphrates train` (numpy, `match.training`) and evaluated here
in pure Python, so the package needs no numpy to play. Its weights are a small JSON
file: `bots/models/<game>.json` ships with the package, and a generation being trained
is a file of the same shape anywhere (a search bot names it `mcts:500i:value=PATH`).

    {"format": 1, "game": "cards", "generation": 2, "names": [...], "weights": [...],
     "trained": {"command": "...", "seed": 7, "games": 400, "rows": 51234}}
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from euphrates.bots.evaluation import MARGIN_SHARE
from euphrates.bots.features import NAMES, features
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameState, View
from euphrates.games import game_definition

FORMAT = 1
MODELS = Path(__file__).resolve().parent / "models"
MAX_MODEL_BYTES = 1 << 20


class ValueModel:
    """Weights over `features.NAMES`; `chance(view)` is the viewer's chance of winning."""

    def __init__(self, game: str, weights: list[float], doc: dict[str, Any] | None = None) -> None:
        if len(weights) != len(NAMES) or not all(math.isfinite(w) for w in weights):
            raise ArgumentError(f"a value model holds {len(NAMES)} finite weights")
        self.game = game
        self.weights = list(weights)
        self.doc = doc or {}

    def to_json(self) -> dict[str, Any]:
        return {
            **self.doc,
            "format": FORMAT,
            "game": self.game,
            "names": list(NAMES),
            "weights": self.weights,
        }

    def logit(self, x: list[float]) -> float:
        return sum(w * f for w, f in zip(self.weights, x, strict=True))

    def chance_of(self, x: list[float]) -> float:
        z = max(-40.0, min(40.0, self.logit(x)))
        return 1.0 / (1.0 + math.exp(-z))

    def chance(self, view: View) -> float:
        return self.chance_of(features(view))

    def chances(self, views: list[View]) -> list[float]:
        """Every seat's chance from its own view, scaled to add up to one."""
        raw = [self.chance(v) for v in views]
        total = sum(raw)
        return [r / total for r in raw] if total > 0 else [1.0 / len(raw)] * len(raw)


def search_view(game: str, state: GameState[Any], seat: int) -> View:
    """The seat's view of an imagined state, without the legal actions (the features
    do not read them, and listing them is most of a view's cost)."""
    return game_definition(game).search_view(state, seat)


def leaf_rewards(
    model: ValueModel, game: str, state: GameState[Any], heuristic: list[float]
) -> list[float]:
    """A search leaf's reward per seat from the learned value: each seat's chance of
    winning from the view that seat has of the imagined state, with the evaluation's
    margin share kept so that a sure result still prefers the bigger lead."""
    chances = model.chances([search_view(game, state, s) for s in range(state.players)])
    return [
        (1 - MARGIN_SHARE) * c + MARGIN_SHARE * h for c, h in zip(chances, heuristic, strict=True)
    ]


def parse(text: str, game: str | None = None) -> ValueModel:
    try:
        doc = json.loads(text)
    except ValueError:
        raise ArgumentError("a value model is a JSON file (not readable as JSON)") from None
    if (
        not isinstance(doc, dict)
        or doc.get("format") != FORMAT
        or doc.get("names") != list(NAMES)
        or not isinstance(doc.get("weights"), list)
        or not all(type(w) in (int, float) for w in doc["weights"])
        or (game is not None and doc.get("game") != game)
    ):
        raise ArgumentError(
            f"not a value model of format {FORMAT} for {game or 'a game'} with these features"
        )
    return ValueModel(str(doc["game"]), [float(w) for w in doc["weights"]], doc)


@lru_cache(maxsize=8)
def load(game: str, path: str | None = None) -> ValueModel:
    """The model shipped for `game`, or the one at `path` (a `.json` file)."""
    games = sorted(p.stem for p in MODELS.glob("*.json") if "-" not in p.stem)  # not a policy
    if path is None and game not in games:
        shipped = ", ".join(games)
        raise ArgumentError(
            f"no value model is shipped for the {game} game yet (only for: {shipped}); "
            "give one with a .json file"
        )
    file = MODELS / f"{game}.json" if path is None else Path(path)
    if file.suffix != ".json" or not file.is_file():
        raise ArgumentError(f"no value model at {file} (a .json file)")
    if file.stat().st_size > MAX_MODEL_BYTES:
        raise ArgumentError(f"{file} is too large for a value model")
    return parse(file.read_text(encoding="utf-8"), game)


def loaded(
    model: ValueModel | None, source: tuple[str | None] | None, game: str
) -> ValueModel | None:
    """A search's model at its first decision: the one it holds, else the one its spec
    named (`source`, loaded now that the game is known), else none."""
    if model is not None or source is None:
        return model
    return load(game, source[0])


def save(model: ValueModel, path: Path) -> None:
    path.write_text(json.dumps(model.to_json(), indent=1) + "\n", encoding="utf-8")
