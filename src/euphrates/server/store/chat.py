"""Chat lines on disk: numbered per game, capped, announced to the other servers; each
read with whom its speaker's blocks keep it from (moderation.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, StorageError, iso_time, now
from euphrates.server.store.moderation import block_partners
from euphrates.server.store.rows import ChatRow
from euphrates.server.store.signals import Signal, SignalKind


class ChatStore:
    def __init__(self, database: Database) -> None:
        self.database = database
        self._lock = asyncio.Lock()

    async def add_chat(
        self,
        game_id: str,
        seat: int | None,
        author: str,
        text: str,
        most: int = 1000,
        user_id: int | None = None,
    ) -> ChatRow:
        """Append a chat line with the next number; a number another server took
        first is retried. A game keeps at most `most` lines (ChatFull)."""
        async with self._lock:
            for _ in range(5):
                at = now()
                async with self.database.begin() as conn:
                    last = (
                        await conn.execute(
                            sa.select(sa.func.max(db.chat.c.seq)).where(
                                db.chat.c.game_id == game_id
                            )
                        )
                    ).scalar()
                    seq = int(last or 0) + 1
                    if seq > most:
                        raise ChatFull(f"this game's chat is full ({most} lines)")
                    insert = self.database.insert(db.chat)
                    result = await conn.execute(
                        insert.values(
                            game_id=game_id,
                            seq=seq,
                            seat=seat,
                            author=author,
                            text=text,
                            created_at=at,
                            user_id=user_id,
                        )
                        .on_conflict_do_nothing(index_elements=["game_id", "seq"])
                        .returning(db.chat.c.seq)
                    )
                    if result.first() is None:
                        continue
                    await self.database.signal(conn, Signal(SignalKind.CHAT, game_id))
                    hidden = await _hidden(conn, [user_id])
                return ChatRow(seq, seat, author, text, at.isoformat(), user_id, hidden(user_id))
        raise StorageError("could not store the chat message")

    async def load_chat(self, game_id: str, after: int = 0, limit: int = 200) -> list[ChatRow]:
        async with self.database.connect() as conn:
            found = await conn.execute(
                sa.select(db.chat)
                .where(db.chat.c.game_id == game_id, db.chat.c.seq > after)
                .order_by(db.chat.c.seq.desc())
                .limit(limit)
            )
            rows = found.all()[::-1]
            hidden = await _hidden(conn, [r.user_id for r in rows])
        return [
            ChatRow(
                r.seq,
                r.seat,
                r.author,
                r.text,
                iso_time(r.created_at),
                r.user_id,
                hidden(r.user_id),
            )
            for r in rows
        ]


async def _hidden(
    conn: AsyncConnection, speakers: list[int | None]
) -> Callable[[int | None], frozenset[int]]:
    """Whom each speaker's lines are not sent to: the blocks read with the lines, so
    a block counts from the next line on, on every server."""
    partners = await block_partners(conn, [s for s in speakers if s is not None])
    return lambda speaker: frozenset() if speaker is None else partners.get(speaker, frozenset())


class ChatFull(StorageError):
    """A game's chat holds as many lines as it may."""
