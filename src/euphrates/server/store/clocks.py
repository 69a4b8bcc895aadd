"""A game's clock in the database: read with the game, written with a version or on its
own (a game starting, a deadline acted on, a bot standing in, a player back).

The store's single writer runs these writes in its group-committed transactions, beside
the log's appends: on SQLite a second writer would wait for the first (SQLite's busy
handler sleeps in steps of up to 100 ms), and one fsync covers them all.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.clock import Clock, ClockSpec
from euphrates.server.store import models as db
from euphrates.server.store.database import Followup


@dataclass
class ClockWrite:
    """A clock changed between versions; `expect`: only if the game's stored wake is
    still that one (what fell due is acted on once)."""

    game_id: str
    clock: Clock
    values: dict[str, Any]
    expect: Any
    done: asyncio.Future[bool]
    after: tuple[Followup, ...] = ()
    """Written with the clock, only if it is stored (a note of what happened)."""


def ms(seconds: float) -> int:
    return round(seconds * 1000)


def clock_values(clock: Clock | None) -> dict[str, Any]:
    """The game's columns of its clock (none: all empty)."""
    if clock is None:
        return {"clock_seat": None, "clock_since": None, "deadline": None}
    return {"clock_seat": clock.seat, "clock_since": clock.since, "deadline": clock.deadline}


def spec_json(clock: Clock | None) -> str | None:
    return json.dumps(clock.spec.to_json()) if clock is not None else None


async def read_clock(conn: AsyncConnection, row: Any, aware: Any) -> Clock:
    """A game's clock as stored (`row` is its games row; `aware` gives a stored time
    its zone)."""
    spec = ClockSpec.from_json(json.loads(row.clock))
    st = db.seats.c
    rows = (
        await conn.execute(
            sa.select(st.remaining_ms, st.standin, st.forfeit_at, st.missed)
            .where(st.game_id == row.id)
            .order_by(st.seat)
        )
    ).all()
    return Clock(
        spec,
        [spec.start() if r.remaining_ms is None else r.remaining_ms / 1000 for r in rows],
        [r.standin for r in rows],
        seat=row.clock_seat,
        since=aware(row.clock_since) if row.clock_since is not None else None,
        deadline=aware(row.deadline) if row.deadline is not None else None,
        forfeit=[aware(r.forfeit_at) if r.forfeit_at is not None else None for r in rows],
        missed=[int(r.missed or 0) for r in rows],
    )


SEATS_STATEMENT = (
    db.seats.update()
    .where(db.seats.c.game_id == sa.bindparam("g_id"), db.seats.c.seat == sa.bindparam("g_seat"))
    .values(
        remaining_ms=sa.bindparam("g_ms"),
        standin=sa.bindparam("g_standin"),
        forfeit_at=sa.bindparam("g_forfeit"),
        missed=sa.bindparam("g_missed"),
    )
)
"""A seat's clock figures, one statement for many seats of many games (executemany)."""

GAMES_STATEMENT = (
    db.games.update()
    .where(db.games.c.id == sa.bindparam("g_id"))
    .values(
        clock_seat=sa.bindparam("g_clock_seat"),
        clock_since=sa.bindparam("g_clock_since"),
        deadline=sa.bindparam("g_deadline"),
        wake_at=sa.bindparam("g_wake_at"),
        driver=sa.bindparam("g_driver"),
    )
)
"""A game's clock columns and its wake, one statement for many games (executemany)."""


def seat_params(game_id: str, clock: Clock) -> list[dict[str, Any]]:
    """The parameters of SEATS_STATEMENT for the seats whose figures changed (they are
    then written)."""
    out = [
        {
            "g_id": game_id,
            "g_seat": seat,
            "g_ms": ms(clock.remaining[seat]),
            "g_standin": clock.standin[seat],
            "g_forfeit": clock.forfeit[seat],
            "g_missed": clock.missed[seat],
        }
        for seat in sorted(clock.dirty)
    ]
    clock.dirty.clear()
    return out


def game_params(game_id: str, clock: Clock, wake: dict[str, Any]) -> dict[str, Any]:
    """The parameters of GAMES_STATEMENT: the clock's columns and the wake's
    (`Database.wake_values`, of plain values)."""
    return {
        "g_id": game_id,
        "g_clock_seat": clock.seat,
        "g_clock_since": clock.since,
        "g_deadline": clock.deadline,
        "g_wake_at": wake["wake_at"],
        "g_driver": wake["driver"],
    }


async def write_seats(conn: AsyncConnection, game_id: str, clock: Clock) -> None:
    """The seats whose figures changed; the caller writes the game's columns."""
    for seat in sorted(clock.dirty):
        await conn.execute(
            db.seats.update()
            .where(db.seats.c.game_id == game_id, db.seats.c.seat == seat)
            .values(
                remaining_ms=ms(clock.remaining[seat]),
                standin=clock.standin[seat],
                forfeit_at=clock.forfeit[seat],
                missed=clock.missed[seat],
            )
        )
    clock.dirty.clear()


async def write(conn: AsyncConnection, job: ClockWrite) -> bool:
    """One clock change, in the writer's transaction; whether it was stored."""
    g = db.games
    # Only while the game is played: one ended from outside (the admin command) keeps
    # no clock.
    stmt = g.update().where(g.c.id == job.game_id, g.c.status == "active")
    if job.expect is not None:
        stmt = stmt.where(g.c.wake_at == job.expect)
    result = await conn.execute(stmt.values(job.values).returning(g.c.id))
    if result.first() is None:
        return False
    await write_seats(conn, job.game_id, job.clock)
    for followup in job.after:
        await followup(conn)
    return True
