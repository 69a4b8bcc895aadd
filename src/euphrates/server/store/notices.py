"""Notifications' outbox on disk: the decisions waiting for an account's seat, and the
messages to send (the account's channels and choices are notify_settings.py's).

A message's row is written in the transaction of the version that hands a decision to
a person (`hand_over`, run as a follow-up of that version, writer.py), under a unique
key — the turn (`turn:GAME:SEAT:N`) or the digest's day, with the channel — so that
however many servers race, however often a move is taken back and made again, a
second row for the same message cannot exist. Senders claim due rows with a lease
(`FOR UPDATE SKIP LOCKED` on PostgreSQL), so a row is sent by one process at a time
and a sender killed mid-way leaves its rows to be claimed again once the lease ends.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, aware, now
from euphrates.server.store.notify_settings import Prefs, next_digest, prefs_of


def seat_given_up(game_id: str, seat: int) -> Followup:
    """A seat went to a bot (its host gave it, its account was deleted, its player left
    or forfeited it, docs/fair-play.md): in that change's transaction, nobody waits at
    it any more and its unsent turn messages are withdrawn."""

    async def followup(conn: AsyncConnection) -> None:
        n, aw = db.notices, db.awaiting
        await conn.execute(aw.delete().where(aw.c.game_id == game_id, aw.c.seat == seat))
        await conn.execute(
            n.update()
            .where(n.c.game_id == game_id, n.c.seat == seat, n.c.state == "queued")
            .values(state="withdrawn")
        )

    return followup


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
    opponents: tuple[tuple[str | None, str | None], ...] = ()
    """The game's other seats, in order: each (a person's name, a bot's level)."""
    move: int | None = None
    """The decision the message is about, counted from the game's first (1)."""


async def _opponents(
    conn: AsyncConnection, game_id: str, seat: int
) -> tuple[tuple[str | None, str | None], ...]:
    st = db.seats
    rows = (
        await conn.execute(
            sa.select(st.c.name, st.c.kind, st.c.level)
            .where(st.c.game_id == game_id, st.c.seat != seat)
            .order_by(st.c.seat)
        )
    ).all()
    return tuple((r.name, r.level if r.kind == "bot" else None) for r in rows)


def _move_of(key: str) -> int | None:
    """The decision a turn's key names (`turn:GAME:SEAT:N`: N actions stood before it)."""
    at = key.rsplit(":", 1)[-1]
    return int(at) + 1 if key.startswith("turn:") and at.isdigit() else None


