"""The log's writer: appends and clock changes, group-committed.

A single writer takes every append and clock change that is waiting, writes them in
one transaction (`INSERT … ON CONFLICT DO NOTHING RETURNING`, so a version another
server appended first — or one whose game is no longer being played, which the
database's trigger drops, models.py — is reported, not raised), commits, and only then
answers each caller. One fsync then covers many games' actions, and an action is
durable before any client hears of it. On PostgreSQL the same transaction sends a
`NOTIFY` per append, delivered to the other servers when it commits. On SQLite a
second writer would wait for the first (its busy handler sleeps in steps of up to
100 ms): clock changes between versions go through here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.clock import Clock
from euphrates.server.store import models as db
from euphrates.server.store.clocks import (
    GAMES_STATEMENT,
    SEATS_STATEMENT,
    ClockWrite,
    clock_values,
    game_params,
    seat_params,
    write,
)
from euphrates.server.store.database import Database, Followup, StorageError, now
from euphrates.server.store.rows import LogRow, Wake
from euphrates.server.store.signals import Signal, SignalKind

log = logging.getLogger("euphrates.server")

BATCH = 256


@dataclass
class Append:
    game_id: str
    row: LogRow
    status: str | None
    wake: Wake
    clock: Clock | None
    done: asyncio.Future[bool]
    after: tuple[Followup, ...] = ()


class Writer:
    """The one task of a process that writes versions and clocks."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.queue: asyncio.Queue[Append | ClockWrite] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        insert = sqlite_insert(db.log) if database.sqlite else pg_insert(db.log)
        self.append_stmt = insert.on_conflict_do_nothing(
            index_elements=["game_id", "version"]
        ).returning(db.log.c.game_id, db.log.c.version)

    def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="log-writer")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def append(
        self,
        game_id: str,
        row: LogRow,
        status: str | None = None,
        wake: Wake = None,
        clock: Clock | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """Append `row` durably; False when that version of the game exists already
        (another server appended it first) or the game is no longer being played.
        `status` changes the game's status in the same transaction (a game that ends);
        so does `wake`, when the version makes a bot's decision pending (True: this
        server drives the game) or ends one (False), or sets a deadline; so does
        `clock`, the game's clock after this version; so do the `after` follow-ups."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self.queue.put(Append(game_id, row, status, wake, clock, done, after))
        return await done

    async def write_clock(
        self,
        game_id: str,
        clock: Clock,
        wake: Wake,
        expect: datetime | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """Store a clock changed between versions (a game starting, a deadline acted
        on, a bot standing in, a player back), with the next group commit, while the
        game is played. With `expect`, only if the game's stored wake is still that
        one: what fell due is acted on once, by whichever server gets there first. Other
        servers are told (as a change of seats). `after`: follow-ups written with it,
        only if it is stored."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        values = {**clock_values(clock), **self.database.wake_values(wake)}
        await self.queue.put(ClockWrite(game_id, clock, values, expect, done, after))
        return await done

    async def _loop(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while len(batch) < BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except asyncio.QueueEmpty:
                    break
            try:
                inserted, clocked = await self._write(batch)
            except Exception as e:  # the database is down or refused: tell every caller
                log.error("could not write %d log entries or clocks: %s", len(batch), e)
                for a in batch:
                    if not a.done.done():
                        a.done.set_exception(StorageError(str(e)))
                continue
            for a in batch:
                if a.done.done():
                    continue
                if isinstance(a, ClockWrite):
                    a.done.set_result(id(a) in clocked)
                else:
                    a.done.set_result((a.game_id, a.row.version) in inserted)

    async def _write(
        self, writes: list[Append | ClockWrite]
    ) -> tuple[set[tuple[str, int]], set[int]]:
        """One transaction: the appends, then the clocks changed between versions.
        Returns the versions inserted and the clock writes stored (by id)."""
        database = self.database
        batch = [a for a in writes if isinstance(a, Append)]
        at = now()
        values = [
            {
                "game_id": a.game_id,
                "version": a.row.version,
                "seat": a.row.seat,
                "kind": a.row.kind,
                "text": a.row.text,
                "bot": a.row.bot,
                "created_at": at,
            }
            for a in batch
        ]
        clocked: set[int] = set()
        async with database.begin() as conn:
            # One statement for the whole batch, compiled once and cached: the rows go
            # as parameters (SQLAlchemy's "insertmanyvalues" keeps RETURNING working).
            inserted = set()
            if values:
                result = await conn.execute(self.append_stmt, values)
                inserted = {(r.game_id, r.version) for r in result}
            stored = [a for a in batch if (a.game_id, a.row.version) in inserted]
            await self._write_changes(conn, stored, at)
            for a in stored:
                for followup in a.after:
                    await followup(conn)
                # Delivered at commit, in this order.
                await database.signal(conn, Signal(SignalKind.LOG, a.game_id, a.row))
            for job in writes:
                if isinstance(job, ClockWrite) and await write(conn, job):
                    clocked.add(id(job))
                    await database.signal(conn, Signal(SignalKind.SEATS, job.game_id))
        return inserted, clocked

    async def _write_changes(self, conn: AsyncConnection, stored: list[Append], at: Any) -> None:
        """What the stored versions change of their games, before their follow-ups run.
        A move of a clocked game changes its clock and wake, and only them: those of
        the whole batch are two statements (executemany), not two a move — the clocks'
        cost under load was these statements, made anew for every move. Anything else
        (a game's end, a wake the database's clock sets) is a statement of its own."""
        database = self.database
        games: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        for a in stored:
            wake = database.wake_values(a.wake) if a.wake is not None else None
            plain = wake is not None and not isinstance(wake["wake_at"], sa.ColumnElement)
            if a.clock is not None and a.status is None and wake is not None and plain:
                games.append(game_params(a.game_id, a.clock, wake))
                seats.extend(seat_params(a.game_id, a.clock))
                continue
            changes: dict[str, Any] = {}
            if a.status is not None:
                changes.update(status=a.status, updated_at=at)
            if wake is not None:
                changes.update(wake)
            if a.clock is not None:
                changes.update(clock_values(a.clock))
                seats.extend(seat_params(a.game_id, a.clock))
            if changes:
                await conn.execute(
                    db.games.update().where(db.games.c.id == a.game_id).values(changes)
                )
        if games:
            await conn.execute(GAMES_STATEMENT, games)
        if seats:
            await conn.execute(SEATS_STATEMENT, seats)
