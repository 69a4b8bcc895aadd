"""Looking at processes through /proc: whether one is gone, a process's descendants,
whether one ignores Ctrl-C yet, and the CPU time it has used."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path


def _stat(pid: int) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()  # the name may hold spaces and parentheses


def gone(pid: int) -> bool:
    """Dead: no longer in /proc, or a zombie waiting for whoever adopted it to reap it."""
    fields = _stat(pid)
    return fields is None or fields[0] in ("Z", "X")


def wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The pids still alive after up to `seconds`."""
    deadline = time.monotonic() + seconds
    alive = [p for p in pids if not gone(p)]
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [p for p in alive if not gone(p)]
    return alive


def descendants(root: int) -> list[int]:
    """Every living process below `root` in the process tree."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat(int(entry))
            if fields is not None and fields[0] not in ("Z", "X"):
                children.setdefault(int(fields[1]), []).append(int(entry))
    out: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def ignores_sigint(pid: int) -> bool:
    """Whether the process ignores SIGINT, as a child does once its set-up is done
    (`bots.process.child_setup`: the signal that kills it with its parent is armed
    first). False for a process that is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    for line in text.splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1)
    return False


def cpu_ticks(pid: int) -> int:
    """The CPU time the process has used, in clock ticks (0 for one that is gone)."""
    fields = _stat(pid)
    return 0 if fields is None else int(fields[11]) + int(fields[12])  # utime, stime


def wait_until(condition: Callable[[], bool], what: str, seconds: float = 120.0) -> None:
    """Wait for `condition`; the bound is generous (a loaded machine is slow) and only
    stops a wait for something that never comes."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not after {seconds:g} s"
        time.sleep(0.02)
