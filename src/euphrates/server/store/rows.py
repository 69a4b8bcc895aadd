"""What the store reads and writes about a game, as plain values: its row, its seats,
its log entries and its chat lines. The game layer builds rooms from them; nothing
here knows a connection or a client."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from euphrates.server.common.clock import Clock


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" | "bot"
    level: str | None = None
    name: str | None = None
    token_hash: str | None = None
    taken: bool = False
    user_id: int | None = None
    """The account the seat belongs to; then its token alone no longer acts for it."""


@dataclass
class GameRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    host_hash: str
    seats: list[SeatRow] = field(default_factory=list)
    created_at: datetime = field(default_factory=now)
    updated_at: datetime = field(default_factory=now)
    wake: bool = False
    """Whether some server must act on the game (a bot to move, a deadline):
    `wake_at` is set."""
    clock: Clock | None = None
    driver: str | None = None
    """The server process that acts on the game while `wake` is set."""
    open: bool = False
    """An open table: listed in the lobby while it waits, for anyone signed in."""
    creator: int | None = None
    """The account that opened it (its host)."""
    rated: bool = False
    paused: dict[int, datetime] = field(default_factory=dict)
    """Turn-based: the seats whose account is on vacation now, until when."""
    verdict: str | None = None
    """A rated game's outcome for the ratings once it ended: counted, repeat, voided."""
    changes: dict[int, tuple[int, int]] = field(default_factory=dict)
    """A rated game that ended: each account's seat's rating before and after it, on
    the shown scale (none for a repeat or a voided game)."""


@dataclass(frozen=True)
class LogRow:
    version: int
    seat: int | None
    kind: str  # "action" | "undo"
    text: str | None
    bot: str | None = None
    """The level of a bot that made this move for a person's seat (out of time)."""


@dataclass(frozen=True)
class ChatRow:
    seq: int
    seat: int | None
    author: str
    text: str
    at: str
    user_id: int | None = None
    """The account that said it: the server's to know, never a client's (the chat's
    answers have no field for it)."""
    hidden: frozenset[int] = frozenset()
    """The accounts on either side of a block with the speaker's, as the blocks stood
    when the line was read: it is not sent to them."""

    def heard_by(self, user_id: int | None) -> bool:
        """Whether the line may reach a client signed in to `user_id` (None: not signed
        in, so no block can stand between them)."""
        return user_id is None or user_id not in self.hidden


Wake = bool | datetime | None
"""What a write does to `wake_at`: True sets it to now (a bot to move), a time sets it
to that deadline, False clears it (each with this server as driver), None leaves it."""
