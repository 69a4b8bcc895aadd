"""The one database object of a process: its engine, who writes through it, and the
signal every change sends to the other processes.

Every repository of `store/` holds a `Database` rather than inheriting from one, and
every write that other processes must hear of sends its `Signal` in its own
transaction (`Database.signal`), so a signal is heard exactly when the change is
committed:

- on PostgreSQL as `NOTIFY`, delivered to every server's `LISTEN` at commit;
- on SQLite one server process serves a database and hears nothing from itself; a
  process beside it that changes what the server holds — the `euphrates admin`
  command — leaves its signals in the `signals` table, which the server reads every
  second (listen.py). A server's own signals are not written: nobody else reads them.

The schema is owned by Alembic (`migrations/`); `migrate()` brings any database up to
date at start-up, under an advisory lock on PostgreSQL so that several servers starting
together do not race.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from euphrates.server.store import models
from euphrates.server.store.rows import Wake, now
from euphrates.server.store.signals import CHANNEL, Signal

__all__ = [
    "CHANNEL",
    "Database",
    "Followup",
    "StorageError",
    "aware",
    "iso_time",
    "make_engine",
    "migrate",
    "now",
]

Followup = Callable[[AsyncConnection], Awaitable[None]]
"""Work that must happen exactly when a change is stored, in its transaction: a rating
when a game ends, a notification when a decision comes to a person, a note of what
happened. Run only for a change this process stored, so whatever it writes is written
once, even with several servers racing, and never for a change that was refused. A
follow-up that raises fails the whole write (nothing is stored), so it writes only
what it has checked."""


class StorageError(RuntimeError):
    """The database could not take a write."""


class Database:
    """The engine of one process and who writes through it (`origin`, which tells its
    signals from other processes'). `announce`: on SQLite, leave signals in the
    `signals` table for a server running beside this process (the admin command);
    a server itself leaves none."""

    def __init__(self, engine: AsyncEngine, origin: str, *, announce: bool = False) -> None:
        self.engine = engine
        self.origin = origin
        self.sqlite = is_sqlite(engine)
        self.announce = announce

    def begin(self) -> Any:
        """A transaction (`async with db.begin() as conn`)."""
        return self.engine.begin()

    def connect(self) -> Any:
        """A connection for reads (`async with db.connect() as conn`)."""
        return self.engine.connect()

    def insert(self, table: sa.Table) -> Any:
        """`INSERT` in the dialect's own form (for `ON CONFLICT`)."""
        return sqlite_insert(table) if self.sqlite else pg_insert(table)

    def clock(self) -> Any:
        """Now, by the database's clock where several servers share it (their own
        clocks may differ), else by this process's."""
        return now() if self.sqlite else sa.func.clock_timestamp()

    def wake_values(self, wake: Wake) -> dict[str, Any]:
        """A game's `wake_at` and `driver` for `wake` (rows.Wake): this process drives
        a game it makes due."""
        if isinstance(wake, datetime):
            return {"wake_at": wake, "driver": self.origin}
        if wake:
            return {"wake_at": self.clock(), "driver": self.origin}
        return {"wake_at": None, "driver": None}

    async def signal(self, conn: AsyncConnection, signal: Signal) -> None:
        """Tell the other processes of a change, in the change's transaction."""
        if self.sqlite:
            if self.announce:
                await conn.execute(
                    models.signals.insert().values(
                        payload=signal.payload(self.origin), created_at=now()
                    )
                )
            return
        await conn.execute(
            sa.text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": signal.payload(self.origin)}
        )

    async def close(self) -> None:
        await self.engine.dispose()


def iso_time(value: Any) -> str:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return str(value.isoformat())
    return str(value)


def aware(value: datetime) -> datetime:
    """SQLite gives times back without their zone; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(url: str) -> AsyncEngine:
    """An async engine; SQLite runs in WAL mode with full sync, so an acknowledged
    action survives `kill -9` and a power cut, and readers never block the writer."""
    if url.startswith("sqlite+aiosqlite:///"):
        path = url[len("sqlite+aiosqlite:///") :]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # Errors name the statement, never its values: they may be anyone's words.
        engine = create_async_engine(url, connect_args={"timeout": 30}, hide_parameters=True)

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.close()

        return engine
    return create_async_engine(
        url, pool_size=5, max_overflow=5, pool_pre_ping=True, hide_parameters=True
    )


def _upgrade(sync_conn: sa.Connection) -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    cfg.attributes["connection"] = sync_conn
    command.upgrade(cfg, "head")


async def migrate(engine: AsyncEngine) -> None:
    """Apply every Alembic migration not yet applied."""
    async with engine.connect() as conn:
        if not is_sqlite(engine):
            # One server migrates at a time; the others wait, then find nothing to do.
            await conn.execute(sa.text("SELECT pg_advisory_lock(7366231)"))
        try:
            await conn.run_sync(_upgrade)
            await conn.commit()
        finally:
            if not is_sqlite(engine):
                await conn.execute(sa.text("SELECT pg_advisory_unlock(7366231)"))
                await conn.commit()
