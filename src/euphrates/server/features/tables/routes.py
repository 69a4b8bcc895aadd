"""Open tables: the list the lobby shows, sitting down and getting up, the host
starting early with bots. (The lobby's WebSocket, which keeps the list and who is
online current, is transport/lobby_socket.py.)"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import ENDED, GAME, refusals
from euphrates.server.features.deps import OpenedDep, ServicesDep, SignedDep
from euphrates.server.features.play.schemas import GameOnly, JoinOut
from euphrates.server.features.ratings.ratings import check_bot_level
from euphrates.server.features.tables.filters import TablesQuery, shown
from euphrates.server.features.tables.schemas import LeaveIn, SitIn, StartIn, TablesOut

router = APIRouter(tags=["tables"])

OPENED = (*GAME, "bad_token", "account_required")


@router.get("/api/tables", response_model=TablesOut, responses=refusals("storage_unavailable"))
async def open_tables(
    services: ServicesDep, signed: SignedDep, filters: Annotated[TablesQuery, Query()]
) -> dict[str, Any]:
    """The open tables waiting for players: game, options, clock, who sits where (with
    presence and rating), the free seats, when, and who opened it. Filtered by game,
    `players`, `speed` (a real-time preset, `realtime`, `turn`, `none`), `rated`, and
    `rating_min`/`rating_max`: every seated player's shown rating within the range."""
    filters.check()
    tables = services.tables
    viewer = signed.user.id if signed else None
    entries = tables.entries(await tables.listed(), viewer)
    return {"tables": [e for e in entries if shown(e, filters)]}


@router.post(
    "/api/games/{game_id}/sit",
    tags=["seats"],
    response_model=JoinOut,
    responses=refusals(
        *OPENED,
        "not_signed_in",
        "not_open",
        "already_started",
        "seat_taken",
        "already_seated",
        "seat_not_human",
        *ENDED,
    ),
)
async def sit(opened: OpenedDep, body: SitIn | None = None) -> dict[str, Any]:
    """Take a free seat of an open table (signed in; no token): the seat is the
    account's, opened from any browser. The game starts when every seat is taken."""
    if opened.user is None:
        raise Refusal("not_signed_in", "sign in to sit at an open table")
    seats = await opened.room.sit(opened.user, body.seat if body else None)
    return {"game": opened.room.audience.meta(), "you": {"seats": seats, "host": opened.host}}


@router.post(
    "/api/games/{game_id}/leave",
    tags=["seats"],
    response_model=JoinOut,
    responses=refusals(
        *OPENED, "not_signed_in", "not_your_seat", "host_stays", "already_started", *ENDED
    ),
)
async def leave(opened: OpenedDep, body: LeaveIn | None = None) -> dict[str, Any]:
    """Get up from a game that has not started: your account's seats are free again."""
    if opened.user is None:
        raise Refusal("not_signed_in", "sign in to leave your seat")
    await opened.room.leave(opened.user)
    return {"game": opened.room.audience.meta(), "you": {"seats": [], "host": opened.host}}


@router.post(
    "/api/games/{game_id}/start",
    tags=["host"],
    response_model=GameOnly,
    responses=refusals(
        *OPENED,
        "not_host",
        "already_started",
        "nobody_seated",
        "seat_not_human",
        *ENDED,
    ),
)
async def start(opened: OpenedDep, body: StartIn | None = None) -> dict[str, Any]:
    """Host only (its link, or an open table's creator signed in): start now, with a
    bot of `level` in each seat still free."""
    if not opened.host:
        raise Refusal("not_host", "only the host can start the game early")
    level = body.level if body else "intermediate"
    room = opened.room
    if room.row.rated:
        check_bot_level(room.row.game, room.row.players, level)
    await room.start_early(level)
    return {"game": opened.room.audience.meta()}
