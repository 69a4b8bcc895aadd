"""The lobby's friends panel, live: each signed-in lobby (features/tables/lobby.py) is
told `{"type": "friends", "friends": {"players", "received", "sent"}}` when it opens
and again whenever that changes — a followed player coming or going or starting a
game, an invitation made, taken, declined, withdrawn or ended by its seat or game, a
block — here or on another server.

What is heard: presence's observers (who came and went, across servers, presence.py),
the rooms' watchers (a game's seats or status changed, here or elsewhere; another
server's `friends` signal: an invitation or a block), and this process's own changes
(friends.py, moderation's blocks). A burst of them costs one read of the panels of
every lobby concerned together (friends.py, `panels`), and a lobby is sent only what
differs from what it was last told. In case a notification is lost, every open lobby's
panel is read again every SAFETY seconds.
"""

from __future__ import annotations

import asyncio
import logging

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import stopped
from euphrates.server.features.friends.friends import Friends
from euphrates.server.features.presence.presence import Presence
from euphrates.server.features.tables.lobby import Lobby, Watcher, read_number
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import Rooms

log = logging.getLogger("euphrates.server")

DEBOUNCE = 0.1
"""Seconds a change waits for those that come with it: one read for the burst."""
SAFETY = 30.0


class FriendsLive:
    def __init__(self, friends: Friends, lobby: Lobby, rooms: Rooms, presence: Presence) -> None:
        self.friends = friends
        self.lobby = lobby
        self.rooms = rooms
        self.shown: dict[Watcher, tuple[set[int], set[str]]] = {}
        """Per lobby told: the accounts its panel follows and the games it names, to
        know which changes concern it."""
        self._who: set[int] = set()
        self._games: set[str] = set()
        self._all = False
        self._task: asyncio.Task[None] | None = None
        self._safety: asyncio.Task[None] | None = None
        self.told = 0
        """Panels sent (for tests)."""

        lobby.greeters.append(self._greet)
        presence.observers.append(self._presence_changed)
        rooms.watchers.append(self._watch)
        friends.listeners.append(self.everyone)

    def start(self) -> None:
        self._safety = asyncio.create_task(self._safety_loop(), name="friends-safety")

    async def close(self) -> None:
        await stopped(self._safety, self._task)

    # --- what is heard ------------------------------------------------------------------
    def everyone(self) -> None:
        """Something any lobby's panel may show changed (an invitation, a block)."""
        self._all = True
        self._soon()

    def _presence_changed(self, users: set[int], _games: set[str]) -> None:
        if users:
            self._who |= users
            self._soon()

    def _watch(self, game_id: str, kind: str, room: Room | None) -> None:
        if kind == "friends":
            self.everyone()
        elif kind == "seats":
            if room is None:  # a game this process does not hold: whose it is is unknown
                self.everyone()
                return
            self._games.add(game_id)
            self._who |= {s.user_id for s in room.row.seats if s.user_id is not None}
            self._soon()

    def _soon(self) -> None:
        if self._task is None and any(w.user is not None for w in self.lobby.watching):
            self._task = asyncio.create_task(self._refresh(), name="friends-refresh")

    async def _safety_loop(self) -> None:
        while True:
            await asyncio.sleep(SAFETY)
            self.everyone()

    # --- telling ------------------------------------------------------------------------
    def _concerned(self, w: Watcher, who: set[int], games: set[str], everything: bool) -> bool:
        if everything or w not in self.shown or w.user is None:
            return True
        follows, named = self.shown[w]
        return bool(follows & who or named & games or w.user.id in who)

    async def _refresh(self) -> None:
        try:
            while self._who or self._games or self._all:
                await asyncio.sleep(DEBOUNCE)
                who, games, everything = self._who, self._games, self._all
                self._who, self._games, self._all = set(), set(), False
                for gone in set(self.shown) - self.lobby.watching:
                    del self.shown[gone]
                watchers = [
                    w
                    for w in self.lobby.watching
                    if w.user is not None and self._concerned(w, who, games, everything)
                ]
                try:
                    await self.tell(watchers)
                except Refusal:
                    pass  # the database is away: the next change or the safety net
                except Exception:
                    log.exception("the friends' panels could not be told")
        finally:
            self._task = None

    async def tell(self, watchers: list[Watcher]) -> None:
        """Read the panels of these lobbies' accounts together and send each its own."""
        ids = [w.user.id for w in watchers if w.user is not None]
        if not ids:
            return
        read = read_number()  # a panel read before the one a lobby was sent is dropped
        try:
            panels = await self.friends.panels(ids)
        except Refusal:
            raise
        except Exception as e:
            raise Refusal("storage_unavailable", f"the friends could not be read: {e}") from None
        for w in watchers:
            if w.user is None or w not in self.lobby.watching:
                continue
            panel = panels[w.user.id]
            async with w.lock:
                if not w.newer("friends", read):
                    continue
                self.shown[w] = (panel.follows, panel.games)
                w.send("friends", "friends", panel.doc)
            self.told += 1

    async def _greet(self, w: Watcher) -> None:
        if w.user is not None:
            await self.tell([w])
