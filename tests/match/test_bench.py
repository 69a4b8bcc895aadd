"""The benchmarks run and report what they promise (their figures are not asserted:
speed is measured by running them, never by a timed test)."""

from __future__ import annotations

import json

import pytest

from euphrates.cli import main
from euphrates.match.bench import run_bench, run_search_bench


def test_random_play_bench_reports_games_and_decisions() -> None:
    r = run_bench("cards", 2, 2, 1)
    assert r["games"] == 2 and r["decisions_per_game"] > 100 and r["games_per_s"] > 0


@pytest.mark.parametrize("game", ["board", "cards"])
def test_search_bench_times_a_bot_on_fixed_positions(game: str) -> None:
    r = run_search_bench(game, 2, "mcts:40i", 3, 5)
    assert r["bot"] == "mcts:40i" and r["positions"] == 3
    assert r["iterations_per_s"] > 0
    assert run_search_bench(game, 2, "greedy", 2, 5)["iterations_per_s"] is None


def test_search_bench_command_ends_with_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["bench", "cards", "--players", "2", "--search", "mcts:30i", "--positions", "2"]) == 0
    )
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last)["positions"] == 2
