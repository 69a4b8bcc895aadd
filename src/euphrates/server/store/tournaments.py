"""Tournaments on disk: the tournament, its entrants, its rounds' tables, and the one
claim that moves it on (docs/tournaments.md).

A tournament some server must act on — its sign-up is over, or its round's last game
ended — has `wake_at` set. Any server's pass claims the tournaments due with `SELECT
… FOR UPDATE SKIP LOCKED` (PostgreSQL; on SQLite the one process passes one at a
time), and in that same transaction writes what the tournament's policy decided: the
next round's games and tables, or its end, and clears `wake_at`. So a round is started
exactly once, by one server, or not at all: a server killed halfway leaves the
tournament still due and no game, never a game without its table.

A table's result is written by a follow-up of its game's final write (`ended`), in
that transaction: the last table of a round to end makes the tournament due.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.match.ratings import places_with_abandons
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, aware, now
from euphrates.server.store.games import GameStore
from euphrates.server.store.notices import NoticeStore
from euphrates.server.store.ratings import ABANDONS
from euphrates.server.store.signals import Signal, SignalKind
from euphrates.server.store.tournament_rows import (
    Entrant,
    Plan,
    Table,
    Tournament,
    tournament_of,
    values_of,
)

OPEN = ("signup", "running")
LEFT = (*ABANDONS, "aborted")
"""Notes that place a seat's player last at its table: the ratings' (resigned,
forfeited …), and leaving a rated game before it was played (`aborted`, which the
ratings do not count at all but a tournament must: its opponent came and won)."""


Act = Callable[[Tournament, datetime], Awaitable[Plan | None]]


class TournamentStore:
    def __init__(self, database: Database, games: GameStore) -> None:
        self.database = database
        self.games = games
        self.notices: NoticeStore | None = None
        """Where an entrant's word that their game began is queued, in the round's
        transaction (features/tournaments/messages.py composes it when it goes out)."""
        self.mail = False
        self._one = asyncio.Lock() if database.sqlite else None
        """SQLite (one process): its transactions read before they write, so two
        entries for the last place would both see it free; one change of a tournament
        at a time. PostgreSQL locks the tournament's row instead."""

    def _serial(self) -> Any:
        return self._one if self._one is not None else contextlib.nullcontext()

    # --- reading ----------------------------------------------------------------------
    async def get(self, tournament_id: str) -> Tournament | None:
        async with self.database.connect() as conn:
            return await self._load(conn, tournament_id)

    async def _load(self, conn: AsyncConnection, tid: str, lock: bool = False) -> Tournament | None:
        t, u = db.tournaments, db.users
        query = sa.select(t, u.c.name.label("creator_name")).join(u, u.c.id == t.c.creator)
        query = query.where(t.c.id == tid)
        if lock and not self.database.sqlite:
            query = query.with_for_update(of=t)
        row = (await conn.execute(query)).first()
        if row is None:
            return None
        out = tournament_of(row)
        tp = db.tournament_players
        entrants = await conn.execute(
            sa.select(tp, u.c.name)
            .join(u, u.c.id == tp.c.user_id)
            .where(tp.c.tournament_id == tid)
            .order_by(tp.c.joined_at, tp.c.user_id)
        )
        out.entrants = [
            Entrant(r.user_id, r.name, float(r.rating), aware(r.joined_at), r.left_round)
            for r in entrants
        ]
        tt = db.tournament_tables
        tables = await conn.execute(
            sa.select(tt).where(tt.c.tournament_id == tid).order_by(tt.c.round, tt.c.number)
        )
        out.tables = [
            Table(
                r.round,
                r.number,
                r.game_id,
                json.loads(r.seats),
                json.loads(r.places) if r.places is not None else None,
            )
            for r in tables
        ]
        return out

    async def listing(self, ended_limit: int) -> list[dict[str, Any]]:
        """The tournaments in sign-up or running, and the `ended_limit` latest ended."""
        t, tp, u = db.tournaments, db.tournament_players, db.users
        count = (
            sa.select(sa.func.count())
            .where(tp.c.tournament_id == t.c.id, tp.c.left_round.is_(None))
            .scalar_subquery()
        )
        cols = (t.c.id, t.c.name, t.c.game, t.c.players, t.c.format, t.c.rounds, t.c.round)
        base = sa.select(
            *cols,
            t.c.status,
            t.c.rated,
            t.c.clock,
            t.c.starts_at,
            t.c.most,
            u.c.name.label("creator_name"),
            count.label("entrants"),
        ).join(u, u.c.id == t.c.creator)
        live = base.where(t.c.status.in_(OPEN)).order_by(t.c.starts_at).limit(200)
        ended = (
            base.where(t.c.status.in_(("over", "cancelled")))
            .order_by(t.c.ended_at.desc())
            .limit(ended_limit)
        )
        async with self.database.connect() as conn:
            rows = [*(await conn.execute(live)).all(), *(await conn.execute(ended)).all()]
        return [
            {
                "id": r.id,
                "name": r.name,
                "game": r.game,
                "players": r.players,
                "format": r.format,
                "rounds": r.rounds,
                "round": r.round,
                "status": r.status,
                "rated": bool(r.rated),
                "clock": json.loads(r.clock) if r.clock else None,
                "starts_at": aware(r.starts_at).isoformat(),
                "most": r.most,
                "creator": r.creator_name,
                "entrants": int(r.entrants),
            }
            for r in rows
        ]

    async def created_open(self, user_id: int) -> int:
        """Tournaments of this creator not yet ended (a bound on what one member runs)."""
        t = db.tournaments
        query = sa.select(sa.func.count()).where(t.c.creator == user_id, t.c.status.in_(OPEN))
        async with self.database.connect() as conn:
            return int((await conn.execute(query)).scalar() or 0)

    async def next_wake(self) -> datetime | None:
        t = db.tournaments
        query = sa.select(sa.func.min(t.c.wake_at)).where(t.c.status.in_(OPEN))
        async with self.database.connect() as conn:
            at = (await conn.execute(query)).scalar()
        return None if at is None else aware(at)

    # --- changing ---------------------------------------------------------------------
    async def create(self, row: Tournament, rating: float) -> None:
        """A new tournament, its creator its first entrant."""
        async with self.database.begin() as conn:
            await conn.execute(db.tournaments.insert().values(values_of(row)))
            await conn.execute(
                db.tournament_players.insert().values(
                    tournament_id=row.id,
                    user_id=row.creator,
                    joined_at=row.created_at,
                    rating=rating,
                )
            )
            await self.database.signal(conn, Signal(SignalKind.TOURNAMENT, row.id))

    async def join(
        self, tid: str, user_id: int, rating: float, may: Callable[[Tournament], None]
    ) -> bool:
        """Enter `user_id`; `may` refuses what the tournament's state forbids (read
        under its row's lock, so a start and a join never cross). Whether a row was
        written (not when already in)."""
        try:
            async with self._serial(), self.database.begin() as conn:
                t = await self._load(conn, tid, lock=True)
                if t is None:
                    raise Refusal("unknown_tournament", "no such tournament")
                mine = next((e for e in t.entrants if e.user_id == user_id), None)
                if mine is not None and mine.left_round is None:
                    return False
                may(t)
                tp = db.tournament_players
                if mine is not None:  # came back before the start
                    await conn.execute(
                        tp.update()
                        .where(tp.c.tournament_id == tid, tp.c.user_id == user_id)
                        .values(left_round=None, joined_at=now(), rating=rating)
                    )
                else:
                    await conn.execute(
                        tp.insert().values(
                            tournament_id=tid, user_id=user_id, joined_at=now(), rating=rating
                        )
                    )
                await self.database.signal(conn, Signal(SignalKind.TOURNAMENT, tid))
            return True
        except IntegrityError:  # the same account joining twice at one moment
            return False

    async def leave(self, tid: str, user_id: int, may: Callable[[Tournament], None]) -> bool:
        """Withdraw `user_id`: before the start the entry goes; after it the entrant is
        paired in no later round (their standing stays). Whether anything changed."""
        async with self._serial(), self.database.begin() as conn:
            t = await self._load(conn, tid, lock=True)
            if t is None:
                raise Refusal("unknown_tournament", "no such tournament")
            mine = next((e for e in t.entrants if e.user_id == user_id), None)
            if mine is None or mine.left_round is not None:
                return False
            may(t)
            tp = db.tournament_players
            where = sa.and_(tp.c.tournament_id == tid, tp.c.user_id == user_id)
            if t.status == "signup":
                await conn.execute(tp.delete().where(where))
            else:
                await conn.execute(tp.update().where(where).values(left_round=t.round))
            await self.database.signal(conn, Signal(SignalKind.TOURNAMENT, tid))
        return True

    async def set_start(self, tid: str, at: datetime, may: Callable[[Tournament], None]) -> None:
        """Make a tournament in sign-up start at `at` (its creator starting it now)."""
        async with self._serial(), self.database.begin() as conn:
            t = await self._load(conn, tid, lock=True)
            if t is None:
                raise Refusal("unknown_tournament", "no such tournament")
            may(t)
            await conn.execute(
                db.tournaments.update()
                .where(db.tournaments.c.id == tid, db.tournaments.c.status == "signup")
                .values(starts_at=at, wake_at=at)
            )
            await self.database.signal(conn, Signal(SignalKind.TOURNAMENT, tid))

    async def claim(self, at: datetime, limit: int, act: Act) -> list[tuple[str, Plan]]:
        """Act on the tournaments due at `at`, each in one transaction of its own."""
        t = db.tournaments
        due = (
            sa.select(t.c.id)
            .where(t.c.wake_at.isnot(None), t.c.wake_at <= at, t.c.status.in_(OPEN))
            .order_by(t.c.wake_at)
            .limit(limit)
        )
        async with self.database.connect() as conn:
            ids = [r.id for r in (await conn.execute(due)).all()]
        done: list[tuple[str, Plan]] = []
        for tid in ids:
            plan = await self._claim_one(tid, at, act)
            if plan is not None:
                done.append((tid, plan))
        return done

    async def _claim_one(self, tid: str, at: datetime, act: Act) -> Plan | None:
        t = db.tournaments
        mine = sa.select(t.c.id).where(
            t.c.id == tid, t.c.wake_at.isnot(None), t.c.wake_at <= at, t.c.status.in_(OPEN)
        )
        if not self.database.sqlite:
            mine = mine.with_for_update(skip_locked=True)
        async with self._serial(), self.database.begin() as conn:
            if (await conn.execute(mine)).first() is None:
                return None  # another server holds it, or did it already
            row = await self._load(conn, tid)
            assert row is not None
            plan = await act(row, at)
            if plan is None:  # nothing to do: it is no longer due
                await conn.execute(t.update().where(t.c.id == tid).values(wake_at=None))
                return None
            games = [g for _table, g in plan.tables if g is not None]
            await self.games.insert_games(conn, games)
            rows = [
                {
                    "tournament_id": tid,
                    "round": table.round,
                    "number": table.number,
                    "game_id": table.game_id,
                    "seats": json.dumps(table.seats),
                    "places": json.dumps(table.places) if table.places is not None else None,
                    "ended_at": at if table.places is not None else None,
                }
                for table, _g in plan.tables
            ]
            if rows:
                await conn.execute(db.tournament_tables.insert(), rows)
            if games and self.notices is not None:
                await self._queue_messages(conn, row, plan)
            values: dict[str, Any] = {
                "status": plan.status,
                "round": plan.round,
                "rounds": plan.rounds,
                "wake_at": plan.wake_at,
            }
            if plan.schedule is not None:
                values["schedule"] = json.dumps(plan.schedule)
            if plan.status in ("over", "cancelled"):
                values["ended_at"] = at
            await conn.execute(t.update().where(t.c.id == tid).values(values))
            await self.database.signal(conn, Signal(SignalKind.TOURNAMENT, tid))
        return plan

    async def _queue_messages(self, conn: AsyncConnection, t: Tournament, plan: Plan) -> None:
        """Each entrant at a new table is sent word (mail, webhook: their choices) that
        their game has begun: once, with the round, whichever server started it."""
        assert self.notices is not None
        names = {e.user_id: e.name for e in t.entrants}
        for table, row in plan.tables:
            if row is None:
                continue
            for user in (u for u in table.seats if u is not None):
                opponents = [
                    names[u] if u is not None else f"bot:{t.bots or ''}"
                    for u in table.seats
                    if u != user
                ]
                payload = json.dumps(
                    {
                        "tournament": t.name,
                        "round": table.round,
                        "game": t.game,
                        "opponents": opponents,
                    }
                )
                key = f"tournament:{row.id}:{user}"
                await self.notices.queue_now(conn, key, user, row.id, payload, self.mail)


