"""The `euphrates` command: every wrong argument or file is one line on standard error
and a non-zero exit status, never a traceback; seeds; resuming; `python -m euphrates`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from euphrates.cli import main
from euphrates.match.records import GameRecord
from euphrates.terminal import new_record
from tests.cli_forks import Forker


@pytest.fixture(scope="module")
def forker() -> Iterator[Forker]:
    with Forker() as f:
        yield f


def _env(data: Path, lang: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(EUPHRATES_DATA_DIR=str(data), COLUMNS="100", LANG=lang)
    return env


def _run(
    forker: Forker,
    args: list[str],
    data: Path,
    stdin: str = "",
    timeout: float = 60,
    lang: str = "C.UTF-8",
) -> subprocess.CompletedProcess[str]:
    """`euphrates ARGS` in a child process, in the locale `lang` (English unless told):
    forked from an interpreter that imported the command once (tests/cli_forks.py)."""
    done = forker.run(args, _env(data, lang), Path.cwd(), 0, timeout, stdin)
    if done["hang"]:
        pytest.fail(f"euphrates {' '.join(args)} did not end within {timeout} s")
    return subprocess.CompletedProcess(args, done["code"], done["stdout"], done["stderr"])


def _python_m(args: list[str], data: Path) -> subprocess.CompletedProcess[str]:
    """`python -m euphrates ARGS`, a Python of its own."""
    return subprocess.run(
        [sys.executable, "-m", "euphrates", *args],
        input="",
        capture_output=True,
        text=True,
        env=_env(data, "C.UTF-8"),
        timeout=60,
    )


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    demo = tmp_path / "demo.json"
    demo.write_text(
        json.dumps({"format": 1, "game": "board", "players": 2, "seed": 1, "actions": []})
    )
    saved = tmp_path / "saved.json"
    saved.write_text(new_record("board", 2, 0, ["random"], 1, {}).dumps())
    return {
        "saved": str(saved),
        "deep": str(deep),
        "binary": str(binary),
        "demo": str(demo),
        "dir": str(tmp_path),
    }


REPORTED = [
    ["replay", "{deep}"],
    ["play", "--resume", "{deep}"],
    ["bench", "board", "--search", "greedy", "--positions", "0"],
    ["bench", "board", "--games", "-1"],
    ["replay", "{demo}", "--upto", "-1"],
    ["play", "cards", "--advanced"],
    ["play", "board", "--open-piles"],
    ["demo", "board", "--record", ""],
]
MORE = [
    ["replay", "{binary}"],
    ["replay", "{dir}"],
    ["replay", "{dir}/missing.json"],
    ["replay", "{demo}", "--upto", "5"],
    ["play", "--resume", "{demo}"],
    ["bench", "board", "--games", "0"],
    ["bench", "cards", "--advanced"],
    ["bench", "board", "--search", "nonsense"],
    ["bench", "board", "--search", "greedy", "--games", "3"],
    ["bench", "board", "--positions", "3"],
    ["play", "board", "--seat", "2"],
    ["play", "board", "--bots", ""],
    ["play", "board", "--bots", "random,,greedy"],
    ["play", "board", "--bots", "random,random,random"],
    ["play", "board", "--bots", "wizard"],
    ["play", "board", "--seed", "-1"],
    ["play", "board", "--seed", str(2**64)],
    ["play", "board", "--seed", "lots"],
    ["play"],
    ["play", "--resume", "{demo}", "--seat", "1"],
    ["play", "--resume", "{demo}", "--bots", "greedy"],
    ["play", "--resume", "{demo}", "--players", "3"],
    ["play", "--resume", "{demo}", "--advanced"],
    ["play", "--resume", "{demo}", "--open-piles"],
    ["play", "--resume", "{demo}", "--seed", "3"],
    ["play", "board", "--resume", "{demo}"],
    ["play", "--resume"],
    ["demo", "cards", "--advanced"],
    ["demo", "board", "--record", "{dir}"],
    ["demo", "board", "--players", "5"],
    ["nonsense"],
]


@pytest.mark.parametrize("args", REPORTED, ids=[" ".join(a) for a in REPORTED])
def test_a_reported_bad_command_line_is_one_line_and_no_traceback(
    forker: Forker, args: list[str], files: dict[str, str], tmp_path: Path
) -> None:
    proc = _run(forker, [a.format(**files) for a in args], tmp_path / "data")
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr + proc.stdout
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("euphrates")


def _main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        status = main(args)
    except SystemExit as e:  # argparse's own refusals (an unknown command, a bad choice)
        status = int(e.code or 0)
    return status, capsys.readouterr().err


@pytest.mark.parametrize("args", MORE, ids=[" ".join(a) for a in MORE])
def test_any_bad_command_line_is_one_line(
    args: list[str],
    files: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EUPHRATES_DATA_DIR", str(tmp_path / "data"))
    status, err = _main([a.format(**files) for a in args], capsys)
    assert status != 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("euphrates"), err


def test_the_messages_name_the_argument(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    cases = {
        ("bench", "board", "--search", "greedy", "--positions", "0"): (
            "euphrates: --positions must be at least 1, not 0"
        ),
        ("bench", "board", "--games", "-1"): "euphrates: --games must be at least 1, not -1",
        ("replay", files["demo"], "--upto", "-1"): "euphrates: --upto must be at least 0, not -1",
        ("play", "cards", "--advanced"): "--advanced is an option of the board game (B-34)",
        ("play", "board", "--open-piles"): "--open-piles is an option of the card game (C-9)",
        ("demo", "board", "--record", ""): "euphrates: --record needs a file name",
        ("play", "--resume", files["demo"], "--seat", "1"): "the resumed game keeps its own",
        ("replay", files["deep"]): "nested too deeply",
        ("play", "--resume", files["demo"]): "names no seats",
        ("play", "cards", "--resume", files["saved"]): "holds the board game, not cards",
    }
    for args, words in cases.items():
        _status, err = _main(list(args), capsys)
        assert words in err, (args, err)
    assert _main(["bench", "board", "--games", "-1"], capsys)[0] == 2


def test_help_shows_the_defaults_and_python_m_works(forker: Forker, tmp_path: Path) -> None:
    proc = _python_m(["bench", "--help"], tmp_path)
    assert proc.returncode == 0
    assert "(default: 1)" in proc.stdout and "(default: 4)" in proc.stdout
    text = " ".join(_run(forker, ["play", "--help"], tmp_path).stdout.split())
    assert "fresh random seed" in text and "default intermediate" in text


def test_the_reproduction_shows_no_secret_swap(forker: Forker, tmp_path: Path) -> None:
    """`(yes pass | head -40; echo quit) | euphrates play board --players 2 --bots
    beginner --seed 4`: the bot's swaps are told as counts (G-3)."""
    stdin = "pass\n" * 40 + "quit\n"
    proc = _run(
        forker,
        ["play", "board", "--players", "2", "--bots", "beginner", "--seed", "4"],
        tmp_path,
        stdin,
    )
    assert proc.returncode == 0, proc.stderr
    assert "seat 1 swaps" in proc.stdout
    record = GameRecord.loads(next((tmp_path / "games").glob("*.json")).read_text())
    assert record.seed == 4 and record.seats == ["you", "bot:beginner"]
    for text in record.actions:
        if text.startswith("swap"):
            assert text not in proc.stdout
    assert "continue it with: euphrates play --resume" in " ".join(proc.stdout.split())


