"""Bots for the server: a pool of worker processes, each a fresh interpreter running
`python -m euphrates.bots.worker`, spoken to through the one client of their protocol
(bots/wire.py), which checks every answer: a worker that answers anything but what
was asked — `[]`, `null`, a number, another request's id — is a `BotFailure`, and is
replaced.

A request is one decision: the game, the bot's spec, a seed and the seat's view (the
documented JSON view, nothing more); or one move of an ended game to review: the
mover's view before it and the move (reviews.py). The worker builds the bot, answers with an action
text and keeps nothing, so the pool can hand any request to any idle worker, and no
worker ever holds a state, a record or a game's seed. The event loop only waits on
pipes, so the server answers other games while bots think.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sys
from typing import Any

from euphrates.bots import wire

log = logging.getLogger("euphrates.server")

READ_LIMIT = wire.MAX_LINE + 2  # the line and its end
ANSWER_TIMEOUT = 120.0


class BotFailure(RuntimeError):
    """A worker died, timed out or answered something other than an action."""


class _Worker:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0

    @property
    def alive(self) -> bool:
        return self.proc.returncode is None

    async def exchange(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        self.proc.stdin.write(wire.encode(request, self.next_id))
        await self.proc.stdin.drain()
        async with asyncio.timeout(ANSWER_TIMEOUT):
            line = await self.proc.stdout.readline()
        if not line:
            raise BotFailure("the bot's process ended")
        try:
            return wire.decode(line, self.next_id)
        except wire.RefusedError as e:
            raise BotFailure(e.reason) from None
        except wire.WireError as e:
            raise BotFailure(f"the bot's process answered out of protocol: {e}") from None

    async def stop(self) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        with contextlib.suppress(Exception):
            await self.proc.wait()


class BotPool:
    """`size` worker processes; `choose` waits for an idle one."""

    def __init__(self, size: int, command: list[str] | None = None) -> None:
        self.size = max(1, size)
        # `--parent` lets a worker that outlived the server (kill -9) notice and exit;
        # it also asks the kernel to kill it with us (bots.process).
        base = command or [sys.executable, "-m", "euphrates.bots.worker"]
        self.command = [*base, "--parent", str(os.getpid())]
        self._idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self._all: list[_Worker] = []

    async def start(self) -> None:
        for _ in range(self.size):
            worker = await self._spawn()
            self._idle.put_nowait(worker)

    async def _spawn(self) -> _Worker:
        proc = await asyncio.create_subprocess_exec(
            *self.command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=None,
            limit=READ_LIMIT,
        )
        worker = _Worker(proc)
        self._all.append(worker)
        return worker

    async def choose(self, game: str, spec: str, view: dict[str, Any]) -> str:
        """The bot's action for the decision pending in `view`; the bot gets a fresh
        random seed, unrelated to the game's."""
        reply = await self._ask(wire.decision_request(game, spec, secrets.randbits(63), view))
        try:
            return wire.action_of(reply)
        except wire.WireError as e:
            raise BotFailure(f"the bot's process answered no action: {e}") from None

    async def review(
        self, game: str, view: dict[str, Any], action: str, seed: int
    ) -> dict[str, Any]:
        """One move's review (bots/review.py) from its mover's `view` before `action`:
        {before, after, best, estimate}. `seed` seeds only the states the review imagines (the
        move's number, so a server's review is the terminal's)."""
        reply = await self._ask(wire.review_request(game, seed, view, action))
        try:
            return wire.review_of(reply).to_json()
        except wire.WireError as e:
            raise BotFailure(f"the bot's process answered no review: {e}") from None

    async def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        worker = await self._idle.get()
        try:
            reply = await worker.exchange(request)
        except BotFailure:
            await self._replace(worker)
            raise
        except (OSError, ValueError, TimeoutError) as e:
            await self._replace(worker)
            raise BotFailure(f"the bot's process failed: {e}") from None
        except BaseException:
            await self._replace(worker)
            raise
        self._idle.put_nowait(worker)
        return reply

    async def _replace(self, worker: _Worker) -> None:
        await worker.stop()
        if worker in self._all:
            self._all.remove(worker)
        try:
            fresh = await self._spawn()
        except Exception as e:  # pragma: no cover - cannot start processes at all
            log.error("could not start a bot process: %s", e)
            return
        self._idle.put_nowait(fresh)

    async def close(self) -> None:
        for worker in list(self._all):
            await worker.stop()
        self._all.clear()
