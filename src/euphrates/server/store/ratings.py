"""Ratings on disk: those written when a rated game ends, and as players see them — a
leaderboard per game and player-count group, and an account's ratings with their
history for its profile.

A rated game is rated at its final version, by a follow-up of that version's write
(`rating`): the new ratings exist exactly when the game's last action does, once,
whichever server stored it. Each account's rating is read and written under a row
lock, so two games ending at once for one player on two servers both count.

Everything read here is public by design — names, shown ratings, games counted, places,
links to replays of ended games — and nothing else: no account id, no μ or σ of anyone
(the shown rating is the conservative μ − 3σ, match/ratings.py), no e-mail, no token.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.match.ladder import shipped as bot_ratings
from euphrates.match.ratings import (
    DISPLAY_BASE,
    DISPLAY_SCALE,
    MU,
    PROVISIONAL_GAMES,
    Rating,
    display,
    group_of,
    places_with_abandons,
    rate_game,
)
from euphrates.server.store import models as db
from euphrates.server.store.database import Database, Followup, iso_time, now
from euphrates.server.store.signals import Signal, SignalKind

log = logging.getLogger("euphrates.server")

ABANDONS = ("resigned", "replaced", "left", "forfeited")
"""Notes that place a seat's player last in the rating (notes.py)."""

LEADERBOARD = 100
"""The most accounts a leaderboard lists."""
HISTORY = 200
"""The most rated games a profile lists per account."""


async def match_rating(database: Database, user_id: int, game: str, group: str) -> float | None:
    """What quick match pairs by (quickmatch.RatingLookup): the account's skill estimate
    μ on the shown ratings' scale, 1000 + 40 × (μ − 25), or None while it has no rated
    game in `game` and `group`. Not the conservative shown rating: a newcomer's wide σ
    says how unsure the estimate is, not that they play worse."""
    rt = db.ratings
    query = sa.select(rt.c.mu).where(
        rt.c.user_id == user_id, rt.c.game == game, rt.c.grp == group, rt.c.games > 0
    )
    async with database.connect() as conn:
        mu = (await conn.execute(query)).scalar()
    return None if mu is None else DISPLAY_BASE + DISPLAY_SCALE * (float(mu) - MU)


async def leaderboard(database: Database, game: str, group: str, top: int) -> list[dict[str, Any]]:
    """The best `top` accounts of `game` and `group` by shown rating (each with its
    place), the bots' fixed ratings among them, marked."""
    rt, u = db.ratings, db.users
    query = (
        sa.select(u.c.name, rt.c.mu, rt.c.sigma, rt.c.games)
        .select_from(rt.join(u, u.c.id == rt.c.user_id))
        .where(
            rt.c.game == game,
            rt.c.grp == group,
            rt.c.games > 0,
            sa.not_(u.c.deleted),
            sa.not_(u.c.disabled),
        )
        .order_by((rt.c.mu - 3 * rt.c.sigma).desc(), u.c.name)
        .limit(top)
    )
    async with database.connect() as conn:
        rows = (await conn.execute(query)).all()
    entries = [
        {
            "name": r.name,
            "rating": display(r.mu, r.sigma),
            "games": int(r.games),
            "provisional": int(r.games) < PROVISIONAL_GAMES,
            "bot": False,
        }
        for r in rows
    ]
    for level, fixed in bot_ratings().get(game, {}).get(group, {}).items():
        entries.append(
            {
                "name": level,
                "rating": display(fixed["mu"], fixed["sigma"]),
                "games": int(fixed["games"]),
                "provisional": False,
                "bot": True,
            }
        )
    entries.sort(key=lambda e: (-e["rating"], e["bot"], e["name"]))
    for place, e in enumerate(entries, 1):
        e["place"] = place
    return entries


async def of_user(database: Database, user_id: int) -> dict[str, Any]:
    """An account's ratings (per game and group) and its rated games, newest first."""
    rt, h, g = db.ratings, db.rating_history, db.games
    async with database.connect() as conn:
        ratings = (
            await conn.execute(
                sa.select(rt)
                .where(rt.c.user_id == user_id, rt.c.games > 0)
                .order_by(rt.c.game, rt.c.grp)
            )
        ).all()
        history = (
            await conn.execute(
                sa.select(h, g.c.players, g.c.status, g.c.verdict)
                .select_from(h.join(g, g.c.id == h.c.game_id))
                .where(h.c.user_id == user_id)
                .order_by(h.c.id.desc())
                .limit(HISTORY)
            )
        ).all()
    return {
        "ratings": [
            {
                "game": r.game,
                "group": r.grp,
                "rating": display(r.mu, r.sigma),
                "games": int(r.games),
                "provisional": int(r.games) < PROVISIONAL_GAMES,
            }
            for r in ratings
        ],
        "rated": [
            {
                "id": e.game_id,
                "game": e.game,
                "group": e.grp,
                "players": int(e.players),
                "place": int(e.place),
                "before": int(e.before),
                "after": int(e.after),
                "at": iso_time(e.created_at),
                "replay": f"/replay/{e.game_id}",
                "verdict": e.verdict,
            }
            for e in history
        ],
    }


