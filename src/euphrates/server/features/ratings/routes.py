"""Ratings: the leaderboards, and resigning a rated game."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import HubDep, OpenedDep
from euphrates.server.features.play.requests import LAST_SEAT, GameName
from euphrates.server.features.play.schemas import ENDED, GAME, refusals
from euphrates.server.features.ratings.schemas import Group, LeaderboardOut, ResignOut
from euphrates.server.game.resign import resign
from euphrates.server.store import ratings as ratingstore

router = APIRouter(tags=["ratings"])


@router.get(
    "/api/leaderboards/{game}",
    response_model=LeaderboardOut,
    responses=refusals("storage_unavailable"),
)
async def leaderboard(
    game: GameName,
    hub: HubDep,
    players: Annotated[Group, Query(description="the player-count group")] = "2",
    top: Annotated[int, Query(ge=1, le=ratingstore.LEADERBOARD)] = 50,
) -> dict[str, Any]:
    """The best rated accounts of a game and player-count group, with the bot levels'
    fixed ratings among them (marked `bot`)."""
    try:
        entries = await ratingstore.leaderboard(hub.store.engine, game, players, top)
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
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], opened: OpenedDep, hub: HubDep
) -> dict[str, Any]:
    """Resign a rated game: a bot of the game's level plays the seat to the end, and
    the rating places its player last (below anyone who resigned later)."""
    room = opened.room
    if seat >= room.row.players:
        raise Refusal("bad_request", "'seat' must be a seat number of this game")
    return {"level": await resign(hub, room, seat, opened.seats)}
