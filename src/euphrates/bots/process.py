"""Child processes that speak newline-delimited JSON, and die with their parent.

Bots run in worker processes, and tournaments run games in job processes, so that
nothing a bot executes shares memory with the true state of a game. Three rules make
that hold:

* A child is a fresh interpreter started with `subprocess` (`fork` would hand it a copy
  of the parent's memory, the true state among it), with `close_fds` so that it holds
  no pipe of its siblings.
* A child asks the kernel to kill it when its parent goes (`PR_SET_PDEATHSIG`), then
  checks that its parent is still the one that started it (a parent that died before
  the request would otherwise go unnoticed), and it exits at the end of its input. A
  `kill -9` of the host therefore leaves no orphan computing or sleeping for ever.
  The kernel ties the signal to the *thread* that started the child: start children
  from a thread that lives as long as they should (the main thread, an event loop's).
* A child ignores SIGINT: Ctrl-C reaches the whole process group, and it is the host
  that decides what an interruption means (its children end with their input).
* A child its host starts with `--nice N` lowers its own scheduling priority by N
  before anything else: the server's hint and review workers, so that the operating
  system gives the CPU to the workers of the tables' bots first (server/game/workers.py).

The protocol runs over a private copy of the child's stdout; fd 1 itself is pointed at
stderr, so a stray `print` in a bot cannot corrupt a reply. Lines are framed, and a bot
worker's replies checked, by `bots.wire`, the one definition of that protocol that the
server's asyncio pool shares: `Child.ask` speaks it (ids attached and checked), while
`send`/`receive` carry the plain JSON lines of other children (tournament jobs).

What this boundary is not: a sandbox. A worker runs as the same user as its host, so
code written to cheat could still ask the operating system about the host: read its
memory through /proc (unless the host is not dumpable, Yama's ptrace scope forbids it,
or the worker lacks CAP_SYS_PTRACE), its command line (`--seed`), or the files it
writes (a tournament's manifest holds the base seed). Our bots do none of that; bots
from elsewhere belong in workers run as another user, in a container or under seccomp.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import IO, Any

from euphrates.bots.wire import (
    MAX_LINE,
    RefusedError,
    WireError,
    decode,
    dump_line,
    encode,
    load_object,
)
from euphrates.core.errors import EuphratesError

PR_SET_PDEATHSIG = 1
PARENT_FLAG = "--parent"
NICE_FLAG = "--nice"


class ChildError(EuphratesError):
    """A child process died, took too long, or answered something that is not a reply."""


# --------------------------------------------------------------------- child side
def die_with_parent(expected_parent: int | None) -> None:
    """SIGKILL this process when its parent dies, and exit now if it already has."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:  # pragma: no cover
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if expected_parent is not None and os.getppid() != expected_parent:
        os._exit(1)  # the parent went before the signal was armed


def _number_after(argv: Sequence[str], flag: str) -> int | None:
    args = list(argv)
    if flag in args:
        i = args.index(flag)
        if i + 1 < len(args) and args[i + 1].isdigit():
            return int(args[i + 1])
    return None


def parent_from(argv: Sequence[str]) -> int | None:
    """The `--parent PID` a host passes to its child (None when started by hand)."""
    return _number_after(argv, PARENT_FLAG)


def nice_from(argv: Sequence[str]) -> int:
    """The `--nice N` a host passes to a child that should yield the CPU (0: none)."""
    return _number_after(argv, NICE_FLAG) or 0


def child_setup(argv: Sequence[str]) -> tuple[IO[bytes], IO[bytes]]:
    """Everything a child does first: die with the parent, ignore Ctrl-C, lower its
    priority if asked, and move the protocol off fd 1. Returns the request stream and
    the private reply stream."""
    die_with_parent(parent_from(argv))
    nice = nice_from(argv)
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return sys.stdin.buffer, replies


def serve(requests: IO[bytes], replies: IO[bytes], handle: Any) -> int:
    """Answer each request line with `handle(line) -> dict` until the input ends."""
    for line in requests:
        if not line.strip():
            continue
        reply = handle(line)
        replies.write(dump_line(reply))
        replies.flush()
    return 0


