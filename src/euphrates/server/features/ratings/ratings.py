"""Rated games: who may sit at one, and the ratings written when one ends.

A rated game is rated at its final version, by a follow-up of that version's write
(store.py): the new ratings exist exactly when the game's last action does, once,
whichever server stored it (several servers on PostgreSQL). The order counted is the
engine's result (equal results share a place, B-32/C-18) with the seats whose player
resigned — or whose seat the host gave to a bot — placed last, the earliest to leave
lowest (match/ratings.py, `places_with_abandons`). A seat a bot plays while its player
is out of time is still that player's: its result counts as theirs.

Each seat is a team of one in OpenSkill's Plackett–Luce model. A bot's seat is rated
with the level's fixed rating from the ladder's file (match/ladder.py) and never
changes; each account's rating is read and written under a row lock, so two games
ending at once for one player on two servers both count.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from euphrates.core.protocol import GameState
from euphrates.match.ladder import shipped as bot_ratings
from euphrates.match.ratings import Rating, group_of, places_with_abandons, rate_game
from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.store import models as db
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Followup, now

log = logging.getLogger("euphrates.server")

ABANDONS = ("resigned", "replaced")
"""Notes that place a seat's player last in the rating (notes.py)."""


def bot_rating(game: str, players: int, level: str | None) -> Rating | None:
    """A bot level's fixed rating for this game and player-count group, if measured."""
    entry = bot_ratings().get(game, {}).get(group_of(players), {}).get(level or "")
    if entry is None:
        return None
    return Rating(float(entry["mu"]), float(entry["sigma"]))


def rated_levels(game: str, players: int) -> list[str]:
    return sorted(bot_ratings().get(game, {}).get(group_of(players), {}))


def check_bot_level(game: str, players: int, level: object) -> None:
    """Refuse a bot at a rated game unless its level has a measured rating."""
    if bot_rating(game, players, str(level)) is None:
        levels = ", ".join(rated_levels(game, players)) or "none"
        raise Refusal(
            "bad_request",
            f"a rated game seats only bots with a measured rating ({group_of(players)} "
            f"players of {game}: {levels}), not {level!r}",
        )


def check_create(game: str, players: int, seats: Sequence[dict[str, Any]], signed_in: bool) -> None:
    """What a rated game needs before it is created."""
    if not signed_in:
        raise Refusal("not_signed_in", "sign in to create a rated game")
    if not any(s.get("kind") == "human" for s in seats):
        raise Refusal("bad_request", "a rated game needs at least one person's seat")
    for s in seats:
        if s.get("kind") == "bot":
            check_bot_level(game, players, s.get("level"))


def check_seats(room: Room, seats: frozenset[int], user: User | None) -> None:
    """A rated game's `seats` (to be taken) are taken only by an account, one seat per
    account."""
    if not room.row.rated or not seats:
        return
    if user is None:
        raise Refusal(
            "account_required",
            "this game is rated: sign in to take a seat (every person at a rated game "
            "plays from an account)",
        )
    others = {s.seat for s in room.row.seats if s.user_id == user.id} - seats
    if len(seats) > 1 or others:
        raise Refusal("already_seated", "an account plays one seat of a rated game")


def maker(room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
    """The follow-up maker (Hub.followup_makers): at a rated game's final version, its
    rating."""
    if status != "over" or not room.row.rated:
        return ()
    outcome = after.outcome()
    if outcome is None:
        return ()
    row = room.row
    return (rating(row.id, row.game, row.players, list(outcome.places)),)


def rating(game_id: str, game: str, players: int, places: list[int]) -> Followup:
    """The rating of one ended game, written in the transaction of its final version;
    everything it counts (seats, accounts, who left) is read in that transaction."""
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
                fixed = bot_rating(game, players, s.level)
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
