"""Reviews on disk: one job per ended game, written `queued` in the transaction of its
final version (a follow-up), claimed by one server at a time with a lease (`SELECT …
FOR UPDATE SKIP LOCKED` on PostgreSQL), then `done` with the review as JSON, or
`failed` after `MAX_ATTEMPTS` tries (features/reviews/ computes them)."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, now

log = logging.getLogger("euphrates.server")

MAX_ATTEMPTS = 3
RETRY = 60.0
"""Seconds a job that failed waits before it is tried again."""


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


class ReviewStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def read(self, game_id: str) -> tuple[str, dict[str, Any] | None] | None:
        """The job's status and, once done, the review; None when the game has no job
        (it ended before reviews existed)."""
        rv = db.reviews
        async with self.database.connect() as conn:
            row = (
                await conn.execute(sa.select(rv.c.status, rv.c.doc).where(rv.c.game_id == game_id))
            ).first()
        if row is None:
            return None
        doc: dict[str, Any] | None = json.loads(row.doc) if row.status == "done" else None
        return str(row.status), doc

    async def queue(self, game_id: str) -> None:
        """The job of a game that ended before reviews existed."""
        async with self.database.begin() as conn:
            await queue(game_id)(conn)

    async def requeue(self, game_id: str) -> None:
        """A done review of an older format, to be computed again (features/reviews/)."""
        rv = db.reviews
        async with self.database.begin() as conn:
            await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id, rv.c.status == "done")
                .values(status="queued", attempts=0, lease_until=None, updated_at=now())
            )

    async def claim(self, lease: float) -> str | None:
        """Take one job whose lease has run out (or never began), for `lease` seconds."""
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
        if not self.database.sqlite:
            query = query.with_for_update(skip_locked=True)
        async with self.database.begin() as conn:
            game_id = (await conn.execute(query)).scalar()
            if game_id is None:
                return None
            await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id)
                .values(
                    lease_until=at + timedelta(seconds=lease),
                    attempts=rv.c.attempts + 1,
                    updated_at=at,
                )
            )
        return str(game_id)

    async def renew(self, game_id: str, lease: float) -> bool:
        """Extend the lease; False if the job is no longer this server's to do."""
        rv = db.reviews
        at = now()
        async with self.database.begin() as conn:
            done = await conn.execute(
                rv.update()
                .where(rv.c.game_id == game_id, rv.c.status == "queued")
                .values(lease_until=at + timedelta(seconds=lease), updated_at=at)
            )
        return bool(done.rowcount)

    async def finish(self, game_id: str, doc: dict[str, Any]) -> None:
        rv = db.reviews
        values: dict[str, Any] = {
            "status": "done",
            "lease_until": None,
            "updated_at": now(),
            "doc": json.dumps(doc, separators=(",", ":")),
        }
        async with self.database.begin() as conn:
            await conn.execute(
                rv.update().where(rv.c.game_id == game_id, rv.c.status == "queued").values(values)
            )

    async def failed(self, game_id: str, why: str) -> None:
        """A try failed: again after RETRY seconds, or `failed` for good."""
        rv = db.reviews
        async with self.database.begin() as conn:
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
