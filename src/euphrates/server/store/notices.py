"""Notifications on disk: each account's channels and choices, the decisions waiting
for an account's seat, and the outbox of messages.

A message's row is written in the transaction of the version that hands a decision to
a person (`hand_over`, run as a follow-up of that version, store.py), under a unique
key — the turn (`turn:GAME:SEAT:N`) or the digest's day, with the channel — so that
however many servers race, however often a move is taken back and made again, a
second row for the same message cannot exist. Senders claim due rows with a lease
(`FOR UPDATE SKIP LOCKED` on PostgreSQL), so a row is sent by one process at a time
and a sender killed mid-way leaves its rows to be claimed again once the lease ends.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from euphrates.server.store import models as db
from euphrates.server.store.database import aware, iso_time, now

CODE_TRIES = 5
"""Wrong codes an address may be given before its code is void (a new one is mailed)."""


@dataclass
class Prefs:
    """One account's choices (the defaults when it made none)."""

    email: str | None = None
    email_pending: str | None = None
    webhook: str | None = None
    email_on: bool = False
    webhook_on: bool = False
    digest: bool = False
    digest_hour: int = 18
    timezone: str = "UTC"
    lang: str = "en"
    digest_next: datetime | None = None


PREF_FIELDS = (
    "email",
    "email_pending",
    "webhook",
    "email_on",
    "webhook_on",
    "digest",
    "digest_hour",
    "timezone",
    "lang",
    "digest_next",
)


@dataclass(frozen=True)
class Claimed:
    """A message a sender holds the lease of."""

    id: int
    key: str
    channel: str
    user_id: int
    game_id: str | None
    seat: int | None
    payload: str | None
    attempts: int


@dataclass(frozen=True)
class Context:
    """What a claimed message is sent with, read when it is sent: where to (the
    account's channel as it is now) and whether it still stands."""

    name: str
    prefs: Prefs
    active: bool
    """The account may be written to (not disabled or deleted)."""
    game: str | None = None
    seat_name: str | None = None
    still_theirs: bool = False
    """A turn's message: the game is being played and the decision is still that seat's,
    a person's of this account."""


def code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


def next_digest(hour: int, zone: str, after: datetime) -> datetime:
    """The next `hour` o'clock in `zone` strictly after `after`, in UTC."""
    tz = ZoneInfo(zone)
    day = after.astimezone(tz).date()
    for step in range(3):
        d = day + timedelta(days=step)
        candidate = datetime(d.year, d.month, d.day, hour, tzinfo=tz).astimezone(UTC)
        if candidate > after:
            return candidate
    raise AssertionError("one of three days has that hour")  # pragma: no cover


