"""The guided first games (tour.py): starting one, and what its page may know."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from euphrates.games import GAMES
from euphrates.server.common.clients import client_address
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import GAME, refusals
from euphrates.server.features.deps import BaseUrl, OpenedDep, ServicesDep
from euphrates.server.features.play.routes import created_answer
from euphrates.server.features.play.schemas import CreateOut
from euphrates.server.features.tour.schemas import TourIn
from euphrates.server.features.tour.tour import TOUR_LEVEL, line_of, tour_now

router = APIRouter()


@router.post(
    "/api/tours",
    status_code=201,
    tags=["games"],
    response_model=CreateOut,
    responses=refusals("storage_unavailable"),
)
async def create_tour(
    body: TourIn, request: Request, services: ServicesDep, base: BaseUrl
) -> dict[str, Any]:
    """Start a guided first game of `game`: a scripted deal against a scripted
    opponent. The answer is a new game's, as for `POST /api/games`."""
    if not services.created.take(client_address(request.scope)):
        per_hour = services.settings.games_per_hour
        raise Refusal("rate_limited", f"at most {per_hour:g} new games an hour from one address")
    if body.game not in GAMES:
        raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
    line = line_of(body.game)
    created = await services.rooms.create(
        body.game,
        line.players,
        [{"kind": "human"}, {"kind": "bot", "level": TOUR_LEVEL}],
        line.options,
        seed=line.seed,
        levels=frozenset({TOUR_LEVEL}),
    )
    return created_answer(created, base)


@router.get("/api/games/{game_id}/tour", tags=["games"], responses=refusals(*GAME, "bad_token"))
async def read_tour(opened: OpenedDep) -> dict[str, Any]:
    """Where a guided game's lessons are, and the learner's move expected now (only to
    the learner's token)."""
    if 0 not in opened.seats:
        raise Refusal("not_your_seat", "only the learner's page follows the tour")
    room = opened.room
    return tour_now(room.row, room.version, room.state.to_move())
