"""A room's clock written between versions: the first clock running when a clocked game
starts or a bot takes a seat, and any other change of it (a bot standing in, a player
back, a vacation), each passed on by the one hand-over rule (`Clock.hand_over`, via
`RoomState.clock_after`) and stored with the game's wake and the note of it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle
from euphrates.server.game.play import Play
from euphrates.server.store.notes import Note, writing
from euphrates.server.store.rows import now


class Clocks(Play):
    async def start_clock(self) -> None:
        """A clocked game has just started, or a bot took a seat: the clock runs for
        the seat to decide (none for a bot)."""
        await self._change_clock(lifecycle.START_CLOCK, lambda clock, at: None)

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
