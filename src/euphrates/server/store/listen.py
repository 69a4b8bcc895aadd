"""Hearing other servers: PostgreSQL `LISTEN` on one dedicated connection.

Every append, seat change and chat line is announced with `NOTIFY` in the transaction
that makes it (store.py), so a notification arrives only once the change is
committed. If the listening connection drops, notifications may have been missed:
on reconnect the hub catches up every game it holds from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import asyncpg
from sqlalchemy.ext.asyncio import AsyncEngine

from euphrates.server.game.rooms import Hub
from euphrates.server.store.games import CHANNEL, LogRow

log = logging.getLogger("euphrates.server")


def heard(payload: str, origin: str) -> tuple[str, str, LogRow | None] | None:
    """(game, kind, the log entry it carries) of another server's notification; None
    for this server's own or a malformed one."""
    try:
        msg = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(msg, dict) or msg.get("o") == origin:
        return None
    game_id, kind = msg.get("g"), msg.get("t")
    if not isinstance(game_id, str) or not isinstance(kind, str):
        return None
    entry = None
    if kind == "log" and isinstance(msg.get("v"), int) and msg.get("k") in ("action", "undo"):
        seat, text = msg.get("s"), msg.get("x")
        if (seat is None or isinstance(seat, int)) and (text is None or isinstance(text, str)):
            bot = msg.get("b") if isinstance(msg.get("b"), str) else None
            entry = LogRow(msg["v"], seat, msg["k"], text, bot)
    return game_id, kind, entry


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
        heard_ = heard(payload, self.hub.store.origin)
        if heard_ is not None:
            self.hub.on_notify(*heard_)

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
