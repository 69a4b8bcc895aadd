"""Moderation on disk: reports of chat lines and of players, which the server's admins
read and settle (the admin page, `euphrates admin reports`); an account's standing —
disabled or muted — which an admin changes and every server hears of at once (an
`account` signal, which closes the account's connections; its chat is checked against
the stored flag at every line); who the admins are; and blocks between two players,
which keep their chat lines apart and which quick match pairs around (`blocked_pairs`).

A report is stored once per reporter and thing reported while it is open: reporting
the same line or player again changes nothing, so no one player can make a line look
reported by many. Settling a report settles every open report of the same line or
player, and a mute or a disable it decides is written in the same transaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import name_key
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, iso_time, now
from euphrates.server.store.signals import Signal, SignalKind

RESOLUTIONS = ("dismissed", "muted", "disabled")
"""How an admin settles a report: nothing to do, or the account muted or disabled."""
CONTEXT_LINES = 3
"""Lines of the chat shown before and after a reported line."""
RECENT = 5
"""Earlier reports shown of the account a report is about."""


def _target() -> Any:
    """The account a report is about: the player reported, or who said the line."""
    return sa.func.coalesce(db.reports.c.target_user, db.chat.c.user_id)


def _with_lines() -> Any:
    """Reports with the chat line each reported, if any."""
    r, c = db.reports, db.chat
    return r.outerjoin(c, sa.and_(c.c.game_id == r.c.game_id, c.c.seq == r.c.seq))


class ModerationStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    # --- standing ---------------------------------------------------------------------
    async def standing(self, user_id: int, **values: bool) -> None:
        """Disable, enable, mute or unmute an account (`disabled=`, `muted=`); disabling
        ends its sessions. Every process hears of it in the same transaction."""
        async with self.database.begin() as conn:
            await self._stand(conn, user_id, values)

    async def _stand(self, conn: AsyncConnection, user_id: int, values: dict[str, bool]) -> None:
        await conn.execute(db.users.update().where(db.users.c.id == user_id).values(values))
        if values.get("disabled"):
            await conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user_id))
        await self.database.signal(conn, Signal(SignalKind.ACCOUNT, account=user_id))

    async def grant(self, user_id: int, admin: bool) -> None:
        """Make an account one of the server's admins, or no longer. Each request reads
        the account again, so nothing else needs telling."""
        async with self.database.begin() as conn:
            await conn.execute(
                db.users.update().where(db.users.c.id == user_id).values(admin=admin)
            )

    async def account(self, name: str) -> dict[str, Any] | None:
        """An account's standing as an admin sees it, with the latest reports of it."""
        u = db.users
        async with self.database.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(u.c.id, u.c.name, u.c.muted, u.c.disabled, u.c.admin).where(
                        u.c.name_key == name_key(name), u.c.deleted.is_(False)
                    )
                )
            ).first()
            if row is None:
                return None
            return {**_standing(row), "recent": await _recent(conn, row.id, ())}

    # --- reports ----------------------------------------------------------------------
    async def report(self, game_id: str, seq: int, reporter: int, reason: str) -> None:
        """A chat line reported; not one's own."""
        c = db.chat
        async with self.database.begin() as conn:
            line = (
                await conn.execute(
                    sa.select(c.c.user_id).where(c.c.game_id == game_id, c.c.seq == seq)
                )
            ).first()
            if line is None:
                raise Refusal("not_found", "no such chat line")
            if line.user_id == reporter:
                raise Refusal("bad_request", "that line is your own")
            await _file(conn, reporter, reason, kind="chat", game_id=game_id, seq=seq)

    async def report_player(self, target: int, reporter: int, reason: str) -> None:
        """A player reported from their profile; not oneself."""
        if target == reporter:
            raise Refusal("bad_request", "you cannot report yourself")
        async with self.database.begin() as conn:
            await _file(conn, reporter, reason, kind="player", target_user=target)

    async def settle(self, report_id: int, resolution: str, by: int) -> int | None:
        """Settle an open report, and every open report of the same line or player:
        dismissed, or the account it is about muted or disabled (in this transaction;
        never the admin's own, `by`, disabled). Returns that account when its standing
        changed."""
        assert resolution in RESOLUTIONS, resolution
        r = db.reports
        async with self.database.begin() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        r.c.kind, r.c.game_id, r.c.seq, r.c.target_user, _target().label("who")
                    )
                    .select_from(_with_lines())
                    .where(r.c.id == report_id, r.c.resolved_at.is_(None))
                )
            ).first()
            if row is None:
                raise Refusal("not_found", "no such open report")
            if row.kind == "chat":
                same = sa.and_(r.c.game_id == row.game_id, r.c.seq == row.seq)
            else:
                same = r.c.target_user == row.target_user
            settled = await conn.execute(
                r.update()
                .where(same, r.c.kind == row.kind, r.c.resolved_at.is_(None))
                .values(resolved_at=now(), resolution=resolution)
            )
            if not settled.rowcount:  # another admin was first
                raise Refusal("not_found", "that report was settled meanwhile")
            if resolution == "dismissed":
                return None
            if row.who is None:
                raise Refusal("unknown_user", "no account said that line: dismiss it")
            if row.who == by and resolution == "disabled":
                raise Refusal("bad_request", "you cannot disable your own account")
            await self._stand(conn, int(row.who), {resolution: True})
            return int(row.who)

    async def open_reports(self, most: int = 100) -> list[dict[str, Any]]:
        """The open reports for the admin page, oldest first, one entry per line or
        player reported (each reporter once): who reported it and why; for a line, the
        lines around it in its game and who said them; the account it is about, with
        its standing and its earlier reports."""
        r, u = db.reports, db.users
        query = (
            sa.select(
                r.c.id,
                r.c.kind,
                r.c.game_id,
                r.c.seq,
                r.c.target_user,
                r.c.reason,
                r.c.created_at,
                u.c.name.label("reporter"),
            )
            .join(u, u.c.id == r.c.reporter)
            .where(r.c.resolved_at.is_(None))
            .order_by(r.c.id)
        )
        cases: dict[tuple[Any, ...], dict[str, Any]] = {}
        async with self.database.connect() as conn:
            for x in (await conn.execute(query)).all():
                key = ("chat", x.game_id, x.seq) if x.kind == "chat" else ("player", x.target_user)
                case = cases.get(key)
                if case is None:
                    if len(cases) >= most:
                        continue
                    case = cases[key] = {
                        "id": x.id,
                        "kind": x.kind,
                        "at": iso_time(x.created_at),
                        "game": x.game_id,
                        "seq": x.seq,
                        "target": x.target_user,
                        "ids": [],
                        "reports": [],
                    }
                case["ids"].append(x.id)
                if all(p["reporter"] != x.reporter for p in case["reports"]):
                    case["reports"].append(
                        {"reporter": x.reporter, "reason": x.reason, "at": iso_time(x.created_at)}
                    )
            return [await _case(conn, case) for case in cases.values()]

    async def reports(self) -> list[dict[str, Any]]:
        """Every report, oldest first, for `euphrates admin reports`: a line with who
        said it, or a player, who reported it and how it was settled."""
        r, c, u = db.reports, db.chat, db.users
        said, target = u.alias("said"), u.alias("target")
        query = (
            sa.select(
                r.c.id,
                r.c.kind,
                r.c.game_id,
                r.c.seq,
                r.c.reason,
                r.c.created_at,
                r.c.resolution,
                u.c.name.label("reporter"),
                c.c.author,
                c.c.text,
                said.c.name.label("account"),
                target.c.name.label("player"),
            )
            .select_from(_with_lines())
            .join(u, u.c.id == r.c.reporter)
            .outerjoin(said, said.c.id == c.c.user_id)
            .outerjoin(target, target.c.id == r.c.target_user)
            .order_by(r.c.id)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "id": x.id,
                "kind": x.kind,
                "game": x.game_id,
                "seq": x.seq,
                "reason": x.reason,
                "at": iso_time(x.created_at),
                "reporter": x.reporter,
                "author": x.author,
                "account": x.account,
                "text": x.text,
                "player": x.player,
                "resolution": x.resolution,
            }
            for x in rows
        ]

    # --- blocks -----------------------------------------------------------------------
    async def block(self, user_id: int, blocked_id: int) -> None:
        """`user_id` blocks `blocked_id` (again: nothing changes). The `friends` signal
        tells every server's lobbies: a follow across a block shows nothing from now."""
        if user_id == blocked_id:
            raise Refusal("bad_request", "you cannot block yourself")
        async with self.database.begin() as conn:
            await conn.execute(
                self.database.insert(db.blocks)
                .values(user_id=user_id, blocked_id=blocked_id, created_at=now())
                .on_conflict_do_nothing(index_elements=["user_id", "blocked_id"])
            )
            await self.database.signal(conn, Signal(SignalKind.FRIENDS))

    async def unblock(self, user_id: int, blocked_id: int) -> None:
        b = db.blocks
        async with self.database.begin() as conn:
            await conn.execute(
                b.delete().where(b.c.user_id == user_id, b.c.blocked_id == blocked_id)
            )
            await self.database.signal(conn, Signal(SignalKind.FRIENDS))

    async def blocks(self, user_id: int, other: int) -> bool:
        """Whether `user_id` blocked `other` (not the other way round: that is
        `other`'s to know)."""
        b = db.blocks
        async with self.database.connect() as conn:
            found = await conn.execute(
                sa.select(b.c.user_id).where(b.c.user_id == user_id, b.c.blocked_id == other)
            )
            return found.first() is not None

    async def blocked(self, user_id: int) -> list[dict[str, str]]:
        """The players an account blocked, by name, for its own eyes (its export)."""
        b, u = db.blocks, db.users
        async with self.database.connect() as conn:
            rows = await conn.execute(
                sa.select(u.c.name, b.c.created_at)
                .join(u, u.c.id == b.c.blocked_id)
                .where(b.c.user_id == user_id)
                .order_by(b.c.created_at)
            )
            return [{"name": x.name, "since": iso_time(x.created_at)} for x in rows]


