"""The lobby, live: what an open lobby (its WebSocket, `/api/lobby/ws`,
transport/lobby_socket.py) is told — the open tables and, signed in, the account's own games with who sits where and who is online,
and tells it again whenever that changes — here or on another server.

Why a socket rather than polling: an open lobby is what makes its account online
(presence.py), which takes a live connection anyway; and what changes is heard from
the notifications the tables already use (the rooms' watchers, `LISTEN/NOTIFY` across
servers), so a lobby on one server shows a table opened on another within a moment,
for one read of the list per burst of changes and process — not one per lobby and
poll. Nothing is sent to a lobby that its last message already said.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import stopped
from euphrates.server.features.tables.tables import Tables
from euphrates.server.game.rooms import Rooms
from euphrates.server.store import tables as table_reads
from euphrates.server.store.accounts import User
from euphrates.server.store.tables import Listed

log = logging.getLogger("euphrates.server")

DEBOUNCE = 0.1
"""Seconds a change waits for the ones that come with it (a game starting changes its
seats and its status): one message for the burst."""
SAFETY = 30.0
"""Seconds after which an open lobby's list is read again even if nothing was heard
(a notification lost while the listening connection was down)."""
MINE = 30
"""An account's games the lobby shows with who sits where."""


class Pushed(Protocol):
    """A lobby's connection as the lobby sees it (transport/lobby_socket.py)."""

    def push(self, text: str) -> None: ...

    def close_soon(self, code: str, message: str) -> None: ...


_reads = itertools.count(1)


def read_number() -> int:
    """Taken just before a read whose result lobbies are sent: a later number is a
    later read (Watcher.newer)."""
    return next(_reads)


class Watcher:
    """One open lobby: its connection, its account, what it was last sent."""

    def __init__(self, conn: Pushed, user: User | None) -> None:
        self.conn = conn
        self.user = user
        self.sent: dict[str, str] = {}
        self.read_at: dict[str, int] = {}
        """Per kind of message, the number of the read the last one sent came from."""
        self.mine: list[Listed] | None = None
        self.lock = asyncio.Lock()
        """One telling at a time: what it is sent arrives in the order it was read."""

    def newer(self, key: str, read: int) -> bool:
        """Whether what read `read` took may be sent, and if so, it counts as sent.
        Reads for one lobby run side by side (its greeting beside a burst's refresh)
        and may finish in any order; a read begun before the one last sent is older,
        and sent last it would undo a change (a follow, a quick match's state) until
        the next one or the safety net."""
        if self.read_at.get(key, 0) > read:
            return False
        self.read_at[key] = read
        return True

    def send(self, kind: str, key: str, value: Any) -> None:
        text = json.dumps(value, separators=(",", ":"))
        if self.sent.get(key) == text:
            return
        self.sent[key] = text
        self.conn.push(f'{{"type":"{kind}","{key}":{text}}}')


class Lobby:
    def __init__(self, tables: Tables, rooms: Rooms) -> None:
        self.tables = tables
        self.rooms = rooms
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
        rooms.account_watchers.append(self.account_changed)

    def start(self) -> None:
        self._safety = asyncio.create_task(self._safety_loop(), name="lobby-safety")

    async def close(self) -> None:
        await stopped(self._safety, self._task)

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

    def account_changed(self, user_id: int) -> None:
        """An account was disabled or deleted: its lobbies close (they connect again
        as what they may be now)."""
        for w in list(self.watching):
            if w.user is not None and w.user.id == user_id:
                self.watching.discard(w)
                w.conn.close_soon("account_changed", "this account changed; connect again")

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
                w.mine = await table_reads.games_of(self.rooms.store.database, w.user.id, MINE)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the games could not be read: {e}") from None
        w.send("mine", "games", [self.tables.entry(t, viewer) for t in w.mine])
