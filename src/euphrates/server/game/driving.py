"""Bots move by themselves: after every version the rooms look at whose decision is
pending, and if it is a bot's in a game this process drives, its seat's driver — a
registered one for its level (drivers.py), else the bot workers (workers.py), which
see only that seat's view and public history (core.history), never a state or seed —
chooses, and the move is submitted like any client's, with the version it was asked
at, so a move overtaken by an undo is simply refused.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Coroutine
from typing import Any, Protocol

from euphrates.bots.levels import LEVELS, reads_history
from euphrates.core.history import Follower, with_history
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.game.drivers import Drivers
from euphrates.server.game.lifecycle import ENDED
from euphrates.server.game.room import Room
from euphrates.server.game.workers import BotPool

log = logging.getLogger("euphrates.server")

BOT_RETRY_DELAY = 1.0


class BotHost(Protocol):
    """What the bots need of the rooms of their process (rooms.py)."""

    closing: bool
    settings: Settings
    drivers: Drivers

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]: ...


class BotDriving:
    def __init__(self, rooms: BotHost, pool: BotPool | None) -> None:
        self.rooms = rooms
        self.pool = pool
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def wake(self, room: Room, pace: bool = True) -> None:
        """Start the room's bot if this server drives the game, a bot's decision is
        pending, someone can play it, and none is thinking. `pace`: wait the bot pace
        before the first move (not when the move was already due on a server that
        stopped)."""
        if self.rooms.closing or not room.driven or not room.bot_to_move():
            return
        if self.pool is None and self._driver_of(room) is None:
            return
        task = self.tasks.get(room.id)
        if task is not None and not task.done():
            return
        self.tasks[room.id] = self.rooms.spawn(self._turns(room, pace), f"bots-{room.id}")

    def busy(self, game_id: str) -> bool:
        task = self.tasks.get(game_id)
        return task is not None and not task.done()

    def forget(self, game_id: str) -> None:
        self.tasks.pop(game_id, None)

    def thinking(self) -> int:
        return sum(1 for t in self.tasks.values() if not t.done())

    def _driver_of(self, room: Room) -> Any:
        seat = room.state.to_move()
        if seat is None:
            return None
        return self.rooms.drivers.of_level(room.row.seats[seat].level)

    async def _turns(self, room: Room, pace: bool = True) -> None:
        """Let bots move until a human decides, the game ends, or another server
        drives it."""
        failures = 0
        bot_pace = self.rooms.settings.bot_pace
        follower: Follower | None = None
        while not self.rooms.closing and room.driven and room.bot_to_move():
            seat = room.state.to_move()
            assert seat is not None
            entry = room.row.seats[seat]
            driver = self.rooms.drivers.of_level(entry.level) if entry.kind == "bot" else None
            if not pace:
                pace = True
            elif bot_pace > 0:
                wait = bot_pace if driver is None or driver.pace is None else driver.pace
                await asyncio.sleep(min(bot_pace, wait))
                if room.state.to_move() != seat or not room.bot_to_move():
                    continue
            version = room.version
            standin = None
            level = entry.level
            if entry.kind == "human":  # a bot plays for a person's seat
                standin = room.row.clock.standin[seat] if room.row.clock else None
                level = standin
            level = level or "beginner"
            view = room.state.view(seat)  # the seat's view only, as in tournaments
            try:
                if driver is not None:
                    text = await driver.choose(room.row, version, view)
                else:
                    if self.pool is None:
                        return
                    spec = self.rooms.settings.bot_levels.get(level) or LEVELS[level]
                    if reads_history(spec, room.row.game):
                        if follower is None:
                            follower = Follower(room.dealt())
                        view = with_history(view, follower.update(room.actions()))
                    text = await self.pool.choose(room.row.game, spec, view, game_id=room.id)
            except Exception as e:
                failures += 1
                log.warning("bot for game %s seat %d failed: %s", room.id, seat, e)
                if failures >= 3:
                    text = _fallback(view)
                else:
                    await asyncio.sleep(BOT_RETRY_DELAY)
                    continue
            try:
                await room.submit(frozenset({seat}), seat, version, text, standin)
                failures = 0
            except Refusal as r:
                if room.status in ENDED:
                    return  # ended meanwhile (its host, the admin): nothing to play
                if r.code != "stale_version":
                    log.warning("bot move %r refused in game %s: %s", text, room.id, r.message)
                    failures += 1
                    if failures >= 3:
                        return


def _fallback(view: dict[str, Any]) -> str:
    """A uniformly random legal action, when the bot's process keeps failing."""
    legal = view.get("legal") or []
    return str(legal[secrets.randbelow(len(legal))]) if legal else "pass"
