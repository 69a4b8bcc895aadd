"""Quick match on disk: an account joining and leaving the pool, what it sees of its
own row, and a pass that turns groups of players into tables.

A row is one account's wait for a kind of table: a game, its players, its clock and
its options (as the feature wrote them: the clock's name, the options that differ
from the defaults as canonical JSON; the columns' defaults are a duel at the medium
clock with no option, what every wait was before migration 0016).

A pass claims the rows still waiting with `SELECT … FOR UPDATE SKIP LOCKED`
(PostgreSQL): of two servers passing at once, each sees only rows the other has not
claimed, so nobody sits at two tables; on SQLite the one process passes one at a time
(quickmatch.py). The game made for a group is written in the same transaction as the
group's rows are marked with it: a server that dies halfway leaves them all still
waiting and no game, never a game with one player told and the others not. Rows of
players no longer in a lobby, or waiting too long, are dropped by the same pass.

Nothing read here leaves but to the row's own account, and then only what it asked
for, its own rating, its wait, how many wait for the same kind (a count) and, once
seated, the game's id and the names its opponents play under.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from euphrates.games import GAMES
from euphrates.match.ratings import MU, SIGMA, display, group_of
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware
from euphrates.server.store.games import GameStore
from euphrates.server.store.rows import GameRow
from euphrates.server.store.signals import Signal, SignalKind

PLAYERS = sorted({n for definition in GAMES.values() for n in definition.players})
"""Every number of players some game takes: the player-count groups a row's rating is
read in."""
Kind = tuple[str, int, str, str]
"""(game, players, clock, options): what a wait asks for; only equal kinds share a table."""


@dataclass(frozen=True)
class Waiting:
    """A player in the pool: their account, the game, the rating they are matched at,
    since when they wait, and the rest of the kind of table they wait for."""

    user_id: int
    game: str
    rating: float
    since: datetime
    players: int = 2
    clock: str = "medium"
    options: str = "{}"
    """The options that differ from the game's defaults, as canonical JSON."""

    @property
    def kind(self) -> Kind:
        return (self.game, self.players, self.clock, self.options)


MakeGame = Callable[[Sequence[tuple[Waiting, str]], datetime], GameRow]
"""(the group as (wait, name) each, now) → the new game's row, started."""
Grouping = Callable[
    [Sequence[Waiting], datetime, Collection[frozenset[int]]], list[tuple[Waiting, ...]]
]
"""The rule (features/quickmatch/matching.py): the tables to make now, never two
accounts kept apart at one."""
Apart = Callable[[list[int]], Awaitable[set[frozenset[int]]]]
"""The pairs among these accounts that may not share a table (a shared device or
address, a block: docs/fair-play.md)."""


@dataclass(frozen=True)
class Entry:
    """An account's row as its owner sees it."""

    game: str
    rating: float
    since: datetime
    players: int = 2
    clock: str = "medium"
    options: str = "{}"
    game_id: str | None = None
    opponents: tuple[str, ...] = ()
    """The names the other players play under, once seated (in seat order)."""
    shown: int = 0
    """The account's shown rating in the game and player-count group (as its profile
    and the leaderboard show it: μ − 3σ on the 1000 scale), not the skill it is
    matched by."""
    alike: int = 0
    """How many wait for the same kind now, this account included (while waiting)."""


@dataclass
class Pass:
    """What one pass did."""

    matches: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    """(game id, its accounts) per table made."""
    dropped: list[int] = field(default_factory=list)
    """Accounts whose wait ended unseated (gone from the lobby, or waited too long)."""
    waiting: int = 0
    """Rows still waiting that this pass saw."""


