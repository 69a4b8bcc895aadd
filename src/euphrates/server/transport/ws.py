"""The WebSocket protocol: one connection per client and game (docs/server.md).

A client opens `/api/games/{id}/ws`, sends `hello` with the tokens of the seats it
holds (none for a spectator), and gets `welcome` with the game, its views and, when it
reconnects with the version it last saw, what it missed — or full views when that is
shorter. After that every version reaches it as an `update` (the events its seats may
see and a patch per view); it sends `action`, `undo`, `chat`, `sync` and `ping`.

Each connection is held to the limits in `Settings`: messages above `max_message`
bytes are refused with `too_large`, more than `rate_per_s` a second (beyond a burst)
with `rate_limited`, and a client that keeps flooding is disconnected. Nothing a
client sends can stop the server from serving the others; nothing it is sent holds a
token or anything its seats may not see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter
from starlette.websockets import WebSocket, WebSocketDisconnect

from euphrates.server.common import tokens
from euphrates.server.common.buckets import Bucket
from euphrates.server.common.clients import client_address
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.chat.chat import heard
from euphrates.server.features.deps import ServicesDep
from euphrates.server.features.presence.presence import Mark, marks_of
from euphrates.server.features.services import Services
from euphrates.server.game.audience import compact
from euphrates.server.game.room import Room
from euphrates.server.store.accounts import User
from euphrates.server.store.rows import ChatRow
from euphrates.server.transport.guard import deny_socket

log = logging.getLogger("euphrates.server")

SEND_QUEUE = 2000
FLOOD_STRIKES = 20


def same_origin(ws: WebSocket, public_url: str | None) -> bool:
    """Browsers send `Origin`; a page from another site must not act with the
    tokens a player's browser holds. Clients that are not browsers send none. Ours
    are the name the request came to and `--public-url`'s, as for HTTP (deps.foreign):
    behind a proxy that passes the name without its port, the public URL is what the
    browser's page was served from."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    ours = {ws.headers.get("host", "").lower()}
    if public_url:
        ours.add(urlsplit(public_url).netloc.lower())
    netloc = urlsplit(origin).netloc.lower()
    return bool(netloc) and netloc in ours


