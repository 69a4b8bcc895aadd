"""Open tables on disk: a new game opened with its creator seated, a player leaving a
seat, and what the lobby lists — the open tables still waiting, and an account's own
games with who sits where.

What is read here is projected to what any player may see (no token's hash, no seed,
no account's id leaves this module but to mark the reader's own seats).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.accounts import User
from euphrates.server.store.database import aware
from euphrates.server.store.games import SeatRow, Store, now


@dataclass
class Listed:
    """A game as the lobby shows it. A column the lobby should show (a game being
    rated, say) is one more field here, read in `_listed`, and one more in the
    entry's model (table_models.py)."""

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


async def open_table(store: Store, game_id: str, seat: int, user: User) -> list[SeatRow]:
    """Make a game just created an open table: `user` opened it and sits at `seat`.
    Other servers hear of it as of any change of seats (their lobbies show it)."""
    async with store.engine.begin() as conn:
        await conn.execute(
            db.games.update().where(db.games.c.id == game_id).values(open=True, creator=user.id)
        )
        await conn.execute(
            db.seats.update()
            .where(db.seats.c.game_id == game_id, db.seats.c.seat == seat)
            .values(taken=True, user_id=user.id, name=user.name)
        )
        seats = await Store._seats(conn, game_id)
        await store._notify(conn, {"t": "seats", "g": game_id})
    return seats


async def leave(store: Store, game_id: str, user_id: int) -> list[SeatRow]:
    """Free the seats `user_id` holds in a game still waiting: not taken, no account's,
    no name (their invitation links open them again). The game's row is locked first,
    as when a seat is taken, so a leave and the last seat taken are never both half
    done."""
    g, st = db.games, db.seats
    async with store.engine.begin() as conn:
        lock = sa.select(g.c.status).where(g.c.id == game_id)
        if not store.sqlite:
            lock = lock.with_for_update()
        status = (await conn.execute(lock)).scalar_one()
        if status == "abandoned":
            raise Refusal("abandoned", "the host abandoned this game")
        if status == "over":
            raise Refusal("game_over", "the game has ended")
        if status != "waiting":
            raise Refusal("already_started", "the game has started: a seat is left by playing on")
        freed = await conn.execute(
            st.update()
            .where(st.c.game_id == game_id, st.c.user_id == user_id, st.c.kind == "human")
            .values(taken=False, user_id=None, name=None)
        )
        if not freed.rowcount:
            raise Refusal("not_your_seat", "you have no seat at this table")
        await conn.execute(g.update().where(g.c.id == game_id).values(updated_at=now()))
        seats = await Store._seats(conn, game_id)
        await store._notify(conn, {"t": "seats", "g": game_id})
    return seats


async def waiting_tables(store: Store, since: datetime, limit: int) -> list[Listed]:
    """The open tables waiting for players, changed since `since` (older ones are
    expiring), newest first."""
    g = db.games
    query = _listed_query().where(g.c.open, g.c.status == "waiting", g.c.updated_at >= since)
    return await _read(store, query.order_by(g.c.created_at.desc(), g.c.id).limit(limit))


async def games_of(store: Store, user_id: int, limit: int) -> list[Listed]:
    """An account's games not yet ended, most recently changed first."""
    g, st = db.games, db.seats
    query = _listed_query().where(
        g.c.id.in_(sa.select(st.c.game_id).where(st.c.user_id == user_id)),
        g.c.status.in_(("waiting", "active")),
    )
    return await _read(store, query.order_by(g.c.updated_at.desc(), g.c.id).limit(limit))


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


async def _read(store: Store, query: sa.Select[Any]) -> list[Listed]:
    st = db.seats
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        ids = [r.id for r in rows]
        seats: dict[str, list[SeatRow]] = {i: [] for i in ids}
        if ids:
            found = await conn.execute(
                sa.select(st).where(st.c.game_id.in_(ids)).order_by(st.c.game_id, st.c.seat)
            )
            for s in found:
                seats[s.game_id].append(_seat(s))
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
        )
        for r in rows
    ]


def _seat(r: Any) -> SeatRow:
    return SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash, bool(r.taken), r.user_id)
