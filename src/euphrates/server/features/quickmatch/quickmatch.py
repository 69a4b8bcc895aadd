"""Quick match: "a table now". A signed-in player joins a pool for a kind of table — a
game, its players (2–4), a clock (a real-time preset or days per move) and the game's
options (kinds.py); as many players waiting for exactly that kind whose ratings are
close enough (matching.py: a span within a window that widens with the wait) become a
new game of that kind, started at once, each seat tied to its player's account as at an
open table; their lobbies are told at once and go to the table.

Who sits where, and exactly once: every server passes over the pool — at once after a
join anywhere (heard by `NOTIFY`), and every `TICK` seconds while someone waits, since
the windows widen with time alone — and claims the rows it seats (store/quickmatch.py,
`FOR UPDATE SKIP LOCKED`; on SQLite, the one process under `_passing`). Only players
with a lobby open somewhere are seated (presence.py), so a server that died takes its
players out of the pool with its presence: nobody sits with a ghost. A row not seen in
a lobby `JOIN_GRACE` seconds after it joined, or waiting `LONGEST`, is dropped.

A quick match is rated. Ratings come from a `RatingLookup` given to `QuickMatch`
(features/services.py gives store/ratings.py's `match_rating`), in the table's
player-count group; an unrated player is matched at `matching.START_RATING`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from euphrates.games import game_definition
from euphrates.match.ratings import group_of
from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import stopped, woken
from euphrates.server.features.fairplay.fairplay import FairPlay
from euphrates.server.features.presence.presence import Presence
from euphrates.server.features.quickmatch import kinds
from euphrates.server.features.quickmatch.matching import RULE, START_RATING, groups, window
from euphrates.server.features.tables.lobby import Lobby, Watcher, read_number
from euphrates.server.game.newgame import new_game_row
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Database
from euphrates.server.store.quickmatch import Entry, MatchStore, Pass, Waiting
from euphrates.server.store.rows import GameRow, SeatRow, now

log = logging.getLogger("euphrates.server")

RatingLookup = Callable[[Database, int, str, str], Awaitable[float | None]]
"""(database, account, game, player-count group) → the account's skill estimate in that
game and group, or None while it has none. Quick match asks for the group of the
table's players (match/ratings.py, `group_of`)."""

TICK = 1.0
"""Seconds between passes while someone waits (the windows widen every 10 s)."""
IDLE = 10.0
"""Seconds between passes while nobody is known to wait (a notification missed)."""
SETTLE = 0.05
"""Seconds a pass waits for the joins that come with the one that woke it."""
JOIN_GRACE = 10.0
"""Seconds a player who joined may go unseen in a lobby before their row is dropped
(the lobby's socket may connect after the request, or on another server)."""
LONGEST = 600.0
"""Seconds after which a wait with no table ends (the player may join again)."""
SHOWN = 120.0
"""Seconds a table made stays readable for its players (`GET /api/quickmatch`)."""
AGAIN = 10.0
"""Seconds after a table was made in which joining again answers that table: a second
press, or a retried request, that crossed it does not start a new wait."""

_shuffle = random.SystemRandom().shuffle
"""Seats in an order nobody can foresee (the operating system's randomness)."""


async def no_rating(_database: Database, _user_id: int, _game: str, _group: str) -> float | None:
    """The rating lookup while the server keeps no ratings: everyone is unrated."""
    return None


