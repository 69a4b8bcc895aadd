"""Paths and counts a hostile user gives the `euphrates` command: a `~user` without a
home, a FIFO, a device or a directory where a record is read or written, counts that
would allocate before the first game, floats that are no numbers. Each is one line on
standard error, exit status 2, at once, with the file left as it was.

These run the command in a child process with a memory limit and a timeout, so that a
read that never ends fails the test instead of the machine."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from euphrates.match.records import GameRecord
from tests.cli_forks import Forker
from tests.terminal.helpers import console, scripted

NO_USER = "~nosuchuser-of-euphrates"
LIMIT_BYTES = 1 << 30


@pytest.fixture(scope="module")
def forker() -> Iterator[Forker]:
    with Forker() as f:
        yield f


def run(
    forker: Forker,
    args: list[str],
    data: Path,
    env: dict[str, str] | None = None,
    timeout: float = 30,
) -> subprocess.CompletedProcess[str]:
    """`python -m euphrates ARGS` in a child process with a memory limit (forked from an
    interpreter that imported the command once, tests/cli_forks.py); a relative path made
    by mistake lands in the test's directory."""
    full = {**os.environ, "EUPHRATES_DATA_DIR": str(data), "COLUMNS": "100", **(env or {})}
    done = forker.run(args, full, data.parent, LIMIT_BYTES, timeout)
    if done["hang"]:
        pytest.fail(f"euphrates {' '.join(args)} did not end within {timeout} s")
    return subprocess.CompletedProcess(args, done["code"], done["stdout"], done["stderr"])


def refused(proc: subprocess.CompletedProcess[str], *words: str) -> str:
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("euphrates: "), proc.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    return lines[0]


@pytest.fixture
def places(tmp_path: Path) -> dict[str, str]:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    null = tmp_path / "null.json"
    null.symlink_to("/dev/null")
    return {
        "fifo": str(fifo),
        "zero": str(zero),
        "null": str(null),
        "dir": str(tmp_path),
        "nouser": f"{NO_USER}/x.json",
    }


READS = [
    (["replay", "{nouser}"], "nosuchuser-of-euphrates"),
    (["play", "--resume", "{nouser}"], "nosuchuser-of-euphrates"),
    (["replay", "{fifo}"], "FIFO"),
    (["play", "--resume", "{fifo}"], "FIFO"),
    (["replay", "/dev/zero"], "character device"),
    (["replay", "/dev/urandom"], "character device"),
    (["replay", "{zero}"], "character device"),
    (["play", "--resume", "{zero}"], "character device"),
    (["replay", "{dir}"], "directory"),
    (["play", "board", "--resume", "{fifo}"], "FIFO"),
]


@pytest.mark.parametrize(("args", "words"), READS, ids=[" ".join(a) for a, _ in READS])
def test_a_record_is_read_from_a_regular_file_only(
    forker: Forker, args: list[str], words: str, places: dict[str, str], tmp_path: Path
) -> None:
    proc = run(forker, [a.format(**places) for a in args], tmp_path / "data")
    refused(proc, words)


WRITES = [
    (["demo", "board", "--seed", "1", "--record", "{nouser}"], "nosuchuser-of-euphrates"),
    (["demo", "board", "--seed", "1", "--record", "{fifo}"], "FIFO"),
    (["demo", "board", "--seed", "1", "--record", "{null}"], "character device"),
    (["demo", "board", "--seed", "1", "--record", "{dir}"], "directory"),
]


@pytest.mark.parametrize(("args", "words"), WRITES, ids=[" ".join(a) for a, _ in WRITES])
def test_a_record_is_written_over_a_regular_file_only(
    forker: Forker, args: list[str], words: str, places: dict[str, str], tmp_path: Path
) -> None:
    """A record written "to" a FIFO or a device would replace it with a file (as root,
    `--record /dev/null` replaced the device itself); refused, and it stays what it is."""
    proc = run(forker, [a.format(**places) for a in args], tmp_path / "data")
    refused(proc, words)
    assert stat.S_ISFIFO(os.stat(places["fifo"]).st_mode)
    assert os.path.islink(places["null"]) and os.readlink(places["null"]) == "/dev/null"