class NoticeStore:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.origin = database.origin
        self.sqlite = database.sqlite

    def _insert(self, table: sa.Table) -> Any:
        return self.database.insert(table)

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

    async def queue_now(
        self,
        conn: AsyncConnection,
        key: str,
        user_id: int,
        game_id: str | None,
        payload: str,
        mail: bool,
    ) -> bool:
        """In the caller's transaction, a message that is no turn's (an invitation to a
        seat, features/friends): one row per channel the account has on, due now —
        whether it chose the digest or not, since it cannot wait a day. Whether one was
        queued. Its sender asks the message's kind whether it still stands."""
        channels = await self._channels(conn, user_id, mail, digest=None)
        if channels:
            await self._queue(conn, key, channels, user_id, game_id, None, payload, now())
        return bool(channels)

    async def withdraw(self, conn: AsyncConnection, key: str) -> None:
        """A message that no longer stands and has not gone out yet: withdrawn."""
        n = db.notices
        await conn.execute(
            n.update().where(n.c.key == key, n.c.state == "queued").values(state="withdrawn")
        )

    async def _channels(
        self, conn: AsyncConnection, user_id: int, mail: bool, digest: bool | None
    ) -> list[str]:
        """The channels a message goes out on now: on, with an address (a verified
        one for e-mail, and only when the server sends mail), the account active and
        its choice (per turn or the digest) the one asked (None: either)."""
        ns, u = db.notify_settings, db.users
        row = (
            await conn.execute(
                sa.select(ns, u.c.disabled, u.c.deleted)
                .join(u, u.c.id == ns.c.user_id)
                .where(ns.c.user_id == user_id)
            )
        ).first()
        if row is None or row.disabled or row.deleted:
            return []
        if digest is not None and bool(row.digest) != digest:
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
        async with self.database.connect() as conn:
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
        async with self.database.begin() as conn:
            rows = (await conn.execute(stmt)).all()
        return [
            Claimed(r.id, r.key, r.channel, r.user_id, r.game_id, r.seat, r.payload, r.attempts)
            for r in rows
        ]

    async def release_others(self) -> None:
        """SQLite, one process: leases a stopped predecessor held end now."""
        n = db.notices
        async with self.database.begin() as conn:
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
        async with self.database.begin() as conn:
            await conn.execute(
                n.update().where(n.c.id == notice_id, n.c.leased_by == self.origin).values(values)
            )

    async def context(self, c: Claimed) -> Context | None:
        ns, u, g, st, aw = db.notify_settings, db.users, db.games, db.seats, db.awaiting
        async with self.database.connect() as conn:
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
                return Context(row.name, prefs_of(row), active)
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
            opponents = await _opponents(conn, c.game_id, c.seat)
        if game is None:
            return Context(row.name, prefs_of(row), active)
        theirs = (
            game.status == "active"
            and game.kind == "human"
            and game.user_id == c.user_id
            and waits is not None
        )
        return Context(
            row.name,
            prefs_of(row),
            active,
            game.game,
            game.name or row.name,
            theirs,
            opponents,
            _move_of(c.key),
        )

    # --- digests ----------------------------------------------------------------------
    async def run_digests(self, limit: int, mail: bool) -> int:
        """Claim the accounts whose digest is due (`FOR UPDATE SKIP LOCKED`: each by one
        server), queue each one's message — the games waiting for its seats, if any —
        and set its next day's time, all in one transaction: a digest is claimed once
        a day per account. How many were claimed."""
        ns, aw, g, st, lg = db.notify_settings, db.awaiting, db.games, db.seats, db.log
        at = now()
        # the standing actions: each undo in the log takes one action back
        played = (
            sa.select(sa.func.coalesce(sa.func.sum(sa.case((lg.c.kind == "undo", -1), else_=1)), 0))
            .where(lg.c.game_id == g.c.id)
            .scalar_subquery()
        )
        due = (
            sa.select(ns.c.user_id, ns.c.digest_next, ns.c.digest_hour, ns.c.timezone)
            .where(ns.c.digest_next <= at)
            .order_by(ns.c.digest_next)
            .limit(limit)
        )
        if not self.sqlite:
            due = due.with_for_update(skip_locked=True)
        async with self.database.begin() as conn:
            rows = (await conn.execute(due)).all()
            for r in rows:
                slot = aware(r.digest_next)
                day = slot.astimezone(ZoneInfo(r.timezone)).date().isoformat()
                waiting = (
                    await conn.execute(
                        sa.select(g.c.id, g.c.game, st.c.name, st.c.seat, played.label("played"))
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
                    # each game named as its turn's message names it: the opponents and
                    # the decision waiting
                    payload = json.dumps(
                        [
                            [
                                w.id,
                                w.game,
                                w.name,
                                [list(o) for o in await _opponents(conn, w.id, w.seat)],
                                int(w.played) + 1,
                            ]
                            for w in waiting
                        ]
                    )
                    key = f"digest:{r.user_id}:{day}"
                    await self._queue(conn, key, channels, r.user_id, None, None, payload, at)
                following = next_digest(r.digest_hour, r.timezone, max(at, slot))
                await conn.execute(
                    ns.update().where(ns.c.user_id == r.user_id).values(digest_next=following)
                )
        return len(rows)
