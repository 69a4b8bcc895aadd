"""What a seat's people decide besides moves: the host seats a bot for a player who left
or abandons the game; another seated player lets a bot play the turns of a seat whose
real-time clock ran out, and its player takes the seat back."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import ENDED, GAME, LAST_SEAT, refusals
from euphrates.server.features.deps import Opened, OpenedDep
from euphrates.server.features.play.schemas import BotIn, GameOnly

router = APIRouter()


def _host(opened: Opened, what: str) -> None:
    if not opened.host:
        raise Refusal("not_host", f"only the host link can {what}")


@router.post(
    "/api/games/{game_id}/seats/{seat}/bot",
    tags=["host"],
    response_model=GameOnly,
    responses=refusals(
        *GAME,
        "bad_token",
        "account_required",
        "not_host",
        "seat_not_human",
        "rated_seat",
        "not_started",
        *ENDED,
    ),
)
async def seat_bot(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], body: BotIn, opened: OpenedDep
) -> dict[str, Any]:
    """Host only: a bot takes over a human seat (a player who left). Not in a rated
    game, whose seats are its players' (`rated_seat`)."""
    _host(opened, "replace a player")
    await opened.room.seat_to_bot(seat, body.level)
    return {"game": opened.room.audience.meta()}


@router.post(
    "/api/games/{game_id}/abandon",
    tags=["host"],
    response_model=GameOnly,
    responses=refusals(*GAME, "bad_token", "account_required", "not_host", "rated_seat", *ENDED),
)
async def abandon(opened: OpenedDep) -> dict[str, Any]:
    """Host only: end the game for everyone, unfinished. A rated game being played is
    not the host's to end (docs/fair-play.md): before it was played it is aborted,
    unrated for all; after that, the host's own seat resigns and the others play on
    (`rated_seat` when the host holds none)."""
    _host(opened, "abandon the game")
    await opened.room.abandon(opened.seats)
    return {"game": opened.room.audience.meta()}


@router.post(
    "/api/games/{game_id}/seats/{seat}/standin",
    tags=["clocks"],
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
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], body: BotIn, opened: OpenedDep
) -> dict[str, Any]:
    """Any other seated player: a bot of `level` plays the turns of `seat`, which is out
    of time on a real-time clock, until its player takes the seat back."""
    room = opened.room
    if seat >= room.row.players:
        raise Refusal("bad_request", "'seat' must be a seat number of this game")
    await room.stand_in(seat, body.level, opened.seats)
    return {"game": room.audience.meta()}


@router.post(
    "/api/games/{game_id}/seats/{seat}/back",
    tags=["clocks"],
    response_model=GameOnly,
    responses=refusals(*GAME, "bad_token", "not_your_seat", "not_started", *ENDED),
)
async def come_back(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)], opened: OpenedDep
) -> dict[str, Any]:
    """The seat's player takes it back from the bot that played for it."""
    if seat not in opened.seats:
        raise Refusal("not_your_seat", f"you do not hold seat {seat}")
    await opened.room.come_back(seat)
    return {"game": opened.room.audience.meta()}
