"""Fair play on disk (docs/fair-play.md): aborted rated games per account, the devices
and addresses accounts sign in from, vacations, and the pairs of accounts an admin may
want to look at.

A device or an address is kept as a keyed hash (HMAC-SHA-256 under a key the server
derives from nothing but the value's kind: it hides a raw address from a reader of the
database, while equal values still compare equal across processes).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, aware, now

MARKS_KEPT = timedelta(days=30)
"""How long a shared device or address keeps two accounts from being paired."""


def mark_value(kind: str, value: str) -> str:
    return hmac.new(f"euphrates {kind}".encode(), value.encode(), hashlib.sha256).hexdigest()


def abort_row(user_id: int, game_id: str) -> Followup:
    """An account left a rated game before it was played: counted, in the abort's
    transaction."""

    async def write(conn: AsyncConnection) -> None:
        await conn.execute(
            db.aborts.insert().values(user_id=user_id, game_id=game_id, created_at=now())
        )

    return write


@dataclass(frozen=True)
class Vacation:
    starts: datetime
    ends: datetime


@dataclass(frozen=True)
class Pair:
    """Two accounts and their rated games together (the admin's `suspicious`)."""

    first: str
    second: str
    games: int
    left: int
    """Of them, games one of the two left (resigned, forfeited, deleted)."""


class FairPlayStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    # --- aborts ------------------------------------------------------------------------
    async def aborts_since(self, user_id: int, since: datetime) -> int:
        a = db.aborts
        async with self.database.connect() as conn:
            found = await conn.execute(
                sa.select(sa.func.count())
                .select_from(a)
                .where(a.c.user_id == user_id, a.c.created_at > since)
            )
            return int(found.scalar() or 0)

    # --- devices and addresses ------------------------------------------------------------
    async def mark(self, user_id: int, kind: str, value: str) -> None:
        """The account was seen on this device or from this address (sign-up, log-in)."""
        m = db.account_marks
        at = now()
        stmt = self.database.insert(m).values(
            user_id=user_id, kind=kind, value=mark_value(kind, value), last_seen=at
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["user_id", "kind", "value"], set_={"last_seen": at}
        )
        async with self.database.begin() as conn:
            await conn.execute(stmt)

    async def sharing(self, user_ids: list[int]) -> set[frozenset[int]]:
        """The pairs among `user_ids` that share a device or an address seen within
        MARKS_KEPT."""
        if len(user_ids) < 2:
            return set()
        m1, m2 = db.account_marks.alias("m1"), db.account_marks.alias("m2")
        cutoff = now() - MARKS_KEPT
        query = (
            sa.select(m1.c.user_id, m2.c.user_id.label("other"))
            .join(m2, sa.and_(m1.c.kind == m2.c.kind, m1.c.value == m2.c.value))
            .where(
                m1.c.user_id.in_(user_ids),
                m2.c.user_id.in_(user_ids),
                m1.c.user_id < m2.c.user_id,
                m1.c.last_seen > cutoff,
                m2.c.last_seen > cutoff,
            )
            .distinct()
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {frozenset((int(r.user_id), int(r.other))) for r in rows}

    async def blocked(self, user_ids: list[int]) -> set[frozenset[int]]:
        """The pairs among `user_ids` where one blocked the other."""
        if len(user_ids) < 2:
            return set()
        b = db.blocks
        query = sa.select(b.c.user_id, b.c.blocked_id).where(
            b.c.user_id.in_(user_ids), b.c.blocked_id.in_(user_ids)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {frozenset((int(r.user_id), int(r.blocked_id))) for r in rows}

    # --- vacations ---------------------------------------------------------------------------
    async def vacations(self, user_id: int, since: datetime) -> list[Vacation]:
        """The account's vacations ending after `since`, earliest first."""
        v = db.vacations
        async with self.database.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(v.c.starts_at, v.c.ends_at)
                    .where(v.c.user_id == user_id, v.c.ends_at > since)
                    .order_by(v.c.starts_at)
                )
            ).all()
        return [Vacation(aware(r.starts_at), aware(r.ends_at)) for r in rows]

    async def start_vacation(self, user_id: int, starts: datetime, ends: datetime) -> None:
        async with self.database.begin() as conn:
            await conn.execute(
                db.vacations.insert().values(
                    user_id=user_id, starts_at=starts, ends_at=ends, created_at=now()
                )
            )

    async def end_vacation(self, user_id: int, at: datetime) -> bool:
        """End the account's vacation running at `at`; whether one was."""
        v = db.vacations
        async with self.database.begin() as conn:
            done = await conn.execute(
                v.update()
                .where(v.c.user_id == user_id, v.c.starts_at <= at, v.c.ends_at > at)
                .values(ends_at=at)
            )
        return bool(done.rowcount)

    async def turn_based_games(self, user_id: int) -> list[str]:
        """The account's turn-based games being played, where it holds a person's seat."""
        g, st = db.games, db.seats
        query = (
            sa.select(g.c.id)
            .join(st, st.c.game_id == g.c.id)
            .where(
                st.c.user_id == user_id,
                st.c.kind == "human",
                g.c.status == "active",
                g.c.clock.like('%"mode": "turn"%'),
            )
            .distinct()
        )
        async with self.database.connect() as conn:
            return [str(r.id) for r in await conn.execute(query)]

    # --- what an admin looks at -----------------------------------------------------------
    async def suspicious(self, since: datetime, least: int) -> list[Pair]:
        """Pairs of accounts with at least `least` rated games together since `since`,
        most first, with how many of them one of the two left."""
        r1, r2 = db.rating_history.alias("r1"), db.rating_history.alias("r2")
        u1, u2, n = db.users.alias("u1"), db.users.alias("u2"), db.notes
        left = (
            sa.select(n.c.game_id)
            .where(n.c.kind.in_(("resigned", "forfeited", "left")))
            .distinct()
            .subquery()
        )
        query = (
            sa.select(
                u1.c.name.label("first"),
                u2.c.name.label("second"),
                sa.func.count().label("games"),
                sa.func.count(left.c.game_id).label("left"),
            )
            .select_from(r1)
            .join(r2, sa.and_(r1.c.game_id == r2.c.game_id, r1.c.user_id < r2.c.user_id))
            .join(u1, u1.c.id == r1.c.user_id)
            .join(u2, u2.c.id == r2.c.user_id)
            .outerjoin(left, left.c.game_id == r1.c.game_id)
            .where(r1.c.created_at > since)
            .group_by(u1.c.name, u2.c.name)
            .having(sa.func.count() >= least)
            .order_by(sa.func.count().desc(), u1.c.name, u2.c.name)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Pair(r.first, r.second, int(r.games), int(r.left)) for r in rows]
