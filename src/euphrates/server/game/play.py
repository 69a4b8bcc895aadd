"""A room's moves: an action or an undo for a seat, at the version its client saw.

Each is checked (the lifecycle, the version, the seat, the engine's rules), applied to
a copy of the state, stored as the next version — with the game's status, clock, wake
and the features' follow-ups in the same transaction — and only then taken as the
room's state and handed to its audience. Any refusal leaves everything as it was and
goes back to that client only.
"""

from __future__ import annotations

import logging

from euphrates.core.errors import EuphratesError
from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal, from_engine
from euphrates.server.game import lifecycle
from euphrates.server.game.roomstate import RoomState, seat_number
from euphrates.server.game.steps import Step
from euphrates.server.store.database import Followup, StorageError
from euphrates.server.store.rows import LogRow, Wake

log = logging.getLogger("euphrates.server")

MAX_ACTION_TEXT = 100


class Play(RoomState):
    def check_version(self, version: object) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad_request", "'version' must be the game version you saw")
        if version != self.version:
            raise Refusal(
                "stale_version",
                f"action was meant for version {version}, the game is at version {self.version}",
            )

    async def submit(
        self,
        holder: frozenset[int],
        seat: object,
        version: object,
        text: object,
        bot: str | None = None,
    ) -> Step:
        """Apply `text` for `seat` at `version` for a client holding `holder`; returns
        what happened (the new version's step). Every refusal leaves the game as it was."""
        seat = seat_number(seat)
        if not isinstance(text, str) or not text.strip():
            raise Refusal("bad_request", "'action' must be an action in the game's notation")
        if len(text) > MAX_ACTION_TEXT:
            raise Refusal("invalid_action", f"an action is at most {MAX_ACTION_TEXT} characters")
        async with self.lock:
            await self._may_act(lifecycle.MOVE, holder, seat, version)
            try:
                action = self.state.parse_action(text)
            except EuphratesError as e:
                raise from_engine(e) from None
            except Exception:  # the engine must refuse with its own errors; be safe anyway
                log.exception("action text %r could not be read in game %s", text, self.row.id)
                raise Refusal("invalid_action", "that is not an action of this game") from None
            canonical = str(action)
            for script in self.scripts:
                script.check(self.row, self.version, canonical)
            # The action is applied to a copy, which becomes the state only once it is
            # stored: until then every reader sees the last stored version, consistent
            # with its number, and a failed write has nothing to roll back.
            before = self.state
            after = before.copy()
            try:
                events = after.apply(action, seat=seat)
            except EuphratesError as e:
                raise from_engine(e) from None
            except Exception:
                log.exception("the engine failed on %r in game %s", text, self.row.id)
                raise Refusal("server_error", "the server could not apply that action") from None
            status = lifecycle.Status.OVER if after.is_over() else None
            due = self.bot_to_move(after, status)
            wake: Wake = due if due != self.bot_to_move() else None
            mover = seat if bot is None else None  # a bot's move clears no desertion
            clock, timed = self.clock_after(after, status, mover=mover)
            if clock is not None:
                wake = timed
            entry = LogRow(self.version + 1, seat, "action", canonical, bot)
            hooks = self.host.followups(self, after, status)
            await self._append(lifecycle.MOVE, entry, status, wake, clock, hooks)
            verdict = await self._verdict_of(status)
            # From here to the audience, nothing waits: a reader sees the state, its
            # version, its record and its verdict change together.
            self.state = after
            self._take(
                status=status,
                clock=clock if clock is not None else self.row.clock,
                driven=None if wake is None else wake is not False,
                **verdict,
            )
            step = self._record_action(seat, canonical, events, before, bot)
            self.audience.publish(step)
        self._changed(local=True)
        return step

    async def undo(self, holder: frozenset[int], seat: object, version: object) -> Step:
        """Take back the last action of `seat` for a client holding `holder`, at
        `version`; returns what happened (the undo's step)."""
        seat = seat_number(seat)
        async with self.lock:
            await self._may_act(lifecycle.UNDO, holder, seat, version)
            why = self.undo_refusal(seat)
            if why is not None:
                raise Refusal("undo_refused", why)
            # The decision goes back to the seat that took its action back: a person's.
            wake: Wake = False if self.bot_to_move() else None
            clock = None
            back = self.befores.get(self.played[-1].version)
            if back is None:
                back = self._rebuild(drop_last=True)
            if self.row.clock is not None:
                clock, wake = self.clock_after(back, None)
            hooks = self.host.followups(self, back, None)
            entry = LogRow(self.version + 1, seat, "undo", None)
            await self._append(lifecycle.UNDO, entry, wake=wake, clock=clock, after=hooks)
            step = self._undo_last(seat)
            self._take(
                clock=clock if clock is not None else self.row.clock,
                driven=None if wake is None else wake is not False,
            )
            self.audience.publish(step)
        self._changed(local=True)
        return step

    async def _may_act(
        self, change: lifecycle.Change, holder: frozenset[int], seat: int, version: object
    ) -> None:
        """Under the lock: the game is being played, at the version the client saw,
        and the client holds the seat."""
        await self._refresh_if_behind(version)
        self.check(change)
        self.check_version(version)
        if seat not in holder:
            raise Refusal("not_your_seat", f"you do not hold seat {seat}")

    async def _append(
        self,
        change: lifecycle.Change,
        entry: LogRow,
        status: str | None = None,
        wake: Wake = None,
        clock: Clock | None = None,
        after: tuple[Followup, ...] = (),
    ) -> None:
        """Store the next version, or refuse: the database refused the write, another
        server appended that version first (then this room catches up), or the game
        ended meanwhile — from another process, the admin command say — (then the room
        takes its row)."""
        store = self.host.store
        try:
            stored = await store.append(self.row.id, entry, status, wake, clock, after)
        except StorageError as e:
            raise Refusal("storage_unavailable", f"the game could not be saved: {e}") from None
        if stored:
            return
        if await self.catch_up_locked():
            raise Refusal("stale_version", "another move was made first; the game has moved on")
        row = await store.load_game(self.row.id)
        if row is not None and row.status != lifecycle.Status.ACTIVE:
            self._take_row(row)
            raise lifecycle.refusal(change, row.status, self.state.game_over_ruling)
        raise Refusal("stale_version", "another move was made first; the game has moved on")

    async def _refresh_if_behind(self, version: object) -> None:
        """With several servers, a client may know more than this one: a version
        beyond ours, or a game another server has started. Read the database before
        refusing."""
        ahead = (
            isinstance(version, int) and not isinstance(version, bool) and version > self.version
        )
        if ahead:
            await self.catch_up_locked()
        if self.row.status == lifecycle.Status.WAITING and not self.host.store.sqlite:
            row = await self.host.store.load_game(self.row.id)
            if row is not None:
                self._take(seats=row.seats, status=row.status)
