"""Rated games: who may sit at one, and the rating of one that ends.

A rated game is rated at its final version, by a follow-up of that version's write
(store/ratings.py): the new ratings exist exactly when the game's last action does,
once, whichever server stored it (several servers on PostgreSQL). The order counted is
the engine's result (equal results share a place, B-32/C-18) with the seats whose
player resigned or whose account was deleted placed last, the earliest to leave
lowest (match/ratings.py, `places_with_abandons`). A seat a bot plays while its player
is out of time is still that player's: its result counts as theirs. The host cannot
give a rated game's seat to a bot (game/seating.py).

Each seat is a team of one in OpenSkill's Plackett–Luce model. A bot's seat is rated
with the level's fixed rating from the ladder's file (match/ladder.py) and never
changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from euphrates.core.protocol import GameState
from euphrates.match.ladder import shipped as bot_ratings
from euphrates.match.ratings import Rating, group_of
from euphrates.server.common.refusals import Refusal
from euphrates.server.game.room import Room
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Followup
from euphrates.server.store.ratings import rating


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


async def check_seats(room: Room, seats: frozenset[int], user: User | None) -> None:
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
    """The follow-up maker (Rooms.followup_makers): when a rated game ends (its final
    version, or a duel's player leaving for good), its rating. A game left before it
    was played does not end `over` but `aborted`: it is rated for nobody."""
    if status != "over" or not room.row.rated:
        return ()
    outcome = after.outcome()
    # A duel ended by a player leaving: the engine has no result; the other player is
    # first, the leaver (its note, read with the rating) last.
    places = list(outcome.places) if outcome is not None else [1] * room.row.players
    row = room.row
    fixed = partial(bot_rating, row.game, row.players)
    return (rating(row.id, row.game, row.players, places, fixed),)


def level_rating(game: str, group: str, level: str | None) -> Rating | None:
    """A bot level's fixed rating for a game and player-count group (a void's
    recomputation reads its games' seats by group)."""
    entry = bot_ratings().get(game, {}).get(group, {}).get(level or "")
    return None if entry is None else Rating(float(entry["mu"]), float(entry["sigma"]))
