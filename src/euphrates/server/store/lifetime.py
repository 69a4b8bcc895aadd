"""Lifetime figures on disk: added as each game ends, read as a profile shows them.

A game's figures are added by a follow-up of its end's write (`counted`), in that
transaction: they exist exactly when the end does, once, whichever server stored it
(several servers on PostgreSQL: the final version's insert, or the conditional end,
decides; `lifetime_games` keeps each game counted, so a second try adds nothing).
Each figure is a column added to (`games = games + 1`, an upsert), so two games ending
at once for one player on two servers both count; a game's rows are written in the
order of their keys (as the ratings lock theirs), so two games of the same players
lock them in the same order.

What one game adds is match/lifetime.py's: replayed once, from the stored log, at the
game's end. A profile's view reads the sums only (`of_user`): a bounded number of
statements whatever the number of games, and never a record.

Which games count (docs/server.md, *Lifetime statistics*): every game that ended
`over` with an account seated — rated or not (`rated` counts those rated) — and every
one `aborted` or `abandoned` by its host, as such only. Accounts deleted get nothing, and lose what they had
(`forget`); others keep their games against them, shown as a deleted player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.match.lifetime import (
    LEFT_FOR_GOOD,
    SUMMED,
    Credit,
    SeatFacts,
    credits,
    seat_results,
    standing,
)
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, iso_time, now

TOP = 10
"""The accounts a view lists as favourite opponents, per game and number of players
(bots by level and guests are listed beside them, all: there are few)."""
ADDED = (
    "games",
    "wins",
    "places",
    "scored",
    "score",
    "rated",
    "left_early",
    "aborted",
    "abandoned",
    *SUMMED,
)
"""The columns of `lifetime` that a game adds to."""
MET = ("games", "above", "below", "tied")


def counted(
    game_id: str,
    game: str,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    rated: bool,
    status: str,
) -> Followup:
    """The follow-up of a game's end (`status`: over, aborted or abandoned): what it
    adds to each account seated, read and written in the end's transaction."""

    async def write(conn: AsyncConnection) -> None:
        st, u = db.seats, db.users
        seats = (
            await conn.execute(
                sa.select(st.c.seat, st.c.kind, st.c.level, st.c.user_id, u.c.deleted)
                .select_from(st.outerjoin(u, u.c.id == st.c.user_id))
                .where(st.c.game_id == game_id)
                .order_by(st.c.seat)
            )
        ).all()
        accounts = sorted(
            {int(s.user_id) for s in seats if s.user_id is not None and not s.deleted}
        )
        if not accounts:
            return
        at = now()
        first = await conn.execute(
            _insert(conn, db.lifetime_games)
            .values(game_id=game_id, status=status, created_at=at)
            .on_conflict_do_nothing()
        )
        if not first.rowcount:  # counted already
            return
        if status != "over":  # aborted or abandoned: a game, but not one played to its end
            rows = [_totals(user, game, players, at, **{status: 1}) for user in accounts]
            await _add(conn, db.lifetime, rows, ADDED)
            return
        facts = [SeatFacts(str(s.kind), s.level, s.user_id) for s in seats]
        left, log = await _left_and_log(conn, game_id)
        results = seat_results(game, players, seed, options, standing(log), left)
        done = credits(facts, results, left, accounts)
        await write_credits(conn, game, players, rated, done, at)

    return write


async def _left_and_log(
    conn: AsyncConnection, game_id: str
) -> tuple[list[int], list[tuple[str, str | None]]]:
    nt, lg = db.notes, db.log
    notes = await conn.execute(
        sa.select(nt.c.seat)
        .where(nt.c.game_id == game_id, nt.c.kind.in_(LEFT_FOR_GOOD), nt.c.seat.isnot(None))
        .order_by(nt.c.id)
    )
    log = await conn.execute(
        sa.select(lg.c.kind, lg.c.text).where(lg.c.game_id == game_id).order_by(lg.c.version)
    )
    return [int(n.seat) for n in notes], [(str(e.kind), e.text) for e in log]