# --------------------------------------------------------------------- parent side
class Child:
    """One child process and its two pipes; `ask` sends a request and waits for the
    reply line, at most `timeout` seconds. Any failure kills the child (its state is
    unknown once a reply is late or garbled) and raises ChildError, whose message
    starts with `label` ("tournament job 2 exited without answering ..."). A worker's
    refusal is no failure of the child: `ask` raises it as `wire.RefusedError`."""

    def __init__(
        self,
        module: str,
        label: str,
        *,
        command: Sequence[str] | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.label = label
        argv = list(command) if command is not None else [sys.executable, "-m", module]
        argv += [PARENT_FLAG, str(os.getpid())]
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the child
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                env=dict(env) if env is not None else None,
                close_fds=True,
                bufsize=0,
            )
        except OSError as e:
            self._stderr.close()
            raise ChildError(f"cannot start {label} ({argv[0]}): {e}") from e
        self._buffer = b""
        self._ids = itertools.count(1)

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def ask(self, request: Mapping[str, Any], timeout: float | None) -> dict[str, Any]:
        """Send `request` under the next id of this child and return the reply to it
        (`bots.wire.decode`). A reply that breaks the protocol kills the child, which
        is out of step or broken, and raises ChildError; a worker that says it cannot
        answer raises `wire.RefusedError` and stays, as sound as before."""
        rid = next(self._ids)
        self._write(encode(request, rid))
        line = self._read_line(timeout, MAX_LINE)
        try:
            return decode(line, rid)
        except RefusedError:
            raise
        except WireError as e:
            self.kill()
            raise ChildError(f"{self.label}: {e}") from e

    def send(self, request: Mapping[str, Any]) -> None:
        """A plain JSON line, no id: the jobs' protocol, which answers in any order."""
        self._write(dump_line(request))

    def _write(self, line: bytes) -> None:
        stdin = self.proc.stdin
        if stdin is None or stdin.closed:
            raise ChildError(f"{self.label} is closed")
        try:
            stdin.write(line)
        except (BrokenPipeError, ValueError):
            raise self._failure("exited before the request") from None

    def receive(self, timeout: float | None) -> dict[str, Any]:
        """The next line as a JSON object, however long (a job's reply holds a whole
        game record, and a job is our own code)."""
        line = self._read_line(timeout, None)
        try:
            return load_object(line, limit=None)
        except WireError as e:
            self.kill()
            raise ChildError(f"{self.label}: {e}") from e

    def fileno(self) -> int:
        """For `select`: readable when a reply (or the end of the child) is there."""
        stdout = self.proc.stdout
        assert stdout is not None
        return stdout.fileno()

    def has_line(self) -> bool:
        return b"\n" in self._buffer

    def _read_line(self, timeout: float | None, limit: int | None) -> bytes:
        """The next line, without its newline; at most `limit` bytes are waited for,
        so a child that writes without end is killed rather than held in memory."""
        deadline = None if timeout is None else time.monotonic() + timeout
        fd = self.fileno()
        while b"\n" not in self._buffer:
            if limit is not None and len(self._buffer) > limit:
                self.kill()
                raise ChildError(
                    f"{self.label}: the reply is longer than the {limit} bytes allowed"
                )
            wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                self.kill()
                raise ChildError(f"{self.label} gave no answer within {timeout:g} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise self._failure("exited without answering")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _failure(self, what: str) -> ChildError:
        self.kill()
        code = self.proc.returncode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"code {code}"
        return ChildError(f"{self.label} {what} ({how}){self._last_words()}")

    def _last_words(self) -> str:
        """The last line the child wrote to stderr, which usually names what went wrong."""
        try:
            self._stderr.seek(0)
            lines = [ln for ln in self._stderr.read().decode(errors="replace").splitlines() if ln]
        except (OSError, ValueError):
            return ""
        return f": {lines[-1].strip()}" if lines else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def close(self, grace: float = 2.0) -> None:
        """End the child: close its input (it exits at the end of input), kill it if it
        does not go within `grace` seconds (a bot still thinking)."""
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()
        self._stderr.close()


def ready(children: Sequence[Child], timeout: float | None) -> Iterator[Child]:
    """The children with a reply (or an end) to read, waiting at most `timeout` seconds."""
    buffered = [c for c in children if c.has_line()]
    if buffered:
        yield from buffered
        return
    by_fd = {c.fileno(): c for c in children}
    readable, _, _ = select.select(list(by_fd), [], [], timeout)
    for fd in readable:
        yield by_fd[fd]
