"""A seeded fuzz run over the `euphrates` command: generated argument lists and
malformed record files go through `main()`; every one must end in a clean way — exit 0
for a command that is valid, else a non-zero status with one line on standard error —
and never with a traceback, never after more than a few seconds of CPU. A command known to be
invalid that exits 0 counts as accepted-bad.

Then every argument that names a path, a count or a float meets what a hostile user
gives it (`~user` without a home, a FIFO, a device, a directory, a socket; 10**20;
nan and inf), in child processes with a memory limit, since on a regression such a
command would wait for ever or read until memory runs out.

    tried / clean / traceback / hang / accepted-bad
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import resource
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from euphrates.cli import main
from euphrates.match.records import GameRecord
from tests.cli_forks import Forker

# A command that spends more CPU time than this hangs (or accepted a number it should
# have refused). CPU time, not time on the clock: under a full `make test` beside other
# work a command that costs 3 s of CPU took 15 s on the clock.
HANG_SECONDS = 10.0
# On the clock, how long a command run in a child process may take at all.
CHILD_BOUND = 120.0

NUMBERS = [
    "-1",
    "0",
    "1",
    "2",
    "5",
    "1.5",
    "abc",
    "²",
    "٣",
    "9" * 400,
    "",
    "18446744073709551621",
    "1e3",
    "0x10",
    " 3",
    "-0",
]
WORDS = [
    "board",
    "cards",
    "chess",
    "",
    "BOARD",
    "random",
    "mcts:0i",
    "mcts:1h",
    "greedy,wizard",
    "\x00",
    "ü",
]


def record_files(tmp: Path, r: random.Random) -> list[tuple[Path, bool]]:
    """Record files, each with whether it is valid."""
    good = GameRecord("board", 2, 7, {}, ["you", "bot:random"], ["pass", "pass"]).to_json()
    out: list[tuple[Path, bool]] = []
    path = tmp / "good.json"
    path.write_text(json.dumps(good))
    out.append((path, True))
    texts = [
        "[" * 50_000 + "]" * 50_000,
        "{" * 3000,
        "",
        "null",
        "\xff\xfe",
        json.dumps({**good, "format": True}),
        json.dumps({**good, "seed": 2**64 + 5}),
        json.dumps({**good, "seed": -1}),
        json.dumps({**good, "players": 3.0}),
        json.dumps({**good, "options": {"advanced": "no"}}),
        json.dumps({**good, "options": ["advanced"]}),
        json.dumps({**good, "actions": ["commit ²"]}),
        json.dumps({**good, "actions": ["x" * 5000]}),
        json.dumps({**good, "actions": [1, 2]}),
        json.dumps({**good, "game": "chess"}),
        json.dumps({**good, "seats": "you"}),
        json.dumps({**good, "outcome": {"places": [1, 1]}}),
        '{"seed": ' + "9" * 5000 + "}",
    ]
    for i, text in enumerate(texts):
        p = tmp / f"bad{i}.json"
        p.write_bytes(text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text)
        out.append((p, False))
    for i in range(40):  # random byte damage to a good record
        raw = bytearray(json.dumps(good).encode())
        for _ in range(r.randint(1, 6)):
            raw[r.randrange(len(raw))] = r.randrange(256)
        p = tmp / f"damaged{i}.json"
        p.write_bytes(bytes(raw))
        out.append((p, False))  # may still be valid by chance; only a crash counts then
    return out


def commands(tmp: Path, r: random.Random, n: int) -> list[tuple[list[str], bool | None]]:
    """(argv, valid?) — None when validity is not known in advance."""
    files = record_files(tmp, r)
    out: list[tuple[list[str], bool | None]] = []
    for path, valid in files:
        # A damaged record may still be valid by chance: only a crash counts then.
        out.append((["replay", str(path)], True if valid else None))
        out.append((["play", "--resume", str(path)], None))
    bases: list[list[str]] = [
        ["bench", "board", "--players", "2", "--games", "1", "--seed", "3"],
        ["bench", "cards", "--players", "2", "--games", "1"],
        ["demo", "board", "--players", "2", "--seed", "1"],
        ["replay", str(files[0][0]), "--upto", "1"],
    ]
    for _ in range(n):
        base = list(r.choice(bases))
        argv = list(base)
        for _ in range(r.randint(1, 3)):
            i = r.randrange(1, len(argv))
            kind = r.random()
            if kind < 0.5 and argv[i - 1].startswith("--"):
                argv[i] = r.choice(NUMBERS)
            elif kind < 0.7:
                argv[i] = r.choice(WORDS)
            elif kind < 0.85:
                argv.insert(
                    i,
                    r.choice(
                        [
                            "--advanced",
                            "--open-piles",
                            "--upto",
                            "--seat",
                            "--record",
                            "--positions",
                            "--jobs",
                            "-x",
                            "--",
                        ]
                    ),
                )
            else:
                del argv[i]
        out.append((argv, None))
    for bad in (
        ["serve", "--port", "70000"],
        ["serve", "--db", "mysql://x"],
        ["serve", "--bot-workers", "-1"],
        ["serve", "--rate-limit", "0"],
        ["loadtest", "--games", "0"],
        ["loadtest", "--url", "http://example.com"],
        ["loadtest", "--servers", "2"],
        ["tournament", "board", "--bots", "random", "--games", "0"],
        ["tournament", "board", "--bots", "random", "--jobs", "-3"],
        ["tournament", "board", "--bots", "mcts:0i"],
        ["play", "cards", "--advanced"],
        ["play", "board", "--open-piles"],
        ["demo", "board", "--record", ""],
        ["bench", "board", "--search", "greedy", "--positions", "0"],
        ["bench", "board", "--games", "-1"],
    ):
        out.append((bad, False))
    return out


def cpu_seconds() -> float:
    """The CPU time of this process and of its children that have ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_one(argv: list[str]) -> tuple[int | None, str, float, BaseException | None]:
    err = io.StringIO()
    outp = io.StringIO()
    start = cpu_seconds()
    code: int | None = None
    raised: BaseException | None = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(outp):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own exits
            code = e.code if isinstance(e.code, int) else 2
        except BaseException as e:
            raised = e
    return code, err.getvalue() + outp.getvalue(), cpu_seconds() - start, raised


