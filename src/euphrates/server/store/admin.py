"""What `euphrates admin games` lists, read from the database directly."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from euphrates.server.store import models as db
from euphrates.server.store.database import Database


@dataclass(frozen=True)
class GameLine:
    """One game as the admin's list shows it: who plays it by name or bot level."""

    id: str
    game: str
    players: int
    status: str
    updated: str
    seats: list[str]


async def list_games(database: Database, status: str | None, limit: int) -> list[GameLine]:
    """The newest changed games first (`status`: only those), at most `limit`."""
    g, s = db.games, db.seats
    query = sa.select(g.c.id, g.c.game, g.c.players, g.c.status, g.c.updated_at)
    if status:
        query = query.where(g.c.status == status)
    query = query.order_by(g.c.updated_at.desc()).limit(max(1, min(limit, 10_000)))
    async with database.connect() as conn:
        rows = (await conn.execute(query)).all()
        seats = (
            await conn.execute(
                sa.select(s.c.game_id, s.c.seat, s.c.kind, s.c.level, s.c.name)
                .where(s.c.game_id.in_([r.id for r in rows]))
                .order_by(s.c.seat)
            )
        ).all()
    names: dict[str, list[str]] = {}
    for x in seats:
        label = f"bot:{x.level}" if x.kind == "bot" else x.name or f"Player {x.seat + 1}"
        names.setdefault(x.game_id, []).append(label)
    return [
        GameLine(r.id, r.game, r.players, r.status, str(r.updated_at)[:19], names.get(r.id, []))
        for r in rows
    ]
