"""Who is here: an account is online while it has a live connection — a table's
WebSocket or the lobby's — on any server process; a seat is at its table while a
connection holds it (a guest's too).

Each process counts its own live connections per *mark*: an account at a place (a
game's id, or "" for the lobby) or a seat held at a table. A mark is this process's
from its first connection until `grace` seconds after its last one closed, so a page
reloaded or a connection made again changes nothing anyone sees and writes nothing.

On SQLite one process serves the database: its counts are the whole truth and nothing
is ever written. On PostgreSQL each process writes its marks to `presence` when they
change — all changes of a moment in one transaction with one `NOTIFY`, at most every
FLUSH_EVERY seconds — never per request and never when nothing changed. Each process
reads the other servers' rows when notified and every SYNC_EVERY seconds (a read),
counting only servers that beat in `servers` (the drivers' heartbeat): a server
killed takes its marks with it within seconds, and one starting reads everyone's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable, Iterable

from euphrates.server.common.waits import woken
from euphrates.server.store.database import Database
from euphrates.server.store.presence import Mark, PresenceStore
from euphrates.server.store.rows import GameRow, SeatRow

log = logging.getLogger("euphrates.server")

__all__ = ["LOBBY", "Mark", "Presence", "marks_of"]

LOBBY = ""
FLUSH_EVERY = 0.25
SYNC_EVERY = 2.0
ALIVE = 3.0
"""Seconds since a server's last beat for its marks to count (it beats every 0.4 s)."""
FORGET_EVERY = 60.0

Observer = Callable[[set[int], set[str]], None]
"""Told which accounts and which games' seats changed presence."""


def marks_of(place: str, seats: Iterable[int], user_id: int | None) -> list[Mark]:
    """The marks of one connection: its account at its place, and the seats it holds
    there."""
    out: list[Mark] = [(place, s, 0) for s in sorted(seats)]
    if user_id is not None:
        out.append((place, -1, user_id))
    return out


