"""A game's review, computed once after it ends by the bot workers, and stored.

When a game ends, the transaction of its final version also writes a `reviews` row,
`queued` (a follow-up, store.py): the job exists exactly when the game's end does,
once, whichever server stored it. Every server with bot workers runs a `Reviewer`
that claims one queued job at a time — `SELECT … FOR UPDATE SKIP LOCKED` on
PostgreSQL (as matchstore.py), so of several servers exactly one takes it — by
setting a lease (`lease_until`), renewed while it works. A server that stops
mid-review leaves its lease to run out, and some server takes the job up again; a job
that failed `MAX_ATTEMPTS` times is marked `failed`.

The server replays the game's record and hands the workers one move at a time: the
mover's view before the move, the move's text and the move's number as the seed
(bots/worker.py, bots/review.py). No worker ever gets a record, the deal's seed or
another seat's view. The review waits for an idle worker like any bot, one request at
a time, so play is never held up by more than one move's review, and a server whose
workers are all busy keeps serving and reviews later.

Who may read it: whoever may read the game's replay after its end (routes/records.py).
The replay of an ended game shows every hand, so the best alternative of a move (an
action the mover could play, which may name a tile or card of its hand) tells nobody
more than the replay already does, and the whole review is shown to all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.core.protocol import GameState
from euphrates.match.records import record_of
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import woken
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Hub
from euphrates.server.game.workers import BotFailure, BotPool
from euphrates.server.store import models as db
from euphrates.server.store.database import Followup, now

log = logging.getLogger("euphrates.server")

LEASE = 300.0
"""Seconds a claimed job stays its server's; renewed every `RENEW` seconds of work."""
RENEW = 30.0
POLL = 5.0
"""Seconds between looks for a job (a game that ends here wakes the loop at once)."""
WAKE_AFTER = 0.2
"""Seconds after a game ends here before this server looks for its job."""
MAX_ATTEMPTS = 3
RETRY = 60.0
"""Seconds a job that failed waits before it is tried again."""


def maker(room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
    """The follow-up maker (Hub.followup_makers): at a game's final version, its job."""
    if status != "over":
        return ()
    return (queue(room.id),)


def queue(game_id: str) -> Followup:
    """Write the review's job, once (a second write of it changes nothing)."""

    async def write(conn: AsyncConnection) -> None:
        rv = db.reviews
        insert = pg_insert(rv) if conn.dialect.name == "postgresql" else sqlite_insert(rv)
        at = now()
        await conn.execute(
            insert.on_conflict_do_nothing(),
            {
                "game_id": game_id,
                "status": "queued",
                "attempts": 0,
                "created_at": at,
                "updated_at": at,
            },
        )

    return write


class Reviewer:
    """One server's reviews: the route's reads, and the loop that computes jobs."""

    def __init__(self, hub: Hub, pool: BotPool | None, poll: float = POLL) -> None:
        self.hub = hub
        self.pool = pool
        self.engine = hub.store.engine
        self.sqlite = hub.store.sqlite
        self.poll = poll
        self.done = 0
        """Reviews this server finished (for tests and stats)."""
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    # --- reading ----------------------------------------------------------------------
    async def read(self, room: Room) -> dict[str, Any] | None:
        """The game's review, or None while it is computed. A game that ended before
        reviews existed gets its job now."""
        rv = db.reviews
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(rv.c.status, rv.c.doc).where(rv.c.game_id == room.id))
            ).first()
        if row is None:
            async with self.engine.begin() as conn:
                await queue(room.id)(conn)
            self.wake()
            return None
        if row.status == "done":
            doc: dict[str, Any] = json.loads(row.doc)
            return doc
        if row.status == "failed":
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
        """Take one job whose lease has run out (or never began), for `LEASE` seconds."""
        rv = db.reviews
        at = now()
        query = (
            sa.select(rv.c.game_id)
            .where(
                rv.c.status == "queued",
                sa.or_(rv.c.lease_until.is_(None), rv.c.lease_until < at),
            )
            .order_by(rv.c.created_at)
            .limit(1)
        )
        if not self.sqlite:
            query = query.with_for_update(skip_locked=True)
        async with self.engine.begin() as conn:
            game_id = (await conn.execute(query)).scalar()
            if game_id is None:
                return None
            await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id)
                .values(
                    lease_until=at + timedelta(seconds=LEASE),
                    attempts=rv.c.attempts + 1,
                    updated_at=at,
                )
            )
        return str(game_id)

    async def _renew(self, game_id: str) -> bool:
        """Extend the lease; False if the job is no longer this server's to do."""
        rv = db.reviews
        at = now()
        async with self.engine.begin() as conn:
            done = await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id, rv.c.status == "queued")
                .values(lease_until=at + timedelta(seconds=LEASE), updated_at=at)
            )
        return bool(done.rowcount)

    async def _finish(self, game_id: str, status: str, doc: dict[str, Any] | None) -> None:
        rv = db.reviews
        values: dict[str, Any] = {"status": status, "lease_until": None, "updated_at": now()}
        if doc is not None:
            values["doc"] = json.dumps(doc, separators=(",", ":"))
        async with self.engine.begin() as conn:
            await conn.execute(
                rv.update().where(rv.c.game_id == game_id, rv.c.status == "queued").values(values)
            )

    async def _failed(self, game_id: str, why: str) -> None:
        rv = db.reviews
        async with self.engine.begin() as conn:
            attempts = (
                await conn.execute(sa.select(rv.c.attempts).where(rv.c.game_id == game_id))
            ).scalar()
            if attempts is not None and attempts >= MAX_ATTEMPTS:
                log.warning("the review of game %s failed for good: %s", game_id, why)
                await conn.execute(
                    rv.update()
                    .where(rv.c.game_id == game_id)
                    .values(status="failed", lease_until=None, updated_at=now())
                )
                return
            log.warning("the review of game %s failed, to be tried again: %s", game_id, why)
            await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id)
                .values(lease_until=now() + timedelta(seconds=RETRY), updated_at=now())
            )

    async def run_one(self) -> bool:
        """Claim and compute one job; whether there was one."""
        if self.pool is None or self.hub.closing:
            return False
        game_id = await self.claim()
        if game_id is None:
            return False
        try:
            doc = await self.compute(game_id)
        except (BotFailure, Refusal) as e:
            await self._failed(game_id, str(e))
            return True
        if doc is not None:
            await self._finish(game_id, "done", doc)
            self.done += 1
        return True

    async def compute(self, game_id: str) -> dict[str, Any] | None:
        """The review of one ended game, a move at a time on the workers; None if the
        job was taken from this server meanwhile (its lease ran out)."""
        assert self.pool is not None
        room = await self.hub.room(game_id)
        row = room.row
        actions = room.actions()
        state = record_of(row.game, actions, row.players, row.seed, row.options).new_game()
        moves: list[dict[str, Any]] = []
        estimate = None
        renewed = time.monotonic()
        for i, text in enumerate(actions):
            decision = state.decision()
            if decision is None:
                raise Refusal("server_error", f"move {i + 1} of the record has no mover")
            seat = decision.seat
            view = state.view(seat)  # the mover's view only, as at the table
            judged = await self.pool.review(row.game, view, text, i)
            estimate = judged.pop("estimate")
            moves.append({"index": i, "seat": seat, "action": text, **judged})
            state.apply(text)
            if time.monotonic() - renewed > RENEW:
                if not await self._renew(game_id):
                    return None
                renewed = time.monotonic()
        # match/review.py's document, the terminal's (the server imports no engine)
        return {"game": row.game, "players": row.players, "estimate": estimate, "moves": moves}
