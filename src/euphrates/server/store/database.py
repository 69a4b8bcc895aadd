"""What every part of the game storage shares: the clock it writes by, the channel its
notifications go out on, its failures, and how it reads times back."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

CHANNEL = "euphrates"

Followup = Callable[[AsyncConnection], Awaitable[None]]
"""Work that must happen exactly when a version is stored, in its transaction: a
rating when a game ends, a notification when a decision comes to a person. Run only
for a version this server inserted, so whatever it writes is written once, even with
several servers racing for the version, and never for a version that was refused. A
follow-up that raises fails the whole write (its versions are refused, nothing is
stored), so it writes only what it has checked."""


def now() -> datetime:
    return datetime.now(UTC)


class StoreBase:
    """The connection pool and the notifications of one server process; `origin` tells
    its notifications from other servers'."""

    def __init__(self, engine: AsyncEngine, origin: str, sqlite: bool) -> None:
        self.engine = engine
        self.origin = origin
        self.sqlite = sqlite

    async def add_note(self, game_id: str, write: Followup) -> None:
        """A note on its own (a hint, notes.py), told to other servers as a change of
        the seats, with which they read the notes."""
        async with self.engine.begin() as conn:
            await write(conn)
            await self._notify(conn, {"t": "seats", "g": game_id})

    async def _notify(self, conn: Any, payload: dict[str, Any]) -> None:
        if self.sqlite:
            return
        payload["o"] = self.origin
        await conn.execute(
            sa.text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": json.dumps(payload)}
        )


def iso_time(value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return str(value.isoformat())
    return str(value)


def aware(value: datetime) -> datetime:
    """SQLite gives times back without their zone; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class StorageError(RuntimeError):
    """The database could not take a write."""
