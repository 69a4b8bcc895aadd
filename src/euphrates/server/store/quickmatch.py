"""Quick match on disk: an account joining and leaving the pool, what it sees of its
own row, and a pairing pass that turns pairs into games.

A pass claims the rows still waiting for one game with `SELECT … FOR UPDATE SKIP
LOCKED` (PostgreSQL): of two servers passing at once, each sees only rows the other
has not claimed, so nobody is paired twice; on SQLite the one process passes one at
a time (quickmatch.py). The game made for a pair is written in the same transaction
as the pair's rows are marked with it: a server that dies halfway leaves both still
waiting and no game, never a game with one player told and the other not. Rows of
players no longer in a lobby, or waiting too long, are dropped by the same pass.

Nothing read here leaves but to the row's own account, and then only the game, its
own rating, its wait and, once paired, the game's id and the opponent's name.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from euphrates.match.ratings import MU, SIGMA, display
from euphrates.server.common.refusals import Refusal
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, aware
from euphrates.server.store.games import GameStore
from euphrates.server.store.rows import GameRow
from euphrates.server.store.signals import Signal, SignalKind

GROUP = "2"
"""Quick match makes duels: the player-count group its ratings are read in."""


@dataclass(frozen=True)
class Waiting:
    """A player in the pool: their account, the game, the rating they are matched at
    and since when they wait."""

    user_id: int
    game: str
    rating: float
    since: datetime


MakeGame = Callable[[str, tuple[tuple[int, str], tuple[int, str]], datetime], GameRow]
"""(game, the pair as (account, name) each, now) → the new game's row, started."""
Pairing = Callable[
    [Sequence[Waiting], datetime, Collection[frozenset[int]]], list[tuple[Waiting, Waiting]]
]
"""The pairing rule (features/quickmatch/matching.py): the pairs to make now, never
two accounts kept apart."""
Apart = Callable[[list[int]], Awaitable[set[frozenset[int]]]]
"""The pairs among these accounts that may not be paired (a shared device or address,
a block: docs/fair-play.md)."""


@dataclass(frozen=True)
class Entry:
    """An account's row as its owner sees it."""

    game: str
    rating: float
    since: datetime
    game_id: str | None = None
    opponent: str | None = None
    """The name the opponent plays under, once paired."""
    shown: int = 0
    """The account's shown rating in the game's duels (as its profile and the
    leaderboard show it: μ − 3σ on the 1000 scale), not the skill it is paired by."""


@dataclass
class Pass:
    """What one pairing pass did."""

    matches: list[tuple[str, int, int]] = field(default_factory=list)
    """(game id, account, account) per pair made."""
    dropped: list[int] = field(default_factory=list)
    """Accounts whose wait ended unpaired (gone from the lobby, or waited too long)."""
    waiting: int = 0
    """Rows still waiting that this pass saw."""


