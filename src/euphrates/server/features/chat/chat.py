"""What is said at a table: who speaks (a seat by its name, a spectator by the account's
name), a muted account refused, the line stored and told to the game's clients but
those a block keeps it from; and a line reported to the server's admins
(features/moderation/ settles the reports)."""

from __future__ import annotations

from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import clean_chat, clean_reason
from euphrates.server.game.room import Room
from euphrates.server.store.accounts import AccountStore, User
from euphrates.server.store.chat import ChatFull, ChatStore
from euphrates.server.store.database import Database, StorageError
from euphrates.server.store.moderation import ModerationStore
from euphrates.server.store.rows import ChatRow


class Chat:
    def __init__(self, settings: Settings, database: Database, store: ChatStore) -> None:
        self.settings = settings
        self.store = store
        self.accounts = AccountStore(database)
        self.moderation = ModerationStore(database)

    async def say(
        self, room: Room, seats: frozenset[int], text: object, user: User | None = None
    ) -> ChatRow:
        """Say `text` at the table as the lowest of `seats` (by its name or number),
        or as a spectator when `seats` is empty (by the signed-in `user`'s name). The
        line is the account's — the speaker's, or that of the seat spoken for — and
        an account an admin muted may not chat."""
        settings = self.settings
        seat = min(seats) if seats else None
        if seat is None:
            author = "spectator" if user is None else user.name
            speaker = None if user is None else user.id
        else:
            author = room.row.seats[seat].name or f"Player {seat + 1}"
            speaker = room.row.seats[seat].user_id or (None if user is None else user.id)
        clean = clean_chat(text, settings.chat_max)
        if speaker is not None and await self.accounts.is_muted(speaker):
            raise Refusal("muted", "this account is muted: it cannot chat")
        try:
            row = await self.store.add_chat(
                room.id, seat, author, clean, settings.chat_lines, speaker
            )
        except ChatFull as e:
            raise Refusal("chat_full", str(e)) from None
        except StorageError as e:
            raise Refusal("storage_unavailable", str(e)) from None
        room.audience.said(row)
        return row

    async def read(self, room: Room, after: int = 0, reader: User | None = None) -> list[ChatRow]:
        """The chat's last lines, but those a block keeps from `reader`."""
        rows = await self.store.load_chat(room.id, after=after)
        return heard(rows, reader)

    async def report(self, room: Room, seq: int, reporter: User, reason: str) -> None:
        """A signed-in player reports line `seq` of the game's chat."""
        await self.moderation.report(room.id, seq, reporter.id, clean_reason(reason))


def heard(rows: list[ChatRow], reader: User | None) -> list[ChatRow]:
    """The lines a client signed in to `reader` may be sent."""
    return [r for r in rows if r.heard_by(None if reader is None else reader.id)]