class MatchStore:
    def __init__(self, database: Database, games: GameStore) -> None:
        self.database = database
        self.games = games
        self.sqlite = database.sqlite

    async def entries(self, user_ids: list[int]) -> dict[int, Entry]:
        """The rows of these accounts, with the opponents' names where seated and how
        many wait for the same kind where waiting."""
        if not user_ids:
            return {}
        q, rt, st = db.quickmatch, db.ratings, db.seats
        group = sa.case(*((q.c.players == n, group_of(n)) for n in PLAYERS), else_="2")
        query = (
            sa.select(q, rt.c.mu, rt.c.sigma)
            .outerjoin(
                rt,
                sa.and_(
                    rt.c.user_id == q.c.user_id,
                    rt.c.game == q.c.game,
                    rt.c.grp == group,
                    rt.c.games > 0,
                ),
            )
            .where(q.c.user_id.in_(user_ids))
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
            seated = sorted({r.game_id for r in rows if r.game_id is not None})
            names: dict[str, list[tuple[int | None, str | None]]] = {g: [] for g in seated}
            if seated:
                found = await conn.execute(
                    sa.select(st.c.game_id, st.c.user_id, st.c.name)
                    .where(st.c.game_id.in_(seated))
                    .order_by(st.c.game_id, st.c.seat)
                )
                for s in found:
                    names[s.game_id].append((s.user_id, s.name))
            alike: dict[Kind, int] = {}
            if any(r.game_id is None for r in rows):
                counted = await conn.execute(
                    sa.select(q.c.game, q.c.players, q.c.clock, q.c.options, sa.func.count())
                    .where(q.c.game_id.is_(None))
                    .group_by(q.c.game, q.c.players, q.c.clock, q.c.options)
                )
                alike = {(c[0], c[1], c[2], c[3]): int(c[4]) for c in counted}
        out: dict[int, Entry] = {}
        for r in rows:
            others = tuple(
                name or "?" for uid, name in names.get(r.game_id or "", []) if uid != r.user_id
            )
            kind = (r.game, r.players, r.clock, r.options)
            out[r.user_id] = _entry(r, others, alike.get(kind, 0) if r.game_id is None else 0)
        return out

    async def join(self, wait: Waiting, at: datetime, again: float) -> bool:
        """Put the account in the pool for the kind `wait` names. Joining again while
        waiting for the same kind changes nothing (its wait goes on), and so does
        joining within `again` seconds of being seated (a second press that crossed
        the table made); an older table gives way to the new wait. Refused while it
        waits for another kind. Returns whether a row was written. Two joins of one
        account at the same moment (two requests, maybe on two servers): one writes,
        the other is answered as if it came second."""
        try:
            return await self._join(wait, at, again)
        except IntegrityError:
            return await self._join(wait, at, again)

    async def _join(self, wait: Waiting, at: datetime, again: float) -> bool:
        q = db.quickmatch
        user_id = wait.user_id
        async with self.database.begin() as conn:
            mine = sa.select(
                q.c.game, q.c.players, q.c.clock, q.c.options, q.c.game_id, q.c.matched_at
            ).where(q.c.user_id == user_id)
            if not self.sqlite:
                mine = mine.with_for_update()
            row = (await conn.execute(mine)).first()
            seated = None if row is None or row.game_id is None else aware(row.matched_at)
            if seated is not None and (at - seated).total_seconds() < again:
                return False
            if row is not None and row.game_id is None:
                if (row.game, row.players, row.clock, row.options) == wait.kind:
                    return False
                raise Refusal(
                    "already_waiting",
                    f"you are already waiting for a {row.players}-player game of "
                    f"{row.game!r} ({row.clock}): cancel that first",
                )
            if row is not None:
                await conn.execute(q.delete().where(q.c.user_id == user_id))
            await conn.execute(
                q.insert().values(
                    user_id=user_id,
                    game=wait.game,
                    rating=wait.rating,
                    since=at,
                    players=wait.players,
                    clock=wait.clock,
                    options=wait.options,
                )
            )
            await self.database.signal(conn, Signal(SignalKind.QUICKMATCH))
        return True

    async def leave(self, user_id: int) -> bool:
        """Take the account out of the pool; whether it was waiting (a row already
        seated stays: the game exists). A pass that holds the row at this moment
        finishes first: the wait it seated stays seated, one it left goes."""
        q = db.quickmatch
        async with self.database.begin() as conn:
            gone = await conn.execute(
                q.delete().where(q.c.user_id == user_id, q.c.game_id.is_(None))
            )
            if gone.rowcount:
                await self.database.signal(conn, Signal(SignalKind.QUICKMATCH))
        return bool(gone.rowcount)

    async def run(
        self,
        at: datetime,
        present: Callable[[int], bool],
        grace: float,
        longest: float,
        shown: float,
        make: MakeGame,
        groups: Grouping,
        apart: Apart,
    ) -> Pass:
        """One pass at `at`: claim the rows waiting, drop those of players not in a
        lobby for `grace` seconds since they joined or waiting longer than `longest`,
        group the rest (`groups`, the rule) and write a started game per group; forget
        tables made more than `shown` seconds ago."""
        q, u = db.quickmatch, db.users
        done = Pass()
        query = (
            sa.select(
                q.c.user_id,
                q.c.game,
                q.c.rating,
                q.c.since,
                q.c.players,
                q.c.clock,
                q.c.options,
                u.c.name,
            )
            .join(u, u.c.id == q.c.user_id)
            .where(q.c.game_id.is_(None))
            .order_by(q.c.since, q.c.user_id)
        )
        if not self.sqlite:
            query = query.with_for_update(of=q, skip_locked=True)
        async with self.database.begin() as conn:
            old = sa.select(q.c.user_id).where(
                q.c.game_id.isnot(None), q.c.matched_at < at - timedelta(seconds=shown)
            )
            if not self.sqlite:  # a row another transaction holds is forgotten next time
                old = old.with_for_update(skip_locked=True)
            await conn.execute(q.delete().where(q.c.user_id.in_(old.scalar_subquery())))
            names: dict[int, str] = {}
            waiting: list[Waiting] = []
            for r in (await conn.execute(query)).all():
                since = aware(r.since)
                waited = (at - since).total_seconds()
                here = present(r.user_id)
                if waited > longest or (not here and waited > grace):
                    done.dropped.append(r.user_id)
                elif here:
                    names[r.user_id] = r.name
                    waiting.append(
                        Waiting(r.user_id, r.game, r.rating, since, r.players, r.clock, r.options)
                    )
                else:
                    done.waiting += 1  # not (yet) seen in a lobby: waits for the grace
            if done.dropped:
                await conn.execute(q.delete().where(q.c.user_id.in_(done.dropped)))
            kept = await apart([w.user_id for w in waiting]) if len(waiting) > 1 else set()
            made = groups(waiting, at, kept)
            games = [make([(w, names[w.user_id]) for w in group], at) for group in made]
            await self.games.insert_games(conn, games)
            marks = [
                {"uid": w.user_id, "gid": row.id}
                for row, group in zip(games, made, strict=True)
                for w in group
            ]
            if marks:
                await conn.execute(
                    q.update()
                    .where(q.c.user_id == sa.bindparam("uid"))
                    .values(game_id=sa.bindparam("gid"), matched_at=at),
                    marks,
                )
            done.matches = [
                (row.id, tuple(w.user_id for w in group))
                for row, group in zip(games, made, strict=True)
            ]
            done.waiting += len(waiting) - len(marks)
            if done.matches or done.dropped:
                await self.database.signal(conn, Signal(SignalKind.QUICKMATCH))
        return done


def _entry(r: Any, opponents: tuple[str, ...], alike: int) -> Entry:
    shown = display(r.mu, r.sigma) if r.mu is not None else display(MU, SIGMA)
    return Entry(
        game=r.game,
        rating=float(r.rating),
        since=aware(r.since),
        players=int(r.players),
        clock=r.clock,
        options=r.options,
        game_id=r.game_id,
        opponents=opponents,
        shown=shown,
        alike=alike,
    )
