"""The tournament runner: seeded parallel games, fair seats, records that replay,
and the results table with intervals and ratings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from euphrates.core.seeds import game_seed
from euphrates.match.hosting import Setup, play_one, seating
from euphrates.match.ratings import bradley_terry_elo, openskill_ratings, wilson
from euphrates.match.records import GameRecord, replay
from euphrates.match.tournament import fill, run_tournament, summarise


def test_seats_rotate_fairly() -> None:
    entrants = fill(["mcts:1s", "greedy"], 4)
    assert entrants == ["mcts:1s", "greedy", "greedy", "greedy"]
    seats_of_mcts = [seating(entrants, 4, g).index("mcts:1s") for g in range(8)]
    assert sorted(seats_of_mcts) == [0, 0, 1, 1, 2, 2, 3, 3]
    with pytest.raises(ValueError):
        fill(["a", "b", "c"], 2)


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert 0.88 < lo < 0.89 and 0.97 < hi < 0.99
    assert wilson(0, 0) == (0.0, 1.0)


def test_bradley_terry_is_symmetric_and_ordered() -> None:
    r = bradley_terry_elo(["a", "b"], [("a", "b", 1.0)] * 8 + [("a", "b", 0.0)] * 2)
    assert r["a"] > 1500 > r["b"]
    assert abs((r["a"] - 1500) + (r["b"] - 1500)) < 1e-6
    even = bradley_terry_elo(["a", "b"], [("a", "b", 0.5)] * 10)
    assert abs(even["a"] - even["b"]) < 1e-6


def test_openskill_orders_a_dominant_bot_first() -> None:
    games = [
        (["x", "y", "y"], [1, 2, 3]),
        (["y", "x", "y"], [3, 1, 2]),
        (["y", "y", "x"], [2, 3, 1]),
    ] * 3
    r = openskill_ratings(["x", "y"], games)
    assert r["x"] > r["y"]


def test_a_small_tournament_in_two_processes(tmp_path: Path) -> None:
    results = run_tournament(
        "cards", 2, ["greedy", "random"], 4, seed=3, jobs=2, out_dir=str(tmp_path)
    )
    assert [r.index for r in results] == [0, 1, 2, 3]
    for r in results:
        assert r.record_path is not None
        record = GameRecord.loads(Path(r.record_path).read_text())
        assert record.seed == game_seed(3, r.index)
        state = replay(record)
        outcome = state.outcome()
        assert outcome is not None and list(outcome.places) == r.places
        assert record.seats == r.entrants
    rows = summarise(results, 2)
    assert {row["bot"] for row in rows} == {"greedy", "random"}
    assert sum(row["games"] for row in rows) == 8
    greedy = next(row for row in rows if row["bot"] == "greedy")
    assert greedy["wins"] >= 3 and greedy["ci95"][0] <= greedy["win_rate"] <= greedy["ci95"][1]


def test_the_command_prints_its_seed_a_table_and_a_json_last_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "euphrates.cli",
            "tournament",
            "--game",  # the old spelling still works
            "board",
            "--players",
            "3",
            "--bots",
            "random",
            "--games",
            "3",
            "--jobs",
            "1",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    seed = json.loads((tmp_path / "manifest.json").read_text())["seed"]
    assert f"seed {seed}" in proc.stdout.splitlines()[0]
    last = proc.stdout.strip().splitlines()[-1]
    doc = json.loads(last)
    assert [r["bot"] for r in doc["results"]] == ["random"]
    for r in doc["results"]:
        assert set(r) == {"bot", "games", "wins", "win_rate", "ci95", "rating"}
    assert "OpenSkill" in proc.stdout
    assert len(list(tmp_path.glob("game-*.json"))) == 3
    assert GameRecord.loads((tmp_path / "game-00002.json").read_text()).seed == game_seed(seed, 2)


def test_a_game_that_does_not_end_is_stopped_and_left_out() -> None:
    setup = Setup("board", 2, ("random", "random"), 1, {}, max_decisions=30)
    played = play_one(setup, 0)
    result = played.result
    assert result.places == []
    assert played.record_name.endswith("-unfinished.json")
    assert len(GameRecord.loads(played.record_text).actions) == 30
    assert all(r["games"] == 0 for r in summarise([result], 2))


def test_the_same_seed_plays_the_same_games_in_any_number_of_jobs(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    run_tournament("board", 2, ["random"], 2, seed=9, jobs=2, out_dir=str(a))
    run_tournament("board", 2, ["random"], 2, seed=9, jobs=1, out_dir=str(b))
    for name in ("game-00000.json", "game-00001.json"):
        assert (a / name).read_text() == (b / name).read_text()


def test_a_failing_job_stops_the_tournament_with_its_error() -> None:
    from euphrates.match.jobs import JobError, run_in_jobs

    setup = Setup("board", 2, ("random", "wizard"), 1)  # past the checks of prepare()
    kept: list[object] = []
    with pytest.raises(JobError, match="unknown bot 'wizard'"):
        run_in_jobs(setup, [0, 1, 2], 2, kept.append)
    assert kept == []
