"""Password attempts on disk, per account name (its key) and client address: how many
there were since that pair's last right password, and until when it must wait. They
are in the database, so that every server process refuses a pair alike, whichever
one an attacker reaches (features/accounts/lockout.py decides how long).

An attempt is counted *before* its password is checked, in one conditional write: a
pair that must still wait is neither counted nor checked, and attempts sent together
are counted one after the other, so none slips through while another is being
checked. A right password clears its pair. A pair quiet for long starts again, and
such rows are deleted now and then.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware, now

PURGE_EVERY = 600.0
"""Seconds between two deletions of forgotten pairs by one process."""


def _fit(text: str, column: sa.Column[str]) -> str:
    """What a name's key or an address is stored as: itself, or, when its column
    cannot hold it (too long, or not plain text: a NUL, a lone surrogate), its SHA-256.
    One text is always one row."""
    most = getattr(column.type, "length", None) or 0
    if len(text) <= most and text.isprintable():
        return text
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class LoginFailures:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.purged = time.monotonic() - PURGE_EVERY

    def _pair(self, key: str, address: str) -> sa.ColumnElement[bool]:
        t = db.login_failures
        return sa.and_(
            t.c.name_key == _fit(key, t.c.name_key), t.c.address == _fit(address, t.c.address)
        )

    async def _now(self, conn: AsyncConnection) -> datetime:
        """Now by the database's clock where several servers share it."""
        if self.database.sqlite:
            return now()
        return aware((await conn.execute(sa.select(sa.func.clock_timestamp()))).scalar_one())

    async def attempt(
        self, key: str, address: str, delay: Callable[[int], float], forget: timedelta
    ) -> float:
        """Count an attempt of the pair (`key`, `address`) before its password is
        checked: 0 when it may go on, else the seconds the pair must still wait (this
        attempt is then not counted). `delay(n)`: the seconds the pair waits after its
        n-th counted attempt; a pair with no attempt for `forget` counts from 1 again."""
        t = db.login_failures
        async with self.database.begin() as conn:
            at = await self._now(conn)
            insert = self.database.insert(t).values(
                name_key=_fit(key, t.c.name_key),
                address=_fit(address, t.c.address),
                failures=1,
                last_at=at,
                locked_until=None,
            )
            counted = (
                await conn.execute(
                    insert.on_conflict_do_update(
                        index_elements=["name_key", "address"],
                        set_={
                            "failures": sa.case(
                                (t.c.last_at < at - forget, 1), else_=t.c.failures + 1
                            ),
                            "last_at": at,
                            "locked_until": None,
                        },
                        where=sa.or_(t.c.locked_until.is_(None), t.c.locked_until <= at),
                    ).returning(t.c.failures)
                )
            ).scalar_one_or_none()
            if counted is None:
                until = (
                    await conn.execute(sa.select(t.c.locked_until).where(self._pair(key, address)))
                ).scalar_one()
                return max((aware(until) - at).total_seconds(), 0.001)
            wait = delay(counted)
            if wait > 0:
                await conn.execute(
                    t.update()
                    .where(self._pair(key, address))
                    .values(locked_until=at + timedelta(seconds=wait))
                )
        await self._purge(at, forget)
        return 0.0

    async def clear(self, key: str, address: str) -> None:
        """The pair's password was right: it starts again from nothing."""
        async with self.database.begin() as conn:
            await conn.execute(db.login_failures.delete().where(self._pair(key, address)))

    async def _purge(self, at: datetime, forget: timedelta) -> None:
        """Delete the pairs forgotten (quiet for `forget`, not waiting), at most every
        PURGE_EVERY seconds: attempts from many addresses leave many rows."""
        if time.monotonic() - self.purged < PURGE_EVERY:
            return
        self.purged = time.monotonic()
        t = db.login_failures
        async with self.database.begin() as conn:
            await conn.execute(
                t.delete().where(
                    t.c.last_at < at - forget,
                    sa.or_(t.c.locked_until.is_(None), t.c.locked_until < at),
                )
            )