async def write_credits(
    conn: AsyncConnection,
    game: str,
    players: int,
    rated: bool,
    done: Sequence[Credit],
    at: Any,
) -> None:
    """Add one game's credits: each account's totals, then its meetings, in key order."""
    totals = []
    meetings = []
    for c in done:
        row = _totals(c.user, game, players, at, games=1, wins=int(c.won), places=c.place)
        row.update(c.counts, rated=int(rated), left_early=int(c.left))
        if c.score is not None:
            row.update(scored=1, score=c.score, best=c.score)
        totals.append(row)
        for key, m in sorted(c.meetings.items()):
            meetings.append(
                {
                    "user_id": c.user,
                    "game": game,
                    "players": players,
                    "opponent": key,
                    "opponent_id": m.opponent,
                    "games": 1,
                    "above": m.above,
                    "below": m.below,
                    "tied": m.tied,
                    "last_at": at,
                }
            )
    await _add(conn, db.lifetime, totals, ADDED)
    if meetings:
        await _add(conn, db.lifetime_opponents, meetings, MET)


def _totals(user: int, game: str, players: int, at: Any, **added: int) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(ADDED, 0)
    row.update(user_id=user, game=game, players=players, best=None, last_at=at, **added)
    return row


def _insert(conn: AsyncConnection, table: sa.Table) -> Any:
    return pg_insert(table) if conn.dialect.name == "postgresql" else sqlite_insert(table)


async def _add(
    conn: AsyncConnection, table: sa.Table, rows: list[dict[str, Any]], added: Sequence[str]
) -> None:
    """Insert `rows`, or add their `added` columns to the rows already there (the
    highest `best` kept, the latest `last_at`), one statement per row in key order."""
    keys = [c.name for c in table.primary_key.columns]
    for row in sorted(rows, key=lambda r: tuple(r[k] for k in keys)):
        stmt = _insert(conn, table).values(row)
        new = stmt.excluded
        changes: dict[str, Any] = {c: table.c[c] + new[c] for c in added}
        changes["last_at"] = new.last_at
        if "best" in table.c:
            changes["best"] = sa.case(
                (new.best.is_(None), table.c.best),
                (sa.or_(table.c.best.is_(None), new.best > table.c.best), new.best),
                else_=table.c.best,
            )
        await conn.execute(stmt.on_conflict_do_update(index_elements=keys, set_=changes))


async def forget(conn: AsyncConnection, user_id: int) -> None:
    """An account deleted, in its deletion's transaction: its own figures go (others
    keep their games against it, shown as a deleted player)."""
    await conn.execute(db.lifetime.delete().where(db.lifetime.c.user_id == user_id))
    o = db.lifetime_opponents
    await conn.execute(o.delete().where(o.c.user_id == user_id))


# --- reading ------------------------------------------------------------------------


async def of_user(database: Database, user_id: int) -> dict[str, Any]:
    """An account's figures as a profile shows them: one set per game and number of
    players, and one over all of them (game and players null), each with its favourite
    opponents (the TOP accounts met most often; bots and guests beside them). Three
    statements, whatever the number of games."""
    lt = db.lifetime
    async with database.connect() as conn:
        rows = (
            await conn.execute(
                sa.select(lt).where(lt.c.user_id == user_id).order_by(lt.c.game, lt.c.players)
            )
        ).all()
        per_set = (await conn.execute(_ranked(user_id, per_set=True))).all()
        overall = (await conn.execute(_ranked(user_id, per_set=False))).all()
    sets = [_set(rows, None, None, overall)]
    for r in rows:
        mine = [o for o in per_set if o.game == r.game and o.players == r.players]
        sets.append(_set([r], r.game, int(r.players), mine))
    return {"sets": sets}


