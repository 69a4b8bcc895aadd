"""Out of time on a real-time clock: another seated player lets a bot play the turns of
a seat whose bank ran dry, and its player takes the seat back."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import HubDep, OpenedDep
from euphrates.server.features.play.requests import LAST_SEAT, BotIn
from euphrates.server.features.play.schemas import ENDED, GAME, GameOnly, refusals

router = APIRouter(tags=["clocks"])


@router.post(
    "/api/games/{game_id}/seats/{seat}/standin",
    response_model=GameOnly,
    responses=refusals(
        *GAME,
        "bad_token",
        "not_your_seat",
        "seat_not_human",
        "not_out_of_time",
        "not_started",
        *ENDED,
    ),
)
async def stand_in(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)],
    body: BotIn,
    opened: OpenedDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Any other seated player: a bot of `level` plays the turns of `seat`, which is out
    of time on a real-time clock, until its player takes the seat back."""
    room = opened.room
    if seat >= room.row.players:
        raise Refusal("bad_request", "'seat' must be a seat number of this game")
    await hub.clocks.stand_in(room, seat, body.level, opened.seats)
    return {"game": room.audience.meta()}


@router.post(
    "/api/games/{game_id}/seats/{seat}/back",
    response_model=GameOnly,
    responses=refusals(*GAME, "bad_token", "not_your_seat", "not_started", *ENDED),
)
async def come_back(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], opened: OpenedDep, hub: HubDep
) -> dict[str, Any]:
    """The seat's player takes it back from the bot that played for it."""
    if seat not in opened.seats:
        raise Refusal("not_your_seat", f"you do not hold seat {seat}")
    await hub.clocks.come_back(opened.room, seat)
    return {"game": opened.room.audience.meta()}
