"""Games on disk: create, load, append to the log, chat, seats.

Appends are group-committed: a single writer takes every append that is waiting,
writes them in one transaction (`INSERT … ON CONFLICT DO NOTHING RETURNING`, so a
version another server appended first is reported, not raised), commits, and only then
answers each caller. One fsync then covers many games' actions, and an action is
durable before any client hears of it. On PostgreSQL the same transaction sends a
`NOTIFY` per append, delivered to the other servers when it commits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.chat import ChatFull, ChatRow, ChatStore
from euphrates.server.store.clocks import (
    ClockWrite,
    clock_values,
    ms,
    read_clock,
    spec_json,
    write,
    write_seats,
)
from euphrates.server.store.database import CHANNEL, Followup, StorageError, aware, now

log = logging.getLogger("euphrates.server")

__all__ = [
    "CHANNEL",
    "ChatFull",
    "ChatRow",
    "Followup",
    "GameRow",
    "LogRow",
    "SeatRow",
    "StorageError",
    "Store",
    "Wake",
    "now",
]

BATCH = 256


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
    open: bool = False
    """An open table: listed in the lobby while it waits, for anyone signed in."""
    creator: int | None = None
    """The account that opened it (its host)."""
    rated: bool = False


@dataclass(frozen=True)
class LogRow:
    version: int
    seat: int | None
    kind: str  # "action" | "undo"
    text: str | None
    bot: str | None = None
    """The level of a bot that made this move for a person's seat (out of time)."""


Wake = bool | datetime | None
"""What a write does to `wake_at`: True sets it to now (a bot to move), a time sets it
to that deadline, False clears it (each with this server as driver), None leaves it."""


@dataclass
class _Append:
    game_id: str
    row: LogRow
    status: str | None
    wake: Wake
    clock: Clock | None
    done: asyncio.Future[bool]
    after: tuple[Followup, ...] = ()