def test_a_data_directory_without_a_home_is_one_line(forker: Forker, tmp_path: Path) -> None:
    data = f"{NO_USER}/data"
    env = {"EUPHRATES_DATA_DIR": data}
    refused(run(forker, ["play", "--resume"], tmp_path / "data", env), "EUPHRATES_DATA_DIR")
    proc = run(forker, ["play", "board", "--bots", "random", "--seed", "1"], tmp_path / "data", env)
    refused(proc, "EUPHRATES_DATA_DIR", "nosuchuser-of-euphrates")


COUNTS = [
    (["tournament", "board", "--bots", "random", "--games", str(10**20)], "--games"),
    (["tournament", "board", "--bots", "random", "--games", "2", "--jobs", str(10**9)], "--jobs"),
    (["bench", "board", "--search", "greedy", "--positions", str(10**20)], "--positions"),
    (["bench", "board", "--seed", "0", "--games", str(10**19)], "--games"),
    (["bench", "cards", "--search", "random", "--seed", str(2**64 - 1)], "--seed"),
    (["loadtest", "--seconds", "nan", "--games", "1", "--think", "0"], "--seconds"),
    (["loadtest", "--seconds=-inf", "--games", "1"], "--seconds"),
    (["loadtest", "--seconds", "0", "--games", "1"], "--seconds"),
    (["loadtest", "--seconds", "1e400", "--games", "1"], "--seconds"),
    (["loadtest", "--think", "nan", "--games", "1"], "--think"),
    (["loadtest", "--think", "inf", "--games", "1"], "--think"),
    (["serve", "--bot-pace", "nan"], "--bot-pace"),
    (["serve", "--rate-limit", "inf"], "--rate-limit"),
]


@pytest.mark.parametrize(("args", "words"), COUNTS, ids=[" ".join(a) for a, _ in COUNTS])
def test_counts_are_bounded_and_floats_are_numbers(
    forker: Forker, args: list[str], words: str, tmp_path: Path
) -> None:
    out = ["--out", str(tmp_path / "t")] if args[0] == "tournament" else []
    refused(run(forker, args + out, tmp_path / "data"), words)


def test_a_tournament_directory_is_a_directory_of_regular_files(
    forker: Forker, places: dict[str, str], tmp_path: Path
) -> None:
    base = ["tournament", "board", "--bots", "random", "--games", "1"]
    refused(
        run(forker, [*base, "--out", f"{NO_USER}/t"], tmp_path / "data"), "nosuchuser-of-euphrates"
    )
    refused(
        run(forker, [*base, "--out", places["null"]], tmp_path / "data"), "--out", "not a directory"
    )
    out = tmp_path / "t"
    out.mkdir()
    os.mkfifo(out / "manifest.json")
    refused(run(forker, [*base, "--out", str(out)], tmp_path / "data"), "FIFO")


def test_save_to_a_path_without_a_home_or_a_fifo_keeps_the_game(
    places: dict[str, str], tmp_path: Path
) -> None:
    from euphrates.terminal import new_record
    from euphrates.terminal.game import TerminalGame

    good = tmp_path / "game.json"
    lines = [f"save {places['nouser']}", f"save {places['fifo']}", f"save {places['null']}"]
    con, out = console()
    record = new_record("board", 2, 0, ["beginner"], 3, {})
    g = TerminalGame(record, con, read=scripted([*lines, "pass", f"save {good}", "quit"]))
    assert g.run() == 0
    text = out.getvalue()
    assert "internal error" not in text and "Traceback" not in text
    assert text.count("not saved:") == 3, text
    # The console wraps at its width, where the temporary path's length puts the break.
    flat = " ".join(text.split())
    assert "nosuchuser-of-euphrates" in flat and "FIFO" in flat and "character device" in flat
    assert GameRecord.loads(good.read_text()).actions[0] == "pass"
    assert stat.S_ISFIFO(os.stat(places["fifo"]).st_mode)
    assert os.readlink(places["null"]) == "/dev/null"
