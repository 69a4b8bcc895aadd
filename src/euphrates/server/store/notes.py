"""Notes: what happens to a game between its versions, told in its move log and kept in
its record — a seat's clock running out, a bot playing a late turn or standing in for a
person, the person back, a seat given to a bot by the host.

A note is written in the transaction of the change it tells of (a follow-up of the
clock's write), so it exists exactly when the change does, once, whichever server made
it. It holds only public facts: who, what, which bot, after which version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, iso_time, now

NoteKind = Literal[
    "out_of_time",
    "late_turn",
    "standin",
    "back",
    "replaced",
    "resigned",
    "left",
    "forfeited",
    "aborted",
    "vacation",
    "ended",
    "hint",
]
"""`out_of_time`: a real-time seat's bank ran dry (the others may let a bot play it);
`late_turn`: a turn-based seat's deadline passed and a bot of `level` plays that turn;
`standin`: seat `by` let a bot of `level` play the seat; `back`: its player took it
back; `replaced`: the host gave the seat to a bot of `level` for the rest of the game;
`resigned`: the seat's player resigned a rated game and a bot of `level` plays it to
the end; `left`: the seat's account was deleted and a bot of `level` plays it to the
end; `forfeited`: a deserter's seat (out of time and not back within its grace, or
its turn-based deadlines missed in a row) played by a bot of `level` to the end;
`aborted`: the seat's player left a rated game before it was played, which ends it
unrated (`seat` None: its host ended it); `vacation`: the seat's account went on
vacation, its turn-based clock stands still; `ended`: the server's admin ended the game (`euphrates admin end-game`); `hint`: the seat's player asked a bot of `level` for a move (features/hints/)
(match/records.py lists the kinds a record may hold)."""


@dataclass(frozen=True)
class Note:
    version: int
    kind: str
    seat: int | None
    level: str | None = None
    by: int | None = None
    at: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "kind": self.kind, "seat": self.seat}
        if self.level is not None:
            out["level"] = self.level
        if self.by is not None:
            out["by"] = self.by
        out["at"] = self.at
        return out


def writing(game_id: str, note: Note) -> Followup:
    """The note as a follow-up of the write that makes it true."""

    async def write(conn: AsyncConnection) -> None:
        await conn.execute(
            db.notes.insert().values(
                game_id=game_id,
                version=note.version,
                kind=note.kind,
                seat=note.seat,
                level=note.level,
                by_seat=note.by,
                created_at=now(),
            )
        )

    return write


async def load_notes(database: Database, game_id: str) -> list[Note]:
    async with database.connect() as conn:
        rows = await conn.execute(
            sa.select(db.notes).where(db.notes.c.game_id == game_id).order_by(db.notes.c.id)
        )
        return [
            Note(r.version, r.kind, r.seat, r.level, r.by_seat, iso_time(r.created_at))
            for r in rows
        ]
