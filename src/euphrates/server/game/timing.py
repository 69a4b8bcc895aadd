"""A room's clock changes between versions: the first clock running when a clocked game
starts, a deadline passing, a bot standing in for a seat out of time, its player back.

A deadline is the game's `wake_at`: the server that made the change that set it
drives the game and keeps one timer for it (timekeeper.py); when the timer fires,
`time_out` acts. Acting is one conditional write — only if the stored deadline is
still the one that passed — so however many servers get there, a deadline is acted
on once. Every clock change passes the decision on by the one hand-over rule
(`Clock.hand_over`, via `RoomState.clock_after`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from euphrates.bots.levels import LEVELS
from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle
from euphrates.server.game.play import Play
from euphrates.server.store.notes import Note, writing
from euphrates.server.store.rows import now

log = logging.getLogger("euphrates.server")


class Timing(Play):
    async def start_clock(self) -> None:
        """A clocked game has just started, or a bot took a seat: the clock runs for
        the seat to decide (none for a bot)."""
        await self._change_clock(lifecycle.START_CLOCK, lambda clock, at: None)

    async def time_out(self) -> bool:
        """The deadline of a game this server drives may have passed: act on it if it
        has and it is still the stored one — the seat is out of time (real-time: the
        others may let a bot play it) or a bot plays its turn (turn-based). Whether it
        was acted on here."""
        store = self.host.store
        async with self.lock:
            if not store.sqlite:  # another server may have moved or acted since
                await self.catch_up_locked()
                row = await store.load_game(self.id)
                if row is None or row.clock is None or row.driver != store.origin:
                    return False  # another server drives it now: it acts
                self._take(clock=row.clock, seats=row.seats, status=row.status)
            clock = self.row.clock
            if clock is None or clock.deadline is None or self.status != "active":
                return False
            if clock.deadline > now():  # not yet (a timer that fired early)
                self._take(driven=True)
                return False
            timed = clock.copy()
            seat = timed.time_out(now())
            bot = timed.spec.mode == "turn"
            note = (
                Note(self.version, "late_turn", seat, timed.spec.level)
                if bot
                else Note(self.version, "out_of_time", seat)
            )
            stored = await store.write_clock(
                self.id, timed, bot, expect=clock.deadline, after=(writing(self.id, note),)
            )
            if not stored:
                return False
            self._take(clock=timed, driven=True if bot else None)
            self.noted(note)
        log.info(
            "game %s: seat %s ran out of time (%s)",
            self.id,
            seat,
            "a bot plays its turn" if bot else "the others may let a bot play",
        )
        self.audience.game_changed()
        return True

    async def stand_in(self, seat: int, level: str, by: frozenset[int]) -> None:
        """Another seated player lets a bot of `level` play the turns of `seat`, whose
        real-time clock ran out, until its player comes back."""
        clock = self.row.clock
        if clock is None or clock.spec.mode != "realtime":
            raise Refusal("bad_request", "only a real-time clock runs out for the others to act")
        if not by - {seat}:
            raise Refusal("not_your_seat", "another seated player decides that")
        if level not in LEVELS:
            raise Refusal("bad_request", f"'level' must be one of {', '.join(LEVELS)}")
        if self.row.seats[seat].kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        if not clock.out_of_time(seat):
            raise Refusal("not_out_of_time", f"seat {seat} still has time")
        by_seat = min(by - {seat})
        note = Note(self.version, "standin", seat, level, by_seat)
        await self._change_clock(
            lifecycle.STAND_IN, lambda c, at: c.stand_in(seat, level, at), note
        )
        log.info("game %s: a bot (%s) plays for seat %d", self.id, level, seat)

    async def come_back(self, seat: int) -> None:
        """The player takes back the seat a bot played for."""
        clock = self.row.clock
        if clock is None or clock.standin[seat] is None:
            raise Refusal("bad_request", f"no bot plays for seat {seat}")
        note = Note(self.version, "back", seat)
        await self._change_clock(
            lifecycle.COME_BACK, lambda c, at: c.come_back(seat, self.state.to_move(), at), note
        )
        log.info("game %s: seat %d is back", self.id, seat)

    async def _change_clock(
        self,
        change: lifecycle.Change,
        alter: Callable[[Clock, datetime], None],
        note: Note | None = None,
    ) -> None:
        """Change the clock under the room's lock and store it with the game's wake
        (now when a bot is to move, else the deadline) and the `note` of it."""
        async with self.lock:
            self.check(change)
            if self.row.clock is None:
                return
            altered = self.row.clock.copy()
            alter(altered, now())
            clock, wake = self.clock_after(self.state, None, clock=altered)
            assert clock is not None
            after = () if note is None else (writing(self.id, note),)
            try:
                stored = await self.host.store.write_clock(self.id, clock, wake, after=after)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the clock could not be saved: {e}") from None
            if not stored:  # the game ended meanwhile (another process)
                row = await self.host.store.load_game(self.id)
                if row is not None:
                    self._take_row(row)
                raise lifecycle.refusal(change, self.status, self.state.game_over_ruling)
            self._take(clock=clock, driven=wake is not False)
            if note is not None:
                self.noted(note)
        self.audience.game_changed()
        self._changed(local=True)
