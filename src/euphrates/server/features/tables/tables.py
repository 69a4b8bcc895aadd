"""Open tables: a game opened in the lobby for anyone signed in to sit at, its creator
seated and its host, and the list the lobby shows.

Sitting down, getting up and starting early are the room's (game/seating.py): seats are
taken and freed under the game's row lock, each checked against the seats as stored,
so of two players racing for the last seat on two servers exactly one sits. A seat
taken is tied to the account, which opens it from any browser without a token; its
invitation link, if any, then needs that account.

The rooms tell this module of every change of seats or status, here or on another
server, and presence tells it who came and went: it keeps the open tables' list
current for the lobby (lobby.py) and tells each table whose players came or went.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.presence.presence import Presence
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms
from euphrates.server.store import tables as table_reads
from euphrates.server.store.rows import now
from euphrates.server.store.tables import Listed

log = logging.getLogger("euphrates.server")

LISTED = 100
"""The open tables the lobby lists at most (the newest)."""
FRESH = 30.0
"""Seconds the list is kept even when no change was heard (a notification lost while
the listening connection was down is made good by then)."""


class Tables:
    def __init__(self, rooms: Rooms, presence: Presence) -> None:
        self.rooms = rooms
        self.database = rooms.store.database
        self.presence = presence
        self._listed: list[Listed] | None = None
        self._read_at = 0.0
        self._changes = 0
        """Changes heard: a list read while one was heard is not kept."""
        self._loading = asyncio.Lock()
        self.listeners: list[Callable[[set[str], set[int], bool], None]] = []
        """Told (games whose seats changed, accounts whose presence changed, whether
        the list of open tables may have changed): the lobby's sockets."""
        rooms.watchers.append(self._watch)
        self.presence.observers.append(self._presence_changed)

    # --- the list -------------------------------------------------------------------
    async def listed(self) -> list[Listed]:
        """The open tables waiting for players, as last read (read again after any
        change of seats here or elsewhere)."""
        async with self._loading:
            listed = self._listed
            if listed is None or time.monotonic() - self._read_at > FRESH:
                since = now() - timedelta(seconds=self.rooms.settings.waiting_expiry)
                changes, read_at = self._changes, time.monotonic()
                try:
                    listed = await table_reads.waiting_tables(self.database, since, LISTED)
                except Exception as e:
                    raise Refusal(
                        "storage_unavailable", f"the open tables could not be read: {e}"
                    ) from None
                if changes == self._changes:
                    self._listed, self._read_at = listed, read_at
            return listed

    def entries(self, listed: list[Listed], viewer: int | None) -> list[dict[str, Any]]:
        """The list as one player sees it: presence now, and which seats are theirs."""
        cutoff = now() - timedelta(seconds=self.rooms.settings.waiting_expiry)
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
                    "rating": t.ratings.get(s.seat) if s.kind == "human" and s.taken else None,
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
        listed = self._listed
        maybe_listed = room is None or room.row.open
        if listed is None or maybe_listed or any(t.id == game_id for t in listed):
            self.invalidate()
        self._changed({game_id}, tables=maybe_listed)

    def _presence_changed(self, users: set[int], games: set[str]) -> None:
        """Players came or went: their tables are told (a seat's by its game, an
        account's wherever it sits), and the lobbies."""
        rooms = {r.id: r for g in games if (r := self.rooms.rooms.get(g)) is not None}
        if users:
            for room in self.rooms.rooms.values():
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
