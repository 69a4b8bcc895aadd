"""The lobby, live: a WebSocket (`/api/lobby/ws`) that tells an open lobby the open
tables and, signed in, the account's own games with who sits where and who is online,
and tells it again whenever that changes — here or on another server.

Why a socket rather than polling: an open lobby is what makes its account online
(presence.py), which takes a live connection anyway; and what changes is heard from
the notifications the tables already use (the hub's watchers, `LISTEN/NOTIFY` across
servers), so a lobby on one server shows a table opened on another within a moment,
for one read of the list per burst of changes and process — not one per lobby and
poll. Nothing is sent to a lobby that its last message already said.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.presence.presence import LOBBY, marks_of
from euphrates.server.features.tables.tables import Tables
from euphrates.server.game.rooms import Hub
from euphrates.server.store import tables as tablestore
from euphrates.server.store.accounts import User
from euphrates.server.store.tables import Listed
from euphrates.server.transport.ws import (
    Connection,
    _parse,
    _plain_id,
    _receive,
    _signed_in,
    guarded,
)

log = logging.getLogger("euphrates.server")

DEBOUNCE = 0.1
"""Seconds a change waits for the ones that come with it (a game starting changes its
seats and its status): one message for the burst."""
SAFETY = 30.0
"""Seconds after which an open lobby's list is read again even if nothing was heard
(a notification lost while the listening connection was down)."""
MINE = 30
"""An account's games the lobby shows with who sits where."""


class Watcher:
    """One open lobby: its connection, its account, what it was last sent."""

    def __init__(self, conn: Connection, user: User | None) -> None:
        self.conn = conn
        self.user = user
        self.sent: dict[str, str] = {}
        self.mine: list[Listed] | None = None
        self.lock = asyncio.Lock()
        """One telling at a time: what it is sent arrives in the order it was read."""

    def send(self, kind: str, key: str, value: Any) -> None:
        text = json.dumps(value, separators=(",", ":"))
        if self.sent.get(key) == text:
            return
        self.sent[key] = text
        self.conn.push(f'{{"type":"{kind}","{key}":{text}}}')


class Lobby:
    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.hub: Hub = tables.hub
        self.watching: set[Watcher] = set()
        self._games: set[str] = set()
        self._users: set[int] = set()
        self._all = False
        self._task: asyncio.Task[None] | None = None
        self._safety: asyncio.Task[None] | None = None
        self.greeters: list[Callable[[Watcher], Awaitable[None]]] = []
        """Told of each lobby that opens, after its first list: what other features
        show there (quick match's state, quickmatch.py)."""
        tables.listeners.append(self.changed)

    def start(self) -> None:
        self._safety = asyncio.create_task(self._safety_loop(), name="lobby-safety")

    async def close(self) -> None:
        for task in (self._safety, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def changed(self, games: set[str], users: set[int], tables: bool) -> None:
        """Something an open lobby may show changed: tell them all, after the burst.
        With no lobby open nothing is kept: a lobby that opens is told all there is."""
        if not self.watching:
            return
        self._games |= games
        self._users |= users
        self._all = self._all or tables
        if self._task is None:
            self._task = asyncio.create_task(self._refresh(), name="lobby-refresh")

    async def _safety_loop(self) -> None:
        while True:
            await asyncio.sleep(SAFETY)
            if self.watching:
                self.tables.invalidate()
                for w in self.watching:
                    w.mine = None
                self.changed(set(), set(), True)

    async def _refresh(self) -> None:
        try:
            while True:
                await asyncio.sleep(DEBOUNCE)
                games, users, everything = self._games, self._users, self._all
                self._games, self._users, self._all = set(), set(), False
                if not (games or users or everything):
                    return
                for w in list(self.watching):
                    try:
                        await self.tell(w, games)
                    except Refusal:
                        pass  # the database is away: the next change or the safety net
                    except Exception:  # one lobby's failure must not stop the others'
                        log.exception("a lobby could not be told")
        finally:
            self._task = None

    async def tell(self, w: Watcher, games: set[str]) -> None:
        """Send the open tables and the account's games as they are now, where they
        differ from what this lobby was last sent; the account's games are read again
        when one of them, or an open table it sits at, changed."""
        async with w.lock:
            await self._tell(w, games)

    async def _tell(self, w: Watcher, games: set[str]) -> None:
        listed = await self.tables.listed()
        viewer = w.user.id if w.user else None
        w.send("tables", "tables", self.tables.entries(listed, viewer))
        if w.user is None:
            return
        seated = {t.id for t in listed if any(s.user_id == viewer for s in t.seats)}
        if w.mine is None or games & ({t.id for t in w.mine} | seated):
            try:
                w.mine = await tablestore.games_of(self.hub.store, w.user.id, MINE)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the games could not be read: {e}") from None
        w.send("mine", "games", [self.tables.entry(t, viewer) for t in w.mine])


async def serve_lobby(ws: WebSocket, lobby: Lobby) -> None:
    await guarded(ws, lobby.hub, lambda: _serve(ws, lobby))


async def _serve(ws: WebSocket, lobby: Lobby) -> None:
    hub = lobby.hub
    await ws.accept()
    conn = Connection(ws, hub)
    conn.sender = asyncio.create_task(conn._send_loop())
    watcher: Watcher | None = None
    try:
        try:
            user = await _signed_in(ws, hub)
        except Refusal as r:
            conn.refuse(r)
            conn.close_soon(r.code, r.message)
            return
        conn.user = user
        conn.marks = marks_of(LOBBY, (), user.id if user else None)
        hub.presence.enter(conn.marks)
        watcher = Watcher(conn, user)
        conn.send({"type": "lobby", "you": user.public() if user else None})
        lobby.watching.add(watcher)
        with contextlib.suppress(Refusal):
            await lobby.tell(watcher, set())
        for greet in lobby.greeters:
            with contextlib.suppress(Refusal):  # the database is away: told when it changes
                await greet(watcher)
        while conn.closing is None:
            text = await _receive(conn)
            if text is None:
                break
            _answer(conn, text)
    except WebSocketDisconnect:
        pass
    finally:
        if watcher is not None:
            lobby.watching.discard(watcher)
        if conn.marks:
            hub.presence.leave(conn.marks)
        if conn.closing is None:
            conn.closing = (1000, "bye")
            conn.queue.put_nowait(None)
        with contextlib.suppress(TimeoutError, Exception):
            async with asyncio.timeout(5):
                await conn.sender
        conn.sender.cancel()


def _answer(conn: Connection, text: str) -> None:
    """A lobby only listens; it may ping."""
    msg_id: object = None
    try:
        msg = _parse(text)
        msg_id = msg.get("id") if _plain_id(msg.get("id")) else None
        if msg.get("type") != "ping":
            raise Refusal("unknown_type", "a lobby sends only 'ping'")
        conn.send({"type": "pong", "id": msg_id})
    except Refusal as r:
        conn.refuse(r, msg_id)
