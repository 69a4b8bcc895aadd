"""Chat lines on disk: numbered per game, capped, announced to the other servers."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from euphrates.server.store import models as db
from euphrates.server.store.database import StorageError, StoreBase, iso_time, now


@dataclass(frozen=True)
class ChatRow:
    seq: int
    seat: int | None
    author: str
    text: str
    at: str


class ChatStore(StoreBase):
    _chat_lock: asyncio.Lock

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
        async with self._chat_lock:
            for _ in range(5):
                at = now()
                async with self.engine.begin() as conn:
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
                    insert = sqlite_insert(db.chat) if self.sqlite else pg_insert(db.chat)
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
                    await self._notify(conn, {"t": "chat", "g": game_id})
                return ChatRow(seq, seat, author, text, at.isoformat())
        raise StorageError("could not store the chat message")

    async def load_chat(self, game_id: str, after: int = 0, limit: int = 200) -> list[ChatRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(db.chat)
                .where(db.chat.c.game_id == game_id, db.chat.c.seq > after)
                .order_by(db.chat.c.seq.desc())
                .limit(limit)
            )
            out = [ChatRow(r.seq, r.seat, r.author, r.text, iso_time(r.created_at)) for r in rows]
        out.reverse()
        return out


class ChatFull(StorageError):
    """A game's chat holds as many lines as it may."""