class MatchStore:
    def __init__(self, database: Database, games: GameStore) -> None:
        self.database = database
        self.games = games
        self.sqlite = database.sqlite

    async def entries(self, user_ids: list[int]) -> dict[int, Entry]:
        """The rows of these accounts, with the opponent's name where paired."""
        if not user_ids:
            return {}
        q, st = db.quickmatch, db.seats
        opponent = (
            sa.select(st.c.name)
            .where(st.c.game_id == q.c.game_id, st.c.user_id != q.c.user_id)
            .limit(1)
            .scalar_subquery()
        )
        rt = db.ratings
        query = (
            sa.select(q, opponent.label("opponent"), rt.c.mu, rt.c.sigma)
            .outerjoin(
                rt,
                sa.and_(
                    rt.c.user_id == q.c.user_id,
                    rt.c.game == q.c.game,
                    rt.c.grp == GROUP,
                    rt.c.games > 0,
                ),
            )
            .where(q.c.user_id.in_(user_ids))
        )
        async with self.database.connect() as conn:
            rows = (await conn.execute(query)).all()
        return {r.user_id: _entry(r) for r in rows}

    async def join(
        self, user_id: int, game: str, rating: float, at: datetime, again: float
    ) -> bool:
        """Put the account in the pool for `game`. Joining again while waiting for the
        same game changes nothing (its wait goes on), and so does joining within
        `again` seconds of being paired (a second press that crossed the pair); an
        older pair gives way to the new wait. Refused while it waits for another game.
        Returns whether a row was written (not when the same account joined at the
        same moment in another request: that row stands)."""
        try:
            return await self._join(user_id, game, rating, at, again)
        except IntegrityError:
            return False

    async def _join(
        self, user_id: int, game: str, rating: float, at: datetime, again: float
    ) -> bool:
        q = db.quickmatch
        async with self.database.begin() as conn:
            mine = sa.select(q.c.game, q.c.game_id, q.c.matched_at).where(q.c.user_id == user_id)
            if not self.sqlite:
                mine = mine.with_for_update()
            row = (await conn.execute(mine)).first()
            paired = None if row is None or row.game_id is None else aware(row.matched_at)
            if paired is not None and (at - paired).total_seconds() < again:
                return False
            if row is not None and row.game_id is None:
                if row.game == game:
                    return False
                raise Refusal(
                    "already_waiting",
                    f"you are already looking for an opponent for {row.game!r}: cancel that first",
                )
            if row is not None:
                await conn.execute(q.delete().where(q.c.user_id == user_id))
            await conn.execute(
                q.insert().values(user_id=user_id, game=game, rating=rating, since=at)
            )
            await self.database.signal(conn, Signal(SignalKind.QUICKMATCH))
        return True

    async def leave(self, user_id: int) -> bool:
        """Take the account out of the pool; whether it was waiting (a row already
        paired stays: the game exists)."""
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
        game: str,
        at: datetime,
        present: Callable[[int], bool],
        grace: float,
        longest: float,
        shown: float,
        make: MakeGame,
        pairs: Pairing,
        apart: Apart,
    ) -> Pass:
        """One pairing pass for `game` at `at`: claim the rows waiting, drop those of
        players not in a lobby for `grace` seconds since they joined or waiting longer
        than `longest`, pair the rest (`pairs`, the pairing rule) and write a started game per pair;
        forget pairs made more than `shown` seconds ago."""
        q, u = db.quickmatch, db.users
        done = Pass()
        query = (
            sa.select(q.c.user_id, q.c.rating, q.c.since, u.c.name)
            .join(u, u.c.id == q.c.user_id)
            .where(q.c.game == game, q.c.game_id.is_(None))
            .order_by(q.c.since, q.c.user_id)
        )
        if not self.sqlite:
            query = query.with_for_update(of=q, skip_locked=True)
        async with self.database.begin() as conn:
            old = sa.select(q.c.user_id).where(
                q.c.game == game,
                q.c.game_id.isnot(None),
                q.c.matched_at < at - timedelta(seconds=shown),
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
                    waiting.append(Waiting(r.user_id, game, r.rating, since))
                else:
                    done.waiting += 1  # not (yet) seen in a lobby: waits for the grace
            if done.dropped:
                await conn.execute(q.delete().where(q.c.user_id.in_(done.dropped)))
            kept = await apart([w.user_id for w in waiting]) if len(waiting) > 1 else set()
            paired = pairs(waiting, at, kept)
            games = [
                make(game, ((a.user_id, names[a.user_id]), (b.user_id, names[b.user_id])), at)
                for a, b in paired
            ]
            await self.games.insert_games(conn, games)
            marks = [
                {"uid": user.user_id, "gid": row.id}
                for row, pair in zip(games, paired, strict=True)
                for user in pair
            ]
            if marks:
                await conn.execute(
                    q.update()
                    .where(q.c.user_id == sa.bindparam("uid"))
                    .values(game_id=sa.bindparam("gid"), matched_at=at),
                    marks,
                )
            done.matches = [
                (row.id, a.user_id, b.user_id) for row, (a, b) in zip(games, paired, strict=True)
            ]
            done.waiting += len(waiting) - 2 * len(paired)
            if done.matches or done.dropped:
                await self.database.signal(conn, Signal(SignalKind.QUICKMATCH))
        return done


def _entry(r: Any) -> Entry:
    shown = display(r.mu, r.sigma) if r.mu is not None else display(MU, SIGMA)
    return Entry(
        game=r.game,
        rating=float(r.rating),
        since=aware(r.since),
        game_id=r.game_id,
        opponent=r.opponent,
        shown=shown,
    )
