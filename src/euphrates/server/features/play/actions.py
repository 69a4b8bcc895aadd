"""Playing: actions, undo and chat over HTTP, and the WebSocket (ws.py) that does
all of it live."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, WebSocket

from euphrates.server.features.deps import HubDep, OpenedDep, RoomDep
from euphrates.server.features.play.requests import MAX_INT, ActionIn, ChatIn, UndoIn
from euphrates.server.features.play.schemas import (
    GAME,
    PLAY,
    ChatListOut,
    ChatOut,
    VersionOut,
    refusals,
)
from euphrates.server.game.audience import chat_json
from euphrates.server.transport.ws import serve_socket

router = APIRouter()


@router.post(
    "/api/games/{game_id}/actions",
    tags=["play"],
    response_model=VersionOut,
    responses=refusals(*GAME, *PLAY, "invalid_action", "illegal_action"),
)
async def act(body: ActionIn, opened: OpenedDep) -> dict[str, Any]:
    """Submit an action for a seat you hold, at the version you saw."""
    step = await opened.room.submit(opened.seats, body.seat, body.version, body.action)
    return {"version": step.version}


@router.post(
    "/api/games/{game_id}/undo",
    tags=["play"],
    response_model=VersionOut,
    responses=refusals(*GAME, *PLAY, "undo_refused"),
)
async def undo(body: UndoIn, opened: OpenedDep) -> dict[str, Any]:
    """Take back your last action, while no one else has decided since and nothing
    hidden was revealed since (G-3)."""
    step = await opened.room.undo(opened.seats, body.seat, body.version)
    return {"version": step.version}


@router.get(
    "/api/games/{game_id}/chat",
    tags=["chat"],
    response_model=ChatListOut,
    responses=refusals(*GAME),
)
async def read_chat(
    room: RoomDep,
    hub: HubDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_INT, description="only the lines after this number")
    ] = 0,
) -> dict[str, Any]:
    """The chat's last lines (at most 200), oldest first."""
    rows = await hub.store.load_chat(room.id, after=after)
    return {"messages": [chat_json(r) for r in rows]}


@router.post(
    "/api/games/{game_id}/chat",
    tags=["chat"],
    response_model=ChatOut,
    responses=refusals(
        *GAME, "bad_token", "account_required", "muted", "chat_refused", "chat_full"
    ),
)
async def post_chat(body: ChatIn, opened: OpenedDep, hub: HubDep) -> dict[str, Any]:
    """Say something at the table (plain text; seats and spectators)."""
    row = await hub.chat(opened.room, opened.seats, body.text, opened.user)
    return {"message": chat_json(row)}


@router.websocket("/api/games/{game_id}/ws")
async def socket(websocket: WebSocket, game_id: str, hub: HubDep) -> None:
    await serve_socket(websocket, hub, game_id)
