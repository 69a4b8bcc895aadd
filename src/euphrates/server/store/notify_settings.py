"""Notifications' settings on disk: each account's channels and choices — a verified
e-mail address (by a code mailed to it), a webhook, each on or off, per turn or a
daily digest at an hour of its time zone — and what leaves with the account's data or
goes with the account. The messages themselves are the outbox's (notices.py)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware, iso_time, now

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


class NotifySettings:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.sqlite = database.sqlite

    def _insert(self, table: sa.Table) -> Any:
        return self.database.insert(table)

    async def prefs(self, user_id: int) -> Prefs:
        ns = db.notify_settings
        async with self.database.connect() as conn:
            row = (await conn.execute(sa.select(ns).where(ns.c.user_id == user_id))).first()
        return prefs_of(row)

    async def save(self, user_id: int, values: dict[str, Any]) -> Prefs:
        """Change some of an account's choices (a row is made on the first change)."""
        ns = db.notify_settings
        async with self.database.begin() as conn:
            stmt = self._insert(ns).values(user_id=user_id, **values)
            if values:
                stmt = stmt.on_conflict_do_update(index_elements=["user_id"], set_=values)
            else:
                stmt = stmt.on_conflict_do_nothing(index_elements=["user_id"])
            await conn.execute(stmt)
            row = (await conn.execute(sa.select(ns).where(ns.c.user_id == user_id))).first()
        return prefs_of(row)

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
        async with self.database.begin() as conn:
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
        async with self.database.begin() as conn:
            await conn.execute(db.notices.delete().where(db.notices.c.user_id == user_id))
            await conn.execute(db.awaiting.delete().where(db.awaiting.c.user_id == user_id))
            await conn.execute(
                db.notify_settings.delete().where(db.notify_settings.c.user_id == user_id)
            )

    async def export(self, user_id: int) -> dict[str, Any]:
        """The account's own: its choices, its address and hook, its messages."""
        n = db.notices
        prefs = await self.prefs(user_id)
        async with self.database.connect() as conn:
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


def prefs_of(row: Any) -> Prefs:
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
