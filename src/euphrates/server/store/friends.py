"""Friends on disk (features/friends/): who follows whom, the games a followed account
plays, and invitations to a seat by name.

An invitation is written with its messages (the outbox's rows, notices.py) and its
signal in one transaction; it is taken in the transaction of the seat it gives
(`accepted`, a follow-up of the room's seat write), so of two accepts, or an accept and
someone sitting down, exactly one happens. Whether a pending invitation still stands —
its game waiting, its seat free, neither too old — is read with it, never stored: a
seat taken or a game started or expired on any server ends it without a write here.

What is read here leaves as names and games' ids: no account's id reaches a client.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, aware, iso_time, now
from euphrates.server.store.moderation import blocked_pairs
from euphrates.server.store.notices import NoticeStore
from euphrates.server.store.signals import Signal, SignalKind


@dataclass(frozen=True)
class Followed:
    """An account `follower` follows, by its name."""

    follower: int
    user_id: int
    name: str
    since: datetime


@dataclass(frozen=True)
class Playing:
    """A game a followed account holds a person's seat at that anyone may watch: being
    played, or an open table waiting (listed in the lobby anyway)."""

    user_id: int
    game_id: str
    game: str
    players: int
    status: str
    rated: bool
    updated_at: datetime


@dataclass(frozen=True)
class Invitation:
    """A pending invitation that still stands, as its host and its guest see it."""

    id: str
    game_id: str
    game: str
    players: int
    seat: int
    rated: bool
    open: bool
    clock: dict[str, Any] | None
    host_id: int
    host: str
    user_id: int
    user: str
    created_at: datetime


@dataclass(frozen=True)
class Stored:
    """An invitation as stored: who made it, to whom, its state, its table and seat."""

    host_id: int
    user_id: int
    state: str
    game_id: str
    seat: int


def invitation_key(invitation_id: str) -> str:
    """The outbox's key of an invitation's messages."""
    return f"invite:{invitation_id}"


class FriendStore:
    def __init__(self, database: Database) -> None:
        self.database = database
        self.notices = NoticeStore(database)

    async def _lock_account(self, conn: AsyncConnection, user_id: int) -> None:
        """One account's follows or invitations counted and written one at a time
        (PostgreSQL; SQLite writes one transaction at a time anyway)."""
        if not self.database.sqlite:
            u = db.users
            await conn.execute(sa.select(u.c.id).where(u.c.id == user_id).with_for_update())

    # --- follows ----------------------------------------------------------------------
    async def follow(self, user_id: int, followed_id: int, limit: int) -> None:
        """`user_id` follows `followed_id` (again: nothing changes); refused beyond
        `limit` follows."""
        f = db.follows
        async with self.database.begin() as conn:
            await self._lock_account(conn, user_id)
            mine = f.c.user_id == user_id
            found = await conn.execute(
                sa.select(f.c.user_id).where(mine, f.c.followed_id == followed_id)
            )
            if found.first() is not None:
                return
            count = (await conn.execute(sa.select(sa.func.count()).where(mine))).scalar() or 0
            if int(count) >= limit:
                raise Refusal(
                    "too_many_follows", f"you follow {limit} players already: unfollow one first"
                )
            await conn.execute(
                self.database.insert(f)
                .values(user_id=user_id, followed_id=followed_id, created_at=now())
                .on_conflict_do_nothing(index_elements=["user_id", "followed_id"])
            )

    async def unfollow(self, user_id: int, followed_id: int) -> None:
        f = db.follows
        async with self.database.begin() as conn:
            await conn.execute(
                f.delete().where(f.c.user_id == user_id, f.c.followed_id == followed_id)
            )

    async def following(self, followers: Collection[int]) -> list[Followed]:
        """Whom each of `followers` follows, by name (deleted accounts left out)."""
        if not followers:
            return []
        f, u = db.follows, db.users
        query = (
            sa.select(f.c.user_id, f.c.followed_id, u.c.name, f.c.created_at)
            .join(u, u.c.id == f.c.followed_id)
            .where(f.c.user_id.in_(sorted(set(followers))), u.c.deleted.is_(False))
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Followed(r.user_id, r.followed_id, r.name, aware(r.created_at)) for r in rows]

    async def blocked(self, user_ids: Collection[int]) -> set[frozenset[int]]:
        """The pairs among `user_ids` on either side of a block."""
        return await blocked_pairs(self.database, user_ids)

    async def playing(
        self, user_ids: Collection[int], since: datetime, limit: int
    ) -> list[Playing]:
        """The games `user_ids` hold a person's seat at that anyone may watch — being
        played, or an open table waiting and changed since `since` — most recently
        changed first, at most `limit` in all."""
        if not user_ids:
            return []
        g, st = db.games, db.seats
        watchable = sa.or_(
            g.c.status == "active",
            sa.and_(g.c.status == "waiting", g.c.open, g.c.updated_at >= since),
        )
        query = (
            sa.select(
                st.c.user_id,
                g.c.id,
                g.c.game,
                g.c.players,
                g.c.status,
                g.c.rated,
                g.c.updated_at,
            )
            .join(g, g.c.id == st.c.game_id)
            .where(st.c.user_id.in_(sorted(set(user_ids))), st.c.kind == "human", watchable)
            .order_by(g.c.updated_at.desc(), g.c.id)
            .limit(limit)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        seen: set[tuple[int, str]] = set()
        out = []
        for r in rows:
            if (r.user_id, r.id) in seen:  # several seats of one game
                continue
            seen.add((r.user_id, r.id))
            out.append(
                Playing(
                    r.user_id,
                    r.id,
                    r.game,
                    r.players,
                    r.status,
                    bool(r.rated),
                    aware(r.updated_at),
                )
            )
        return out

    # --- invitations --------------------------------------------------------------------
    async def invite(
        self,
        invitation: Invitation,
        per_hour: int,
        since: datetime,
        mail: bool,
    ) -> bool:
        """Store a new invitation with its messages and its signal. Refused: more than
        `per_hour` by its host in the last hour (`rate_limited`), its guest already
        invited to that table (standing since `since`), its seat no longer free or its
        game no longer waiting. Whether a message was queued."""
        i, g, st = db.invitations, db.games, db.seats
        at = now()
        async with self.database.begin() as conn:
            await self._lock_account(conn, invitation.host_id)
            made = await conn.execute(
                sa.select(sa.func.count()).where(
                    i.c.host_id == invitation.host_id, i.c.created_at > at - timedelta(hours=1)
                )
            )
            if int(made.scalar() or 0) >= per_hour:
                raise Refusal(
                    "rate_limited", f"at most {per_hour} invitations an hour: wait a while"
                )
            again = await conn.execute(
                sa.select(i.c.id).where(
                    i.c.game_id == invitation.game_id,
                    i.c.user_id == invitation.user_id,
                    i.c.state == "pending",
                    i.c.created_at >= since,
                )
            )
            if again.first() is not None:
                raise Refusal("invite_refused", "this player is invited to this table already")
            seat = (
                await conn.execute(
                    sa.select(st.c.kind, st.c.taken, st.c.user_id, g.c.status)
                    .join(g, g.c.id == st.c.game_id)
                    .where(st.c.game_id == invitation.game_id, st.c.seat == invitation.seat)
                )
            ).first()
            if seat is None or seat.status != "waiting":
                raise Refusal("already_started", "the game has started: nobody is invited now")
            if seat.kind != "human" or seat.taken or seat.user_id is not None:
                raise Refusal("seat_taken", f"seat {invitation.seat + 1} is not free")
            await conn.execute(
                i.insert().values(
                    id=invitation.id,
                    game_id=invitation.game_id,
                    seat=invitation.seat,
                    host_id=invitation.host_id,
                    user_id=invitation.user_id,
                    state="pending",
                    created_at=at,
                )
            )
            payload = json.dumps(
                {
                    "host": invitation.host,
                    "game": invitation.game,
                    "players": invitation.players,
                    "seat": invitation.seat,
                    "rated": invitation.rated,
                }
            )
            queued = await self.notices.queue_now(
                conn,
                invitation_key(invitation.id),
                invitation.user_id,
                invitation.game_id,
                payload,
                mail,
            )
            await self.database.signal(conn, Signal(SignalKind.FRIENDS, invitation.game_id))
        return queued

    async def standing(
        self,
        since: datetime,
        *,
        users: Collection[int] = (),
        hosts: Collection[int] = (),
        game_id: str | None = None,
        invitation_id: str | None = None,
    ) -> list[Invitation]:
        """The pending invitations that still stand — made and their game changed since
        `since`, the game waiting, the seat free — to `users`, by `hosts`, to a game or
        by id; oldest first."""
        i, g, st = db.invitations, db.games, db.seats
        host, guest = db.users.alias("host"), db.users.alias("guest")
        which: list[sa.ColumnElement[bool]] = []
        if users:
            which.append(i.c.user_id.in_(sorted(set(users))))
        if hosts:
            which.append(i.c.host_id.in_(sorted(set(hosts))))
        if game_id is not None:
            which.append(i.c.game_id == game_id)
        if invitation_id is not None:
            which.append(i.c.id == invitation_id)
        if not which:
            return []
        query = (
            sa.select(
                i.c.id,
                i.c.game_id,
                i.c.seat,
                i.c.host_id,
                i.c.user_id,
                i.c.created_at,
                host.c.name.label("host"),
                guest.c.name.label("guest"),
                g.c.game,
                g.c.players,
                g.c.rated,
                g.c.open,
                g.c.clock,
            )
            .join(g, g.c.id == i.c.game_id)
            .join(st, sa.and_(st.c.game_id == i.c.game_id, st.c.seat == i.c.seat))
            .join(host, host.c.id == i.c.host_id)
            .join(guest, guest.c.id == i.c.user_id)
            .where(
                sa.or_(*which),
                i.c.state == "pending",
                i.c.created_at >= since,
                g.c.status == "waiting",
                g.c.updated_at >= since,
                st.c.kind == "human",
                st.c.taken.is_(False),
                st.c.user_id.is_(None),
                host.c.deleted.is_(False),
                guest.c.deleted.is_(False),
            )
            .order_by(i.c.created_at, i.c.id)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_invitation(r) for r in rows]

    async def stored(self, invitation_id: str) -> Stored | None:
        """An invitation as stored, standing or not."""
        i = db.invitations
        query = sa.select(i.c.host_id, i.c.user_id, i.c.state, i.c.game_id, i.c.seat).where(
            i.c.id == invitation_id
        )
        async with self.database.connect() as conn:
            row = (await conn.execute(query)).first()
        if row is None:
            return None
        return Stored(int(row.host_id), int(row.user_id), str(row.state), row.game_id, row.seat)

    async def end(self, invitation_id: str, state: str) -> bool:
        """A pending invitation `declined` or `withdrawn`, its unsent messages with it,
        and the other servers told; whether it was pending."""
        i = db.invitations
        async with self.database.begin() as conn:
            done = await conn.execute(
                i.update()
                .where(i.c.id == invitation_id, i.c.state == "pending")
                .values(state=state, ended_at=now())
                .returning(i.c.game_id)
            )
            game_id = done.scalar()
            if game_id is None:
                return False
            await self.notices.withdraw(conn, invitation_key(invitation_id))
            await self.database.signal(conn, Signal(SignalKind.FRIENDS, str(game_id)))
        return True

    def accepted(self, invitation_id: str) -> Followup:
        """In the transaction of the seat it gives: the invitation is taken, once —
        taken already (or ended), the seat is not given (`invitation_ended`)."""

        async def take(conn: AsyncConnection) -> None:
            i = db.invitations
            done = await conn.execute(
                i.update()
                .where(i.c.id == invitation_id, i.c.state == "pending")
                .values(state="accepted", ended_at=now())
            )
            if done.rowcount != 1:
                raise Refusal("invitation_ended", "this invitation was taken or withdrawn")
            await self.notices.withdraw(conn, invitation_key(invitation_id))

        return take

    async def export(self, user_id: int) -> dict[str, Any]:
        """For the account's data export: whom it follows, and every invitation it made
        or was sent, in whatever state, by the other account's name."""
        i, u = db.invitations, db.users
        host, guest = u.alias("host"), u.alias("guest")
        invitations = (
            sa.select(
                i.c.game_id,
                i.c.seat,
                i.c.state,
                i.c.created_at,
                i.c.ended_at,
                host.c.name.label("host"),
                guest.c.name.label("guest"),
            )
            .join(host, host.c.id == i.c.host_id)
            .join(guest, guest.c.id == i.c.user_id)
            .where(sa.or_(i.c.host_id == user_id, i.c.user_id == user_id))
            .order_by(i.c.created_at, i.c.id)
        )
        async with self.database.connect() as conn:
            invited = (await conn.execute(invitations)).all()
        followed = sorted(await self.following([user_id]), key=lambda f: (f.since, f.name))
        return {
            "following": [{"name": f.name, "since": iso_time(f.since)} for f in followed],
            "invitations": [
                {
                    "game": r.game_id,
                    "seat": r.seat,
                    "host": r.host,
                    "guest": r.guest,
                    "state": r.state,
                    "made": iso_time(r.created_at),
                    "ended": iso_time(r.ended_at) if r.ended_at else None,
                }
                for r in invited
            ],
        }

    async def forget_account(self, user_id: int) -> None:
        """A deleted account: whom it follows and who follows it, and its invitations
        still pending (made or received), go."""
        f, i = db.follows, db.invitations
        async with self.database.begin() as conn:
            await conn.execute(
                f.delete().where(sa.or_(f.c.user_id == user_id, f.c.followed_id == user_id))
            )
            await conn.execute(
                i.update()
                .where(
                    sa.or_(i.c.user_id == user_id, i.c.host_id == user_id),
                    i.c.state == "pending",
                )
                .values(state="withdrawn", ended_at=now())
            )


def _invitation(r: Any) -> Invitation:
    clock = ClockSpec.from_json(json.loads(r.clock)).to_json() if r.clock else None
    return Invitation(
        id=r.id,
        game_id=r.game_id,
        game=r.game,
        players=r.players,
        seat=r.seat,
        rated=bool(r.rated),
        open=bool(r.open),
        clock=clock,
        host_id=int(r.host_id),
        host=r.host,
        user_id=int(r.user_id),
        user=r.guest,
        created_at=aware(r.created_at),
    )