async def blocked_pairs(database: Database, user_ids: Iterable[int]) -> set[frozenset[int]]:
    """Every pair among `user_ids` where one blocked the other, either way."""
    ids = sorted(set(user_ids))
    if len(ids) < 2:
        return set()
    b = db.blocks
    async with database.connect() as conn:
        rows = await conn.execute(
            sa.select(b.c.user_id, b.c.blocked_id).where(
                b.c.user_id.in_(ids), b.c.blocked_id.in_(ids)
            )
        )
        return {frozenset((x.user_id, x.blocked_id)) for x in rows}


async def block_partners(
    conn: AsyncConnection, user_ids: Iterable[int]
) -> dict[int, frozenset[int]]:
    """For each of `user_ids`, the accounts on either side of a block with it: whose
    chat lines it does not get, and who does not get its."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}
    b = db.blocks
    rows = await conn.execute(
        sa.select(b.c.user_id, b.c.blocked_id).where(
            sa.or_(b.c.user_id.in_(ids), b.c.blocked_id.in_(ids))
        )
    )
    out: dict[int, set[int]] = {}
    for x in rows:
        out.setdefault(x.user_id, set()).add(x.blocked_id)
        out.setdefault(x.blocked_id, set()).add(x.user_id)
    return {i: frozenset(out.get(i, ())) for i in ids}


async def _file(conn: AsyncConnection, reporter: int, reason: str, **what: Any) -> None:
    """Store a report unless the reporter's same report is still open."""
    r = db.reports
    same = [r.c.reporter == reporter, r.c.resolved_at.is_(None)]
    same += [r.c[k] == v for k, v in what.items()]
    if (await conn.execute(sa.select(r.c.id).where(*same).limit(1))).first() is not None:
        return
    await conn.execute(
        r.insert().values(reporter=reporter, reason=reason, created_at=now(), **what)
    )


