"""Acting on clocks: the deadlines of the games this server drives, bots standing in
for players out of time, and players taking their seats back.

A deadline is a game's `wake_at` (drivers.py): the server that made the version that
started the clock drives the game and keeps one timer for it here; when the timer
fires, that server acts. If it is gone, the deadline is claimed like any game due by a
server that survives it (PostgreSQL) or by the next process (SQLite), which acts at
once. Acting is one conditional write — only if the stored deadline is still the one
that passed — so however many servers get there, the deadline is acted on once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from euphrates.bots.levels import LEVELS
from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.store.games import Store, now
from euphrates.server.store.notes import Note, writing

log = logging.getLogger("euphrates.server")


class Timekeeper:
    def __init__(
        self,
        store: Store,
        load: Callable[[str], Awaitable[Room]],
        wake_bots: Callable[[Room, bool], None],
        spawn: Callable[[Any, str], asyncio.Task[Any]],
    ) -> None:
        self.store = store
        self.load = load
        self.wake_bots = wake_bots
        self.spawn = spawn
        self.timers: dict[str, tuple[datetime, asyncio.TimerHandle]] = {}
        self.acted = 0
        """Deadlines this server acted on (for the load test and health)."""
        self.sweep_seconds = 0.0
        """Time spent acting on deadlines, in seconds (for the load test)."""

    def watch(self, room: Room) -> None:
        """After any change: keep one timer for the room's deadline while this server
        drives the game and no bot is to move; else none."""
        clock = room.row.clock
        if clock is None:
            return
        due = clock.deadline if room.driven and room.status == "active" else None
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
        self.spawn(self.act(game_id), f"deadline-{game_id}")

    async def act(self, game_id: str) -> None:
        """The deadline of a game this server drives may have passed: act on it if it
        has and it is still the stored one. Its cost is counted (the load test's
        deadline sweep cost)."""
        started = asyncio.get_running_loop().time()
        try:
            await self._act(game_id)
        finally:
            self.sweep_seconds += asyncio.get_running_loop().time() - started

    async def _act(self, game_id: str) -> None:
        try:
            room = await self.load(game_id)
        except Refusal:
            return
        async with room.lock:
            if not self.store.sqlite:  # another server may have moved or acted since
                await room.catch_up_locked()
                row = await self.store.load_game(game_id)
                if row is None or row.clock is None or row.driver != self.store.origin:
                    return  # another server drives it now: it acts
                room.row.clock, room.row.seats = row.clock, row.seats
            clock = room.row.clock
            if clock is None or clock.deadline is None or room.status != "active":
                return
            if clock.deadline > now():  # not yet (a timer that fired early)
                room.driven = True
                self.watch(room)
                return
            timed = clock.copy()
            seat = timed.time_out(now())
            bot = timed.spec.mode == "turn"
            note = (
                Note(room.version, "late_turn", seat, timed.spec.level)
                if bot
                else Note(room.version, "out_of_time", seat)
            )
            stored = await self.store.write_clock(
                game_id, timed, bot, expect=clock.deadline, after=(writing(game_id, note),)
            )
            if stored:
                room.row.clock = timed
                self.acted += 1
                room.noted(note)
        if not stored:
            return
        log.info(
            "game %s: seat %s ran out of time (%s)",
            game_id,
            seat,
            "a bot plays its turn" if bot else "the others may let a bot play",
        )
        room.audience.game_changed()
        if bot:
            room.driven = True
            self.wake_bots(room, False)

    async def start(self, room: Room) -> None:
        """A clocked game has just started: the first seat's clock runs."""
        await self._change(room, lambda clock, at: None)

    async def stand_in(self, room: Room, seat: int, level: str, by: frozenset[int]) -> None:
        """Another seated player lets a bot of `level` play the turns of `seat`, whose
        real-time clock ran out, until its player comes back."""
        clock = room.row.clock
        if clock is None or clock.spec.mode != "realtime":
            raise Refusal("bad_request", "only a real-time clock runs out for the others to act")
        if not by - {seat}:
            raise Refusal("not_your_seat", "another seated player decides that")
        if level not in LEVELS:
            raise Refusal("bad_request", f"'level' must be one of {', '.join(LEVELS)}")
        if room.row.seats[seat].kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        if not clock.out_of_time(seat):
            raise Refusal("not_out_of_time", f"seat {seat} still has time")
        by_seat = min(by - {seat})
        note = Note(room.version, "standin", seat, level, by_seat)
        await self._change(room, lambda c, at: c.stand_in(seat, level, at), note)
        log.info("game %s: a bot (%s) plays for seat %d", room.id, level, seat)

    async def come_back(self, room: Room, seat: int) -> None:
        """The player takes back the seat a bot played for."""
        clock = room.row.clock
        if clock is None or clock.standin[seat] is None:
            raise Refusal("bad_request", f"no bot plays for seat {seat}")
        note = Note(room.version, "back", seat)
        await self._change(room, lambda c, at: c.come_back(seat, room.state.to_move(), at), note)
        log.info("game %s: seat %d is back", room.id, seat)

    async def _change(
        self, room: Room, change: Callable[[Clock, datetime], None], note: Note | None = None
    ) -> None:
        """Change the clock under the room's lock and store it with the version's
        wake: now when a bot is to move, else the deadline; and the `note` of it."""
        async with room.lock:
            room.check_playing()
            if room.row.clock is None:
                return
            at = now()
            clock = room.row.clock.copy()
            change(clock, at)
            seat = room.state.to_move()
            human = seat is not None and room.row.seats[seat].kind == "human"
            clock.pass_to(seat, human, at)
            bot = seat is not None and (not human or clock.standin[seat] is not None)
            wake: bool | datetime = True if bot else (clock.deadline or False)
            after = () if note is None else (writing(room.id, note),)
            try:
                await self.store.write_clock(room.id, clock, wake, after=after)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the clock could not be saved: {e}") from None
            room.row.clock = clock
            room.driven = wake is not False
            if note is not None:
                room.noted(note)
        room.audience.game_changed()
        self.watch(room)
        if room.driven:
            self.wake_bots(room, True)