NO_USER = "~nosuchuser-of-euphrates/x.json"
MEMORY_LIMIT = 1 << 30


def hostile_commands(tmp: Path) -> list[tuple[list[str], dict[str, str], bool | None]]:
    """(argv, environment, valid?) for every argument naming a path, a count or a float."""
    fifo = tmp / "pipe.json"
    os.mkfifo(fifo)
    zero = tmp / "zero.json"
    zero.symlink_to("/dev/zero")
    null = tmp / "null.json"
    null.symlink_to("/dev/null")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp / "sock.json"))
    sock.close()
    roomy = tmp / "dir"
    roomy.mkdir()
    # Paths written to stay inside `tmp`: a device is reached through a symbolic link,
    # which a write that goes wrong replaces instead of the device (as root, a record
    # moved over /dev/urandom itself would replace the machine's device).
    here = [NO_USER, str(fifo), str(zero), str(null), str(tmp / "sock.json")]
    reads = [["replay"], ["play", "--resume"], ["play", "cards", "--resume"]]
    writes = [
        ["demo", "board", "--seed", "1", "--record"],
        ["tournament", "board", "--bots", "random", "--games", "1", "--out"],
    ]
    out: list[tuple[list[str], dict[str, str], bool | None]] = []
    for head in reads:
        for path in [*here, "/dev/urandom", "/dev/zero", str(roomy)]:
            out.append(([*head, path], {}, False))
    for head in writes:
        for path in here:
            out.append(([*head, path], {}, False))
    out.append((["demo", "board", "--seed", "1", "--record", str(roomy)], {}, False))
    for data in (NO_USER, str(fifo), str(null)):
        # A data directory inside a FIFO cannot be made: the game is played unsaved.
        valid = False if data == NO_USER else None
        out.append((["play", "--resume"], {"EUPHRATES_DATA_DIR": data}, False))
        out.append((["play", "board", "--bots", "random"], {"EUPHRATES_DATA_DIR": data}, valid))
    t = ["tournament", "board", "--bots", "random", "--out", str(tmp / "t")]
    for big in (str(10**20), str(2**63), "1000001"):
        out.append(([*t, "--games", big], {}, False))
        out.append(([*t, "--games", "2", "--jobs", big], {}, False))
        out.append((["bench", "board", "--search", "greedy", "--positions", big], {}, False))
        out.append((["bench", "cards", "--seed", "0", "--games", big], {}, False))
    floats = [
        ["loadtest", "--games", "1", "--think", "0", "--seconds"],
        ["loadtest", "--games", "1", "--think"],
        ["serve", "--port", "1", "--bot-pace"],
        ["serve", "--port", "1", "--rate-limit"],
    ]
    for head in floats:
        for value in ("nan", "inf", "-inf", "1e400", "-1", "NaN"):
            out.append(([*head[:-1], f"{head[-1]}={value}"], {}, False))
    return out


