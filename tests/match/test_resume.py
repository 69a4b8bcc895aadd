"""A tournament's directory: a rerun continues it, other parameters are refused, and
a result line cut short by a kill is played again."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.match.hosting import GameResult
from euphrates.match.play import MAX_DECISIONS
from euphrates.match.tournament import run_tournament, summarise


def _lines(out: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def _run(
    out: Path,
    games: int,
    *,
    seed: int = 5,
    options: dict[str, Any] | None = None,
    max_decisions: int = MAX_DECISIONS,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    return run_tournament(
        "board",
        2,
        ["random", "random"],
        games,
        seed=seed,
        jobs=1,
        options=options,
        out_dir=str(out),
        progress=progress,
        max_decisions=max_decisions,
    )


def test_a_rerun_plays_only_the_games_not_yet_played(tmp_path: Path) -> None:
    first = _run(tmp_path, 4)
    assert [r.index for r in first] == [0, 1, 2, 3]
    stamps = {p.name: p.stat().st_mtime_ns for p in tmp_path.glob("game-*.json")}
    seen: list[int] = []
    second = _run(tmp_path, 6, progress=lambda r: seen.append(r.index))
    assert [r.index for r in second] == [0, 1, 2, 3, 4, 5]
    assert sorted(seen) == [0, 1, 2, 3, 4, 5]  # the bar starts at the games already played
    assert [line["index"] for line in _lines(tmp_path)] == [0, 1, 2, 3, 4, 5]
    for name, stamp in stamps.items():  # the first four were not played again
        assert (tmp_path / name).stat().st_mtime_ns == stamp
    assert [r.places for r in second[:4]] == [r.places for r in first]
    assert all(r.record_path and Path(r.record_path).exists() for r in second)
    # without --seed, a rerun takes the seed of the run it continues
    assert [
        r.index for r in run_tournament("board", 2, ["random"], 6, out_dir=str(tmp_path))
    ] == list(range(6))


def test_other_parameters_are_refused(tmp_path: Path) -> None:
    _run(tmp_path, 1)
    with pytest.raises(ArgumentError, match="holds another tournament"):
        _run(tmp_path, 2, seed=6)
    with pytest.raises(ArgumentError, match="holds another tournament"):
        _run(tmp_path, 2, options={"advanced": True})
    with pytest.raises(ArgumentError, match="holds another tournament"):
        _run(tmp_path, 2, max_decisions=500)
    with pytest.raises(ArgumentError, match=r"\(bots random,random, not bots greedy,random\)"):
        run_tournament("board", 2, ["greedy", "random"], 2, seed=5, out_dir=str(tmp_path))
    with pytest.raises(ArgumentError, match="holds another tournament"):
        run_tournament("cards", 2, ["random"], 2, seed=5, out_dir=str(tmp_path))
    assert len(_lines(tmp_path)) == 1


def test_records_without_a_manifest_are_not_mixed_with(tmp_path: Path) -> None:
    (tmp_path / "game-00000.json").write_text("{}")
    with pytest.raises(ArgumentError, match=r"no manifest\.json"):
        _run(tmp_path, 1)


def test_a_result_line_cut_short_is_played_again(tmp_path: Path) -> None:
    _run(tmp_path, 2)
    results = tmp_path / "results.jsonl"
    text = results.read_text()
    results.write_text(text[: len(text) - 25])  # a kill in the middle of the second line
    again = _run(tmp_path, 2)
    assert [r.index for r in again] == [0, 1]
    assert [line["index"] for line in _lines(tmp_path)] == [0, 1]


@pytest.mark.parametrize(
    "change",
    [
        {"entrants": 5},
        {"entrants": ["random"]},
        {"places": "12"},
        {"places": [1, True]},
        {"weakest": None},
        {"seconds": [0.1, "x"]},
        {"seconds": [float("nan"), 0.1]},
        {"decisions": [1.5, 2]},
        {"iterations": {}},
        {"index": True},
        {"index": -1},
        {"record": "../game-00001.json"},
        {"record": "/etc/passwd"},
        {"unknown": 1},
    ],
    ids=repr,
)
def test_a_result_line_of_another_shape_is_played_again(
    tmp_path: Path, change: dict[str, object]
) -> None:
    """A results.jsonl edited or damaged by hand is read like one cut short by a kill:
    a line that is not a result as this program writes it is dropped and its game played
    again (it raised KeyError or TypeError)."""
    first = _run(tmp_path, 2)
    results = tmp_path / "results.jsonl"
    lines = _lines(tmp_path)
    if "unknown" in change:
        lines[1].update(change)
    else:
        lines[1] = {**lines[1], **change}
        for key, value in change.items():
            if key not in lines[1] or value is None:
                lines[1].pop(key, None)
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    again = _run(tmp_path, 2)
    assert [r.index for r in again] == [0, 1]
    assert [line["index"] for line in _lines(tmp_path)] == [0, 1]

    def played(r: GameResult) -> tuple[object, ...]:
        return (r.index, r.entrants, r.places, r.weakest, r.decisions, r.iterations)

    assert [played(r) for r in again] == [played(r) for r in first]
    assert all(math.isfinite(x) and x >= 0 for r in again for x in r.seconds)
    assert [row["games"] for row in summarise(again, 2)] == [4]
    assert [r.record_path for r in again] == [str(tmp_path / f"game-0000{i}.json") for i in (0, 1)]
