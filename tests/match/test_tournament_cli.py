"""`euphrates tournament` as a command: one-line refusals of bad arguments, defaults in
its help, Ctrl-C (the table of the games finished so far, exit 130), and a `kill -9`
that leaves no job or bot worker behind."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from euphrates.cli import main
from tests.bots.procs import descendants, ignores_sigint, wait_gone

# Bounds for a loaded machine (a full `make test` on 2 cores): a tournament that works
# is ready and answers Ctrl-C in seconds; these only stop one that hangs.
READY_BOUND = 180.0
DONE_BOUND = 120.0


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], "--games must be at least 1, not 0"),
        (["--games", "-1"], "--games must be at least 1, not -1"),
        (["--jobs", "0"], "--jobs must be at least 1, not 0"),
        (["--jobs", "-3"], "--jobs must be at least 1, not -3"),
        (["--bots", "random,wizard"], "unknown bot 'wizard'"),
        (["--bots", "mcts:0i"], "iterations must be a whole number from 1"),
        (["--bots", "mcts:0s"], "the time must be more than 0"),
        (["--bots", "mcts:-1s"], "bad mcts budget '-1s'"),
        (["--bots", "mcts:5000000i"], "from 1 to 1000000"),
        (["--bots", "mcts:1h"], "bad mcts budget '1h'"),
        (["--bots", "random,random,random"], "3 bots for 2 seats"),
        (["--bots", ","], "name at least one bot"),
        (["--seed", "-1"], "seed must lie in 0 .. 2**64-1"),
        (["--game", "cards"], "two games named"),
    ],
)
def test_bad_arguments_get_one_line(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["tournament", "board", "--bots", "random", "--out", str(tmp_path / "t"), *args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("euphrates: ") and words in err, err
    assert not (tmp_path / "t").exists()  # refused before anything was written


def test_the_game_must_be_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "random"]) == 2
    assert "name the game" in capsys.readouterr().err


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["tournament", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for words in (
        "{board,cards}",
        "(default: 2)",
        "(default: 100)",
        "(default: 1)",
        "fresh random",
    ):
        assert words in text, words


def _start(out: Path, jobs: int, bots: str = "random") -> subprocess.Popen[str]:
    argv = ["tournament", "board", "--bots", bots, "--games", "300", "--jobs", str(jobs)]
    return subprocess.Popen(
        [sys.executable, "-m", "euphrates.cli", *argv, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as in a terminal
        # ... where Ctrl-C is not ignored, even when the suite was started in the
        # background by a non-interactive shell (which ignores SIGINT for what it starts)
        preexec_fn=_sigint_default,
    )


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _finished(out: Path) -> int:
    path = out / "results.jsonl"
    return len(path.read_text().splitlines()) if path.exists() else 0


def _ready(proc: subprocess.Popen[str], out: Path, games: int, processes: int) -> list[int]:
    """Wait until the tournament has finished `games` games and runs `processes`
    processes below it, each set up (ignoring Ctrl-C, so the signal that kills it with
    its parent is armed); returns them. The bound is generous: a loaded machine may be
    slow to start them, and only a tournament that never gets there fails."""
    deadline = time.monotonic() + READY_BOUND
    while True:
        below = descendants(proc.pid)
        if (
            _finished(out) >= games
            and len(below) == processes
            and all(ignores_sigint(p) for p in below)
        ):
            return below
        if proc.poll() is not None:
            _out, err = proc.communicate()
            raise AssertionError(f"the tournament ended early ({proc.returncode}): {err}")
        assert time.monotonic() < deadline, (
            f"not ready after {READY_BOUND} s: {_finished(out)} games, {len(below)} processes"
        )
        time.sleep(0.05)


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_prints_the_table_of_the_games_finished(tmp_path: Path, jobs: int) -> None:
    """Ctrl-C in a terminal signals the whole process group: jobs and workers too."""
    proc = _start(tmp_path, jobs=jobs)
    # One job: a worker per seat; more: each job and a worker per seat of each.
    below = _ready(proc, tmp_path, games=2, processes=2 if jobs == 1 else 3 * jobs)
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=DONE_BOUND)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert proc.returncode == 130, err
    played = _finished(tmp_path)
    assert 2 <= played < 300
    doc = json.loads(out.strip().splitlines()[-1])
    assert doc["results"][0]["games"] == 2 * played  # both seats are "random"
    assert f"{played} games" in out
    assert "interrupted after" in err and f"--out {tmp_path}" in err
    assert "Traceback" not in err
    assert wait_gone(below, 10.0) == []


def test_kill_9_leaves_no_job_or_worker_behind(tmp_path: Path) -> None:
    """The bots think for half a minute a move: neither the jobs (waiting for them) nor
    the workers (thinking) would notice the end of their input in time; they go
    because the kernel kills each with its parent."""
    proc = _start(tmp_path, jobs=2, bots="mcts:30s")
    below = _ready(proc, tmp_path, games=0, processes=6)  # two jobs, a worker per seat each
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=DONE_BOUND)
    assert wait_gone(below, 10.0) == []
