"""Which server acts on which game, through the database (store/claims.py).

A game some server must act on — today a bot whose decision is pending; later a clock
whose deadline passes — has `wake_at` set and names its `driver`, the server that
made it so (in the same transaction as the version that did). Each server beats in
`servers` every HEARTBEAT seconds. Every CLAIM_EVERY seconds each server claims the
games due whose driver has not beaten for STALE seconds or is gone (`SELECT … FOR
UPDATE SKIP LOCKED` on PostgreSQL: two survivors never take the same game) and drives
them. That one query is the whole scheduler: a deadline later is a `wake_at` in the
future, acted on by its driver, and claimed by another once it has passed if that
driver is gone.

So a server killed while driving bots is replaced within STALE + CLAIM_EVERY seconds,
and a server starting up reads only the games due now (through the partial index on
`wake_at`), never every stored game. The same loop expires games that waited too long
for their players and forgets servers long dead.

On SQLite one process serves a database, so there is no one to beat for or to watch:
the server claims at start-up every game due that its predecessor drove, then sleeps
until the next deadline that predecessor stored, if any. What falls due later it made
itself and drives already. An idle server writes nothing (each commit is an fsync).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import timedelta

from euphrates.server.game.rooms import Rooms
from euphrates.server.store.rows import now

log = logging.getLogger("euphrates.server")

HEARTBEAT = 0.4
STALE = 1.2
"""Seconds without a beat after which a server's games may be claimed: three beats
missed, well below the two seconds a table may wait for a bot after a crash."""
CLAIM_EVERY = 0.25
CLAIM_BATCH = 50
"""Games claimed at once: after a crash of a busy server the survivors take its games
over a few rounds, answering their clients in between."""
CLAIM_RETRY = 1.0
"""Seconds before a lone server (SQLite) tries again a claim the database refused."""
HOUSEKEEPING_EVERY = 60.0
FORGET_AFTER = 3600.0


class Claims:
    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.store = rooms.claims
        self.games = rooms.store
        self.sqlite = rooms.store.sqlite
        self.tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        if self.sqlite:
            self.tasks = [asyncio.create_task(self._claiming_alone(), name="claims")]
        else:
            await self.store.beat()
            self.tasks = [
                asyncio.create_task(self._beating(), name="heartbeat"),
                asyncio.create_task(self._claiming(), name="claims"),
            ]
        self.tasks.append(asyncio.create_task(self._housekeeping(), name="expiry"))

    async def stop(self) -> None:
        """Claim nothing more (before the hub stops its bots)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def leave(self) -> None:
        """Once its bots stopped: the other servers may take its games at once."""
        with contextlib.suppress(Exception):
            await self.store.leave()

    async def _beating(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.store.beat()
            except Exception as e:  # the database is away: its games may be claimed
                log.warning("heartbeat not stored: %s", e)

    async def _claim(self, stale: float | None) -> int | None:
        """Claim a batch of games due and drive them; how many, or None when the
        database refused."""
        try:
            claimed = await self.store.claim(stale, CLAIM_BATCH)
        except Exception as e:
            log.warning("could not claim games: %s", e)
            return None
        for game_id in claimed:
            try:
                await self.rooms.take_over(game_id)
            except Exception:  # one game that no longer loads must not stop the rest
                log.error("game %s could not be taken over", game_id, exc_info=True)
        return len(claimed)

    async def _claiming(self) -> None:
        while True:
            claimed = await self._claim(STALE)
            if claimed is None or claimed < CLAIM_BATCH:
                await asyncio.sleep(CLAIM_EVERY)

    async def _claiming_alone(self) -> None:
        """SQLite: what the last process left due, now; then its later deadlines."""
        while True:
            claimed = await self._claim(None)
            if claimed is None:
                await asyncio.sleep(CLAIM_RETRY)
                continue
            if claimed == CLAIM_BATCH:
                continue
            try:
                at = await self.store.next_wake()
            except Exception as e:
                log.warning("could not read the next deadline: %s", e)
                await asyncio.sleep(CLAIM_RETRY)
                continue
            if at is None:
                return
            await asyncio.sleep(max(CLAIM_EVERY, (at - now()).total_seconds()))

    async def _housekeeping(self) -> None:
        last_forget = 0.0
        while True:
            try:
                cutoff = now() - timedelta(seconds=self.rooms.settings.waiting_expiry)
                for game_id in await self.games.expire(cutoff):
                    self.rooms.forget_expired(game_id)
                # On SQLite no other server ever beats in `servers`: nothing to forget.
                if not self.sqlite and time.monotonic() - last_forget > FORGET_AFTER / 4:
                    await self.store.forget_servers(FORGET_AFTER)
                    last_forget = time.monotonic()
            except Exception as e:
                log.warning("housekeeping failed: %s", e)
            await asyncio.sleep(min(HOUSEKEEPING_EVERY, self.rooms.settings.waiting_expiry))
