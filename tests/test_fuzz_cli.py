"""A seeded fuzz run over the `euphrates` command: generated argument lists and
malformed record files go through `main()`; every one must end in a clean way — exit 0
for a command that is valid, else a non-zero status with one line on standard error —
and never with a traceback, never after more than a few seconds. A command known to be
invalid that exits 0 counts as accepted-bad.

    tried / clean / traceback / hang / accepted-bad
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from euphrates.cli import main
from euphrates.match.records import GameRecord

HANG_SECONDS = 10.0

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


def run_one(argv: list[str]) -> tuple[int | None, str, float, BaseException | None]:
    err = io.StringIO()
    outp = io.StringIO()
    start = time.perf_counter()
    code: int | None = None
    raised: BaseException | None = None
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(outp):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own exits
            code = e.code if isinstance(e.code, int) else 2
        except BaseException as e:
            raised = e
    return code, err.getvalue() + outp.getvalue(), time.perf_counter() - start, raised


def test_fuzz_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EUPHRATES_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # `play` sees the end of input at once
    r = random.Random(2026)
    tally: Counter[str] = Counter()
    problems: list[Any] = []
    for argv, valid in commands(tmp_path, r, 1500):
        tally["tried"] += 1
        code, text, seconds, raised = run_one(argv)
        if raised is not None or "Traceback" in text:
            tally["traceback"] += 1
            problems.append((argv[:4], repr(raised)[:200]))
        elif seconds > HANG_SECONDS:
            tally["hang"] += 1
            problems.append((argv[:4], f"{seconds:.1f} s"))
        elif code == 0 and valid is False:
            tally["accepted-bad"] += 1
            problems.append((argv[:4], "accepted"))
        elif (
            code != 0
            and len([ln for ln in text.splitlines() if ln.startswith("euphrates")]) != 1
            and not text.startswith("usage:")
        ):
            tally["traceback"] += 1  # not one clean line
            problems.append((argv[:4], text[:200]))
        else:
            tally["clean"] += 1
    line = " / ".join(
        str(tally[k]) for k in ("tried", "clean", "traceback", "hang", "accepted-bad")
    )
    print(f"\ncli fuzz: tried / clean / traceback / hang / accepted-bad = {line}")
    assert not problems, problems[:10]
    assert tally["tried"] > 500