def table_row(
    members: Sequence[tuple[Waiting, str]], at: datetime, clock: Callable[[str], ClockSpec]
) -> GameRow:
    """A group's game, started: a seat for each member in a random order, each taken by
    its player's account and shown under its name, with the kind's options and clock
    (`clock`: the spec of a clock's name), the first player's clock running. Its
    seats' tokens are never handed out: the accounts open them."""
    first = members[0][0]
    game, players = first.game, first.players
    options = kinds.options_of(game, first.options)
    row, _tokens, _host = new_game_row(
        game, players, [{"kind": "human"}] * players, options, clock=clock(first.clock)
    )
    order = [(w.user_id, name) for w, name in members]
    _shuffle(order)
    row.seats = [
        SeatRow(i, "human", None, name, row.seats[i].token_hash, True, user_id)
        for i, (user_id, name) in enumerate(order)
    ]
    row.status = "active"
    row.rated = True  # every seat is an account's (ratings.py: a rated game's conditions)
    row.created_at = row.updated_at = at
    to_move = game_definition(game).new_game(players, row.seed, options).to_move()
    assert row.clock is not None
    row.clock.pass_to(to_move, True, at)
    return row


def state_of(entry: Entry | None, at: datetime) -> dict[str, Any]:
    """What an account is told of its place in quick match (HTTP and the lobby): what
    it asked for, and its wait or its table."""
    if entry is None:
        return {"state": "idle"}
    asked = {
        "game": entry.game,
        "players": entry.players,
        "clock": entry.clock,
        "options": kinds.options_of(entry.game, entry.options),
    }
    if entry.game_id is not None:
        others = list(entry.opponents)
        match = {
            "id": entry.game_id,
            "link": f"/g/{entry.game_id}",
            "opponent": others[0] if others else None,
            "opponents": others,
        }
        return {"state": "matched", **asked, "match": match}
    waited = max(0.0, (at - entry.since).total_seconds())
    return {
        "state": "waiting",
        **asked,
        "rating": entry.shown,
        "skill": round(entry.rating),
        "since": entry.since.isoformat(),
        "waited": round(waited, 1),
        "window": window(waited),
        "rule": RULE,
        "alike": entry.alike,
    }