def _ranked(user_id: int, per_set: bool) -> Any:
    """The opponents met most often, per game and players or over all: at most TOP
    accounts, and every bot level and the guests, with the accounts' names."""
    o, u = db.lifetime_opponents, db.users
    if per_set:
        source = (
            sa.select(
                o.c.game,
                o.c.players,
                o.c.opponent,
                o.c.opponent_id,
                o.c.games,
                o.c.above,
                o.c.below,
                o.c.tied,
                o.c.last_at,
            )
            .where(o.c.user_id == user_id)
            .subquery()
        )
        parts = [source.c.game, source.c.players, source.c.opponent_id.is_(None)]
    else:
        source = (
            sa.select(
                o.c.opponent,
                o.c.opponent_id,
                *(sa.func.sum(o.c[c]).label(c) for c in MET),
                sa.func.max(o.c.last_at).label("last_at"),
            )
            .where(o.c.user_id == user_id)
            .group_by(o.c.opponent, o.c.opponent_id)
            .subquery()
        )
        parts = [source.c.opponent_id.is_(None)]
    rank = sa.func.row_number().over(
        partition_by=parts,
        order_by=[source.c.games.desc(), source.c.last_at.desc(), source.c.opponent],
    )
    ranked = sa.select(source, rank.label("rank")).subquery()
    return (
        sa.select(ranked, u.c.name, u.c.deleted)
        .select_from(ranked.outerjoin(u, u.c.id == ranked.c.opponent_id))
        .where(sa.or_(ranked.c.rank <= TOP, ranked.c.opponent_id.is_(None)))
        .order_by(ranked.c.opponent_id.is_(None), ranked.c.rank)
    )


def _set(
    rows: Sequence[Any], game: str | None, players: int | None, met: Sequence[Any]
) -> dict[str, Any]:
    """One set of figures: the sums of `rows`, what they mean, and the opponents."""
    sums = {c: sum(int(getattr(r, c)) for r in rows) for c in ADDED}
    bests = [int(r.best) for r in rows if r.best is not None]
    games, scored = sums["games"], sums["scored"]
    counts = {c: sums[c] for c in SUMMED}
    return {
        "game": game,
        "players": players,
        "games": games,
        "wins": sums["wins"],
        "win_rate": round(sums["wins"] / games, 4) if games else None,
        "average_place": round(sums["places"] / games, 4) if games else None,
        "scored": scored,
        "average_score": round(sums["score"] / scored, 4) if scored else None,
        "best_score": max(bests) if bests else None,
        "rated": sums["rated"],
        "left": sums["left_early"],
        "aborted": sums["aborted"],
        "abandoned": sums["abandoned"],
        "stats": nested_counts(counts),
        "opponents": [_opponent(m) for m in met],
        "last": iso_time(max(r.last_at for r in rows)) if rows else None,
    }


def nested_counts(counts: Mapping[str, int]) -> dict[str, Any]:
    """The summed columns in match/stats.py's shape (revolts and wars by outcome,
    points by colour)."""
    out: dict[str, Any] = {"revolts": {}, "wars": {}, "points": {}}
    for name, n in counts.items():
        head, _, rest = name.partition("_")
        if head in ("revolts", "wars", "points"):
            out[head][rest] = n
        else:
            out[name] = n
    return out


def _opponent(m: Any) -> dict[str, Any]:
    key = str(m.opponent)
    if m.opponent_id is not None:
        kind = "deleted" if m.deleted else "account"
        name, level = (None if m.deleted else str(m.name)), None
    elif key.startswith("bot:"):
        kind, name, level = "bot", None, key[4:]
    else:
        kind, name, level = "guest", None, None
    return {
        "kind": kind,
        "name": name,
        "level": level,
        "games": int(m.games),
        "above": int(m.above),
        "below": int(m.below),
        "tied": int(m.tied),
        "last": iso_time(m.last_at),
    }


async def export(database: Database, user_id: int) -> dict[str, Any]:
    """Everything kept of the account's lifetime figures, for its data export: every
    row of totals and every head-to-head row (opponents named as a profile names
    them), unranked and uncut."""
    lt, o, u = db.lifetime, db.lifetime_opponents, db.users
    async with database.connect() as conn:
        rows = (
            await conn.execute(
                sa.select(lt).where(lt.c.user_id == user_id).order_by(lt.c.game, lt.c.players)
            )
        ).all()
        met = (
            await conn.execute(
                sa.select(o, u.c.name, u.c.deleted)
                .select_from(o.outerjoin(u, u.c.id == o.c.opponent_id))
                .where(o.c.user_id == user_id)
                .order_by(o.c.game, o.c.players, o.c.games.desc(), o.c.opponent)
            )
        ).all()
    totals = []
    for r in rows:
        doc: dict[str, Any] = {c: int(getattr(r, c)) for c in ADDED}
        doc.update(game=r.game, players=int(r.players), best=r.best, last=iso_time(r.last_at))
        totals.append(doc)
    return {
        "totals": totals,
        "opponents": [{"game": m.game, "players": int(m.players), **_opponent(m)} for m in met],
    }
