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

import logging
from collections.abc import Callable
from typing import Any

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

log = logging.getLogger("euphrates.server")

ABANDONS = ("resigned", "replaced", "left")
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
                sa.select(h, g.c.players, g.c.status)
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
            }
            for e in history
        ],
    }


def rating(
    game_id: str,
    game: str,
    players: int,
    places: list[int],
    bot_rating: Callable[[str | None], Rating | None],
) -> Followup:
    """The rating of one ended game, written in the transaction of its final version;
    everything it counts (seats, accounts, who left) is read in that transaction. The
    order counted is the engine's result (`places`) with the seats whose player left
    (ABANDONS) placed last, the earliest to leave lowest; a bot's seat is rated at its
    level's fixed rating (`bot_rating`), which never changes."""
    group = group_of(players)

    async def write(conn: AsyncConnection) -> None:
        st, nt, rt = db.seats, db.notes, db.ratings
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
        current = {r.user_id: (Rating(r.mu, r.sigma), int(r.games)) for r in found}
        before: list[Rating] = []
        for s in seats:
            if s.user_id is not None:
                before.append(current[s.user_id][0])
            else:
                fixed = bot_rating(s.level)
                if fixed is None:
                    log.warning("game %s: no ladder rating for bot %s", game_id, s.level)
                before.append(fixed or Rating())
        after = rate_game(before, ranks)
        done: set[int] = set()
        for s, old, new, place in zip(seats, before, after, ranks, strict=True):
            if s.user_id is None or s.user_id in done:
                continue
            done.add(s.user_id)
            await conn.execute(
                rt.update()
                .where(rt.c.user_id == s.user_id, rt.c.game == game, rt.c.grp == group)
                .values(
                    mu=new.mu,
                    sigma=new.sigma,
                    games=current[s.user_id][1] + 1,
                    updated_at=at,
                )
            )
            await conn.execute(
                db.rating_history.insert().values(
                    user_id=s.user_id,
                    game_id=game_id,
                    game=game,
                    grp=group,
                    place=place,
                    before=old.display,
                    after=new.display,
                    created_at=at,
                )
            )

    return write
