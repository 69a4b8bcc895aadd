"""A room's ends that are not the engine's: abandoned by its host or by the server's
admin, expired after waiting too long for its players.

An end is one conditional write — only from a status the lifecycle allows it from —
with its note and its signal, so of several processes ending a game at once exactly
one does, and no version is stored after it (the database drops any, models.py).
The admin command ends a game from outside any server (store/games.py, `end`); the
servers holding it hear the signal and take the stored row (`RoomState.reload`).
"""

from __future__ import annotations

from datetime import datetime

from euphrates.server.game import lifecycle
from euphrates.server.game.timing import Timing
from euphrates.server.store.rows import now


class Endings(Timing):
    async def end(self, change: lifecycle.Change) -> None:
        """End the game as `change` says (ABANDON: its host): its bots stop, its
        clocks stop, nobody needs to act on it any more."""
        assert change.to is not None
        async with self.lock:
            self.check(change)
            stored = await self.host.store.end(self.id, change.to, change.allowed)
            if not stored:  # another process changed it meanwhile
                row = await self.host.store.load_game(self.id)
                if row is not None:
                    self._take_row(row)
                raise lifecycle.refusal(change, self.status, self.state.game_over_ruling)
            self._take(status=change.to, driven=False, updated=now())
        self.host.seats_changed(self, local=True)

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