class QuickMatch:
    def __init__(
        self,
        rooms: Rooms,
        lobby: Lobby,
        presence: Presence,
        fairplay: FairPlay,
        rating: RatingLookup = no_rating,
    ) -> None:
        self.rooms = rooms
        self.fairplay = fairplay
        self.lobby = lobby
        self.presence = presence
        self.rating = rating
        self.database = rooms.store.database
        self.store = MatchStore(self.database, rooms.store)
        self._passing = asyncio.Lock()
        """One pass at a time in this process (on SQLite, the only one)."""
        self._wake = asyncio.Event()
        self._busy = False
        """Someone was waiting at the last pass: pass again every TICK."""
        self._task: asyncio.Task[None] | None = None
        self._telling: asyncio.Task[None] | None = None
        self._dirty = False
        self.grace = JOIN_GRACE
        self.longest = LONGEST
        self.again = AGAIN
        self.made = 0
        """Tables this process made (for tests and health)."""
        self.passes = 0
        """Passes this process made over the pool (for tests and health)."""
        rooms.watchers.append(self._watch)
        lobby.greeters.append(self._greet)

    # --- what the routes ask --------------------------------------------------------
    async def state(self, user: User) -> dict[str, Any]:
        try:
            entries = await self.store.entries([user.id])
        except Exception as e:
            raise Refusal("storage_unavailable", f"quick match could not be read: {e}") from None
        return state_of(entries.get(user.id), now())

    async def join(
        self,
        user: User,
        game: str,
        players: int = 2,
        clock: str = kinds.DEFAULT_CLOCK,
        options: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Put `user` in the pool for a table of that kind (again: nothing changes) and
        pass soon."""
        key = kinds.check(game, players, clock, options or {})
        await self.fairplay.check_aborts(user.id)  # a quick match is rated
        try:
            found = await self.rating(self.database, user.id, game, group_of(players))
        except Exception as e:
            raise Refusal("storage_unavailable", f"the rating could not be read: {e}") from None
        rating = START_RATING if found is None else float(found)
        at = now()
        wait = Waiting(user.id, game, rating, at, players, clock, key)
        try:
            await self.store.join(wait, at, self.again)
        except Refusal:
            raise
        except Exception as e:
            raise Refusal("storage_unavailable", f"quick match could not be joined: {e}") from None
        self.wake()
        self.tell_soon()
        return await self.state(user)

    async def leave(self, user: User) -> dict[str, Any]:
        """Take `user` out of the pool; a table already made stays (the game exists)."""
        try:
            await self.store.leave(user.id)
        except Exception as e:
            raise Refusal("storage_unavailable", f"quick match could not be left: {e}") from None
        self.tell_soon()
        return await self.state(user)

    # --- making tables ----------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="quickmatch")

    async def close(self) -> None:
        await stopped(self._task, self._telling)

    def wake(self) -> None:
        self._wake.set()

    async def _loop(self) -> None:
        while True:
            await woken(self._wake, TICK if self._busy else IDLE)
            await asyncio.sleep(SETTLE)
            self._wake.clear()
            try:
                await self.pass_once()
            except Exception as e:  # the database is away: the next pass
                log.warning("quick match could not make tables: %s", e)

    def make(self, members: Sequence[tuple[Waiting, str]], at: datetime) -> GameRow:
        """A group's game, its clock as this server's settings make it."""
        settings = self.rooms.settings
        return table_row(
            members,
            at,
            lambda name: kinds.clock_of(name, settings.clock_day, settings.forfeit_grace),
        )

    async def pass_once(self) -> Pass:
        """Pass over the pool once: seat whoever fits, start their games here, and tell
        the lobbies."""
        async with self._passing:
            done = await self.store.run(
                now(),
                self.presence.in_lobby,
                self.grace,
                self.longest,
                SHOWN,
                self.make,
                groups,
                self.fairplay.apart,
            )
            self.passes += 1
        self._busy = done.waiting > 0
        made = [m[0] for m in done.matches]
        self.made += len(made)
        for game_id in made:
            try:
                room = await self.rooms.room(game_id)  # its deadline is this server's
            except Refusal as r:
                log.warning("quick match game %s not opened: %s", game_id, r.message)
                continue
            self.rooms.clocks.watch(room)
        if done.matches or done.dropped:
            self.tell_soon()
        return done

    # --- telling the lobbies ----------------------------------------------------------
    def _watch(self, _game_id: str, kind: str, _room: object) -> None:
        """Another server's notification: someone joined, left or was seated."""
        if kind == "qm":
            self.wake()
            self.tell_soon()

    def tell_soon(self) -> None:
        """Tell every signed-in lobby of this process its state, where it changed (one
        read for the burst)."""
        self._dirty = True
        if self._telling is None and self.lobby.watching:
            self._telling = asyncio.create_task(self._tell(), name="quickmatch-tell")

    async def _tell(self) -> None:
        try:
            while self._dirty:
                await asyncio.sleep(SETTLE)
                self._dirty = False
                watchers = [w for w in self.lobby.watching if w.user is not None]
                ids = sorted({w.user.id for w in watchers if w.user is not None})
                read = read_number()
                try:
                    entries = await self.store.entries(ids)
                except Exception as e:
                    log.warning("quick match could not be read: %s", e)
                    return
                at = now()
                for w in watchers:
                    if w.user is not None:
                        send(w, state_of(entries.get(w.user.id), at), read)
        finally:
            self._telling = None

    async def _greet(self, w: Watcher) -> None:
        if w.user is not None:
            read = read_number()
            send(w, await self.state(w.user), read)


def send(w: Watcher, state: dict[str, Any], read: int) -> None:
    """Tell one lobby its state unless it was last told the same (the time waited
    aside: it moves on by itself) or a later read's (Watcher.newer)."""
    if not w.newer("quickmatch", read):
        return
    same = json.dumps({k: v for k, v in state.items() if k not in ("waited", "window")})
    if w.sent.get("quickmatch") == same:
        return
    w.sent["quickmatch"] = same
    w.conn.push(json.dumps({"type": "quickmatch", "quickmatch": state}, separators=(",", ":")))
