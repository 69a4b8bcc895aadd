"""A room's ends that are not the engine's: abandoned by its host or by the server's
admin, aborted (a rated game left before it was played, docs/fair-play.md), expired
after waiting too long for its players.

An end is one conditional write — only from a status the lifecycle allows it from —
with its note and its signal, so of several processes ending a game at once exactly
one does, and no version is stored after it (the database drops any, models.py).
The admin command ends a game from outside any server (store/games.py, `end`); the
servers holding it hear the signal and take the stored row (`RoomState.reload`).
"""

from __future__ import annotations

from datetime import datetime

from euphrates.server.game import lifecycle
from euphrates.server.game.clocks import Clocks
from euphrates.server.store.database import Followup
from euphrates.server.store.fairplay import abort_row
from euphrates.server.store.notes import Note
from euphrates.server.store.rows import now


class Endings(Clocks):
    async def end(
        self, change: lifecycle.Change, note: Note | None = None, after: tuple[Followup, ...] = ()
    ) -> None:
        """End the game as `change` says (ABANDON: its host; ABORT): its bots stop, its
        clocks stop, nobody needs to act on it any more — the waits for its players
        end with it (the features' follow-ups of the new status)."""
        assert change.to is not None
        async with self.lock:
            self.check(change)
            hooks = self.host.followups(self, self.state, change.to)
            stored = await self.host.store.end(
                self.id, change.to, change.allowed, note, (*after, *hooks)
            )
            if not stored:  # another process changed it meanwhile
                row = await self.host.store.load_game(self.id)
                if row is not None:
                    self._take_row(row)
                raise lifecycle.refusal(change, self.status, self.state.game_over_ruling)
            self._take(status=change.to, driven=False, updated=now())
            if note is not None:
                self.noted(note)
        self.host.seats_changed(self, local=True)

    async def abort(self, seat: int | None) -> None:
        """A rated game left before it was played (`seat`'s player left; None: its host
        ended it): aborted, unrated for everyone, and the leaving account's abort
        counted (docs/fair-play.md)."""
        user = self.row.seats[seat].user_id if seat is not None else None
        after = (abort_row(user, self.id),) if user is not None else ()
        await self.end(lifecycle.ABORT, Note(self.version, "aborted", seat), after)

    async def expire_if_waited(self, cutoff: datetime) -> bool:
        """A game still waiting with no change since `cutoff` expires (by whichever
        server first looks at it); whether it has."""
        if self.row.status == lifecycle.Status.WAITING and self.row.updated_at < cutoff:
            await self.host.store.expire(cutoff, self.id)
            row = await self.host.store.load_game(self.id)
            if row is not None:
                self._take(status=row.status)
        if self.row.status != lifecycle.Status.EXPIRED:
            return False
        self.expired()
        return True

    def expired(self) -> None:
        """The game expired (here or elsewhere): its clients are told and closed."""
        self._take(status=lifecycle.Status.EXPIRED, driven=False)
        self.audience.game_changed()
        self.audience.evict("expired", lifecycle.EXPIRED_TEXT)
