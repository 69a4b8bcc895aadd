"""What the lobby lists, on disk: the open tables still waiting, and an account's own
games with who sits where. (A table's seats are written as any game's, games.py.)

What is read here is projected to what any player may see (no token's hash, no seed,
no account's id leaves this module but to mark the reader's own seats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from euphrates.match.ratings import MU, SIGMA, display, group_of
from euphrates.server.common.clock import ClockSpec
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware
from euphrates.server.store.rows import SeatRow


@dataclass
class Listed:
    """A game as the lobby shows it. A column the lobby should show (a game being
    rated, say) is one more field here, read in `_listed`, and one more in the
    entry's model (features/tables/schemas.py)."""

    id: str
    game: str
    players: int
    status: str
    options: dict[str, Any]
    clock: dict[str, Any] | None
    """The clock chosen (as `ClockSpec.to_json`), or None."""
    created_at: datetime
    updated_at: datetime
    creator: int | None = None
    creator_name: str | None = None
    seats: list[SeatRow] = field(default_factory=list)
    rated: bool = False
    ratings: dict[int, int] = field(default_factory=dict)
    """Each seated account's shown rating in the game and its player-count group (as
    its profile and the leaderboard show it; a newcomer's where it has none), by seat."""


async def waiting_tables(database: Database, since: datetime, limit: int) -> list[Listed]:
    """The open tables waiting for players, changed since `since` (older ones are
    expiring), newest first."""
    g = db.games
    query = _listed_query().where(g.c.open, g.c.status == "waiting", g.c.updated_at >= since)
    return await _read(database, query.order_by(g.c.created_at.desc(), g.c.id).limit(limit))


async def games_of(database: Database, user_id: int, limit: int) -> list[Listed]:
    """An account's games not yet ended, most recently changed first."""
    g, st = db.games, db.seats
    query = _listed_query().where(
        g.c.id.in_(sa.select(st.c.game_id).where(st.c.user_id == user_id)),
        g.c.status.in_(("waiting", "active")),
    )
    return await _read(database, query.order_by(g.c.updated_at.desc(), g.c.id).limit(limit))


def _listed_query() -> sa.Select[Any]:
    g, u = db.games, db.users
    return sa.select(
        g.c.id,
        g.c.game,
        g.c.players,
        g.c.status,
        g.c.options,
        g.c.clock,
        g.c.created_at,
        g.c.updated_at,
        g.c.creator,
        u.c.name.label("creator_name"),
        g.c.rated,
    ).select_from(g.outerjoin(u, u.c.id == g.c.creator))


async def _read(database: Database, query: sa.Select[Any]) -> list[Listed]:
    st, rt = db.seats, db.ratings
    async with database.connect() as conn:
        rows = (await conn.execute(query)).all()
        ids = [r.id for r in rows]
        seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
        if ids:
            found = await conn.execute(
                sa.select(st).where(st.c.game_id.in_(ids)).order_by(st.c.game_id, st.c.seat)
            )
            for s in found:
                seats[s.game_id].append(_seat(s))
        users = sorted({s.user_id for ss in seats.values() for s in ss if s.user_id is not None})
        rated: dict[tuple[int, str, str], int] = {}
        if users:
            found = await conn.execute(
                sa.select(rt.c.user_id, rt.c.game, rt.c.grp, rt.c.mu, rt.c.sigma).where(
                    rt.c.user_id.in_(users), rt.c.games > 0
                )
            )
            rated = {(r.user_id, r.game, r.grp): display(r.mu, r.sigma) for r in found}
    newcomer = display(MU, SIGMA)
    return [
        Listed(
            id=r.id,
            game=r.game,
            players=r.players,
            status=r.status,
            options=json.loads(r.options),
            clock=ClockSpec.from_json(json.loads(r.clock)).to_json() if r.clock else None,
            created_at=aware(r.created_at),
            updated_at=aware(r.updated_at),
            creator=r.creator,
            creator_name=r.creator_name,
            seats=seats[r.id],
            rated=bool(r.rated),
            ratings={
                s.seat: rated.get((s.user_id, r.game, group_of(r.players)), newcomer)
                for s in seats[r.id]
                if s.user_id is not None
            },
        )
        for r in rows
    ]


def _seat(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash, bool(r.taken), r.user_id)