PAIR_LIMIT = 3
"""Rated games two accounts play together that count in a day; beyond, none does
(docs/fair-play.md): a second account farmed against is worth little."""
PAIR_DAY = timedelta(days=1)


def rating(
    game_id: str,
    game: str,
    players: int,
    places: list[int],
    bot_rating: Callable[[str | None], Rating | None],
) -> Followup:
    """The rating of one ended game, written in the transaction of its final version
    (or of the leaving that ended it); everything it counts (seats, accounts, who
    left) is read in that transaction. The order counted is `places` (the engine's
    result, or everyone sharing the first place when a duel ended by a player leaving)
    with the seats whose player left (ABANDONS) placed last, the earliest to leave
    lowest; a bot's seat is rated at its level's fixed rating (`bot_rating`), which
    never changes. Two accounts that already played PAIR_LIMIT counted or repeated
    games together that day make the game a `repeat`: listed, counted for nobody."""
    group = group_of(players)

    async def write(conn: AsyncConnection) -> None:
        st, nt = db.seats, db.notes
        seats = (
            await conn.execute(
                sa.select(st.c.seat, st.c.kind, st.c.level, st.c.user_id)
                .where(st.c.game_id == game_id)
                .order_by(st.c.seat)
            )
        ).all()
        left = (
            await conn.execute(
                sa.select(nt.c.seat)
                .where(nt.c.game_id == game_id, nt.c.kind.in_(ABANDONS))
                .order_by(nt.c.id)
            )
        ).all()
        users = [s.user_id for s in seats]
        abandoned = [int(n.seat) for n in left if n.seat is not None and users[n.seat] is not None]
        ranks = places_with_abandons(places, abandoned)
        accounts = sorted({u for u in users if u is not None})
        if not accounts:
            return
        at = now()
        verdict = "repeat" if await _met_too_often(conn, accounts, at) else "counted"
        doc = [
            {"user": s.user_id, "level": s.level if s.user_id is None else None, "place": p}
            for s, p in zip(seats, ranks, strict=True)
        ]
        await conn.execute(
            db.rated_games.insert().values(
                game_id=game_id,
                game=game,
                grp=group,
                seats=json.dumps(doc),
                verdict=verdict,
                created_at=at,
            )
        )
        await conn.execute(
            db.games.update().where(db.games.c.id == game_id).values(verdict=verdict)
        )
        current = await _locked_ratings(conn, accounts, game, group, at)
        seated = [RatedSeat(s.user_id, s.level, p) for s, p in zip(seats, ranks, strict=True)]
        changed = _rate(seated, current, bot_rating, game_id, counted=verdict == "counted")
        await _write_ratings(conn, game_id, game, group, changed, at)

    return write


class RatedSeat(NamedTuple):
    user: int | None
    level: str | None
    place: int


async def _met_too_often(conn: AsyncConnection, accounts: list[int], at: datetime) -> bool:
    """Whether two of `accounts` already played PAIR_LIMIT rated games together in the
    day before `at`."""
    if len(accounts) < 2:
        return False
    h1, h2 = db.rating_history.alias("h1"), db.rating_history.alias("h2")
    found = await conn.execute(
        sa.select(sa.func.count())
        .select_from(h1)
        .join(h2, sa.and_(h1.c.game_id == h2.c.game_id, h1.c.user_id < h2.c.user_id))
        .where(
            h1.c.user_id.in_(accounts),
            h2.c.user_id.in_(accounts),
            h1.c.created_at > at - PAIR_DAY,
        )
        .group_by(h1.c.user_id, h2.c.user_id)
        .order_by(sa.func.count().desc())
        .limit(1)
    )
    most = found.scalar()
    return most is not None and int(most) >= PAIR_LIMIT


async def _locked_ratings(
    conn: AsyncConnection, accounts: list[int], game: str, group: str, at: datetime
) -> dict[int, tuple[Rating, int]]:
    """The accounts' ratings in `game` and `group`, made if missing, read under a row
    lock: two games ending at once for one player on two servers both count."""
    rt = db.ratings
    insert = pg_insert(rt) if conn.dialect.name == "postgresql" else sqlite_insert(rt)
    await conn.execute(
        insert.on_conflict_do_nothing(),
        [
            {
                "user_id": u,
                "game": game,
                "grp": group,
                "mu": Rating().mu,
                "sigma": Rating().sigma,
                "games": 0,
                "updated_at": at,
            }
            for u in accounts
        ],
    )
    found = (
        await conn.execute(
            sa.select(rt)
            .where(rt.c.user_id.in_(accounts), rt.c.game == game, rt.c.grp == group)
            .order_by(rt.c.user_id)
            .with_for_update()
        )
    ).all()
    return {r.user_id: (Rating(r.mu, r.sigma), int(r.games)) for r in found}


class Changed(NamedTuple):
    user: int
    place: int
    before: Rating
    after: Rating
    games: int


