"""Hints: the strong bot's move for a seat, in an unrated game against bots."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from euphrates.server.common.clients import client_address
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import ENDED, GAME, LAST_SEAT, refusals
from euphrates.server.features.deps import OpenedDep, ServicesDep
from euphrates.server.features.hints.hints import hint
from euphrates.server.features.hints.schemas import HintOut

router = APIRouter(tags=["seats"])


@router.post(
    "/api/games/{game_id}/seats/{seat}/hint",
    response_model=HintOut,
    responses=refusals(
        *GAME,
        "bad_token",
        "account_required",
        "not_your_seat",
        "seat_not_human",
        "hint_refused",
        "hint_busy",
        "rate_limited",
        "bot_unavailable",
        "wrong_seat",
        "stale_version",
        "not_started",
        *ENDED,
    ),
)
async def hint_seat(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)],
    opened: OpenedDep,
    services: ServicesDep,
    request: Request,
) -> dict[str, Any]:
    """The strong bot's action for the seat's pending decision, worked out from that
    seat's view alone (a second's search), in an unrated game with a bot at the table.
    The move log notes that the seat took a hint. An account (signed out, an address)
    may take a few hints a minute (`rate_limited` beyond)."""
    room = opened.room
    if seat >= room.row.players:
        raise Refusal("bad_request", "'seat' must be a seat number of this game")
    who = (
        f"account {opened.user.id}"
        if opened.user is not None
        else f"address {client_address(request.scope)}"
    )
    return await hint(services.rooms.pool, room, seat, opened.seats, services.hints, who)
