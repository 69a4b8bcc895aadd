"""The runnable examples (examples/) and the benchmark run, briefly, and end as they
say: with a line of JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.adapters.extras import need

need("pyspiel", "openspiel")
need("pettingzoo", "pettingzoo")

ROOT = Path(__file__).resolve().parents[2]


def _last_json(*args: str, env: dict[str, str] | None = None) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=None if env is None else {**os.environ, **env},
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


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


def test_the_training_example_learns_and_reports_win_rates(tmp_path: Path) -> None:
    if not (_has("sb3_contrib") and _has("torch")):
        pytest.skip("sb3-contrib and PyTorch are not installed (pip install sb3-contrib)")
    result = _last_json(
        "examples/train_maskable_ppo.py",
        *("--game", "cards", "--seconds", "4", "--games", "1", "--steps", "64"),
        env={"TMPDIR": str(tmp_path)},
    )
    rates = result["win_rates"]
    assert isinstance(rates, dict) and set(rates) == {"random", "greedy"}
    assert all(0.0 <= r <= 1.0 for r in rates.values())
    # Stable-Baselines3's default logger leaves an empty folder in the temporary
    # directory at each run; the example's writes nowhere.
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("SB3-")]


def test_the_training_example_refuses_clearly_without_its_libraries() -> None:
    if _has("sb3_contrib") and _has("torch"):
        pytest.skip("sb3-contrib is installed: the example trains instead")
    proc = subprocess.run(
        [sys.executable, "examples/train_maskable_ppo.py", "--seconds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "pip install sb3-contrib" in proc.stderr


def test_the_versus_benchmark_reports_its_ratios_against_chess() -> None:
    result = _last_json("-m", "euphrates.adapters.versus", "--rounds", "1", "--games", "1")
    rates = result["rates"]
    assert isinstance(rates, dict)
    assert set(rates) == {"openspiel", "pettingzoo", "chess", "chess_v6", "python_tic_tac_toe"}
    assert all(isinstance(r, int) and r > 0 for r in rates.values())
    ratios = result["ratios"]
    assert isinstance(ratios, dict)
    assert ratios["openspiel_vs_chess"] == round(rates["openspiel"] / rates["chess"], 3)


def test_the_versus_benchmark_refuses_a_build_that_is_not_compiled() -> None:
    """`--compiled` given the pure source: said plainly, not measured as if compiled."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "euphrates.adapters.versus",
            *("--rounds", "1", "--games", "1"),
            "--compiled",
            str(ROOT / "src"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode != 0
    assert "expected a compiled build there" in proc.stderr, proc.stderr[-2000:]
