"""Stopping the server: a task cancelled at the moment what it awaits completes must still
stop. Python 3.11's `asyncio.wait_for` returns the result then and drops the
cancellation, so a review loop in the middle of a worker's answer kept running after
shutdown and held the server's thread for the harness's 30 s (and on after it)."""

from __future__ import annotations

import asyncio
from typing import Any

from euphrates.server.game.workers import _Worker


class _Pipe:
    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass


class _Process:
    """What `_Worker` uses of a process: its pipes and whether it still runs."""

    def __init__(self, stdout: asyncio.StreamReader) -> None:
        self.stdin = _Pipe()
        self.stdout = stdout
        self.returncode = None


async def _cancelled_as_the_answer_arrives(steps: int) -> str:
    answers = asyncio.StreamReader()
    worker = _Worker(_Process(answers))  # type: ignore[arg-type]
    task = asyncio.create_task(worker.exchange({}))
    for _ in range(3):  # written, drained, now reading
        await asyncio.sleep(0)
    answers.feed_data(b'{"id": 1}\n')
    for _ in range(steps):
        await asyncio.sleep(0)
    if not task.cancel():
        return "answered first"
    try:
        reply: Any = await task
    except asyncio.CancelledError:
        return "cancelled"
    return f"answered {reply} although cancelled"


def test_a_worker_exchange_cancelled_as_its_answer_arrives_is_cancelled() -> None:
    async def every_moment() -> list[str]:
        return [await _cancelled_as_the_answer_arrives(k) for k in range(6)]

    outcomes = asyncio.run(every_moment())
    assert outcomes[0] == "cancelled"
    assert set(outcomes) <= {"cancelled", "answered first"}, outcomes
