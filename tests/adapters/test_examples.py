"""The runnable examples (examples/) and the benchmark run, briefly, and end as they
say: with a line of JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.adapters.extras import need

need("pyspiel", "openspiel")
need("pettingzoo", "pettingzoo")

ROOT = Path(__file__).resolve().parents[2]


def _last_json(*args: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_the_openspiel_example_plays_ismcts() -> None:
    result = _last_json(
        "examples/openspiel_ismcts.py",
        *("--game", "board", "--players", "2", "--simulations", "2", "--rollout", "4"),
        *("--max-moves", "40"),
    )
    assert result["decisions"] == 40
    returns = result["returns"]
    assert isinstance(returns, list) and sum(returns) == 0


def test_the_pettingzoo_example_plays_a_whole_game() -> None:
    result = _last_json("examples/pettingzoo_random.py", "--game", "cards", "--players", "3")
    rewards = result["rewards"]
    assert isinstance(rewards, dict) and sorted(rewards.values()) in (
        [-1.0, 0.0, 1.0],
        [-1.0, 0.5, 0.5],
        [-0.5, -0.5, 1.0],
        [0.0, 0.0, 0.0],
    )


def test_the_benchmark_reports_every_path() -> None:
    result = _last_json(
        "-m", "euphrates.adapters.bench", "--game", "board", "--players", "2", "--games", "1"
    )
    rates = result["board"]
    assert isinstance(rates, dict)
    assert set(rates) == {
        "engine",
        "engine_listed",
        "chance",
        "openspiel",
        "openspiel_observed",
        "pettingzoo",
    }
    assert all(isinstance(rate, int) and rate > 0 for rate in rates.values())
