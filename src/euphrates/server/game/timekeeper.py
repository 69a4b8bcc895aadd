"""The deadlines of the games this server drives: one timer per game, and the room's
`time_out` when it fires.

A deadline is a game's `wake_at` (claims.py): the server that made the change that
started the clock drives the game and keeps one timer for it here; when the timer
fires, that server acts (timing.py). If it is gone, the deadline is claimed like any
game due by a server that survives it (PostgreSQL) or by the next process (SQLite),
which acts at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from datetime import datetime
from typing import Any, Protocol

from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.store.rows import now


class ClockHost(Protocol):
    """What the timekeeper needs of the rooms of its process (rooms.py)."""

    def room(self, game_id: object) -> Awaitable[Room]: ...

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]: ...

    def woken(self, room: Room) -> None:
        """A deadline acted on made a bot's move due: wake it at once."""
        ...


class Timekeeper:
    def __init__(self, rooms: ClockHost) -> None:
        self.rooms = rooms
        self.timers: dict[str, tuple[datetime, asyncio.TimerHandle]] = {}
        self.acted = 0
        """Deadlines this server acted on (for the load test and health)."""
        self.sweep_seconds = 0.0
        """Time spent acting on deadlines, in seconds (for the load test)."""

    def watch(self, room: Room) -> None:
        """After any change: keep one timer for what falls due next in the room's
        clock (a deadline, a forfeit, a vacation's end) while this server drives the
        game and it is being played; else none."""
        clock = room.row.clock
        if clock is None:
            return
        due = clock.next_due() if room.driven and room.status == "active" else None
        held = self.timers.get(room.id)
        if held is not None and held[0] == due:
            return
        self.cancel(room.id)
        if due is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (due - now()).total_seconds())
        handle = loop.call_later(delay, self._fire, room.id, due)
        self.timers[room.id] = (due, handle)

    def cancel(self, game_id: str) -> None:
        held = self.timers.pop(game_id, None)
        if held is not None:
            held[1].cancel()

    def close(self) -> None:
        for game_id in list(self.timers):
            self.cancel(game_id)

    def _fire(self, game_id: str, due: datetime) -> None:
        if self.timers.get(game_id, (None,))[0] == due:
            del self.timers[game_id]
        self.rooms.spawn(self.act(game_id), f"deadline-{game_id}")

    async def act(self, game_id: str) -> None:
        """The deadline of a game this server drives may have passed: its room acts on
        it. Its cost is counted (the load test's deadline sweep cost)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            try:
                room = await self.rooms.room(game_id)
            except Refusal:
                return
            if await room.time_out():
                self.acted += 1
                self.rooms.woken(room)
            self.watch(room)
        finally:
            self.sweep_seconds += loop.time() - started
