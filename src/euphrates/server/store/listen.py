"""Hearing the other processes: PostgreSQL's `LISTEN` on one dedicated connection, or
SQLite's `signals` table read every second.

Every change another process must hear of sends its signal in the transaction that
makes it (database.py), so a signal arrives only once the change is committed. If
PostgreSQL's listening connection drops, signals may have been missed: on reconnect
the process is told to catch up everything it holds (`missed`). On SQLite the server
reads the rows added since the last it saw — only processes beside it (the admin
command) write any — and keeps them an hour.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import asyncpg
import sqlalchemy as sa

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, now
from euphrates.server.store.signals import CHANNEL, Signal

log = logging.getLogger("euphrates.server")

POLL = 1.0
"""Seconds between two reads of SQLite's signals."""
KEEP = 3600.0
"""Seconds a signal is kept on SQLite."""


class Listener:
    """Hands every other process's signal to `heard`; `missed` after signals may have
    been lost."""

    def __init__(
        self,
        database: Database,
        heard: Callable[[Signal], None],
        missed: Callable[[], Awaitable[None]],
    ) -> None:
        self.database = database
        self.heard = heard
        self.missed = missed
        self.conn: Any = None
        self.task: asyncio.Task[None] | None = None
        self.last = 0
        """SQLite: the last signal read."""

    async def start(self) -> None:
        if self.database.sqlite:
            async with self.database.connect() as conn:
                last = (await conn.execute(sa.select(sa.func.max(db.signals.c.id)))).scalar()
            self.last = int(last or 0)
            self.task = asyncio.create_task(self._polling(), name="signals")
            return
        await self._connect()
        self.task = asyncio.create_task(self._watch(), name="pg-listener")

    # --- PostgreSQL -------------------------------------------------------------------
    async def _connect(self) -> None:
        url = self.database.engine.url.set(drivername="postgresql")
        self.conn = await asyncpg.connect(url.render_as_string(hide_password=False))
        await self.conn.add_listener(CHANNEL, self._on_notify)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self._hear(payload)

    def _hear(self, payload: str) -> None:
        signal = Signal.parse(payload, self.database.origin)
        if signal is not None:
            self.heard(signal)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(2)
            if self.conn is not None and not self.conn.is_closed():
                continue
            try:
                await self._connect()
            except (OSError, asyncpg.PostgresError) as e:
                log.warning("cannot listen to PostgreSQL yet: %s", e)
                continue
            await self.missed()

    # --- SQLite -----------------------------------------------------------------------
    async def _polling(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            try:
                await self.poll()
            except Exception as e:  # the database is busy or away: the next read
                log.warning("signals not read: %s", e)

    async def poll(self) -> None:
        """Read and hand on the signals added since the last read."""
        s = db.signals
        async with self.database.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(s.c.id, s.c.payload).where(s.c.id > self.last).order_by(s.c.id)
                )
            ).all()
        for row in rows:
            self.last = max(self.last, int(row.id))
            self._hear(str(row.payload))

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()


async def forget_signals(database: Database) -> None:
    """Drop SQLite signals older than KEEP (the process that writes them does)."""
    cutoff = now() - timedelta(seconds=KEEP)
    async with database.begin() as conn:
        await conn.execute(db.signals.delete().where(db.signals.c.created_at < cutoff))
