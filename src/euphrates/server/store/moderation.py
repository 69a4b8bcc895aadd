"""Moderation on disk: chat lines reported by players, read by the server's admins
(`euphrates admin reports`), and an account's standing — disabled or muted — which the
admin changes and every server hears of at once (an `account` signal, which closes the
account's connections; its chat is checked against the stored flag at every line).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, iso_time, now
from euphrates.server.store.signals import Signal, SignalKind


class ModerationStore:
    def __init__(self, database: Database) -> None:
        self.database = database

    async def standing(self, user_id: int, **values: bool) -> None:
        """Disable, enable, mute or unmute an account (`disabled=`, `muted=`); disabling
        ends its sessions. Every process hears of it in the same transaction."""
        async with self.database.begin() as conn:
            await conn.execute(db.users.update().where(db.users.c.id == user_id).values(values))
            if values.get("disabled"):
                await conn.execute(db.sessions.delete().where(db.sessions.c.user_id == user_id))
            await self.database.signal(conn, Signal(SignalKind.ACCOUNT, account=user_id))

    async def report(self, game_id: str, seq: int, reporter: int, reason: str) -> None:
        c = db.chat
        async with self.database.begin() as conn:
            line = (
                await conn.execute(sa.select(c.c.seq).where(c.c.game_id == game_id, c.c.seq == seq))
            ).first()
            if line is None:
                raise Refusal("not_found", "no such chat line")
            await conn.execute(
                db.reports.insert().values(
                    game_id=game_id, seq=seq, reporter=reporter, reason=reason, created_at=now()
                )
            )

    async def reports(self) -> list[dict[str, Any]]:
        """Reported chat lines, with who said and who reported them (for admins)."""
        r, c, u = db.reports, db.chat, db.users
        said = u.alias("said")
        query = (
            sa.select(
                r.c.id,
                r.c.game_id,
                r.c.seq,
                r.c.reason,
                r.c.created_at,
                u.c.name.label("reporter"),
                c.c.author,
                c.c.text,
                said.c.name.label("account"),
            )
            .join(u, u.c.id == r.c.reporter)
            .join(c, sa.and_(c.c.game_id == r.c.game_id, c.c.seq == r.c.seq))
            .outerjoin(said, said.c.id == c.c.user_id)
            .order_by(r.c.id)
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [
            {
                "id": x.id,
                "game": x.game_id,
                "seq": x.seq,
                "reason": x.reason,
                "at": iso_time(x.created_at),
                "reporter": x.reporter,
                "author": x.author,
                "account": x.account,
                "text": x.text,
            }
            for x in rows
        ]