def ended(database: Database, game_id: str, places: Sequence[int]) -> Followup:
    """A follow-up of a game's final write: if it is a tournament's table, its places
    (the engine's, with the seats whose player left placed last, the earliest lowest:
    as the ratings count them), and the round's last table makes the tournament due."""

    async def write(conn: AsyncConnection) -> None:
        tt, t = db.tournament_tables, db.tournaments
        found = (
            await conn.execute(
                sa.select(tt.c.id, tt.c.tournament_id, tt.c.round, tt.c.seats).where(
                    tt.c.game_id == game_id, tt.c.places.is_(None)
                )
            )
        ).first()
        if found is None:
            return
        st, nt = db.seats, db.notes
        users = [
            r.user_id
            for r in await conn.execute(
                sa.select(st.c.user_id).where(st.c.game_id == game_id).order_by(st.c.seat)
            )
        ]
        left = await conn.execute(
            sa.select(nt.c.seat)
            .where(nt.c.game_id == game_id, nt.c.kind.in_(LEFT))
            .order_by(nt.c.id)
        )
        gone = [int(n.seat) for n in left if n.seat is not None and users[n.seat] is not None]
        ranks = places_with_abandons(list(places), gone)
        at = now()
        await conn.execute(
            tt.update().where(tt.c.id == found.id).values(places=json.dumps(ranks), ended_at=at)
        )
        playing = (
            await conn.execute(
                sa.select(sa.func.count()).where(
                    tt.c.tournament_id == found.tournament_id,
                    tt.c.round == found.round,
                    tt.c.places.is_(None),
                )
            )
        ).scalar()
        if not playing:
            await conn.execute(
                t.update()
                .where(
                    t.c.id == found.tournament_id,
                    t.c.round == found.round,
                    t.c.status == "running",
                )
                .values(wake_at=at)
            )
        await database.signal(conn, Signal(SignalKind.TOURNAMENT, found.tournament_id))

    return write
