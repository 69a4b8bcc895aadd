"""A room's time: what falls due (a deadline, a deserter's forfeit, a vacation's end),
a bot standing in for a seat out of time, its player back, a vacation.

What falls due is the game's `wake_at`: the server that made the change that set it
drives the game and keeps one timer for it (timekeeper.py); when the timer fires,
`time_out` acts. Acting is one conditional write — only if the stored wake is still
the one that passed, or, for a forfeit, only if the seat is still a person's — so
however many servers get there, it is acted on once. Every clock change passes the
decision on by the one hand-over rule (`Clock.hand_over`, via
`RoomState.clock_after`).
"""

from __future__ import annotations

import logging

from euphrates.bots.levels import LEVELS
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle
from euphrates.server.game.seating import Seating
from euphrates.server.store.notes import Note, writing
from euphrates.server.store.rows import now

log = logging.getLogger("euphrates.server")


class Timing(Seating):
    async def time_out(self) -> bool:
        """What fell due in a game this server drives, if it has and it is still the
        stored wake: a real-time seat out of time (its grace starts; the others may let
        a bot play it), a turn-based seat's late turn (a bot plays it), a vacation's
        end (the clock runs again), or a deserter's seat forfeited (docs/fair-play.md:
        `leave_for_good`). Whether it was acted on here."""
        store = self.host.store
        async with self.lock:
            if not store.sqlite:  # another server may have moved or acted since
                await self.catch_up_locked()
                row = await store.load_game(self.id)
                if row is None or row.clock is None or row.driver != store.origin:
                    return False  # another server drives it now: it acts
                self._take_row(row)
            clock = self.row.clock
            due = clock.next_due() if clock is not None else None
            if clock is None or due is None or self.status != lifecycle.Status.ACTIVE:
                return False
            at = now()
            if due > at:  # not yet (a timer that fired early)
                self._take(driven=True)
                return False
            timed = clock.copy()
            outcome = timed.time_out(at)
            if outcome is None:
                return False
            kind, seat = outcome
            if kind != "forfeit":
                note = None
                if kind == "late":
                    note = Note(self.version, "late_turn", seat, timed.spec.level)
                elif kind == "out":
                    note = Note(self.version, "out_of_time", seat)
                handed, wake = self.clock_after(self.state, None, clock=timed)
                assert handed is not None
                after = () if note is None else (writing(self.id, note),)
                if not await store.write_clock(self.id, handed, wake, expect=due, after=after):
                    return False
                self._take(clock=handed, driven=wake is not False)
                if note is not None:
                    self.noted(note)
        if kind == "forfeit":
            try:
                await self.leave_for_good(lifecycle.FORFEIT, seat, "forfeited", clock=timed)
            except Refusal:  # another process forfeited it first, or the game ended
                return False
        log.info("game %s: seat %s: %s", self.id, seat, kind)
        self.audience.game_changed()
        return True

    async def vacation_changed(self, seat: int, started: bool) -> None:
        """`seat`'s account went on vacation or came back (its row's `paused` says
        until when): the clock is handed over again — none runs for a seat on
        vacation, its turn starts afresh when it is back — and, when it starts, the
        others are told (a note)."""
        await self.reload()
        note = Note(self.version, "vacation", seat) if started else None
        await self._change_clock(lifecycle.VACATION, lambda clock, at: None, note)

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
