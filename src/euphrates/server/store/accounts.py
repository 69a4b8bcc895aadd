"""Accounts on disk: users, their sessions, what they played and said.

A session is a random 256-bit id held in the browser's cookie; the database keeps only
its SHA-256, so a leaked database opens no session, and ending a session (log out, log
out everywhere, an account disabled or deleted) is deleting rows. A seat tied to an
account (`seats.user_id`) is what makes "my games" follow a player to any browser.

Nothing here answers with a password hash, a session id or a seat's token: the rows
read are projected to the fields a client may see before they leave this module.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import DELETED_PREFIX, name_key
from euphrates.server.store import lifetime
from euphrates.server.store import models as db
from euphrates.server.store.database import Database
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.signals import Signal, SignalKind

SESSION_BYTES = 32
TOUCH_EVERY = timedelta(minutes=5)
"""`last_seen` is written at most this often per session: a request is not a write."""
ENDED = ("over", "abandoned", "aborted")


def now() -> datetime:
    return datetime.now(UTC)


def session_hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()


def csrf_token(session_id: str) -> str:
    """The session's CSRF token: derived from its id, which only the browser's cookie
    holds (HttpOnly) — a page of another site can neither read the cookie nor this."""
    return hmac.new(session_id.encode(), b"euphrates csrf", hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class User:
    id: int
    name: str
    created_at: datetime
    disabled: bool = False
    muted: bool = False
    admin: bool = False
    """One of the server's admins (`euphrates admin grant`): the admin page is theirs."""

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "created": _iso(self.created_at)}


class AccountStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    # --- users -----------------------------------------------------------------------
    async def create(self, name: str, password_hash: str) -> User:
        at = now()
        try:
            async with self.database.begin() as conn:
                uid = (
                    await conn.execute(
                        db.users.insert()
                        .values(
                            name=name,
                            name_key=name_key(name),
                            password_hash=password_hash,
                            created_at=at,
                        )
                        .returning(db.users.c.id)
                    )
                ).scalar_one()
        except IntegrityError:
            raise Refusal("name_taken", "that name is taken; choose another") from None
        return User(int(uid), name, at)

    async def find(self, name: str) -> tuple[User, str] | None:
        """The account of `name` and its password hash (never leaves the server)."""
        u = db.users
        async with self.database.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u).where(u.c.name_key == name_key(name), u.c.deleted.is_(False))
                )
            ).first()
        return None if row is None else (_user(row), str(row.password_hash))

    async def set_password(self, user_id: int, password_hash: str) -> None:
        """Change an account's password hash: its sessions end (its standing, disabled
        or muted, is moderation's: moderation.py)."""
        async with self.database.begin() as conn:
            await conn.execute(
                db.users.update()
                .where(db.users.c.id == user_id)
                .values(password_hash=password_hash)
            )
            await conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user_id))

    async def is_muted(self, user_id: int) -> bool:
        async with self.database.connect() as conn:
            muted = (
                await conn.execute(sa.select(db.users.c.muted).where(db.users.c.id == user_id))
            ).scalar()
        return bool(muted)

    # --- sessions --------------------------------------------------------------------
    async def open_session(self, user_id: int, days: float) -> str:
        session_id = secrets.token_urlsafe(SESSION_BYTES)
        at = now()
        async with self.database.begin() as conn:
            await conn.execute(db.sessions.delete().where(db.sessions.c.expires_at < at))
            await conn.execute(
                db.sessions.insert().values(
                    id_hash=session_hash(session_id),
                    user_id=user_id,
                    created_at=at,
                    last_seen=at,
                    expires_at=at + timedelta(days=days),
                )
            )
        return session_id

    async def session(self, session_id: str) -> User | None:
        """The account a live session belongs to, or None (unknown, expired, ended, or
        its account disabled or deleted)."""
        s, u = db.sessions, db.users
        key = session_hash(session_id)
        async with self.database.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u, s.c.last_seen, s.c.expires_at)
                    .join(s, s.c.user_id == u.c.id)
                    .where(s.c.id_hash == key)
                )
            ).first()
        at = now()
        if row is None or _aware(row.expires_at) <= at or row.disabled or row.deleted:
            return None
        if at - _aware(row.last_seen) > TOUCH_EVERY:
            async with self.database.begin() as conn:
                await conn.execute(s.update().where(s.c.id_hash == key).values(last_seen=at))
        return _user(row)

    async def end_session(self, session_id: str) -> None:
        async with self.database.begin() as conn:
            await conn.execute(
                db.sessions.delete().where(db.sessions.c.id_hash == session_hash(session_id))
            )

    async def end_sessions(self, user_id: int) -> int:
        async with self.database.begin() as conn:
            result = await conn.execute(
                db.sessions.delete().where(db.sessions.c.user_id == user_id)
            )
        return int(result.rowcount or 0)

    # --- what an account played ------------------------------------------------------
    async def games(self, user_id: int, ended_only: bool = False, limit: int = 200) -> list[Any]:
        """The games with a seat of the account, newest first, each with its seats."""
        g, st = db.games, db.seats
        query = (
            sa.select(g.c.id, g.c.game, g.c.players, g.c.status, g.c.created_at, g.c.updated_at)
            .where(g.c.id.in_(sa.select(st.c.game_id).where(st.c.user_id == user_id)))
            .order_by(g.c.updated_at.desc(), g.c.id)
            .limit(limit)
        )
        if ended_only:
            query = query.where(g.c.status.in_(ENDED))
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
            seats = (
                await conn.execute(
                    sa.select(st.c.game_id, st.c.seat).where(
                        st.c.user_id == user_id, st.c.game_id.in_([r.id for r in rows])
                    )
                )
            ).all()
        mine: dict[str, list[int]] = {}
        for s in seats:
            mine.setdefault(s.game_id, []).append(int(s.seat))
        return [
            {
                "id": r.id,
                "game": r.game,
                "players": r.players,
                "status": r.status,
                "seats": sorted(mine.get(r.id, [])),
                "created": _iso(r.created_at),
                "updated": _iso(r.updated_at),
                "link": f"/g/{r.id}",
                "replay": f"/replay/{r.id}" if r.status in ENDED else None,
            }
            for r in rows
        ]

    async def counts(self, user_id: int) -> dict[str, int]:
        """Games played per game kind."""
        g, st = db.games, db.seats
        query = (
            sa.select(g.c.game, sa.func.count(sa.distinct(g.c.id)))
            .join(st, st.c.game_id == g.c.id)
            .where(st.c.user_id == user_id)
            .group_by(g.c.game)
        )
        async with self.database.connect() as conn:
            return {r[0]: int(r[1]) for r in await conn.execute(query)}

    async def export(self, user: User) -> dict[str, Any]:
        """Everything stored about the account that is its own: no hash, no session
        id, no token, nobody else's words."""
        s, st, c = db.sessions, db.seats, db.chat
        async with self.database.connect() as conn:
            sessions = (
                await conn.execute(
                    sa.select(s.c.created_at, s.c.last_seen, s.c.expires_at)
                    .where(s.c.user_id == user.id)
                    .order_by(s.c.created_at)
                )
            ).all()
            seats = (
                await conn.execute(
                    sa.select(st.c.game_id, st.c.seat, st.c.name, st.c.taken)
                    .where(st.c.user_id == user.id)
                    .order_by(st.c.game_id, st.c.seat)
                )
            ).all()
            chat = (
                await conn.execute(
                    sa.select(c.c.game_id, c.c.seq, c.c.author, c.c.text, c.c.created_at)
                    .where(c.c.user_id == user.id)
                    .order_by(c.c.created_at, c.c.seq)
                )
            ).all()
            settings = (
                await conn.execute(sa.select(db.users.c.settings).where(db.users.c.id == user.id))
            ).scalar()
        return {
            "account": {
                **user.public(),
                "muted": user.muted,
                "settings": json.loads(settings or "{}"),
            },
            "sessions": [
                {"created": _iso(r[0]), "last_seen": _iso(r[1]), "expires": _iso(r[2])}
                for r in sessions
            ],
            "games": await self.games(user.id, limit=10_000),
            "seats": [
                {"game": r.game_id, "seat": r.seat, "name": r.name, "taken": bool(r.taken)}
                for r in seats
            ],
            "chat": [
                {
                    "game": r.game_id,
                    "seq": r.seq,
                    "author": r.author,
                    "text": r.text,
                    "at": _iso(r.created_at),
                }
                for r in chat
            ],
            "blocked": await ModerationStore(self.database).blocked(user.id),
        }

    async def delete(self, user_id: int) -> str:
        """Delete an account: its games stay, its name is replaced everywhere it shows
        (the account, its seats, its chat lines) and its sessions end. Returns the
        name it is shown by now."""
        shown = f"{DELETED_PREFIX}{secrets.token_hex(4)}"
        async with self.database.begin() as conn:
            await conn.execute(
                db.users.update()
                .where(db.users.c.id == user_id)
                .values(
                    name=shown,
                    name_key=shown,
                    password_hash="!",
                    disabled=True,
                    deleted=True,
                    settings="{}",
                )
            )
            await conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user_id))
            await conn.execute(
                db.seats.update().where(db.seats.c.user_id == user_id).values(name=shown)
            )
            await conn.execute(
                db.chat.update().where(db.chat.c.user_id == user_id).values(author=shown)
            )
            await lifetime.forget(conn, user_id)
            await self.database.signal(conn, Signal(SignalKind.ACCOUNT, account=user_id))
        return shown


def _user(row: Any) -> User:
    return User(
        int(row.id),
        str(row.name),
        _aware(row.created_at),
        bool(row.disabled),
        bool(row.muted),
        bool(row.admin),
    )


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _iso(value: datetime) -> str:
    return _aware(value).isoformat()
