"""Self-play: a tournament whose games also keep, per decision, the mover's features.

`run_selfplay` is a tournament (`match.tournament`: seeded games in job processes,
seats rotated, every bot in a worker of its own, resumable in its directory) followed,
for every finished game, by a features file beside its record:

    features-00012.json   {"names": [...], "outcome": [1.0, 0.0], "rows": [[seat, x...], ...]}

Each row is one decision: the mover's seat and the features (`bots.features`) of the
view that seat had when it decided, computed by replaying the record and asking the
replay for that seat's view, never from the state. `outcome` is each seat's share of
the win (shared first places split). A rerun with the same directory plays the games
still missing and writes the features still missing: a kill loses only what was in
progress, since each file is written whole before it is renamed into place.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from euphrates.bots.features import NAMES, features
from euphrates.match.hosting import GameResult
from euphrates.match.records import GameRecord
from euphrates.match.store import write_atomic
from euphrates.match.tournament import run_tournament


def win_shares(places: Sequence[int]) -> list[float]:
    firsts = [s for s, p in enumerate(places) if p == 1]
    return [1.0 / len(firsts) if s in firsts else 0.0 for s in range(len(places))]


def features_of_record(record: GameRecord) -> list[list[float]]:
    """One row per decision: the mover's seat, then the features of the mover's view."""
    state = record.new_game()
    rows: list[list[float]] = []
    for text in record.actions:
        decision = state.decision()
        assert decision is not None
        rows.append([float(decision.seat), *features(state.view(decision.seat))])
        state.apply(text)
    return rows


def features_path(out_dir: str | Path, index: int) -> Path:
    return Path(out_dir) / f"features-{index:05d}.json"


def write_features(out_dir: str | Path, result: GameResult) -> bool:
    """The features file of a finished game, unless it is there already."""
    path = features_path(out_dir, result.index)
    if path.exists() or not result.places or result.record_path is None:
        return False
    record = GameRecord.loads(Path(result.record_path).read_text(encoding="utf-8"))
    doc = {
        "names": list(NAMES),
        "outcome": win_shares(result.places),
        "rows": features_of_record(record),
    }
    write_atomic(path, json.dumps(doc, separators=(",", ":")))
    return True


def run_selfplay(
    game: str,
    players: int,
    bots: Sequence[str],
    games: int,
    out_dir: str,
    seed: int | None = None,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    results = run_tournament(
        game, players, bots, games, seed, jobs, options, out_dir, progress=progress
    )
    for r in results:
        write_features(out_dir, r)
    return results


def read_rows(dirs: Sequence[str | Path]) -> tuple[list[list[float]], list[float], int]:
    """Every decision's features and its mover's win share, from the self-play
    directories `dirs`, and how many games they came from."""
    return rows_of([p for d in dirs for p in sorted(Path(d).glob("features-*.json"))])


def rows_of(paths: Sequence[Path]) -> tuple[list[list[float]], list[float], int]:
    """`read_rows` for the given features files (files written with other features,
    not comparable, are skipped)."""
    xs: list[list[float]] = []
    ys: list[float] = []
    games = 0
    for path in paths:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if doc.get("names") != list(NAMES):
            continue  # written with other features: not comparable
        games += 1
        for row in doc["rows"]:
            xs.append(row[1:])
            ys.append(doc["outcome"][int(row[0])])
    return xs, ys, games
