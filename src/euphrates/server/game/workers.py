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

Who goes first. A request is a table's move (`MOVE`), a person's hint (`HINT`) or a
move of a review (`REVIEW`), and waits, in that order and first come first served
within each, for a worker that may take it. A hint is a second of search, and one
client asking for hints in a dozen games at once would otherwise queue a dozen seconds
in front of every table's bots (a game of bots took 25 times as long a move), so the
pool keeps them apart:

* With `background` workers (the server's `--hint-workers`, one by default), those
  serve hints and reviews and nothing else, and the others serve moves and nothing
  else: a move never waits behind a hint or a review, and a flood of hints only
  lengthens the wait for hints. The background workers start `nice`d (`--nice`,
  bots/process.py), so when every core is busy the operating system gives the CPU to
  the moves' workers and a hint's search, bounded by time, finds a little less.
* With none, hints and reviews share the moves' workers, and take one only while
  another stays idle for the next move: a move waits for a hint only when every other
  worker is busy with moves meanwhile. A single worker they take whenever it is idle,
  so there a move may wait for one hint.

Priorities are per server process; each of several servers on one database keeps
its own pool.

Which idle worker. A worker keeps nothing a request could not have told it, but it
does keep the readings of the card game's tables it last made (bots/inference.py): a
game's next hint, or its review's next move, costs a worker that read the game before
only the actions since, and one that did not the whole game (seconds, late in a
game). So a request may name its game (`game_id`), and of the idle workers that may
take it, one that last served that game is taken first. No request waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sys
from collections import deque
from typing import Any

from euphrates.bots import wire

log = logging.getLogger("euphrates.server")

READ_LIMIT = wire.MAX_LINE + 2  # the line and its end
ANSWER_TIMEOUT = 120.0

MOVE, HINT, REVIEW = 0, 1, 2
"""What a request is for, the most urgent first."""
PRIORITIES = (MOVE, HINT, REVIEW)
BACKGROUND_NICE = 10
"""How much lower the background workers' scheduling priority is: at 10 a busy core
gives them about a tenth of its time beside one worker of the moves (Linux's weights),
so a hint still finds a move while the tables' bots keep nine tenths."""


class BotFailure(RuntimeError):
    """A worker died, timed out or answered something other than an action."""


class _Worker:
    def __init__(self, proc: asyncio.subprocess.Process, background: bool = False) -> None:
        self.proc = proc
        self.background = background
        self.next_id = 0
        self.last_game: str | None = None
        """The game its last request named: its reading of that table is warm."""

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
    """`size` workers for the tables' moves and `background` for hints and reviews;
    a request waits for an idle worker that may take it, the most urgent first."""

    def __init__(
        self,
        size: int,
        command: list[str] | None = None,
        background: int = 0,
        nice: int = BACKGROUND_NICE,
    ) -> None:
        self.size = max(1, size)
        self.background = max(0, background)
        self.nice = nice
        # `--parent` lets a worker that outlived the server (kill -9) notice and exit;
        # it also asks the kernel to kill it with us (bots.process).
        base = command or [sys.executable, "-m", "euphrates.bots.worker"]
        self.command = [*base, "--parent", str(os.getpid())]
        self._idle: dict[bool, list[_Worker]] = {False: [], True: []}
        """Idle workers: the moves' (False) and the background ones (True)."""
        self._waiting: dict[int, deque[asyncio.Future[_Worker]]] = {p: deque() for p in PRIORITIES}
        self._game_of: dict[asyncio.Future[_Worker], str] = {}
        """The game a waiting request named, to hand it a worker that served it last."""
        self._all: list[_Worker] = []
        self._closed = False

    async def start(self) -> None:
        for background, count in ((False, self.size), (True, self.background)):
            for _ in range(count):
                worker = await self._spawn(background)
                self._idle[background].append(worker)

    async def _spawn(self, background: bool) -> _Worker:
        command = self.command
        if background and self.nice > 0:
            command = [*command, "--nice", str(self.nice)]
        proc = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=None,
            limit=READ_LIMIT,
        )
        worker = _Worker(proc, background)
        self._all.append(worker)
        return worker

    async def choose(
        self,
        game: str,
        spec: str,
        view: dict[str, Any],
        priority: int = MOVE,
        game_id: str | None = None,
    ) -> str:
        """The bot's action for the decision pending in `view`; the bot gets a fresh
        random seed, unrelated to the game's. `priority`: a table's move, or a hint.
        `game_id`: the game, for a worker that served it last (the module's doc)."""
        request = wire.decision_request(game, spec, secrets.randbits(63), view)
        reply = await self._ask(request, priority, game_id)
        try:
            return wire.action_of(reply)
        except wire.WireError as e:
            raise BotFailure(f"the bot's process answered no action: {e}") from None

    async def review(
        self,
        game: str,
        view: dict[str, Any],
        action: str,
        seed: int,
        depth: str = "full",
        game_id: str | None = None,
    ) -> dict[str, Any]:
        """One move's review (bots/review.py) from its mover's `view` before `action`:
        {before, after, best, estimate}. `seed` seeds only the states the review imagines (the
        move's number, so a server's review is the terminal's)."""
        request = wire.review_request(game, seed, view, action, depth)
        reply = await self._ask(request, REVIEW, game_id)
        try:
            return wire.review_of(reply).to_json()
        except wire.WireError as e:
            raise BotFailure(f"the bot's process answered no review: {e}") from None

    def waiting(self, priority: int) -> int:
        """Requests of `priority` waiting for a worker."""
        return sum(1 for f in self._waiting[priority] if not f.done())

    async def _ask(
        self, request: dict[str, Any], priority: int, game_id: str | None = None
    ) -> dict[str, Any]:
        worker = await self._take(priority, game_id)
        worker.last_game = game_id
        try:
            reply = await worker.exchange(request)
        except BotFailure:
            await self._replace(worker)
            raise
        except (OSError, ValueError, TimeoutError, RuntimeError) as e:
            # RuntimeError: uvloop's write to the pipe of a process that already died
            await self._replace(worker)
            raise BotFailure(f"the bot's process failed: {e}") from None
        except BaseException:
            await self._replace(worker)
            raise
        self._give_back(worker)
        return reply

    async def _take(self, priority: int, game_id: str | None = None) -> _Worker:
        """An idle worker for a request of `priority`, once every request before it
        (more urgent, or as urgent and earlier) that could use it has one."""
        if self._closed:
            raise BotFailure("the server is stopping")
        turn: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiting[priority].append(turn)
        if game_id is not None:
            self._game_of[turn] = game_id
        self._dispatch()
        try:
            return await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled() and turn.exception() is None:
                self._give_back(turn.result())  # handed over as the caller was cancelled
            else:
                with contextlib.suppress(ValueError):
                    self._waiting[priority].remove(turn)
            raise
        finally:
            self._game_of.pop(turn, None)

    def _dispatch(self) -> None:
        """Hand idle workers to the waiting requests, the most urgent first."""
        for priority in PRIORITIES:
            queue = self._waiting[priority]
            while queue:
                if queue[0].done():  # its caller was cancelled
                    queue.popleft()
                    continue
                worker = self._idle_for(priority, self._game_of.get(queue[0]))
                if worker is None:
                    break
                queue.popleft().set_result(worker)

    def _idle_for(self, priority: int, game_id: str | None = None) -> _Worker | None:
        if priority == MOVE:
            idle = self._idle[False]
        elif self.background:
            idle = self._idle[True]
        else:  # shared: never the last idle worker, unless there is only one
            idle = self._idle[False]
            if len(idle) < 2 and self.size > 1:
                return None
        if not idle:
            return None
        for i in range(len(idle) - 1, -1, -1):  # the most recently idle first
            if game_id is not None and idle[i].last_game == game_id:
                return idle.pop(i)
        return idle.pop()

    def _give_back(self, worker: _Worker) -> None:
        if worker in self._all:
            self._idle[worker.background].append(worker)
        self._dispatch()

    async def _replace(self, worker: _Worker) -> None:
        await worker.stop()
        if worker in self._all:
            self._all.remove(worker)
        if self._closed:
            return
        try:
            fresh = await self._spawn(worker.background)
        except Exception as e:  # pragma: no cover - cannot start processes at all
            log.error("could not start a bot process: %s", e)
            return
        self._give_back(fresh)

    async def close(self) -> None:
        self._closed = True
        for worker in list(self._all):
            await worker.stop()
        self._all.clear()
        for queue in self._waiting.values():
            while queue:
                turn = queue.popleft()
                if not turn.done():
                    turn.set_exception(BotFailure("the server is stopping"))
