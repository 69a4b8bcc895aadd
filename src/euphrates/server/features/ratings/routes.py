"""Ratings: the leaderboards, and resigning a rated game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import ENDED, GAME, LAST_SEAT, GameName, refusals
from euphrates.server.features.deps import OpenedDep, ServicesDep
from euphrates.server.features.ratings.schemas import Group, LeaderboardOut, ResignOut
from euphrates.server.store import ratings as rating_reads

router = APIRouter(tags=["ratings"])


@router.get(
    "/api/leaderboards/{game}",
    response_model=LeaderboardOut,
    responses=refusals("storage_unavailable"),
)
async def leaderboard(
    game: GameName,
    services: ServicesDep,
    players: Annotated[Group, Query(description="the player-count group")] = "2",
    top: Annotated[int, Query(ge=1, le=rating_reads.LEADERBOARD)] = 50,
) -> dict[str, Any]:
    """The best rated accounts of a game and player-count group, with the bot levels'
    fixed ratings among them (marked `bot`)."""
    try:
        entries = await rating_reads.leaderboard(services.accounts.database, game, players, top)
    except Exception as e:
        raise Refusal("storage_unavailable", f"the ratings could not be read: {e}") from None
    return {"game": game, "players": players, "entries": entries}


@router.post(
    "/api/games/{game_id}/seats/{seat}/resign",
    tags=["seats"],
    response_model=ResignOut,
    responses=refusals(
        *GAME,
        "bad_token",
        "account_required",
        "not_your_seat",
        "seat_not_human",
        "not_rated",
        "not_started",
        *ENDED,
    ),
)
async def resign_seat(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], opened: OpenedDep
) -> dict[str, Any]:
    """Resign a rated game (docs/fair-play.md): before it was played the game is
    aborted, unrated for all; after that the rating places its player last (below
    anyone who left later), and a bot of the game's level plays the seat to the end —
    a duel ends at once, the other player winning. `level` is null when it ended."""
    room = opened.room
    if seat >= room.row.players:
        raise Refusal("bad_request", "'seat' must be a seat number of this game")
    if not room.row.rated:
        raise Refusal("not_rated", "only a rated game is resigned; leave an unrated one")
    level = await room.resign(seat, opened.seats)
    return {"level": level, "status": room.status}
