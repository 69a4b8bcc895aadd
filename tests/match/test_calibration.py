"""Scoring the value model and the evaluation on held-out self-play games."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from euphrates.match.calibration import calibrate, main
from euphrates.match.selfplay import run_selfplay


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("selfplay")
    run_selfplay("cards", 2, ["greedy"], 4, str(out), seed=11)
    return out


def test_every_held_out_decision_is_scored_by_each_estimate(selfplay: Path) -> None:
    out = calibrate("cards", [selfplay], every=2)
    held = [json.loads((selfplay / f"features-{i:05d}.json").read_text()) for i in (0, 2)]
    assert out["held_out"] == {"games": 2, "rows": sum(len(d["rows"]) for d in held)}
    fitted = [json.loads((selfplay / f"features-{i:05d}.json").read_text()) for i in (1, 3)]
    assert out["fitted"] == {"games": 2, "rows": sum(len(d["rows"]) for d in fitted)}
    # An even share in a duel: log loss ln 2, Brier 1/4, half the winners called.
    assert out["even"] == {"log_loss": round(math.log(2), 4), "brier": 0.25, "called": 0.5}
    for name in ("model", "evaluation"):
        assert 0 <= out[name]["brier"] <= 1 and 0 <= out[name]["called"] <= 1
        assert out[name] != out["even"]
    # The imagined states are seeded: the same games score the same.
    assert calibrate("cards", [selfplay], every=2) == out


def test_the_command_prints_json_last_and_refuses_an_empty_directory(
    selfplay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--game", "cards", "--every", "2", str(selfplay)]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert json.loads(last)["held_out"]["games"] == 2
    assert main(["--game", "cards", str(tmp_path)]) == 2
    assert "needs games to fit on" in capsys.readouterr().err