def run_child(
    forker: Forker, argv: list[str], env: dict[str, str], data: Path
) -> tuple[int | None, str, float, BaseException | None]:
    """`python -m euphrates ARGV` in a child process with a memory limit, forked from an
    interpreter that has imported the command once (tests/cli_forks.py)."""
    full = {**os.environ, "EUPHRATES_DATA_DIR": str(data), "COLUMNS": "100", **env}
    done = forker.run(argv, full, data.parent, MEMORY_LIMIT, CHILD_BOUND)
    if done["hang"]:
        return None, "", math.inf, None  # a hang, however little CPU it spent
    text = done["stderr"] + done["stdout"]
    return (
        done["code"],
        done["stderr"],
        done["cpu"],
        None if ("Traceback" not in text) else RuntimeError(text[-300:]),
    )


def test_fuzz_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # 500 random command lines in the suite (about 30 s on two cores), 1 500 with --soak.
    random_lines = 1500 if request.config.getoption("--soak") else 500
    monkeypatch.setenv("EUPHRATES_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # `play` sees the end of input at once
    r = random.Random(2026)
    tally: Counter[str] = Counter()
    problems: list[Any] = []
    most = 0.0  # the most CPU time one command took
    # (argv, environment, valid?, in a child process?)
    runs: list[tuple[list[str], dict[str, str], bool | None, bool]] = [
        (argv, {}, valid, False) for argv, valid in commands(tmp_path, r, random_lines)
    ]
    runs += [(argv, env, valid, True) for argv, env, valid in hostile_commands(tmp_path)]
    with Forker() as forker:
        for argv, env, valid, in_child in runs:
            tally["tried"] += 1
            if in_child:
                code, text, seconds, raised = run_child(forker, argv, env, tmp_path / "data")
            else:
                code, text, seconds, raised = run_one(argv)
            most = max(most, seconds)
            if raised is not None or "Traceback" in text:
                tally["traceback"] += 1
                problems.append((argv[:4], repr(raised)[:200]))
            elif seconds > HANG_SECONDS:
                tally["hang"] += 1
                problems.append((argv[:4], f"{seconds:.1f} s"))
            elif code == 0 and valid is False:
                tally["accepted-bad"] += 1
                problems.append((argv, "accepted"))
            elif (
                code != 0
                and len([ln for ln in text.splitlines() if ln.startswith("euphrates")]) != 1
                and not text.startswith("usage:")
            ):
                tally["traceback"] += 1  # not one clean line
                problems.append((argv, text[:200]))
            else:
                tally["clean"] += 1
    line = " / ".join(
        str(tally[k]) for k in ("tried", "clean", "traceback", "hang", "accepted-bad")
    )
    print(f"\ncli fuzz: tried / clean / traceback / hang / accepted-bad = {line}")
    print(f"the most CPU time one command took: {most:.1f} s (a hang: over {HANG_SECONDS:g} s)")
    assert not problems, problems[:10]
    assert tally["tried"] > random_lines
