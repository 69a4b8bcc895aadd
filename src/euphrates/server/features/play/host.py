"""What only the host's link may do: seat a bot for a player who left, abandon."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import HubDep, Opened, OpenedDep
from euphrates.server.features.play.requests import LAST_SEAT, BotIn
from euphrates.server.features.play.schemas import GAME, GameOnly, refusals

router = APIRouter(tags=["host"])


def _host(opened: Opened, what: str) -> None:
    if not opened.host:
        raise Refusal("not_host", f"only the host link can {what}")


@router.post(
    "/api/games/{game_id}/seats/{seat}/bot",
    response_model=GameOnly,
    responses=refusals(
        *GAME, "bad_token", "account_required", "not_host", "seat_not_human", "game_over"
    ),
)
async def seat_bot(
    seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)],
    body: BotIn,
    opened: OpenedDep,
    hub: HubDep,
) -> dict[str, Any]:
    """Host only: a bot takes over a human seat (a player who left)."""
    _host(opened, "replace a player")
    await hub.replace_with_bot(opened.room, seat, body.level)
    return {"game": opened.room.audience.meta()}


@router.post(
    "/api/games/{game_id}/abandon",
    response_model=GameOnly,
    responses=refusals(*GAME, "bad_token", "account_required", "not_host", "game_over"),
)
async def abandon(opened: OpenedDep, hub: HubDep) -> dict[str, Any]:
    """Host only: end the game for everyone, unfinished."""
    _host(opened, "abandon the game")
    await hub.abandon(opened.room)
    return {"game": opened.room.audience.meta()}
