"""Game servers for the browser tests, each in a process of its own forked from one
interpreter that has imported the server once: starting Python and importing the app
costs about 1.5 s of CPU, and the browser tests start a server per test.

A server child is what the tests started with `python -c` before: uvicorn serving
`create_app(settings)` on a loopback port with a fresh SQLite file, shut down by
SIGTERM. Its socket is bound and listening before the reply, so a test's first request
waits in the socket's queue until the app serves it, and no free port is guessed. Its
database starts as a copy of one the forking interpreter migrated once.

Run as a script by `ServerForks`; one JSON request a line on standard input, one JSON
answer (the child's process id and port) a line on standard output.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PR_SET_PDEATHSIG = 1


def _migrated_template() -> Path:
    """A migrated SQLite file that each server's fresh database starts as a copy of."""
    import tempfile

    from tests.server.harness import migrated_sqlite

    path = Path(tempfile.mkdtemp(prefix="euphrates-template-")) / "games.db"
    migrated_sqlite(path)
    return path


def _serve(request: dict[str, Any], sock: socket.socket, template: Path) -> None:
    import secrets

    import uvicorn

    from euphrates.core.protocol import SEED_LIMIT
    from euphrates.server.common.config import Settings
    from euphrates.server.game import newgame
    from euphrates.server.transport.app import create_app

    seed = request["seed"]
    if seed is not None:
        # Every game dealt from one seed, for a test that plays the same game each time
        # (it reads the seed back from the database to be sure).
        class Seeded:
            def __getattr__(self, name: str) -> Any:
                return getattr(secrets, name)

            def randbelow(self, n: int) -> int:
                return int(seed) if n == SEED_LIMIT else secrets.randbelow(n)

        newgame.secrets = Seeded()  # type: ignore[attr-defined,assignment]
    shutil.copyfile(template, request["db"])
    settings = Settings(
        db_url="sqlite:///" + request["db"],
        bot_workers=int(request["bot_workers"]),
        bot_pace=0,
        requests_per_s=1e5,
        review_depth="quick",  # as every test's server (tests/conftest.py)
    )
    if request.get("forfeit_grace") is not None:
        settings.forfeit_grace = float(request["forfeit_grace"])
    config = uvicorn.Config(create_app(settings), log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


def _end_with_parent() -> None:
    """SIGTERM to this child when the forking interpreter ends, which it does when the
    test process that started it ends, however: a test run stopped halfway leaves no
    server behind (Linux's PR_SET_PDEATHSIG)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")


def _child(request: dict[str, Any], sock: socket.socket, template: Path) -> None:
    """The forked child: serves until SIGTERM, never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # it waits for its bot workers
        _end_with_parent()
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 — the child's own streams
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115
        _serve(request, sock, template)
        code = 0
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def serve() -> None:
    """Import the server, then fork a server for each request. Passwords are hashed
    at the tests' cheap cost (tests/conftest.py)."""
    import uvicorn  # noqa: F401

    import euphrates.server.transport.app  # noqa: F401
    from euphrates.server.features.accounts import passwords
    from tests.conftest import cheap_hasher

    passwords._hasher = cheap_hasher()
    template = _migrated_template()

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # ended children are reaped by the kernel
    try:
        _fork_servers(template)
    finally:
        shutil.rmtree(template.parent, ignore_errors=True)


def _fork_servers(template: Path) -> None:
    for line in sys.stdin:
        request = json.loads(line)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        pid = os.fork()
        if pid == 0:
            _child(request, sock, template)
        port = sock.getsockname()[1]
        sock.close()
        print(json.dumps({"pid": pid, "port": port}), flush=True)


class ServerForks:
    """The forking interpreter, started on entering and ended on leaving (its servers
    are stopped by the tests that started them)."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> ServerForks:
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

    def start(
        self,
        db: Path,
        bot_workers: int,
        seed: int | None,
        log: Path,
        forfeit_grace: float | None = None,
    ) -> tuple[int, int]:
        """A server on a fresh port: its process id and port."""
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        request = {
            "db": str(db),
            "bot_workers": bot_workers,
            "seed": seed,
            "log": str(log),
            "forfeit_grace": forfeit_grace,
        }
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        return int(answer["pid"]), int(answer["port"])


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    serve()