def _rate(
    seats: list[RatedSeat],
    current: dict[int, tuple[Rating, int]],
    bot_rating: Callable[[str | None], Rating | None],
    game_id: str,
    counted: bool,
) -> list[Changed]:
    """Each account's rating before and after one game (unchanged when not counted),
    updating `current`."""
    before: list[Rating] = []
    for s in seats:
        if s.user is not None:
            before.append(current[s.user][0])
        else:
            fixed = bot_rating(s.level)
            if fixed is None:
                log.warning("game %s: no ladder rating for bot %s", game_id, s.level)
            before.append(fixed or Rating())
    after = rate_game(before, [s.place for s in seats]) if counted else before
    out: list[Changed] = []
    for s, old, new in zip(seats, before, after, strict=True):
        if s.user is None or any(c.user == s.user for c in out):
            continue
        games = current[s.user][1] + (1 if counted else 0)
        current[s.user] = (new, games)
        out.append(Changed(s.user, s.place, old, new, games))
    return out


async def _write_ratings(
    conn: AsyncConnection, game_id: str, game: str, group: str, changed: list[Changed], at: Any
) -> None:
    rt = db.ratings
    for c in changed:
        await conn.execute(
            rt.update()
            .where(rt.c.user_id == c.user, rt.c.game == game, rt.c.grp == group)
            .values(mu=c.after.mu, sigma=c.after.sigma, games=c.games, updated_at=at)
        )
        await conn.execute(
            db.rating_history.insert().values(
                user_id=c.user,
                game_id=game_id,
                game=game,
                grp=group,
                place=c.place,
                before=c.before.display,
                after=c.after.display,
                created_at=at,
            )
        )


async def void(
    database: Database,
    game_id: str,
    bot_rating: Callable[[str, str, str | None], Rating | None],
) -> bool:
    """An admin voids a rated game: it counts for nobody, and the ratings of its game
    and player-count group are computed again from every game still counted, in the
    order they ended, with the history rewritten to match. Once: of several voids at
    once (on several processes) one does it, under the ratings' row locks; whether
    this one did."""
    rg = db.rated_games
    async with database.begin() as conn:
        row = (
            await conn.execute(sa.select(rg.c.game, rg.c.grp).where(rg.c.game_id == game_id))
        ).first()
        if row is None:
            return False
        done = await conn.execute(
            rg.update()
            .where(rg.c.game_id == game_id, rg.c.verdict != "voided")
            .values(verdict="voided")
        )
        if not done.rowcount:
            return False
        await conn.execute(
            db.games.update().where(db.games.c.id == game_id).values(verdict="voided")
        )
        game, group = str(row.game), str(row.grp)
        await _recompute(conn, game, group, lambda level: bot_rating(game, group, level))
        # A server holding the game shows its verdict (game/rooms.py, `heard`).
        await database.signal(conn, Signal(SignalKind.SEATS, game_id))
    return True


async def _recompute(
    conn: AsyncConnection,
    game: str,
    group: str,
    bot_rating: Callable[[str | None], Rating | None],
) -> None:
    """Every rating of `game` and `group`, from the start: each account's rating row
    locked and reset, the games still counted (or repeated) rated again in order, the
    history rewritten."""
    rt, rg, h = db.ratings, db.rated_games, db.rating_history
    rated = (
        await conn.execute(
            sa.select(rg.c.game_id, rg.c.seats, rg.c.verdict, rg.c.created_at)
            .where(rg.c.game == game, rg.c.grp == group, rg.c.verdict != "voided")
            .order_by(rg.c.created_at, rg.c.game_id)
        )
    ).all()
    games = [
        (r, [RatedSeat(s["user"], s["level"], s["place"]) for s in json.loads(r.seats)])
        for r in rated
    ]
    accounts = sorted({s.user for _r, seats in games for s in seats if s.user is not None})
    locked = sa.select(rt.c.user_id).where(rt.c.game == game, rt.c.grp == group)
    await conn.execute(locked.with_for_update())
    await conn.execute(h.delete().where(h.c.game == game, h.c.grp == group))
    current: dict[int, tuple[Rating, int]] = {u: (Rating(), 0) for u in accounts}
    for r, seats in games:
        changed = _rate(seats, current, bot_rating, r.game_id, counted=r.verdict == "counted")
        for c in changed:
            await conn.execute(
                h.insert().values(
                    user_id=c.user,
                    game_id=r.game_id,
                    game=game,
                    grp=group,
                    place=c.place,
                    before=c.before.display,
                    after=c.after.display,
                    created_at=r.created_at,
                )
            )
    at = now()
    await conn.execute(
        rt.update()
        .where(rt.c.game == game, rt.c.grp == group)
        .values(mu=Rating().mu, sigma=Rating().sigma, games=0, updated_at=at)
    )
    for user, (value, played) in current.items():
        await conn.execute(
            rt.update()
            .where(rt.c.user_id == user, rt.c.game == game, rt.c.grp == group)
            .values(mu=value.mu, sigma=value.sigma, games=played, updated_at=at)
        )