class Connection:
    """One client: the seats it holds and an outgoing queue drained by its own task,
    so a slow client delays no one else."""

    def __init__(self, ws: WebSocket, services: Services) -> None:
        self.ws = ws
        self.services = services
        self.seats: frozenset[int] = frozenset()
        self.host = False
        self.user: User | None = None
        self.tokens: list[object] = []
        """The tokens its hello presented: what it holds is worked out again from them
        when a seat changes (game/rooms.py)."""
        self.marks: list[Mark] = []
        """Its presence: its account at this table, the seats it holds."""
        self.name: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sender: asyncio.Task[None] | None = None
        self.bucket = Bucket(services.settings.rate_per_s, services.settings.rate_burst)
        self.strikes = 0
        self.closing: tuple[int, str] | None = None

    def push(self, text: str) -> None:
        if self.closing is not None:
            return
        if self.queue.qsize() >= SEND_QUEUE:  # it stopped reading: it will resync
            self.close_soon("too_slow", "the connection fell too far behind")
            return
        self.queue.put_nowait(text)

    def close_soon(self, code: str, message: str) -> None:
        if self.closing is not None:
            return
        self.queue.put_nowait(json.dumps({"type": "closed", "code": code, "message": message}))
        self.closing = (4000, code)
        self.queue.put_nowait(None)

    def start(self) -> None:
        """Its sender starts: what is pushed goes out in order."""
        self.sender = asyncio.create_task(self._send_loop())

    async def finish(self) -> None:
        """The client is gone or closed: send what is queued (a few seconds at most),
        then stop."""
        if self.closing is None:
            self.closing = (1000, "bye")
            self.queue.put_nowait(None)
        if self.sender is not None:
            with contextlib.suppress(TimeoutError, Exception):
                async with asyncio.timeout(5):
                    await self.sender
            self.sender.cancel()

    async def _send_loop(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                code = self.closing[0] if self.closing else 1000
                with contextlib.suppress(Exception):
                    await self.ws.close(code)
                return
            await self.ws.send_text(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(compact(message))

    def charge(self) -> bool:
        """Take one message from the bucket; refuse it when empty, and close the
        connection of a client that keeps sending anyway."""
        if self.bucket.take():
            return True
        self.strikes += 1
        self.refuse(Refusal("rate_limited", "too many messages; slow down"))
        if self.strikes >= FLOOD_STRIKES:
            self.close_soon("rate_limited", "too many messages; reconnect later")
        return False

    def refuse(self, r: Refusal, msg_id: object = None) -> None:
        self.send({"type": "error", "id": msg_id if plain_id(msg_id) else None, **r.to_json()})


def plain_id(value: object) -> bool:
    return value is None or (
        isinstance(value, (int, str)) and not isinstance(value, bool) and len(str(value)) <= 40
    )


router = APIRouter()

CONNECTIONS = "connections"
"""The app state's count of WebSocket connections held per client address."""


@router.websocket("/api/games/{game_id}/ws")
async def socket(websocket: WebSocket, game_id: str, services: ServicesDep) -> None:
    await guarded(websocket, services, lambda: _serve(websocket, services, game_id))


async def guarded(ws: WebSocket, services: Services, serve: Callable[[], Awaitable[None]]) -> None:
    """Serve a WebSocket (a table's, the lobby's) from a page of this origin only and
    within the connections its address may hold."""
    settings = services.settings
    if not same_origin(ws, settings.public_url):
        await ws.close(code=1008)  # before accept: the handshake gets HTTP 403
        return
    address = client_address(ws.scope)
    held = services.connections.get(address, 0)
    if held >= settings.max_connections_per_address:
        r = Refusal("too_many_connections", f"at most {held} connections from one address")
        await deny_socket(ws.scope, ws.receive, ws.send, r)
        return
    services.connections[address] = held + 1
    try:
        await serve()
    finally:
        left = services.connections.pop(address, 1) - 1
        if left > 0:
            services.connections[address] = left


async def _serve(ws: WebSocket, services: Services, game_id: str) -> None:
    await ws.accept()
    conn = Connection(ws, services)
    conn.start()
    room: Room | None = None
    rooms = services.rooms
    try:
        room = await _hello(conn, services, game_id)
        if room is None:
            return
        while conn.closing is None:
            text = await receive(conn)
            if text is None:
                break
            await _handle(conn, services, room, text)
    except WebSocketDisconnect:
        pass
    finally:
        if conn.marks:
            services.presence.leave(conn.marks)
        if room is not None and room.audience.leave(conn):
            room.touch()
            if conn.seats:
                rooms.seats_changed(room, local=False)
        await conn.finish()


async def receive(conn: Connection) -> str | None:
    """The next text message, or None once the client is gone or is being closed.
    Every frame is charged to the connection's rate limit first, whatever it holds:
    binary frames and oversized messages are then refused here, never parsed."""
    most = conn.services.settings.max_message
    while True:
        msg = await conn.ws.receive()
        if msg["type"] == "websocket.disconnect":
            return None
        if not conn.charge():
            if conn.closing is not None:
                return None
            continue
        text = msg.get("text")
        if text is None:
            conn.refuse(Refusal("bad_json", "send JSON text messages, not binary"))
            continue
        if len(text.encode("utf-8", "replace")) > most:
            conn.refuse(Refusal("too_large", f"messages are at most {most} bytes"))
            continue
        return str(text)


def parse(text: str) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal("bad_json", "that message is not JSON") from None
    if not isinstance(doc, dict):
        raise Refusal("bad_message", "a message is a JSON object with a 'type'") from None
    return doc


async def _hello(conn: Connection, services: Services, game_id: str) -> Room | None:
    try:
        async with asyncio.timeout(services.settings.hello_timeout):
            text = await receive(conn)
    except TimeoutError:
        conn.close_soon("hello_required", "send 'hello' first")
        return None
    if text is None:
        return None
    try:
        msg = parse(text)
        if msg.get("type") != "hello":
            raise Refusal("hello_required", "the first message must be 'hello'")
        room = await services.rooms.room(game_id)
        presented = msg.get("tokens", [])
        if not isinstance(presented, list) or len(presented) > tokens.MAX_TOKENS:
            raise Refusal("bad_request", "'tokens' must be a list of at most 8 links' tokens")
        user = await signed_in(conn.ws, services)
        seats, host = room.holder(presented, user)
        if seats and room.status in ("waiting", "active"):  # an ended game is only shown
            await room.take_seats(seats, msg.get("name"), msg.get("names"), user)
    except Refusal as r:
        conn.refuse(r)
        conn.close_soon(r.code, r.message)
        return None
    conn.seats, conn.host, conn.user, conn.tokens = seats, host, user, list(presented)
    conn.marks = marks_of(room.id, seats, user.id if user else None)
    services.presence.enter(conn.marks)
    chat = heard(await _chat_so_far(services, room), user)
    since = msg.get("version")
    # Joining queues the welcome in the same step: the next update the client
    # receives is the next version, and nothing reaches it before the welcome.
    room.audience.join(
        conn,
        host,
        since if isinstance(since, int) and not isinstance(since, bool) else None,
        history=bool(msg.get("history", True)),
        chat=chat,
    )
    if seats:  # a spectator changes nothing others are shown
        services.rooms.seats_changed(room, local=False)
    return room


async def signed_in(ws: WebSocket, services: Services) -> User | None:
    """The account of the handshake's session cookie. A page of another origin was
    refused at the handshake (`same_origin`), so a browser sends the cookie here only
    from this server's own pages: the WebSocket's CSRF defence."""
    session = ws.cookies.get("euphrates_session")
    if not session or len(session) > 128:
        return None
    try:
        return await services.accounts.store.session(session)
    except Exception as e:
        raise Refusal("storage_unavailable", f"the session could not be read: {e}") from None


async def _chat_so_far(services: Services, room: Room) -> list[ChatRow]:
    """The chat up to the last line this room has told its clients about: a line said
    while it was being read is read again, so the welcome holds it (its broadcast went
    to the clients already in the room). Every line: the caller keeps those the
    client may be sent."""
    for _ in range(3):
        chat = await services.chat.read(room)
        if (chat[-1].seq if chat else 0) >= room.audience.chat_seen:
            break
    return chat


async def _handle(conn: Connection, services: Services, room: Room, text: str) -> None:
    msg_id: object = None
    try:
        msg = parse(text)
        msg_id = msg.get("id")
        if not plain_id(msg_id):
            msg_id = None
            raise Refusal("bad_message", "'id' must be a short number or text")
        kind = msg.get("type")
        if kind == "action":
            step = await room.submit(
                conn.seats, msg.get("seat"), msg.get("version"), msg.get("action")
            )
            conn.send({"type": "ack", "id": msg_id, "version": step.version})
        elif kind == "undo":
            step = await room.undo(conn.seats, msg.get("seat"), msg.get("version"))
            conn.send({"type": "ack", "id": msg_id, "version": step.version})
        elif kind == "chat":
            row = await services.chat.say(room, conn.seats, msg.get("text"), conn.user)
            conn.send({"type": "ack", "id": msg_id, "seq": row.seq})
        elif kind == "sync":
            snapshot = room.audience.snapshot(conn.seats, conn.host, history=True)
            conn.send({"type": "sync", "id": msg_id, **snapshot})
        elif kind == "ping":
            conn.send({"type": "pong", "id": msg_id})
        elif kind == "hello":
            raise Refusal("bad_message", "already said hello")
        else:
            raise Refusal("unknown_type", "'type' must be action, undo, chat, sync or ping")
    except Refusal as r:
        conn.refuse(r, msg_id)
    except Exception:  # a bug must cost this message, not the connection or the server
        log.exception("message of type %r failed in game %s", _kind_of(text), room.id)
        conn.refuse(Refusal("server_error", "the server failed on that message"), msg_id)


def _kind_of(text: str) -> str:
    try:
        return str(json.loads(text).get("type"))[:20]
    except Exception:
        return "?"
