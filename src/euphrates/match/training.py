"""Training the value model: generations fitted to self-play, each kept only if it wins.

A training directory holds one folder per generation and the model kept so far:

    current.json          the best generation yet (absent before the first is kept)
    gen-001/selfplay/     self-play games of the last kept generation (`match.selfplay`)
    gen-001/model.json    the model fitted to them
    gen-001/match/        a tournament: the new model's search against the last one's
    gen-001/verdict.json  the match's result and whether the generation was kept

A generation's self-play is the last kept generation's search (`mcts:<N>i:value=…`; the
search without a model before any is kept, unless other bots are named). The new
model is the logistic regression of each mover's win share on the features of its
view, fitted with numpy (L2-regularised Newton steps); the package itself needs no
numpy, since `bots.value` evaluates the weights in pure Python. It is kept if its
search wins more than half the match against the last generation's search at the same
iteration budget (seats rotated). Every step is resumable: an interrupted generation
continues where its self-play or match stopped.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from euphrates.bots.value import ValueModel, save
from euphrates.match.hosting import GameResult
from euphrates.match.selfplay import read_rows, run_selfplay
from euphrates.match.store import write_atomic
from euphrates.match.tournament import run_tournament, summarise

L2 = 1e-3  # per row: enough to keep a feature that never varies from running away
NEWTON_STEPS = 25


def fit(xs: Sequence[Sequence[float]], ys: Sequence[float], l2: float = L2) -> list[float]:
    """Logistic regression weights for soft labels `ys` in [0, 1] (Newton's method)."""
    import numpy as np

    x = np.asarray(xs, dtype=float)
    y = np.asarray(ys, dtype=float)
    n, k = x.shape
    w = np.zeros(k)
    reg = l2 * n * np.eye(k)
    reg[0, 0] = 0.0  # the bias is not shrunk
    for _ in range(NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        grad = x.T @ (p - y) + reg @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + reg
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.max(np.abs(step))) < 1e-8:
            break
    return [float(v) for v in w]


def searcher(iterations: int, model: Path | None) -> str:
    return f"mcts:{iterations}i" + ("" if model is None else f":value={model}")


def train_generation(
    game: str,
    players: int,
    out_dir: str,
    selfplay_games: int,
    match_games: int,
    iterations: int,
    seed: int,
    selfplay_bots: Sequence[str] | None = None,
    jobs: int = 1,
    command: str = "",
    progress: Callable[[GameResult], None] | None = None,
) -> dict[str, Any]:
    """Train the next generation in `out_dir` (or finish the one interrupted) and say
    whether it was kept."""
    root = Path(out_dir)
    root.mkdir(parents=True, exist_ok=True)
    current = root / "current.json"
    last = current if current.exists() else None
    gens = sorted(p for p in root.glob("gen-*") if p.is_dir())
    if gens and not (gens[-1] / "verdict.json").exists():
        gen = gens[-1]
    else:
        gen = root / f"gen-{len(gens) + 1:03d}"
    number = int(gen.name.split("-")[1])
    gen.mkdir(exist_ok=True)
    bots = list(selfplay_bots or [searcher(iterations, last)])
    run_selfplay(
        game, players, bots, selfplay_games, str(gen / "selfplay"), seed, jobs, progress=progress
    )
    xs, ys, games = read_rows([gen / "selfplay"])
    model_path = (gen / "model.json").resolve()
    if not model_path.exists():
        doc = {
            "generation": number,
            "trained": {
                "command": command,
                "seed": seed,
                "games": games,
                "rows": len(xs),
                "selfplay": bots,
            },
        }
        save(ValueModel(game, fit(xs, ys), doc), model_path)
    # The last generation is copied beside the match, so that the match's entrants
    # name files that stay as they are when `current.json` is replaced.
    rival = None
    if last is not None:
        rival = (gen / "rival.json").resolve()
        if not rival.exists():
            shutil.copyfile(last, rival)
    new, old = searcher(iterations, model_path), searcher(iterations, rival)
    results = run_tournament(
        game,
        players,
        [new, old],
        match_games,
        seed + 1,
        jobs,
        None,
        str(gen / "match"),
        progress=progress,
    )
    rows = {r["bot"]: r for r in summarise(results, players)}
    won = rows[new]
    kept = won["games"] > 0 and won["win_rate"] > 0.5
    verdict = {
        "generation": number,
        "model": str(model_path),
        "against": old,
        "win_rate": won["win_rate"],
        "ci95": won["ci95"],
        "games": won["games"],
        "kept": kept,
        "selfplay_games": games,
        "rows": len(xs),
    }
    if kept:
        shutil.copyfile(model_path, current)
    write_atomic(gen / "verdict.json", json.dumps(verdict, indent=1) + "\n")
    return verdict
