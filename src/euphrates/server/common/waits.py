"""The one wait the server's background loops share: for a wake-up, or a period.

`asyncio.timeout`, not `asyncio.wait_for`: in Python 3.11 `wait_for` returns the result
when the task is cancelled at the moment what it awaits completes, and the cancellation
is lost; a loop that lost it ran on after shutdown and held the server's stop
(tests/server/test_cancel.py). Every bounded wait in the server is written this way."""

from __future__ import annotations

import asyncio
import contextlib


async def woken(event: asyncio.Event, seconds: float) -> None:
    """Until `event` is set or `seconds` have passed, whichever comes first."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await event.wait()


async def stopped(*tasks: asyncio.Task[None] | None) -> None:
    """Cancel each background task given (None: none was started) and wait until it
    has ended, its cancellation taken: a feature's `close` at shutdown."""
    for task in tasks:
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
