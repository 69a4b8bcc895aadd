"""Hearing other servers: PostgreSQL `LISTEN` on one dedicated connection.

Every append, seat change and chat line is announced with `NOTIFY` in the transaction
that makes it (store.py), so a notification arrives only once the change is
committed. If the listening connection drops, notifications may have been missed:
on reconnect the hub catches up every game it holds from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine

from euphrates.server.hub import Hub
from euphrates.server.store import CHANNEL

log = logging.getLogger("euphrates.server")


class Listener:
    def __init__(self, engine: AsyncEngine, hub: Hub) -> None:
        url = engine.url.set(drivername="postgresql")
        self.dsn = url.render_as_string(hide_password=False)
        self.hub = hub
        self.conn: Any = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self._connect()
        self.task = asyncio.create_task(self._watch(), name="pg-listener")

    async def _connect(self) -> None:
        self.conn = await asyncpg.connect(self.dsn)
        await self.conn.add_listener(CHANNEL, self._on_notify)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        self.hub.on_notify(payload)

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
            await self.hub.refresh_all()

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