def test_the_game_is_told_in_the_language_asked_for_or_the_locales(
    forker: Forker, tmp_path: Path
) -> None:
    """`--lang de` or a German locale: the terminal speaks German; `--lang en` wins over
    the locale."""
    args = ["play", "board", "--bots", "beginner", "--seed", "4"]
    german = _run(forker, [*args, "--lang", "de"], tmp_path, "pass\nquit\n")
    assert german.returncode == 0, german.stderr
    assert "Befehle: help" in german.stdout and "deine Aktion 1/2 >" in german.stdout
    assert "Du passt" in german.stdout
    assert "Platz 1 ist am Zug" in german.stdout and "you pass" not in german.stdout
    assert "Befehle: help" in _run(forker, args, tmp_path, "quit\n", lang="de_DE.UTF-8").stdout
    english = _run(forker, [*args, "--lang", "en"], tmp_path, "pass\nquit\n", lang="de_DE.UTF-8")
    assert "commands: help" in english.stdout and "you pass" in english.stdout
    assert "Befehle" not in english.stdout
    wrong = _run(forker, [*args, "--lang", "fr"], tmp_path)
    assert wrong.returncode == 2 and "invalid choice: 'fr'" in wrong.stderr


def test_unseeded_games_differ_and_resume_continues_the_last_unfinished(
    forker: Forker, tmp_path: Path
) -> None:
    seeds = set()
    for _ in range(2):
        proc = _run(forker, ["play", "board", "--bots", "beginner"], tmp_path, "pass\n")
        assert proc.returncode == 0, proc.stderr
    records = sorted((tmp_path / "games").glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    assert len(records) == 2
    seeds = {GameRecord.loads(p.read_text()).seed for p in records}
    assert len(seeds) == 2
    last = GameRecord.loads(records[-1].read_text())
    proc = _run(forker, ["play", "--resume"], tmp_path, "pass\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert f"resuming {records[-1]}" in " ".join(proc.stdout.split()).replace(" ", "") or str(
        records[-1].name
    ) in proc.stdout.replace("\n", "")
    again = GameRecord.loads(records[-1].read_text())
    assert again.seed == last.seed and len(again.actions) > len(last.actions)


def test_demo_takes_a_fresh_seed_unless_given(forker: Forker, tmp_path: Path) -> None:
    firsts = {
        _run(forker, ["demo", "board", "--players", "2"], tmp_path).stdout.splitlines()[0]
        for _ in range(2)
    }
    assert len(firsts) == 2
    out = tmp_path / "r.json"
    proc = _run(
        forker, ["demo", "board", "--players", "2", "--seed", "5", "--record", str(out)], tmp_path
    )
    assert proc.stdout.splitlines()[0] == "board, 2 players, seed 5"
    assert GameRecord.loads(out.read_text()).seed == 5


def test_a_command_that_needs_no_server_loads_no_server_library(tmp_path: Path) -> None:
    """Every run builds every subcommand's parser; the database layer and the HTTP client
    load only for the commands that use them (they were most of a second of each
    `euphrates replay`)."""
    script = (
        "import sys\n"
        "from euphrates.cli import main\n"
        f"main(['replay', {str(tmp_path / 'missing.json')!r}])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'httpx', "
        "'fastapi', 'uvicorn', 'starlette'}))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
