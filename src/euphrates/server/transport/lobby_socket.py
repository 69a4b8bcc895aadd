"""The lobby's WebSocket (`/api/lobby/ws`): an open lobby is told the open tables and,
signed in, the account's own games and quick match, whenever they change
(features/tables/lobby.py decides what it is told). A lobby only listens; it may ping.
An open lobby is also what makes its account online (features/presence/)."""

from __future__ import annotations

import contextlib

from fastapi import APIRouter
from starlette.websockets import WebSocket, WebSocketDisconnect

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.deps import ServicesDep
from euphrates.server.features.presence.presence import LOBBY, marks_of
from euphrates.server.features.services import Services
from euphrates.server.features.tables.lobby import Watcher
from euphrates.server.transport.ws import Connection, guarded, parse, plain_id, receive, signed_in

router = APIRouter()


@router.websocket("/api/lobby/ws")
async def lobby_socket(websocket: WebSocket, services: ServicesDep) -> None:
    await guarded(websocket, services, lambda: _serve(websocket, services))


async def _serve(ws: WebSocket, services: Services) -> None:
    lobby = services.lobby
    await ws.accept()
    conn = Connection(ws, services)
    conn.start()
    watcher: Watcher | None = None
    try:
        try:
            user = await signed_in(ws, services)
        except Refusal as r:
            conn.refuse(r)
            conn.close_soon(r.code, r.message)
            return
        conn.user = user
        conn.marks = marks_of(LOBBY, (), user.id if user else None)
        services.presence.enter(conn.marks)
        watcher = Watcher(conn, user)
        conn.send({"type": "lobby", "you": user.public() if user else None})
        lobby.watching.add(watcher)
        with contextlib.suppress(Refusal):
            await lobby.tell(watcher, set())
        for greet in lobby.greeters:
            with contextlib.suppress(Refusal):  # the database is away: told when it changes
                await greet(watcher)
        while conn.closing is None:
            text = await receive(conn)
            if text is None:
                break
            _answer(conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        if watcher is not None:
            lobby.watching.discard(watcher)
        if conn.marks:
            services.presence.leave(conn.marks)
        await conn.finish()


def _answer(conn: Connection, text: str) -> None:
    """A lobby only listens; it may ping."""
    msg_id: object = None
    try:
        msg = parse(text)
        msg_id = msg.get("id") if plain_id(msg.get("id")) else None
        if msg.get("type") != "ping":
            raise Refusal("unknown_type", "a lobby sends only 'ping'")
        conn.send({"type": "pong", "id": msg_id})
    except Refusal as r:
        conn.refuse(r, msg_id)
