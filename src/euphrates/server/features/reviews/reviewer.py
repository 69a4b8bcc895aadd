"""A game's review, computed once after it ends by the bot workers, and stored.

When a game ends, the transaction of its final version also writes a `reviews` row,
`queued` (a follow-up, store/reviews.py): the job exists exactly when the game's end does,
once, whichever server stored it. Every server with bot workers runs a `Reviewer`
that claims one queued job at a time — `SELECT … FOR UPDATE SKIP LOCKED` on
PostgreSQL, so of several servers exactly one takes it — by
setting a lease (`lease_until`), renewed while it works. A server that stops
mid-review leaves its lease to run out, and some server takes the job up again; a job
that failed `MAX_ATTEMPTS` times is marked `failed`.

The server replays the game's record and hands the workers one move at a time: the
mover's view before the move, the move's text and the move's number as the seed
(bots/worker.py, bots/review.py); the rows and the document are match/reviewdoc.py's,
so the server's review of a record is the one `euphrates review` prints. No worker ever gets a record, the deal's seed or
another seat's view. The review asks one move at a time, at the pool's lowest
priority (game/workers.py: `REVIEW`, after every table's move and every hint, on the
hint workers by default), so play never waits for a review, and a server whose
workers are all busy keeps serving and reviews later.

Who may read it: whoever may read the game's replay after its end (features/play/records.py).
The replay of an ended game shows every hand, so the best alternative of a move (an
action the mover could play, which may name a tile or card of its hand) tells nobody
more than the replay already does, and the whole review is shown to all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from euphrates.core.protocol import GameState
from euphrates.match.records import record_of
from euphrates.match.reviewdoc import FORMAT, document, moves, seat_name
from euphrates.match.reviewdoc import row as review_row
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import woken
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms, seat_label
from euphrates.server.game.workers import BotFailure, BotPool
from euphrates.server.store.database import Followup
from euphrates.server.store.reviews import ReviewStore, queue

log = logging.getLogger("euphrates.server")

LEASE = 300.0
"""Seconds a claimed job stays its server's; renewed every `RENEW` seconds of work."""
RENEW = 30.0
POLL = 5.0
"""Seconds between looks for a job (a game that ends here wakes the loop at once)."""
WAKE_AFTER = 0.2
"""Seconds after a game ends here before this server looks for its job."""


def maker(room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
    """The follow-up maker (Rooms.followup_makers): at a game's final version, its job."""
    if status != "over":
        return ()
    return (queue(room.id),)


class Reviewer:
    """One server's reviews: the route's reads, and the loop that computes jobs."""

    def __init__(
        self, rooms: Rooms, pool: BotPool | None, poll: float = POLL, depth: str = "full"
    ) -> None:
        self.rooms = rooms
        self.pool = pool
        self.depth = depth
        self.store = ReviewStore(rooms.store.database)
        self.poll = poll
        self.done = 0
        """Reviews this server finished (for tests and stats)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- reading ----------------------------------------------------------------------
    async def read(self, room: Room) -> dict[str, Any] | None:
        """The game's review, or None while it is computed. A game that ended before
        reviews existed gets its job now, and one whose review is of an older format
        (reviewdoc.FORMAT) is reviewed again."""
        found = await self.store.read(room.id)
        if found is None:
            await self.store.queue(room.id)
            self.wake()
            return None
        status, doc = found
        if status == "done" and doc is not None and doc.get("format") != FORMAT:
            # a review of an older format (its flags judged the old way): judged again
            await self.store.requeue(room.id)
            self.wake()
            return None
        if status == "done":
            return doc
        if status == "failed":
            raise Refusal("bot_unavailable", "the review of this game could not be computed")
        return None

    def wake(self) -> None:
        self._wake.set()

    def make(self, room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
        """`maker`, and a look for the job just after its version is stored."""
        made = maker(room, after, status)
        if made and self.pool is not None:
            asyncio.get_running_loop().call_later(WAKE_AFTER, self.wake)
        return made

    # --- computing ----------------------------------------------------------------------
    def start(self) -> None:
        if self.pool is not None:
            self._task = asyncio.create_task(self._loop(), name="reviewer")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                while await self.run_one():
                    pass
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("reviews: %s", e)
            await woken(self._wake, self.poll)
            self._wake.clear()

    async def claim(self) -> str | None:
        """Take one job whose lease has run out (or never began)."""
        return await self.store.claim(LEASE)

    async def run_one(self) -> bool:
        """Claim and compute one job; whether there was one."""
        if self.pool is None or self.rooms.closing:
            return False
        game_id = await self.claim()
        if game_id is None:
            return False
        try:
            doc = await self.compute(game_id)
        except (BotFailure, Refusal) as e:
            await self.store.failed(game_id, str(e))
            return True
        if doc is not None:
            await self.store.finish(game_id, doc)
            self.done += 1
        return True

    async def compute(self, game_id: str) -> dict[str, Any] | None:
        """The review of one ended game, a move at a time on the workers; None if the
        job was taken from this server meanwhile (its lease ran out). The moves, rows and
        document are match/reviewdoc.py's, as `euphrates review` makes them."""
        assert self.pool is not None
        room = await self.rooms.room(game_id)
        row = room.row
        seats = [seat_label(s) for s in row.seats]
        record = record_of(row.game, room.actions(), row.players, row.seed, row.options, seats)
        rows: list[dict[str, Any]] = []
        estimate = "model"
        renewed = time.monotonic()
        try:
            replayed = list(moves(record))
        except ValueError as e:
            raise Refusal("server_error", str(e)) from None
        for i, seat, view, text in replayed:
            # the mover's view only, as at the table
            judged = await self.pool.review(row.game, view, text, i, self.depth, game_id)
            estimate = judged.pop("estimate")
            rows.append(review_row(row.game, i, seat, seat_name(record, seat), view, text, judged))
            if time.monotonic() - renewed > RENEW:
                if not await self.store.renew(game_id, LEASE):
                    return None
                renewed = time.monotonic()
        return document(row.game, row.players, estimate, rows)