class NoticeStore:
    def __init__(self, engine: AsyncEngine, origin: str, sqlite: bool) -> None:
        self.engine = engine
        self.origin = origin
        self.sqlite = sqlite

    def _insert(self, table: sa.Table) -> Any:
        return sqlite_insert(table) if self.sqlite else pg_insert(table)

    # --- an account's choices ---------------------------------------------------------
    async def prefs(self, user_id: int) -> Prefs:
        ns = db.notify_settings
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(ns).where(ns.c.user_id == user_id))).first()
        return _prefs(row)

    async def save(self, user_id: int, values: dict[str, Any]) -> Prefs:
        """Change some of an account's choices (a row is made on the first change)."""
        ns = db.notify_settings
        async with self.engine.begin() as conn:
            stmt = self._insert(ns).values(user_id=user_id, **values)
            if values:
                stmt = stmt.on_conflict_do_update(index_elements=["user_id"], set_=values)
            else:
                stmt = stmt.on_conflict_do_nothing(index_elements=["user_id"])
            await conn.execute(stmt)
            row = (await conn.execute(sa.select(ns).where(ns.c.user_id == user_id))).first()
        return _prefs(row)

    async def set_code(self, user_id: int, email: str, code: str, expires: datetime) -> None:
        """A new address waits for its code (the verified one, if any, stays)."""
        await self.save(
            user_id,
            {
                "email_pending": email,
                "code_hash": code_hash(code),
                "code_expires": expires,
                "code_tries": 0,
            },
        )

    async def verify(self, user_id: int, code: str) -> str:
        """Enter the code mailed to the pending address: 'ok' (the address is the
        account's now, and turn mail goes to it), 'wrong', 'none' (no code waits, or
        it expired or was tried too often)."""
        ns = db.notify_settings
        async with self.engine.begin() as conn:
            q = sa.select(ns).where(ns.c.user_id == user_id)
            if not self.sqlite:
                q = q.with_for_update()
            row = (await conn.execute(q)).first()
            if (
                row is None
                or row.email_pending is None
                or row.code_hash is None
                or row.code_expires is None
                or aware(row.code_expires) <= now()
                or row.code_tries >= CODE_TRIES
            ):
                return "none"
            if not hmac.compare_digest(row.code_hash, code_hash(code)):
                await conn.execute(
                    ns.update()
                    .where(ns.c.user_id == user_id)
                    .values(code_tries=ns.c.code_tries + 1)
                )
                return "wrong"
            await conn.execute(
                ns.update()
                .where(ns.c.user_id == user_id)
                .values(
                    email=row.email_pending,
                    email_pending=None,
                    code_hash=None,
                    code_expires=None,
                    code_tries=0,
                    email_on=True,
                )
            )
        return "ok"

    async def forget(self, user_id: int) -> None:
        """An account deleted: its address, hook, choices and messages go."""
        async with self.engine.begin() as conn:
            await conn.execute(db.notices.delete().where(db.notices.c.user_id == user_id))
            await conn.execute(db.awaiting.delete().where(db.awaiting.c.user_id == user_id))
            await conn.execute(
                db.notify_settings.delete().where(db.notify_settings.c.user_id == user_id)
            )

    async def export(self, user_id: int) -> dict[str, Any]:
        """The account's own: its choices, its address and hook, its messages."""
        n = db.notices
        prefs = await self.prefs(user_id)
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(n.c.key, n.c.channel, n.c.state, n.c.created_at, n.c.sent_at)
                    .where(n.c.user_id == user_id)
                    .order_by(n.c.id)
                    .limit(10_000)
                )
            ).all()
        return {
            "settings": {
                "email": prefs.email,
                "email_pending": prefs.email_pending,
                "webhook": prefs.webhook,
                "email_on": prefs.email_on,
                "webhook_on": prefs.webhook_on,
                "digest": prefs.digest,
                "digest_hour": prefs.digest_hour,
                "timezone": prefs.timezone,
                "lang": prefs.lang,
            },
            "messages": [
                {
                    "about": r.key,
                    "channel": r.channel,
                    "state": r.state,
                    "created": iso_time(r.created_at),
                    "sent": iso_time(r.sent_at) if r.sent_at is not None else None,
                }
                for r in rows
            ],
        }

    # --- written with a version ------------------------------------------------------
    async def hand_over(
        self,
        conn: AsyncConnection,
        game_id: str,
        seat: int | None,
        at: int,
        notify: bool,
        due: datetime,
        mail: bool,
    ) -> bool:
        """In a version's transaction: the decision of `game_id` is `seat`'s now (None:
        nobody's, the game ended). Every other seat's wait ends and its unsent turn
        messages are withdrawn; if the seat is a person's of an account, it waits, and
        with `notify` (the decision has just come to it) the account's per-turn
        channels get one message each, keyed by (game, seat, `at`: the standing
        actions before it). Whether a message was queued."""
        n, aw, st = db.notices, db.awaiting, db.seats
        ended = aw.delete().where(aw.c.game_id == game_id)
        withdrawn = n.update().where(n.c.game_id == game_id, n.c.state == "queued")
        if seat is not None:
            ended = ended.where(aw.c.seat != seat)
            withdrawn = withdrawn.where(n.c.seat != seat)
        await conn.execute(ended)
        await conn.execute(withdrawn.values(state="withdrawn"))
        if seat is None:
            return False
        owner = (
            await conn.execute(
                sa.select(st.c.kind, st.c.user_id).where(st.c.game_id == game_id, st.c.seat == seat)
            )
        ).first()
        if owner is None or owner.kind != "human" or owner.user_id is None:
            return False
        user_id = int(owner.user_id)
        await conn.execute(
            self._insert(aw)
            .values(game_id=game_id, seat=seat, user_id=user_id, since=now())
            .on_conflict_do_nothing(index_elements=["game_id", "seat"])
        )
        if not notify:
            return False
        channels = await self._channels(conn, user_id, mail, digest=False)
        if not channels:
            return False
        key = f"turn:{game_id}:{seat}:{at}"
        await self._queue(conn, key, channels, user_id, game_id, seat, None, due)
        return True

    async def _channels(
        self, conn: AsyncConnection, user_id: int, mail: bool, digest: bool
    ) -> list[str]:
        """The channels a message goes out on now: on, with an address (a verified
        one for e-mail, and only when the server sends mail), the account active and
        its choice (per turn or the digest) the one asked."""
        ns, u = db.notify_settings, db.users
        row = (
            await conn.execute(
                sa.select(ns, u.c.disabled, u.c.deleted)
                .join(u, u.c.id == ns.c.user_id)
                .where(ns.c.user_id == user_id)
            )
        ).first()
        if row is None or row.disabled or row.deleted or bool(row.digest) != digest:
            return []
        out = []
        if row.email_on and row.email and mail:
            out.append("email")
        if row.webhook_on and row.webhook:
            out.append("webhook")
        return out

    async def _queue(
        self,
        conn: AsyncConnection,
        key: str,
        channels: list[str],
        user_id: int,
        game_id: str | None,
        seat: int | None,
        payload: str | None,
        due: datetime,
    ) -> None:
        """One row per channel; a row already there stays as it is, unless it was
        withdrawn before it went out (a move taken back and made again: the player
        has still not been told)."""
        n = db.notices
        at = now()
        stmt = self._insert(n).values(
            [
                {
                    "key": key,
                    "channel": c,
                    "user_id": user_id,
                    "game_id": game_id,
                    "seat": seat,
                    "payload": payload,
                    "state": "queued",
                    "due_at": due,
                    "attempts": 0,
                    "created_at": at,
                }
                for c in channels
            ]
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["key", "channel"],
            set_={"state": "queued", "due_at": due},
            where=n.c.state == "withdrawn",
        )
        await conn.execute(stmt)

    # --- senders' claims -------------------------------------------------------------
    def _claimable(self, at: datetime) -> Any:
        n = db.notices
        return sa.and_(
            n.c.state == "queued",
            n.c.due_at <= at,
            sa.or_(n.c.lease_until.is_(None), n.c.lease_until < at),
        )

    async def anything_due(self) -> bool:
        """A read (an idle SQLite server writes nothing): is a message or a digest due?"""
        at = now()
        n, ns = db.notices, db.notify_settings
        async with self.engine.connect() as conn:
            found = (
                await conn.execute(sa.select(n.c.id).where(self._claimable(at)).limit(1))
            ).first()
            if found is None:
                found = (
                    await conn.execute(
                        sa.select(ns.c.user_id).where(ns.c.digest_next <= at).limit(1)
                    )
                ).first()
        return found is not None

    async def claim(self, limit: int, lease: float) -> list[Claimed]:
        """Take the lease of up to `limit` messages due. `SKIP LOCKED`: two senders
        claiming at once take different rows. The attempt is counted now, so a
        message that kills its sender is not tried for ever."""
        n = db.notices
        at = now()
        due = sa.select(n.c.id).where(self._claimable(at)).order_by(n.c.due_at).limit(limit)
        if not self.sqlite:
            due = due.with_for_update(skip_locked=True)
        stmt = (
            sa.update(n)
            .where(n.c.id.in_(due.scalar_subquery()))
            .values(
                lease_until=at + timedelta(seconds=lease),
                leased_by=self.origin,
                attempts=n.c.attempts + 1,
            )
            .returning(
                n.c.id,
                n.c.key,
                n.c.channel,
                n.c.user_id,
                n.c.game_id,
                n.c.seat,
                n.c.payload,
                n.c.attempts,
            )
        )
        async with self.engine.begin() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            Claimed(r.id, r.key, r.channel, r.user_id, r.game_id, r.seat, r.payload, r.attempts)
            for r in rows
        ]

    async def release_others(self) -> None:
        """SQLite, one process: leases a stopped predecessor held end now."""
        n = db.notices
        async with self.engine.begin() as conn:
            await conn.execute(
                n.update()
                .where(n.c.state == "queued", n.c.leased_by != self.origin)
                .values(lease_until=None, leased_by=None)
            )

    async def finish(self, notice_id: int, state: str, retry_at: datetime | None = None) -> None:
        """A claimed message: `sent`, `withdrawn` (it no longer stands), `failed`
        (given up), or `queued` again at `retry_at`. Only while this sender holds it."""
        n = db.notices
        values: dict[str, Any] = {"lease_until": None, "leased_by": None}
        if state == "sent":
            values.update(state="sent", sent_at=now())
        elif state == "queued":
            values.update(due_at=retry_at or now())
        else:
            values.update(state=state)
        async with self.engine.begin() as conn:
            await conn.execute(
                n.update().where(n.c.id == notice_id, n.c.leased_by == self.origin).values(values)
            )

    async def context(self, c: Claimed) -> Context | None:
        ns, u, g, st, aw = db.notify_settings, db.users, db.games, db.seats, db.awaiting
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(ns, u.c.name, u.c.disabled, u.c.deleted)
                    .join(u, u.c.id == ns.c.user_id)
                    .where(ns.c.user_id == c.user_id)
                )
            ).first()
            if row is None:
                return None
            active = not (row.disabled or row.deleted)
            if c.game_id is None or c.seat is None:
                return Context(row.name, _prefs(row), active)
            game = (
                await conn.execute(
                    sa.select(g.c.game, g.c.status, st.c.name, st.c.kind, st.c.user_id)
                    .join(st, st.c.game_id == g.c.id)
                    .where(g.c.id == c.game_id, st.c.seat == c.seat)
                )
            ).first()
            waits = (
                await conn.execute(
                    sa.select(aw.c.user_id).where(aw.c.game_id == c.game_id, aw.c.seat == c.seat)
                )
            ).first()
        if game is None:
            return Context(row.name, _prefs(row), active)
        theirs = (
            game.status == "active"
            and game.kind == "human"
            and game.user_id == c.user_id
            and waits is not None
        )
        return Context(row.name, _prefs(row), active, game.game, game.name or row.name, theirs)

    # --- digests ----------------------------------------------------------------------
    async def run_digests(self, limit: int, mail: bool) -> int:
        """Claim the accounts whose digest is due (`FOR UPDATE SKIP LOCKED`: each by one
        server), queue each one's message — the games waiting for its seats, if any —
        and set its next day's time, all in one transaction: a digest is claimed once
        a day per account. How many were claimed."""
        ns, aw, g, st = db.notify_settings, db.awaiting, db.games, db.seats
        at = now()
        due = (
            sa.select(ns.c.user_id, ns.c.digest_next, ns.c.digest_hour, ns.c.timezone)
            .where(ns.c.digest_next <= at)
            .order_by(ns.c.digest_next)
            .limit(limit)
        )
        if not self.sqlite:
            due = due.with_for_update(skip_locked=True)
        async with self.engine.begin() as conn:
            rows = (await conn.execute(due)).all()
            for r in rows:
                slot = aware(r.digest_next)
                day = slot.astimezone(ZoneInfo(r.timezone)).date().isoformat()
                waiting = (
                    await conn.execute(
                        sa.select(g.c.id, g.c.game, st.c.name)
                        .join(aw, aw.c.game_id == g.c.id)
                        .join(st, sa.and_(st.c.game_id == aw.c.game_id, st.c.seat == aw.c.seat))
                        .where(
                            aw.c.user_id == r.user_id,
                            g.c.status == "active",
                            st.c.user_id == r.user_id,
                            st.c.kind == "human",
                        )
                        .order_by(aw.c.since, g.c.id)
                        .limit(100)
                    )
                ).all()
                channels = await self._channels(conn, r.user_id, mail, digest=True)
                if waiting and channels:
                    payload = json.dumps([[w.id, w.game, w.name] for w in waiting])
                    key = f"digest:{r.user_id}:{day}"
                    await self._queue(conn, key, channels, r.user_id, None, None, payload, at)
                following = next_digest(r.digest_hour, r.timezone, max(at, slot))
                await conn.execute(
                    ns.update().where(ns.c.user_id == r.user_id).values(digest_next=following)
                )
        return len(rows)


def _prefs(row: Any) -> Prefs:
    if row is None:
        return Prefs()
    return Prefs(
        email=row.email,
        email_pending=row.email_pending,
        webhook=row.webhook,
        email_on=bool(row.email_on),
        webhook_on=bool(row.webhook_on),
        digest=bool(row.digest),
        digest_hour=int(row.digest_hour),
        timezone=str(row.timezone),
        lang=str(row.lang),
        digest_next=aware(row.digest_next) if row.digest_next is not None else None,
    )
