"""`euphrates ladder`: the bots' fixed ratings written into a ratings file, with the
command and seed that measured them, and printed as JSON on its last line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from euphrates.cli import main


def test_a_ladder_writes_its_levels_and_how_they_were_measured(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ratings.json"
    args = ["--game", "cards", "--players", "2", "--games", "1", "--seed", "7"]
    args += ["--levels", "beginner,intermediate", "--out", str(out)]
    assert main(["ladder", *args]) == 0
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    doc = json.loads(out.read_text())
    levels = doc["ratings"]["cards"]["2"]
    assert set(levels) == {"beginner", "intermediate"}
    assert all(v["games"] == 1 and v["sigma"] < 25 / 3 for v in levels.values())
    assert printed["ratings"] == levels and printed["seed"] == 7 and printed["games"] == 1
    (run,) = doc["runs"]
    assert (run["game"], run["group"], run["seed"]) == ("cards", "2", 7)
    # the command repeats the run wherever it is given; it never names where it wrote
    assert run["command"] == (
        "euphrates ladder --game cards --players 2 --games 1 --seed 7"
        " --levels beginner,intermediate --jobs 1"
    )
    assert str(tmp_path) not in out.read_text()
    # a second ladder of another group joins the file; the first stays
    assert main(["ladder", *args[:3], "4", *args[4:]]) == 0
    doc = json.loads(out.read_text())
    assert set(doc["ratings"]["cards"]) == {"2", "3-4"} and len(doc["runs"]) == 2
    assert doc["ratings"]["cards"]["2"] == levels


def test_a_ladder_refuses_unknown_or_repeated_levels(tmp_path: Path) -> None:
    out = str(tmp_path / "r.json")
    base = ["ladder", "--game", "cards", "--seed", "1", "--out", out]
    assert main([*base, "--levels", "beginner,wizard"]) != 0
    assert main([*base, "--levels", "beginner,beginner"]) != 0
    assert main([*base, "--levels", "beginner"]) != 0
    assert not Path(out).exists()