class Store(ChatStore):
    """Storage for one server process; `origin` tells its notifications from others'."""

    def __init__(self, engine: AsyncEngine, origin: str) -> None:
        super().__init__(engine, origin, db.is_sqlite(engine))
        self._queue: asyncio.Queue[_Append | ClockWrite] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self._chat_lock = asyncio.Lock()
        insert = sqlite_insert(db.log) if self.sqlite else pg_insert(db.log)
        self._append_stmt = insert.on_conflict_do_nothing(
            index_elements=["game_id", "version"]
        ).returning(db.log.c.game_id, db.log.c.version)

    async def start(self) -> None:
        self._writer = asyncio.create_task(self._write_loop(), name="log-writer")

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        await self.engine.dispose()

    # --- games and seats -----------------------------------------------------------
    async def create_game(self, g: GameRow) -> None:
        async with self.engine.begin() as conn:
            await self.insert_games(conn, [g])

    async def insert_games(self, conn: AsyncConnection, games: list[GameRow]) -> None:
        """Write new games' rows and seats in the caller's transaction (a hundred a
        statement: its parameters are bounded). A game created started has its first
        clock running, its deadline its wake."""
        for i in range(0, len(games), 100):
            batch = games[i : i + 100]
            await conn.execute(
                db.games.insert().values(
                    [
                        {
                            "id": g.id,
                            "game": g.game,
                            "players": g.players,
                            "options": json.dumps(g.options, sort_keys=True),
                            "seed": str(g.seed),
                            "status": g.status,
                            "host_hash": g.host_hash,
                            "created_at": g.created_at,
                            "updated_at": g.updated_at,
                            **self._wake_values(
                                g.clock.deadline if g.clock and not g.wake else g.wake
                            ),
                            "clock": spec_json(g.clock),
                            **clock_values(g.clock),
                            "open": g.open,
                            "creator": g.creator,
                            "rated": g.rated,
                        }
                        for g in batch
                    ]
                )
            )
            await conn.execute(
                db.seats.insert().values(
                    [
                        {
                            "game_id": g.id,
                            "seat": s.seat,
                            "kind": s.kind,
                            "level": s.level,
                            "name": s.name,
                            "token_hash": s.token_hash,
                            "taken": s.taken,
                            "user_id": s.user_id,
                            "remaining_ms": ms(g.clock.remaining[s.seat]) if g.clock else None,
                        }
                        for g in batch
                        for s in g.seats
                    ]
                )
            )

    async def load_game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(sa.select(db.games).where(db.games.c.id == game_id))).first()
            if row is None:
                return None
            seats = await self._seats(conn, game_id)
            clock = await read_clock(conn, row, aware) if row.clock is not None else None
        return GameRow(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.loads(row.options),
            seed=int(row.seed),
            status=row.status,
            host_hash=row.host_hash,
            created_at=aware(row.created_at),
            updated_at=aware(row.updated_at),
            seats=seats,
            wake=row.wake_at is not None,
            clock=clock,
            driver=row.driver,
            open=bool(row.open),
            creator=row.creator,
            rated=bool(row.rated),
        )

    async def write_clock(
        self,
        game_id: str,
        clock: Clock,
        wake: Wake,
        expect: datetime | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """Store a clock changed between versions (a game starting, a deadline acted
        on, a bot standing in, a player back), with the next group commit. With
        `expect`, only if the stored deadline is still that one: a deadline is acted
        on once, by whichever server gets there first. Other servers are told (as a
        change of seats). `after`: follow-ups written with it, only if it is stored."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        values = {**clock_values(clock), **self._wake_values(wake)}
        await self._queue.put(ClockWrite(game_id, clock, values, expect, done, after))
        return await done

    @staticmethod
    async def _seats(conn: AsyncConnection, game_id: str) -> list[SeatRow]:
        """A game's seats as stored, in seat order."""
        rows = (
            await conn.execute(
                sa.select(db.seats).where(db.seats.c.game_id == game_id).order_by(db.seats.c.seat)
            )
        ).all()
        return [
            SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash, bool(r.taken), r.user_id)
            for r in rows
        ]

    async def update_seat(
        self,
        game_id: str,
        seat: SeatRow,
        only_if_human: bool = False,
        bot_to_move: bool = False,
        vacant: bool = False,
        after: tuple[Followup, ...] = (),
        on_start: tuple[Followup, ...] = (),
    ) -> tuple[list[SeatRow], str, bool] | None:
        """Write one seat and, in the same transaction, start the game if every seat is
        now taken. The game's row is locked first, so two servers seating two players
        at once cannot both miss that the table is full. When the game is then being
        played and `bot_to_move` (the decision pending is a bot seat's), this server
        becomes its driver unless one already is. Returns the seats and status as
        stored and whether this server now drives the game, or None when
        `only_if_human` and the seat is no longer human. `after` runs in the same
        transaction; `on_start` too, when this write starts the game (once, whichever
        server).

        A seat that belongs to an account passes to no other and to nobody here (only
        its player's leaving frees it, tablestore.py): refused `seat_taken`. With
        `vacant` (someone sitting down, a bot filling a free seat) the game must still
        wait and the seat still be free — a person's, not taken — and the account
        sitting down may hold no other seat of it; checked against the stored seats,
        under the lock, so of two players racing for one seat exactly one sits."""
        async with self.engine.begin() as conn:
            lock = sa.select(db.games.c.status, db.games.c.wake_at).where(db.games.c.id == game_id)
            if not self.sqlite:
                lock = lock.with_for_update()
            status, wake_at = (await conn.execute(lock)).one()
            if vacant:
                check_vacant(status, await self._seats(conn, game_id), seat)
            if only_if_human:
                kind = (
                    await conn.execute(
                        sa.select(db.seats.c.kind).where(
                            db.seats.c.game_id == game_id, db.seats.c.seat == seat.seat
                        )
                    )
                ).scalar_one()
                if kind != "human":
                    return None
            st = db.seats.c
            unowned = st.user_id.is_(None)
            stmt = db.seats.update().where(
                st.game_id == game_id,
                st.seat == seat.seat,
                unowned if seat.user_id is None else sa.or_(unowned, st.user_id == seat.user_id),
            )
            if vacant:
                stmt = stmt.where(st.taken.is_(False), st.kind == "human")
            written = await conn.execute(
                stmt.values(
                    kind=seat.kind,
                    level=seat.level,
                    name=seat.name,
                    token_hash=seat.token_hash,
                    taken=seat.taken,
                    user_id=seat.user_id,
                )
            )
            if written.rowcount != 1:
                raise Refusal("seat_taken", f"seat {seat.seat + 1} was just taken by someone else")
            seats = await self._seats(conn, game_id)
            if status == "waiting" and all(x.taken for x in seats):
                status = "active"
                for followup in on_start:
                    await followup(conn)
            drive = status == "active" and bot_to_move and wake_at is None
            values: dict[str, Any] = {"status": status, "updated_at": now()}
            if drive:
                values.update(self._wake_values(True))
            await conn.execute(db.games.update().where(db.games.c.id == game_id).values(values))
            for followup in after:
                await followup(conn)
            await self._notify(conn, {"t": "seats", "g": game_id})
        return seats, status, drive

    async def set_status(self, game_id: str, status: str) -> None:
        """End a game (abandoned): nobody needs to act on it any more."""
        async with self.engine.begin() as conn:
            await conn.execute(
                db.games.update()
                .where(db.games.c.id == game_id)
                .values(status=status, updated_at=now(), **self._wake_values(False))
            )
            await self._notify(conn, {"t": "seats", "g": game_id})

    # --- drivers: which server acts on which game ------------------------------------
    def _clock(self) -> Any:
        """Now, by the database's clock where several servers share it (their own
        clocks may differ), else by this process's."""
        return now() if self.sqlite else sa.func.clock_timestamp()

    def _wake_values(self, wake: Wake) -> dict[str, Any]:
        if isinstance(wake, datetime):
            return {"wake_at": wake, "driver": self.origin}
        if wake:
            return {"wake_at": self._clock(), "driver": self.origin}
        return {"wake_at": None, "driver": None}

    async def beat(self) -> None:
        """Say this server is alive (its games are not to be claimed)."""
        insert = sqlite_insert(db.servers) if self.sqlite else pg_insert(db.servers)
        stmt = insert.values(id=self.origin, beat=self._clock())
        stmt = stmt.on_conflict_do_update(index_elements=["id"], set_={"beat": stmt.excluded.beat})
        async with self.engine.begin() as conn:
            await conn.execute(stmt)

    async def claim(self, stale: float | None, limit: int) -> list[str]:
        """Take over games some server must act on now whose driver is gone: none
        named, or one whose beat is older than `stale` seconds. `SKIP LOCKED`: two
        servers claiming at once take different games, and each game exactly once.
        `stale` None (SQLite, where this process is the only server) takes every game
        due that another process drove."""
        g = db.games
        due = (
            sa.select(g.c.id)
            .where(g.c.wake_at.isnot(None), g.c.wake_at <= self._clock(), self._not_driven(stale))
            .order_by(g.c.wake_at)
            .limit(limit)
        )
        if not self.sqlite:
            due = due.with_for_update(of=g, skip_locked=True)
        stmt = sa.update(g).where(g.c.id.in_(due.scalar_subquery())).values(driver=self.origin)
        async with self.engine.begin() as conn:
            ids = [r.id for r in await conn.execute(stmt.returning(g.c.id))]
            for game_id in ids:
                await self._notify(conn, {"t": "claim", "g": game_id})
        return ids

    def _not_driven(self, stale: float | None) -> Any:
        """A game's driver is gone: none is named, or it has not beaten for `stale`
        seconds; with `stale` None, any driver but this server."""
        g, sv = db.games, db.servers
        if stale is None:
            return sa.or_(g.c.driver.is_(None), g.c.driver != self.origin)
        cutoff = (
            now() - timedelta(seconds=stale)
            if self.sqlite
            else sa.func.clock_timestamp() - sa.literal(timedelta(seconds=stale), sa.Interval())
        )
        return ~sa.exists().where(sv.c.id == g.c.driver, sv.c.beat > cutoff)

    async def next_wake(self) -> datetime | None:
        """When the next game another process drove falls due (a deadline it stored),
        if any: until then a lone server has nothing to claim."""
        g = db.games
        query = sa.select(sa.func.min(g.c.wake_at)).where(
            g.c.wake_at.isnot(None), self._not_driven(None)
        )
        async with self.engine.connect() as conn:
            at = (await conn.execute(query)).scalar()
        return None if at is None else aware(at)

    async def release(self, game_id: str) -> None:
        """Nothing is due in a game this server drives (its mark was out of date)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                db.games.update()
                .where(db.games.c.id == game_id, db.games.c.driver == self.origin)
                .values(self._wake_values(False))
            )

    async def leave(self) -> None:
        """A server stopping: its games are free to claim at once."""
        async with self.engine.begin() as conn:
            await conn.execute(
                db.games.update().where(db.games.c.driver == self.origin).values(driver=None)
            )
            await conn.execute(db.servers.delete().where(db.servers.c.id == self.origin))

    async def forget_servers(self, older: float) -> None:
        """Forget servers that stopped beating `older` seconds ago (they crashed)."""
        cutoff = now() - timedelta(seconds=older)
        async with self.engine.begin() as conn:
            await conn.execute(db.servers.delete().where(db.servers.c.beat < cutoff))

    async def expire(self, before: datetime, game_id: str | None = None) -> list[str]:
        """Mark `expired` the games (all, or `game_id`) still waiting for players with
        no change since `before`; returns their ids (at most a thousand a call)."""
        g = db.games
        waited = sa.select(g.c.id).where(g.c.status == "waiting", g.c.updated_at < before)
        if game_id is not None:
            waited = waited.where(g.c.id == game_id)
        stmt = (
            sa.update(g)
            .where(g.c.id.in_(waited.limit(1000).scalar_subquery()), g.c.status == "waiting")
            .values(status="expired", updated_at=now())
            .returning(g.c.id)
        )
        async with self.engine.begin() as conn:
            ids = [r.id for r in await conn.execute(stmt)]
            for expired in ids:
                await self._notify(conn, {"t": "seats", "g": expired})
        return ids

    # --- the log -------------------------------------------------------------------
    async def load_log(self, game_id: str, after: int = 0) -> list[LogRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(
                    db.log.c.version, db.log.c.seat, db.log.c.kind, db.log.c.text, db.log.c.bot
                )
                .where(db.log.c.game_id == game_id, db.log.c.version > after)
                .order_by(db.log.c.version)
            )
            return [LogRow(r.version, r.seat, r.kind, r.text, r.bot) for r in rows]

    async def append(
        self,
        game_id: str,
        row: LogRow,
        status: str | None = None,
        wake: Wake = None,
        clock: Clock | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """Append `row` durably; False when that version of the game already exists
        (another server appended it first). `status` changes the game's status in the
        same transaction (a game that ends); so does `wake`, when the version makes a
        bot's decision pending (True: this server drives the game) or ends one (False),
        or sets a deadline; so does `clock`, the game's clock after this version; so do
        the `after` follow-ups."""
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        await self._queue.put(_Append(game_id, row, status, wake, clock, done, after))
        return await done

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while len(batch) < BATCH:
                try:
                    batch.append(self._queue.get_nowait())
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
        self, writes: list[_Append | ClockWrite]
    ) -> tuple[set[tuple[str, int]], set[int]]:
        """One transaction: the appends, then the clocks changed between versions.
        Returns the versions inserted and the clock writes stored (by id)."""
        batch = [a for a in writes if isinstance(a, _Append)]
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
        stmt = self._append_stmt
        clocked: set[int] = set()
        async with self.engine.begin() as conn:
            # One statement for the whole batch, compiled once and cached: the rows go
            # as parameters (SQLAlchemy's "insertmanyvalues" keeps RETURNING working).
            inserted = set()
            if values:
                result = await conn.execute(stmt, values)
                inserted = {(r.game_id, r.version) for r in result}
            for a in batch:
                if (a.game_id, a.row.version) not in inserted:
                    continue
                changes: dict[str, Any] = {}
                if a.status is not None:
                    changes.update(status=a.status, updated_at=at)
                if a.wake is not None:
                    changes.update(self._wake_values(a.wake))
                if a.clock is not None:
                    changes.update(clock_values(a.clock))
                    await write_seats(conn, a.game_id, a.clock)
                if changes:
                    await conn.execute(
                        db.games.update().where(db.games.c.id == a.game_id).values(changes)
                    )
                for followup in a.after:
                    await followup(conn)
                # The entry itself rides along (a few dozen bytes, far below NOTIFY's
                # 8000), so other servers need not read it back; notifications are
                # delivered at commit, in this order.
                r = a.row
                await self._notify(
                    conn,
                    {
                        "t": "log",
                        "g": a.game_id,
                        "v": r.version,
                        "s": r.seat,
                        "k": r.kind,
                        "x": r.text,
                        "b": r.bot,
                    },
                )
            for job in writes:
                if isinstance(job, ClockWrite) and await write(conn, job):
                    clocked.add(id(job))
                    await self._notify(conn, {"t": "seats", "g": job.game_id})
        return inserted, clocked


def check_vacant(status: str, seats: list[SeatRow], seat: SeatRow) -> None:
    """Refuse to seat someone (or a bot) at a seat that is not free, or at a game that
    no longer waits, or an account at a second seat of one game (seats as stored)."""
    if status != "waiting":
        if status == "abandoned":
            raise Refusal("abandoned", "the host abandoned this game")
        if status == "over":
            raise Refusal("game_over", "the game has ended")
        raise Refusal("already_started", "the game has started: every seat is taken")
    stored = seats[seat.seat]
    if stored.kind != "human":
        raise Refusal("seat_not_human", f"seat {seat.seat + 1} is played by a bot")
    if stored.taken or stored.user_id is not None:
        raise Refusal("seat_taken", f"seat {seat.seat + 1} was just taken by someone else")
    if seat.user_id is not None and any(s.user_id == seat.user_id for s in seats):
        raise Refusal("already_seated", "you already have a seat at this table")
