"""Which server acts on which game, on disk: each server's heartbeat, and the claim of
games due whose driver is gone (game/claims.py runs the loop).

A game some server must act on — a bot whose decision is pending, a clock's deadline —
has `wake_at` set and names its `driver`, the server that made it so (in the same
transaction as the change that did). A claim takes the games due whose driver has not
beaten for a while: `SELECT … FOR UPDATE SKIP LOCKED` on PostgreSQL, so two survivors
never take the same game, and each game exactly once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware, now
from euphrates.server.store.signals import Signal, SignalKind


class ClaimStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def beat(self) -> None:
        """Say this server is alive (its games are not to be claimed)."""
        database = self.database
        insert = database.insert(db.servers)
        stmt = insert.values(id=database.origin, beat=database.clock())
        stmt = stmt.on_conflict_do_update(index_elements=["id"], set_={"beat": stmt.excluded.beat})
        async with database.begin() as conn:
            await conn.execute(stmt)

    async def claim(self, stale: float | None, limit: int) -> list[str]:
        """Take over games some server must act on now whose driver is gone: none
        named, or one whose beat is older than `stale` seconds. `stale` None (SQLite,
        where this process is the only server) takes every game due that another
        process drove."""
        database = self.database
        g = db.games
        due = (
            sa.select(g.c.id)
            .where(
                g.c.wake_at.isnot(None), g.c.wake_at <= database.clock(), self._not_driven(stale)
            )
            .order_by(g.c.wake_at)
            .limit(limit)
        )
        if not database.sqlite:
            due = due.with_for_update(of=g, skip_locked=True)
        stmt = sa.update(g).where(g.c.id.in_(due.scalar_subquery())).values(driver=database.origin)
        async with database.begin() as conn:
            ids = [r.id for r in await conn.execute(stmt.returning(g.c.id))]
            for game_id in ids:
                await database.signal(conn, Signal(SignalKind.CLAIM, game_id))
        return ids

    def _not_driven(self, stale: float | None) -> Any:
        """A game's driver is gone: none is named, or it has not beaten for `stale`
        seconds; with `stale` None, any driver but this server."""
        g, sv = db.games, db.servers
        if stale is None:
            return sa.or_(g.c.driver.is_(None), g.c.driver != self.database.origin)
        cutoff = (
            now() - timedelta(seconds=stale)
            if self.database.sqlite
            else sa.func.clock_timestamp() - sa.literal(timedelta(seconds=stale), sa.Interval())
        )
        return ~sa.exists().where(sv.c.id == g.c.driver, sv.c.beat > cutoff)

    async def next_wake(self) -> datetime | None:
        """When the next game another process drove falls due (a deadline it stored),
        if any: until then a lone server has nothing to claim."""
        g = db.games
        query = sa.select(sa.func.min(g.c.wake_at)).where(
            g.c.wake_at.isnot(None), self._not_driven(None)
        )
        async with self.database.connect() as conn:
            at = (await conn.execute(query)).scalar()
        return None if at is None else aware(at)

    async def release(self, game_id: str) -> None:
        """Nothing is due in a game this server drives (its mark was out of date)."""
        database = self.database
        async with database.begin() as conn:
            await conn.execute(
                db.games.update()
                .where(db.games.c.id == game_id, db.games.c.driver == database.origin)
                .values(database.wake_values(False))
            )

    async def leave(self) -> None:
        """A server stopping: its games are free to claim at once."""
        origin = self.database.origin
        async with self.database.begin() as conn:
            await conn.execute(
                db.games.update().where(db.games.c.driver == origin).values(driver=None)
            )
            await conn.execute(db.servers.delete().where(db.servers.c.id == origin))

    async def forget_servers(self, older: float) -> None:
        """Forget servers that stopped beating `older` seconds ago (they crashed)."""
        cutoff = now() - timedelta(seconds=older)
        async with self.database.begin() as conn:
            await conn.execute(db.servers.delete().where(db.servers.c.beat < cutoff))
