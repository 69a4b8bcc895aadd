"""Runs `euphrates` commands in child processes forked from one interpreter that has
imported the command and what its subcommands load, instead of starting Python for
each (tests/test_fuzz_cli.py runs about eighty such commands).

Each child is what `python -m euphrates ARGV` would be: its own environment, working
directory, standard input (given, else at its end), standard output and error of its
own, a memory limit if asked, `sys.exit(main(argv))` with Python's exit codes and a traceback for an uncaught
exception. The parent of the children reports each one's exit status, output and the
CPU time it spent (`wait4`), and kills one that runs past its bound on the clock.

Started as a script by `Forker`; it reads one JSON request a line on standard input and
answers one JSON line on standard output.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1

# Loaded once here so that no child pays for them: the command and the modules its
# subcommands import when they run.
PRELOAD = (
    "euphrates.cli",
    "euphrates.match.bench",
    "euphrates.match.files",
    "euphrates.match.games",
    "euphrates.match.records",
    "euphrates.match.seeds",
    "euphrates.match.tournament",
    "euphrates.terminal",
    "euphrates.terminal.app",
    "euphrates.terminal.storage",
    "euphrates.server.serve",
    "euphrates.bench.loadtest",
)


def _exit_code(e: SystemExit) -> int:
    """The status `python` exits with for `sys.exit(e.code)`."""
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


def _end_with_parent() -> None:
    """SIGKILL to this child when the forking interpreter ends (Linux's
    PR_SET_PDEATHSIG): a test run stopped halfway leaves no command behind."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


def _child(request: dict[str, Any], out: int, err: int) -> None:
    """The forked child: becomes `python -m euphrates ARGV` and never returns."""
    code = 70
    try:
        _end_with_parent()
        limit = int(request["memory"])
        if limit:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.dup2(request["stdin"], 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        # The streams a UTF-8 locale gives Python (the tests' children ran in one).
        sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        sys.argv = ["euphrates", *request["argv"]]
        from euphrates.cli import main

        try:
            code = _exit_code(SystemExit(main(request["argv"])))
        except SystemExit as e:
            code = _exit_code(e)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def _run(request: dict[str, Any]) -> dict[str, Any]:
    with (
        tempfile.TemporaryFile() as stdin,
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
    ):
        stdin.write(request["input"].encode())
        stdin.seek(0)
        pid = os.fork()
        if pid == 0:
            _child({**request, "stdin": stdin.fileno()}, out.fileno(), err.fileno())
        done = os.pidfd_open(pid)
        try:
            ready, _, _ = select.select([done], [], [], float(request["bound"]))
        finally:
            os.close(done)
        if not ready:
            os.kill(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        err.seek(0)
        return {
            "hang": not ready,
            "code": os.waitstatus_to_exitcode(status),
            "stdout": out.read().decode("utf-8", "replace"),
            "stderr": err.read().decode("utf-8", "replace"),
            "cpu": usage.ru_utime + usage.ru_stime,
        }


def serve() -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    for line in sys.stdin:
        print(json.dumps(_run(json.loads(line))), flush=True)


class Forker:
    """The forking interpreter, started on entering and ended on leaving."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> Forker:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(30)

    def run(
        self,
        argv: list[str],
        env: dict[str, str],
        cwd: Path,
        memory: int,
        bound: float,
        stdin: str = "",
    ) -> dict[str, Any]:
        """`python -m euphrates ARGV` in a forked child, reading `stdin`: its exit code,
        output, CPU time, and whether it was killed after `bound` seconds on the clock."""
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        request = {
            "argv": argv,
            "env": env,
            "cwd": str(cwd),
            "memory": memory,
            "bound": bound,
            "input": stdin,
        }
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    serve()
