"""Ratings as players see them: a leaderboard per game and player-count group, and an
account's ratings with their history for its profile.

Everything here is public by design — names, shown ratings, games counted, places,
links to replays of ended games — and nothing else: no account id, no μ or σ of anyone
(the shown rating is the conservative μ − 3σ, match/ratings.py), no e-mail, no token.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from euphrates.match.ladder import shipped as bot_ratings
from euphrates.match.ratings import DISPLAY_BASE, DISPLAY_SCALE, MU, PROVISIONAL_GAMES, display
from euphrates.server.store import models as db
from euphrates.server.store.database import iso_time

LEADERBOARD = 100
"""The most accounts a leaderboard lists."""
HISTORY = 200
"""The most rated games a profile lists per account."""


async def match_rating(engine: AsyncEngine, user_id: int, game: str, group: str) -> float | None:
    """What quick match pairs by (quickmatch.RatingLookup): the account's skill estimate
    μ on the shown ratings' scale, 1000 + 40 × (μ − 25), or None while it has no rated
    game in `game` and `group`. Not the conservative shown rating: a newcomer's wide σ
    says how unsure the estimate is, not that they play worse."""
    rt = db.ratings
    query = sa.select(rt.c.mu).where(
        rt.c.user_id == user_id, rt.c.game == game, rt.c.grp == group, rt.c.games > 0
    )
    async with engine.connect() as conn:
        mu = (await conn.execute(query)).scalar()
    return None if mu is None else DISPLAY_BASE + DISPLAY_SCALE * (float(mu) - MU)


async def leaderboard(engine: AsyncEngine, game: str, group: str, top: int) -> list[dict[str, Any]]:
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
    async with engine.connect() as conn:
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


async def of_user(engine: AsyncEngine, user_id: int) -> dict[str, Any]:
    """An account's ratings (per game and group) and its rated games, newest first."""
    rt, h, g = db.ratings, db.rating_history, db.games
    async with engine.connect() as conn:
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
