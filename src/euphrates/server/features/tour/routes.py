"""The guided first games (server/tour.py): starting one, and what its page may know."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import BaseUrl, HubDep, OpenedDep, ServicesDep
from euphrates.server.features.play.requests import TourIn
from euphrates.server.features.play.routes import created_answer
from euphrates.server.features.play.schemas import GAME, CreateOut, refusals
from euphrates.server.features.tour.tour import tour_now
from euphrates.server.transport.guard import client_address

router = APIRouter()


@router.post(
    "/api/tours",
    status_code=201,
    tags=["games"],
    response_model=CreateOut,
    responses=refusals("storage_unavailable"),
)
async def create_tour(
    body: TourIn, request: Request, services: ServicesDep, hub: HubDep, base: BaseUrl
) -> dict[str, Any]:
    """Start a guided first game of `game`: a scripted deal against a scripted
    opponent. The answer is a new game's, as for `POST /api/games`."""
    if not services.created.take(client_address(request.scope)):
        per_hour = services.settings.games_per_hour
        raise Refusal("rate_limited", f"at most {per_hour:g} new games an hour from one address")
    created = await hub.create_tour(body.game)
    return created_answer(created, base)


@router.get("/api/games/{game_id}/tour", tags=["games"], responses=refusals(*GAME, "bad_token"))
async def read_tour(opened: OpenedDep) -> dict[str, Any]:
    """Where a guided game's lessons are, and the learner's move expected now (only to
    the learner's token)."""
    if 0 not in opened.seats:
        raise Refusal("not_your_seat", "only the learner's page follows the tour")
    room = opened.room
    return tour_now(room.row, room.version, room.state.to_move())