class Presence:
    def __init__(self, database: Database, grace: float) -> None:
        self.sqlite = database.sqlite
        self.store = PresenceStore(database)
        self.grace = grace
        self.local: Counter[Mark] = Counter()
        """Live connections of this process, per mark."""
        self.held: set[Mark] = set()
        """The marks this process holds: connected now, or within the grace."""
        self.written: set[Mark] = set()
        """This process's marks as stored (PostgreSQL)."""
        self.others: dict[str, set[Mark]] = {}
        """Other servers' marks, as last read (PostgreSQL)."""
        self.count: Counter[Mark] = Counter()
        """How many servers hold each mark."""
        self.users: Counter[int] = Counter()
        """Per account, how many (server, mark) pairs name it: online while > 0."""
        self.observers: list[Observer] = []
        self._users: set[int] = set()
        self._games: set[str] = set()
        self._telling = False
        self._flush = asyncio.Event()
        self._sync = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.writes = 0
        """Transactions this process wrote its marks in (for tests and health)."""

    # --- what is asked --------------------------------------------------------------
    def online(self, user_id: int) -> bool:
        return self.users.get(user_id, 0) > 0

    def in_lobby(self, user_id: int) -> bool:
        """The account has a lobby open on some server (or closed it within the grace)."""
        return self.count.get((LOBBY, -1, user_id), 0) > 0

    def at_table(self, game_id: str, seat: int) -> bool:
        return self.count.get((game_id, seat, 0), 0) > 0

    def of_seat(self, game_id: str, seat: SeatRow) -> str | None:
        """`here` (a connection holds the seat at its table), `online` (its account is
        connected elsewhere: the lobby, another table), `away`; None for a bot or a
        seat nobody has taken."""
        if seat.kind != "human" or not seat.taken:
            return None
        if self.at_table(game_id, seat.seat):
            return "here"
        if seat.user_id is not None and self.online(seat.user_id):
            return "online"
        return "away"

    def of_seats(self, row: GameRow) -> list[str | None]:
        return [self.of_seat(row.id, s) for s in row.seats]

    # --- this process's connections -----------------------------------------------
    def enter(self, marks: Iterable[Mark]) -> None:
        for m in marks:
            self.local[m] += 1
            if m not in self.held:
                self.held.add(m)
                self._gain(m)
                self._flush.set()

    def leave(self, marks: Iterable[Mark]) -> None:
        loop = asyncio.get_running_loop()
        for m in marks:
            self.local[m] -= 1
            if self.local[m] <= 0:
                del self.local[m]
                loop.call_later(self.grace, self._drop, m)

    def _drop(self, m: Mark) -> None:
        """The grace after a mark's last connection passed: gone, unless one came."""
        if self.local.get(m, 0) > 0 or m not in self.held:
            return
        self.held.discard(m)
        self._lose(m)
        self._flush.set()

    def _gain(self, m: Mark) -> None:
        self.count[m] += 1
        if m[2]:
            self.users[m[2]] += 1
        self._touch(m)

    def _lose(self, m: Mark) -> None:
        self.count[m] -= 1
        if self.count[m] <= 0:
            del self.count[m]
        if m[2]:
            self.users[m[2]] -= 1
            if self.users[m[2]] <= 0:
                del self.users[m[2]]
        self._touch(m)

    def _touch(self, m: Mark) -> None:
        if m[2]:
            self._users.add(m[2])
        else:
            self._games.add(m[0])
        if not self._telling:
            self._telling = True
            asyncio.get_running_loop().call_soon(self._tell)

    def _tell(self) -> None:
        users, games = self._users, self._games
        self._users, self._games, self._telling = set(), set(), False
        for observe in self.observers:
            try:
                observe(users, games)
            except Exception:  # one feature's failure must not stop the others
                log.exception("a presence observer failed")

    # --- several servers (PostgreSQL) ----------------------------------------------
    async def start(self) -> None:
        if self.sqlite:
            return
        with contextlib.suppress(Exception):
            await self.sync()
        self._tasks = [
            asyncio.create_task(self._flushing(), name="presence-writes"),
            asyncio.create_task(self._syncing(), name="presence-reads"),
        ]

    def heard(self) -> None:
        """Another server wrote its marks: read them soon."""
        self._sync.set()

    async def _flushing(self) -> None:
        while True:
            await self._flush.wait()
            self._flush.clear()
            try:
                await self.flush()
            except Exception as e:
                log.warning("presence not stored: %s", e)
                self._flush.set()
                await asyncio.sleep(1.0)
            await asyncio.sleep(FLUSH_EVERY)

    async def flush(self) -> None:
        """Store what changed in this process's marks since they were last stored,
        and tell the other servers; nothing when nothing changed."""
        want = set(self.held)
        added, gone = want - self.written, self.written - want
        if not added and not gone:
            return
        await self.store.write(added, gone)
        self.writes += 1
        self.written = want

    async def _syncing(self) -> None:
        last_forget = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await woken(self._sync, SYNC_EVERY)
            await asyncio.sleep(0.05)  # a burst of notifications costs one read
            self._sync.clear()
            try:
                await self.sync()
                if loop.time() - last_forget > FORGET_EVERY:
                    await self.forget()
                    last_forget = loop.time()
            except Exception as e:
                log.warning("presence not read: %s", e)

    async def sync(self) -> None:
        """Read the marks of every other live server and count what changed."""
        read = await self.store.others(ALIVE)
        for server in set(read) | set(self.others):
            new, old = read.get(server, set()), self.others.get(server, set())
            for m in new - old:
                self._gain(m)
            for m in old - new:
                self._lose(m)
        self.others = read

    async def forget(self) -> None:
        """Drop the rows of servers that stopped beating a minute ago (they crashed)."""
        await self.store.forget(FORGET_EVERY)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.sqlite or not self.written:
            return
        with contextlib.suppress(Exception):
            await self.store.clear()
