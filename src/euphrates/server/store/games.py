"""Games on disk: created, read, their seats and status changed, their log appended to
(through the writer, writer.py).

Every change here is one transaction with its signal, and every change a game's
lifecycle allows only in some statuses is conditional on the status stored, read under
the game's row lock (PostgreSQL; on SQLite the writes are serialised): of two
processes making the same change, exactly one does, and a change to a game that
ended meanwhile is refused with `StatusChanged` — the room turns it into the
lifecycle's refusal (game/lifecycle.py).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.clocks import clock_values, ms, read_clock, spec_json, write_seats
from euphrates.server.store.database import Database, Followup, aware, now
from euphrates.server.store.notes import Note, writing
from euphrates.server.store.rows import GameRow, LogRow, SeatRow, Wake
from euphrates.server.store.signals import Signal, SignalKind
from euphrates.server.store.writer import Writer


class StatusChanged(Exception):
    """The game's stored status does not allow the change (another process ended or
    started it meanwhile); `status` is the one stored."""

    def __init__(self, status: str) -> None:
        super().__init__(status)
        self.status = status


class SeatWrite:
    """What a seat's write stored: the seats and status as stored, and whether this
    server now drives the game (a bot's decision is pending)."""

    __slots__ = ("drive", "seats", "started", "status")

    def __init__(self, seats: list[SeatRow], status: str, drive: bool, started: bool) -> None:
        self.seats = seats
        self.status = status
        self.drive = drive
        self.started = started


class GameStore:
    """Games of one process's database; `writer` is its group-committed log writer."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = Writer(database)

    @property
    def sqlite(self) -> bool:
        return self.database.sqlite

    @property
    def origin(self) -> str:
        return self.database.origin

    def start(self) -> None:
        self.writer.start()

    async def close(self) -> None:
        await self.writer.close()

    # --- creating and reading ------------------------------------------------------
    async def create_game(self, g: GameRow) -> None:
        async with self.database.begin() as conn:
            await self.insert_games(conn, [g])
            if g.open:
                await self.database.signal(conn, Signal(SignalKind.SEATS, g.id))

    async def insert_games(self, conn: AsyncConnection, games: list[GameRow]) -> None:
        """Write new games' rows and seats in the caller's transaction (a hundred a
        statement: its parameters are bounded). A game created started has its first
        clock running, its deadline its wake."""
        wake_values = self.database.wake_values
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
                            **wake_values(g.clock.next_due() if g.clock and not g.wake else g.wake),
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
        async with self.database.connect() as conn:
            row = (await conn.execute(sa.select(db.games).where(db.games.c.id == game_id))).first()
            if row is None:
                return None
            seats = await read_seats(conn, game_id)
            clock = await read_clock(conn, row, aware) if row.clock is not None else None
            paused = await read_paused(conn, game_id) if clock and clock.spec.mode == "turn" else {}
            over = row.rated and row.status == "over"
            changes = await read_changes(conn, game_id, row.verdict) if over else {}
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
            paused=paused,
            verdict=row.verdict,
            changes=changes,
        )

    async def load_log(self, game_id: str, after: int = 0) -> list[LogRow]:
        lg = db.log
        async with self.database.connect() as conn:
            rows = await conn.execute(
                sa.select(lg.c.version, lg.c.seat, lg.c.kind, lg.c.text, lg.c.bot)
                .where(lg.c.game_id == game_id, lg.c.version > after)
                .order_by(lg.c.version)
            )
            return [LogRow(r.version, r.seat, r.kind, r.text, r.bot) for r in rows]

    # --- versions and clocks (group-committed) ------------------------------------------
    async def append(
        self,
        game_id: str,
        row: LogRow,
        status: str | None = None,
        wake: Wake = None,
        clock: Clock | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """writer.Writer.append."""
        return await self.writer.append(game_id, row, status, wake, clock, after)

    async def write_clock(
        self,
        game_id: str,
        clock: Clock,
        wake: Wake,
        expect: datetime | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """writer.Writer.write_clock."""
        return await self.writer.write_clock(game_id, clock, wake, expect, after)

    # --- seats ---------------------------------------------------------------------------
    async def _lock(self, conn: AsyncConnection, game_id: str) -> tuple[str, Any]:
        """The game's status and wake, its row locked (PostgreSQL) for the rest of the
        transaction."""
        lock = sa.select(db.games.c.status, db.games.c.wake_at).where(db.games.c.id == game_id)
        if not self.sqlite:
            lock = lock.with_for_update()
        status, wake_at = (await conn.execute(lock)).one()
        return str(status), wake_at

    async def update_seat(
        self,
        game_id: str,
        seat: SeatRow,
        allowed: Collection[str],
        only_if_human: bool = False,
        bot_to_move: bool = False,
        vacant: bool = False,
        after: tuple[Followup, ...] = (),
        on_start: tuple[Followup, ...] = (),
        clock: Clock | None = None,
        ends: str | None = None,
    ) -> SeatWrite | None:
        """Write one seat and, in the same transaction, start the game if every seat is
        now taken. The game's row is locked first, so two servers seating two players
        at once cannot both miss that the table is full; a game whose stored status is
        not `allowed` is refused (`StatusChanged`). When the game is then being played
        and `bot_to_move` (the decision pending is a bot seat's), this server becomes
        its driver unless one already is. None when `only_if_human` and the seat is
        no longer a person's. `after` runs in the same transaction; `on_start` too,
        when this write starts the game (once, whichever server).

        A seat that belongs to an account passes to no other and to nobody here (only
        its player's leaving frees it): refused `seat_taken`. With `vacant` (someone
        sitting down, a bot filling a free seat) the seat must still be free — a
        person's, not taken — and the account sitting down may hold no other seat of
        it; checked against the stored seats, under the lock, so of two players racing
        for one seat exactly one sits.

        `clock`: the game's clock after the change (a seat forfeited stops its clock),
        written with it; `ends`: the status the change ends the game in (a duel whose
        player left), its wake cleared."""
        async with self.database.begin() as conn:
            status, wake_at = await self._lock(conn, game_id)
            if status not in allowed:
                raise StatusChanged(status)
            if vacant:
                check_vacant(await read_seats(conn, game_id), seat)
            st = db.seats.c
            if only_if_human:
                kind = (
                    await conn.execute(
                        sa.select(st.kind).where(st.game_id == game_id, st.seat == seat.seat)
                    )
                ).scalar_one()
                if kind != "human":
                    return None
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
            seats = await read_seats(conn, game_id)
            started = status == "waiting" and all(x.taken for x in seats)
            if started:
                status = "active"
                for followup in on_start:
                    await followup(conn)
            drive = status == "active" and bot_to_move and wake_at is None and ends is None
            values: dict[str, Any] = {"status": status, "updated_at": now()}
            if drive:
                values.update(self.database.wake_values(True))
            if clock is not None:
                values.update(clock_values(clock))
                await write_seats(conn, game_id, clock)
                if not drive and ends is None:
                    values.update(self.database.wake_values(clock.next_due() or bot_to_move))
            if ends is not None:
                status = ends
                values.update(status=ends, **self.database.wake_values(False))
            await conn.execute(db.games.update().where(db.games.c.id == game_id).values(values))
            for followup in after:
                await followup(conn)
            await self.database.signal(conn, Signal(SignalKind.SEATS, game_id))
        return SeatWrite(seats, status, drive, started)

    async def free_seats(
        self, game_id: str, user_id: int, allowed: Collection[str]
    ) -> list[SeatRow]:
        """Free the seats `user_id` holds in a game still waiting: not taken, no
        account's, no name (their invitation links open them again); the row locked
        first, as when a seat is taken, so a leave and the last seat taken are never
        both half done. Refused `not_your_seat` when it holds none."""
        g, st = db.games, db.seats
        async with self.database.begin() as conn:
            status, _wake = await self._lock(conn, game_id)
            if status not in allowed:
                raise StatusChanged(status)
            freed = await conn.execute(
                st.update()
                .where(st.c.game_id == game_id, st.c.user_id == user_id, st.c.kind == "human")
                .values(taken=False, user_id=None, name=None)
            )
            if not freed.rowcount:
                raise Refusal("not_your_seat", "you have no seat at this table")
            await conn.execute(g.update().where(g.c.id == game_id).values(updated_at=now()))
            seats = await read_seats(conn, game_id)
            await self.database.signal(conn, Signal(SignalKind.SEATS, game_id))
        return seats

    # --- status --------------------------------------------------------------------------
    async def end(
        self,
        game_id: str,
        status: str,
        allowed: Collection[str],
        note: Note | None = None,
        after: tuple[Followup, ...] = (),
    ) -> bool:
        """End a game (`status`) if its stored status is `allowed`, with the `note` of it
        (a negative version: after the last one stored): nobody needs to act on it any
        more. Whether this call ended it — of several processes ending it at once,
        exactly one."""
        g = db.games
        async with self.database.begin() as conn:
            done = await conn.execute(
                g.update()
                .where(g.c.id == game_id, g.c.status.in_(list(allowed)))
                .values(status=status, updated_at=now(), **self.database.wake_values(False))
            )
            if not done.rowcount:
                return False
            if note is not None:
                if note.version < 0:
                    last = (
                        await conn.execute(
                            sa.select(sa.func.max(db.log.c.version)).where(
                                db.log.c.game_id == game_id
                            )
                        )
                    ).scalar()
                    note = Note(int(last or 0), note.kind, note.seat, note.level, note.by)
                await writing(game_id, note)(conn)
            for followup in after:
                await followup(conn)
            await self.database.signal(conn, Signal(SignalKind.SEATS, game_id))
        return True

    async def status_of(self, game_id: str) -> str | None:
        async with self.database.connect() as conn:
            found = (
                await conn.execute(sa.select(db.games.c.status).where(db.games.c.id == game_id))
            ).scalar()
        return None if found is None else str(found)

    async def verdict(self, game_id: str) -> tuple[str | None, dict[int, tuple[int, int]]]:
        """A rated game's verdict and rating changes, written by the ratings' follow-up
        of its end."""
        async with self.database.connect() as conn:
            found = (
                await conn.execute(sa.select(db.games.c.verdict).where(db.games.c.id == game_id))
            ).scalar()
            verdict = None if found is None else str(found)
            return verdict, await read_changes(conn, game_id, verdict)

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
        async with self.database.begin() as conn:
            ids = [r.id for r in await conn.execute(stmt)]
            for expired in ids:
                await self.database.signal(conn, Signal(SignalKind.SEATS, expired))
        return ids

    async def add_note(self, game_id: str, note: Note) -> None:
        """A note on its own (a hint taken), told to other servers as a change of the
        seats, with which they read the notes."""
        async with self.database.begin() as conn:
            await writing(game_id, note)(conn)
            await self.database.signal(conn, Signal(SignalKind.SEATS, game_id))

    async def open_games_of(self, user_id: int) -> list[str]:
        """The games not yet ended where the account holds a person's seat."""
        g, st = db.games, db.seats
        query = (
            sa.select(g.c.id)
            .join(st, st.c.game_id == g.c.id)
            .where(st.c.user_id == user_id, st.c.kind == "human")
            .where(g.c.status.in_(("waiting", "active")))
            .distinct()
        )
        async with self.database.connect() as conn:
            return [str(r.id) for r in await conn.execute(query)]


async def read_changes(
    conn: AsyncConnection, game_id: str, verdict: str | None
) -> dict[int, tuple[int, int]]:
    """Per seat of an account, its rating before and after the game — only when the
    game counted (a repeat or a voided game changed nobody's)."""
    if verdict != "counted":
        return {}
    st, rh = db.seats, db.rating_history
    rows = await conn.execute(
        sa.select(st.c.seat, rh.c.before, rh.c.after)
        .join(rh, sa.and_(rh.c.game_id == st.c.game_id, rh.c.user_id == st.c.user_id))
        .where(st.c.game_id == game_id)
    )
    return {int(r.seat): (int(r.before), int(r.after)) for r in rows}


async def read_paused(conn: AsyncConnection, game_id: str) -> dict[int, datetime]:
    """The seats whose account is on vacation now, until when."""
    st, v = db.seats, db.vacations
    at = now()
    rows = (
        await conn.execute(
            sa.select(st.c.seat, v.c.ends_at)
            .join(v, v.c.user_id == st.c.user_id)
            .where(
                st.c.game_id == game_id,
                st.c.kind == "human",
                v.c.starts_at <= at,
                v.c.ends_at > at,
            )
        )
    ).all()
    return {int(r.seat): aware(r.ends_at) for r in rows}


async def read_seats(conn: AsyncConnection, game_id: str) -> list[SeatRow]:
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


def check_vacant(seats: list[SeatRow], seat: SeatRow) -> None:
    """Refuse to seat someone (or a bot) at a seat that is not free, or an account at a
    second seat of one game (seats as stored)."""
    stored = seats[seat.seat]
    if stored.kind != "human":
        raise Refusal("seat_not_human", f"seat {seat.seat + 1} is played by a bot")
    if stored.taken or stored.user_id is not None:
        raise Refusal("seat_taken", f"seat {seat.seat + 1} was just taken by someone else")
    if seat.user_id is not None and any(s.user_id == seat.user_id for s in seats):
        raise Refusal("already_seated", "you already have a seat at this table")
