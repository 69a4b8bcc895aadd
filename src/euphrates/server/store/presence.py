"""Presence on disk (PostgreSQL only): each server's marks — an account at a place, a
seat held at a table — written when they change, and the other live servers' marks
read back (features/presence/ counts them). On SQLite one process serves the database
and nothing is written here."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa

from euphrates.server.store import models as db
from euphrates.server.store.database import Database
from euphrates.server.store.signals import Signal, SignalKind

Mark = tuple[str, int, int]
"""(place, seat, account): an account at a place (seat -1), or a seat held at a
table (account 0). The lobby is the place ""."""


def _ago(seconds: float) -> sa.ColumnElement[object]:
    """A moment that long ago by the database's clock (the servers' beats are by it)."""
    return sa.func.clock_timestamp() - sa.literal(timedelta(seconds=seconds), sa.Interval())


class PresenceStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def write(self, added: set[Mark], gone: set[Mark]) -> None:
        """This server's marks that appeared and left, in one transaction with its
        signal."""
        p = db.presence
        me = self.database.origin
        async with self.database.begin() as conn:
            for place, seat, user in gone:
                await conn.execute(
                    p.delete().where(
                        p.c.server_id == me,
                        p.c.place == place,
                        p.c.seat == seat,
                        p.c.user_id == user,
                    )
                )
            if added:
                rows = [
                    {"server_id": me, "place": pl, "seat": s, "user_id": u} for pl, s, u in added
                ]
                await conn.execute(self.database.insert(p).on_conflict_do_nothing(), rows)
            await self.database.signal(conn, Signal(SignalKind.PRESENCE))

    async def others(self, alive: float) -> dict[str, set[Mark]]:
        """The marks of every other server that beat within `alive` seconds."""
        p, sv = db.presence, db.servers
        query = (
            sa.select(p.c.server_id, p.c.place, p.c.seat, p.c.user_id)
            .join(sv, sv.c.id == p.c.server_id)
            .where(p.c.server_id != self.database.origin, sv.c.beat > _ago(alive))
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        read: dict[str, set[Mark]] = {}
        for r in rows:
            read.setdefault(r.server_id, set()).add((r.place, r.seat, r.user_id))
        return read

    async def forget(self, after: float) -> None:
        """Drop the rows of servers that stopped beating `after` seconds ago (they
        crashed)."""
        p, sv = db.presence, db.servers
        beating = sa.select(sv.c.id).where(sv.c.beat > _ago(after))
        async with self.database.begin() as conn:
            await conn.execute(
                p.delete().where(
                    p.c.server_id != self.database.origin, p.c.server_id.not_in(beating)
                )
            )

    async def clear(self) -> None:
        """A server stopping: its marks go, and the others are told."""
        async with self.database.begin() as conn:
            await conn.execute(
                db.presence.delete().where(db.presence.c.server_id == self.database.origin)
            )
            await self.database.signal(conn, Signal(SignalKind.PRESENCE))
