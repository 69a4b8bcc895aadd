"""Open tables: a game opened in the lobby for anyone signed in to sit at, its creator
seated and its host; players sitting down and leaving while it waits; the host
starting it early with bots in the seats still free; and the list the lobby shows.

Seats are taken and freed under the game's row lock (PostgreSQL) and, on SQLite, one
at a time in the one process, each checked against the seats as stored: of two
players racing for the last seat on two servers exactly one sits (store.py,
`update_seat`). A seat taken is tied to the account, which opens it from any browser
without a token; its invitation link, if any, then needs that account.

The hub tells this module of every change of seats or status, here or on another
server, and presence tells it who came and went: it keeps the open tables' list
current for the lobby (lobby.py), closes the connections that lost a seat, and tells
each table whose players came or went.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.ratings.ratings import check_bot_level
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Created, Hub
from euphrates.server.store import tables as tablestore
from euphrates.server.store.accounts import User
from euphrates.server.store.games import SeatRow, now
from euphrates.server.store.tables import Listed
from euphrates.server.transport.ws import recheck

log = logging.getLogger("euphrates.server")

LISTED = 100
"""The open tables the lobby lists at most (the newest)."""
FRESH = 30.0
"""Seconds the list is kept even when no change was heard (a notification lost while
the listening connection was down is made good by then)."""
ENDED = ("over", "abandoned")


class Tables:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self.presence = hub.presence
        self._seating = asyncio.Lock()
        """Seats of open tables are taken, freed and filled one at a time here: on
        SQLite this process is the only writer, and its reads before a write are
        outside the write's transaction."""
        self._listed: list[Listed] | None = None
        self._read_at = 0.0
        self._changes = 0
        """Changes heard: a list read while one was heard is not kept."""
        self._loading = asyncio.Lock()
        self.listeners: list[Callable[[set[str], set[int], bool], None]] = []
        """Told (games whose seats changed, accounts whose presence changed, whether
        the list of open tables may have changed): the lobby's sockets."""
        hub.watchers.append(self._watch)
        self.presence.observers.append(self._presence_changed)

    # --- opening, sitting, leaving, starting ----------------------------------------
    async def open(self, created: Created, user: User) -> None:
        """Make a game just created an open table, its creator sitting at its first
        person's seat (the others are free: anyone signed in may sit, and their
        invitation links work too)."""
        first = next(s.seat for s in created.row.seats if s.kind == "human")
        try:
            seats = await tablestore.open_table(self.store, created.row.id, first, user)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the table could not be opened: {e}") from None
        created.row.seats, created.row.open, created.row.creator = seats, True, user.id
        self._changed({created.row.id}, tables=True)

    async def sit(self, room: Room, user: User, seat: int | None) -> list[int]:
        """Seat `user` at an open table: at `seat`, or the first free one. The game
        starts when every seat is taken. Returns the seats the account holds."""
        if not room.row.open:
            raise Refusal("not_open", "this game is not an open table: join it by its link")
        if seat is not None and not 0 <= seat < room.row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        async with self._seating:
            self._check_waiting(room)
            for _ in range(room.row.players):
                wanted = seat if seat is not None else self._first_free(room)
                entry = room.row.seats[wanted]
                row = SeatRow(wanted, "human", None, user.name, entry.token_hash, True, user.id)
                try:
                    await self.hub._write_seat(room, row, only_if_human=True, vacant=True)
                    break
                except Refusal as r:
                    if r.code != "seat_taken" or seat is not None:
                        raise
                    await self.hub.reload_seats(room)  # taken elsewhere: the next one
        self.hub.seats_changed(room, local=True)
        return sorted(s.seat for s in room.row.seats if s.user_id == user.id)

    async def leave(self, room: Room, user: User) -> None:
        """`user` gets up from a game that has not started: their seats are free again."""
        if room.row.creator == user.id:
            raise Refusal("host_stays", "the table's creator stays; abandon the table instead")
        async with self._seating:
            try:
                seats = await tablestore.leave(self.store, room.id, user.id)
            except Refusal:
                raise
            except Exception as e:
                raise Refusal("storage_unavailable", f"the seat could not be left: {e}") from None
            room.row.seats, room.row.updated_at = seats, now()
        self.hub.seats_changed(room, local=True)

    async def start(self, room: Room, level: str) -> None:
        """The host starts the game now: a bot of `level` takes each seat still free.
        At least one person must sit at it (a game of bots alone is created as such).
        A seat taken meanwhile by someone is theirs; one left meanwhile gets a bot."""
        if room.row.rated:
            check_bot_level(room.row.game, room.row.players, level)
        async with self._seating:
            self._check_waiting(room)
            if not any(s.kind == "human" and s.taken for s in room.row.seats):
                raise Refusal("nobody_seated", "nobody sits at this table yet: it cannot start")
            for _ in range(room.row.players):
                free = [s.seat for s in room.row.seats if s.kind == "human" and not s.taken]
                if not free or room.row.status != "waiting":
                    break
                for seat in free:
                    bot = SeatRow(seat, "bot", level, None, None, True, None)
                    try:
                        await self.hub._write_seat(room, bot, only_if_human=True, vacant=True)
                    except Refusal as r:
                        if r.code != "seat_taken":
                            raise
                        await self.hub.reload_seats(room)
        self.hub.seats_changed(room, local=True)

    @staticmethod
    def _check_waiting(room: Room) -> None:
        room.check_open()
        if room.row.status in ENDED:
            raise Refusal("game_over", "the game has ended")
        if room.row.status != "waiting":
            raise Refusal("already_started", "the game has started: every seat is taken")

    @staticmethod
    def _first_free(room: Room) -> int:
        for s in room.row.seats:
            if s.kind == "human" and not s.taken and s.user_id is None:
                return s.seat
        raise Refusal("already_started", "every seat of this table is taken")

    # --- the list -------------------------------------------------------------------
    async def listed(self) -> list[Listed]:
        """The open tables waiting for players, as last read (read again after any
        change of seats here or elsewhere)."""
        async with self._loading:
            listed = self._listed
            if listed is None or time.monotonic() - self._read_at > FRESH:
                since = now() - timedelta(seconds=self.hub.settings.waiting_expiry)
                changes, read_at = self._changes, time.monotonic()
                try:
                    listed = await tablestore.waiting_tables(self.store, since, LISTED)
                except Exception as e:
                    raise Refusal(
                        "storage_unavailable", f"the open tables could not be read: {e}"
                    ) from None
                if changes == self._changes:
                    self._listed, self._read_at = listed, read_at
            return listed

    def entries(self, listed: list[Listed], viewer: int | None) -> list[dict[str, Any]]:
        """The list as one player sees it: presence now, and which seats are theirs."""
        cutoff = now() - timedelta(seconds=self.hub.settings.waiting_expiry)
        return [self.entry(t, viewer) for t in listed if t.updated_at >= cutoff]

    def entry(self, t: Listed, viewer: int | None) -> dict[str, Any]:
        """One game as the lobby shows it: never a token, a seed or an account's id."""
        return {
            "id": t.id,
            "game": t.game,
            "players": t.players,
            "status": t.status,
            "options": t.options,
            "clock": t.clock,
            "created": t.created_at.isoformat(),
            "creator": t.creator_name,
            "rated": t.rated,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "name": s.name,
                    "taken": s.taken,
                    "presence": self.presence.of_seat(t.id, s),
                    "you": viewer is not None and s.user_id == viewer,
                    "creator": t.creator is not None and s.user_id == t.creator,
                }
                for s in t.seats
            ],
            "free": [s.seat for s in t.seats if s.kind == "human" and not s.taken],
            "link": f"/g/{t.id}",
        }

    # --- hearing of changes ---------------------------------------------------------
    def _watch(self, game_id: str, kind: str, room: Room | None) -> None:
        if kind == "presence":
            self.presence.heard()
            return
        if kind != "seats":
            return
        if room is not None:
            recheck(self.hub, room)
        listed = self._listed
        maybe_listed = room is None or room.row.open
        if listed is None or maybe_listed or any(t.id == game_id for t in listed):
            self.invalidate()
        self._changed({game_id}, tables=maybe_listed)

    def _presence_changed(self, users: set[int], games: set[str]) -> None:
        """Players came or went: their tables are told (a seat's by its game, an
        account's wherever it sits), and the lobbies."""
        rooms = {r.id: r for g in games if (r := self.hub.rooms.get(g)) is not None}
        if users:
            for room in self.hub.rooms.values():
                if any(s.user_id in users for s in room.row.seats):
                    rooms[room.id] = room
        for room in rooms.values():
            room.audience.game_changed()
        self._changed(set(), users)

    def _changed(
        self, games: set[str], users: set[int] | None = None, tables: bool = False
    ) -> None:
        if tables:
            self.invalidate()
        for listen in self.listeners:
            listen(games, users or set(), tables)

    def invalidate(self) -> None:
        """Read the list again when next asked."""
        self._listed = None
        self._changes += 1
