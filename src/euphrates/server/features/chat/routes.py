"""The chat of a table over HTTP — read, said, a line reported to the server's admins —
beside the WebSocket's own chat (transport/ws.py)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi import Path as PathParam

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.schemas import DoneOut
from euphrates.server.features.api import GAME, MAX_INT, refusals
from euphrates.server.features.chat.schemas import ChatIn, ChatListOut, ChatOut, ReportIn
from euphrates.server.features.deps import OpenedDep, RoomDep, ServicesDep, SignedDep
from euphrates.server.game.audience import chat_json

router = APIRouter(tags=["chat"])


@router.get("/api/games/{game_id}/chat", response_model=ChatListOut, responses=refusals(*GAME))
async def read_chat(
    room: RoomDep,
    services: ServicesDep,
    signed: SignedDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_INT, description="only the lines after this number")
    ] = 0,
) -> dict[str, Any]:
    """The chat's last lines (at most 200), oldest first; signed in, none of a player
    you blocked or who blocked you."""
    rows = await services.chat.read(room, after, signed.user if signed else None)
    return {"messages": [chat_json(r) for r in rows]}


@router.post(
    "/api/games/{game_id}/chat",
    response_model=ChatOut,
    responses=refusals(
        *GAME, "bad_token", "account_required", "muted", "chat_refused", "chat_full"
    ),
)
async def post_chat(body: ChatIn, opened: OpenedDep, services: ServicesDep) -> dict[str, Any]:
    """Say something at the table (plain text; seats and spectators)."""
    row = await services.chat.say(opened.room, opened.seats, body.text, opened.user)
    return {"message": chat_json(row)}


@router.post(
    "/api/games/{game_id}/chat/{seq}/report",
    response_model=DoneOut,
    responses=refusals(*GAME, "bad_token", "account_required", "not_signed_in", "not_found"),
)
async def report(
    seq: Annotated[int, PathParam(ge=1, le=MAX_INT)],
    body: ReportIn,
    opened: OpenedDep,
    services: ServicesDep,
) -> dict[str, Any]:
    """Report a chat line to the server's admins (signed in; not your own line). The
    same line reported again by you, while your report is open, counts once."""
    if opened.user is None:
        raise Refusal("not_signed_in", "sign in to report a line")
    await services.chat.report(opened.room, seq, opened.user, body.reason)
    return {"done": True}
