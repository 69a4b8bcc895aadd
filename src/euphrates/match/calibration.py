"""How well the value model and the evaluation call the winner, on games not fitted to.

A model fitted to self-play always looks good on the games it was fitted to. This
splits a self-play directory by game (every `every`-th game held out), fits on the
rest as `euphrates train` does, and scores three estimates of the mover's chance on
each held-out decision against the mover's share of the win:

- `model`: the logistic regression on the view's features (`bots.value`);
- `evaluation`: the chance part of the bots' evaluation (`Evaluator.chances`), which
  the review uses for a game without a model, on a state imagined from the mover's
  view (the hidden cards or tiles dealt at random; the evaluation reads other hands
  only as counts);
- `shipped`: the model shipped with the package for the game, if any (the generation
  a new fit would replace; it may have been fitted to some of these very games);
- `even`: one over the number of players, the floor any estimate must beat.

Scores: log loss (lower is better), Brier score, and how often the estimate called
the winner (the mover's chance above an even share, exactly when it won). Decisions
are weighted equally, so a long game counts more than a short one, as in the fit.

    python -m euphrates.match.calibration --game board --every 5 DIR [DIR ...]

The last line printed is JSON.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from euphrates.bots.evaluation import evaluator_for
from euphrates.bots.value import MODELS, ValueModel
from euphrates.bots.value import load as load_value
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.records import GameRecord
from euphrates.match.selfplay import rows_of


def _split(dirs: Sequence[Path], every: int) -> tuple[list[Path], list[Path]]:
    """Features files fitted to, and those held out (index divisible by `every`)."""
    fit_on: list[Path] = []
    held: list[Path] = []
    for d in dirs:
        for path in sorted(d.glob("features-*.json")):
            index = int(path.stem.split("-")[1])
            (held if index % every == 0 else fit_on).append(path)
    return fit_on, held


class _Score:
    """Running log loss, Brier score and winners called."""

    def __init__(self) -> None:
        self.n = 0
        self.log_loss = 0.0
        self.brier = 0.0
        self.called = 0.0

    def add(self, p: float, y: float, even: float) -> None:
        q = min(1 - 1e-6, max(1e-6, p))
        self.n += 1
        self.log_loss -= y * math.log(q) + (1 - y) * math.log(1 - q)
        self.brier += (p - y) ** 2
        if p != even:
            self.called += 1.0 if (p > even) == (y > even) else 0.0
        else:
            self.called += 0.5

    def to_json(self) -> dict[str, float]:
        n = max(self.n, 1)
        return {
            "log_loss": round(self.log_loss / n, 4),
            "brier": round(self.brier / n, 4),
            "called": round(self.called / n, 4),
        }


def calibrate(
    game: str, dirs: Sequence[str | Path], every: int = 5, seed: int = 1
) -> dict[str, Any]:
    """Fit on all but every `every`-th game of `dirs`, score the three estimates on the
    rest (see the module's docstring)."""
    from euphrates.match.training import fit

    fit_on, held = _split([Path(d) for d in dirs], every)
    xs, ys, _ = rows_of(fit_on)
    if not xs or not held:
        raise ValueError("calibration needs games to fit on and games held out")
    model = ValueModel(game, fit(xs, ys))
    definition = game_definition(game)
    evaluator = evaluator_for(game)
    shipped = load_value(game) if (MODELS / f"{game}.json").is_file() else None
    scores = {"model": _Score(), "evaluation": _Score(), "even": _Score()}
    if shipped is not None:
        scores["shipped"] = _Score()
    rng = Rng(seed)
    held_rows = 0
    for path in held:
        doc = json.loads(path.read_text(encoding="utf-8"))
        record_path = path.with_name(path.name.replace("features-", "game-"))
        record = GameRecord.loads(record_path.read_text(encoding="utf-8"))
        state = record.new_game()
        even = 1.0 / record.players
        for row, text in zip(doc["rows"], record.actions, strict=True):
            seat = int(row[0])
            y = doc["outcome"][seat]
            view = state.view(seat)
            scores["model"].add(model.chance_of(row[1:]), y, even)
            imagined = definition.sample_from_view(view, rng)
            scores["evaluation"].add(evaluator.chances(imagined, seat)[seat], y, even)
            scores["even"].add(even, y, even)
            if shipped is not None:
                scores["shipped"].add(shipped.chance_of(row[1:]), y, even)
            held_rows += 1
            state.apply(text)
    return {
        "game": game,
        "fitted": {"games": len(fit_on), "rows": len(xs)},
        "held_out": {"games": len(held), "rows": held_rows},
        **{name: s.to_json() for name, s in scores.items()},
    }


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m euphrates.match.calibration",
        description="score the value model and the evaluation on held-out self-play games",
    )
    p.add_argument("--game", choices=["board", "cards"], required=True)
    p.add_argument("--every", type=int, default=5, help="hold out every N-th game (default 5)")
    p.add_argument("--seed", type=int, default=1, help="seeds the imagined states")
    p.add_argument("dirs", nargs="+", help="self-play directories (euphrates selfplay --out)")
    args = p.parse_args(argv)
    if args.every < 2:
        p.error("--every must be 2 or more")
    try:
        out = calibrate(args.game, args.dirs, args.every, args.seed)
    except (OSError, ValueError) as exc:
        print(f"calibration: {exc}", file=sys.stderr)
        return 2
    for name in ("model", "evaluation", "shipped", "even"):
        if name in out:
            print(f"{name:>10}: {out[name]}")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