def _standing(row: Any) -> dict[str, Any]:
    return {
        "name": row.name,
        "muted": bool(row.muted),
        "disabled": bool(row.disabled),
        "admin": bool(row.admin),
    }


async def _case(conn: AsyncConnection, case: dict[str, Any]) -> dict[str, Any]:
    """One reported line or player as the admin page shows it (open_reports)."""
    c, u = db.chat, db.users
    context: list[dict[str, Any]] = []
    who = case["target"]
    if case["kind"] == "chat":
        seq = case["seq"]
        lines = await conn.execute(
            sa.select(c.c.seq, c.c.author, c.c.text, c.c.created_at, c.c.user_id, u.c.name)
            .outerjoin(u, u.c.id == c.c.user_id)
            .where(
                c.c.game_id == case["game"],
                c.c.seq.between(seq - CONTEXT_LINES, seq + CONTEXT_LINES),
            )
            .order_by(c.c.seq)
        )
        for x in lines:
            context.append(
                {
                    "seq": x.seq,
                    "author": x.author,
                    "account": x.name,
                    "text": x.text,
                    "at": iso_time(x.created_at),
                    "reported": x.seq == seq,
                }
            )
            if x.seq == seq:
                who = x.user_id
    account = None
    recent: list[dict[str, Any]] = []
    if who is not None:
        row = (
            await conn.execute(
                sa.select(u.c.name, u.c.muted, u.c.disabled, u.c.admin).where(u.c.id == who)
            )
        ).first()
        account = None if row is None else _standing(row)
        recent = await _recent(conn, who, case["ids"])
    return {
        "id": case["id"],
        "kind": case["kind"],
        "at": case["at"],
        "game": case["game"],
        "seq": case["seq"],
        "reports": case["reports"],
        "account": account,
        "context": context,
        "recent": recent,
    }


async def _recent(
    conn: AsyncConnection, user_id: int, besides: Iterable[int]
) -> list[dict[str, Any]]:
    """The latest reports of an account (of its lines, or of it), but `besides`."""
    r, c, u = db.reports, db.chat, db.users
    rows = await conn.execute(
        sa.select(
            r.c.kind,
            r.c.game_id,
            r.c.reason,
            r.c.created_at,
            r.c.resolution,
            c.c.text,
            u.c.name.label("reporter"),
        )
        .select_from(_with_lines())
        .join(u, u.c.id == r.c.reporter)
        .where(_target() == user_id, r.c.id.not_in(list(besides)))
        .order_by(r.c.id.desc())
        .limit(RECENT)
    )
    return [
        {
            "kind": x.kind,
            "game": x.game_id,
            "text": x.text,
            "reason": x.reason,
            "reporter": x.reporter,
            "at": iso_time(x.created_at),
            "resolution": x.resolution,
        }
        for x in rows
    ]
