"""Quick match: "play a 2-player game now". A signed-in player joins a pool for a
game; two players of it whose ratings are close enough (matching.py: a window that
widens with the wait) become a new 2-player game with a real-time clock (medium),
each seat tied to its player's account as at an open table; both lobbies are told at
once and go to the table.

Who is paired, and exactly once: every server passes over the pool — at once after a
join anywhere (heard by `NOTIFY`), and every `TICK` seconds while someone waits, since
the windows widen with time alone — and claims the rows it pairs (store/quickmatch.py,
`FOR UPDATE SKIP LOCKED`; on SQLite, the one process under `_passing`). Only players with a
lobby open somewhere are paired (presence.py), so a server that died takes its
players out of the pool with its presence: nobody is paired with a ghost. A row not
seen in a lobby `JOIN_GRACE` seconds after it joined, or waiting `LONGEST`, is dropped.

A quick match is rated. Ratings come from a `RatingLookup` given to `QuickMatch`
(features/services.py gives store/ratings.py's `match_rating`); an unrated player is matched at
`matching.START_RATING`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from euphrates.games import GAMES, game_definition
from euphrates.server.common.clock import realtime
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.waits import woken
from euphrates.server.features.fairplay.fairplay import FairPlay
from euphrates.server.features.presence.presence import Presence
from euphrates.server.features.quickmatch.matching import RULE, START_RATING, pairs, window
from euphrates.server.features.tables.lobby import Lobby, Watcher
from euphrates.server.game.newgame import new_game_row
from euphrates.server.game.rooms import Rooms
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Database
from euphrates.server.store.quickmatch import Entry, MatchStore, Pass
from euphrates.server.store.rows import GameRow, SeatRow, now

log = logging.getLogger("euphrates.server")

RatingLookup = Callable[[Database, int, str, str], Awaitable[float | None]]
"""(database, account, game, player-count group) → the account's display rating in that
game and group, or None while it has none. Quick match asks for group "2"."""

GROUP = "2"
PLAYERS = 2
CLOCK = "medium"
"""The real-time preset of a quick match's game (BGA's T&E medium: 40 s a turn)."""
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
"""Seconds after which an unpaired wait ends (the player may join again)."""
SHOWN = 120.0
"""Seconds a pair made stays readable for its players (`GET /api/quickmatch`)."""
AGAIN = 10.0
"""Seconds after a pair was made in which joining again answers that pair: a second
press, or a retried request, that crossed it does not start a new wait."""


async def no_rating(_database: Database, _user_id: int, _game: str, _group: str) -> float | None:
    """The rating lookup while the server keeps no ratings: everyone is unrated."""
    return None


def match_row(game: str, pair: tuple[tuple[int, str], tuple[int, str]], at: datetime) -> GameRow:
    """A pair's game, started: two seats in a random order, each taken by its player's
    account and shown under its name, and the first player's real-time clock running.
    Its seats' tokens are never handed out: the accounts open them."""
    row, _tokens, _host = new_game_row(
        game, PLAYERS, [{"kind": "human"}] * PLAYERS, {}, clock=realtime(CLOCK)
    )
    order = list(pair)
    if secrets.randbelow(2):
        order.reverse()
    row.seats = [
        SeatRow(i, "human", None, name, row.seats[i].token_hash, True, user_id)
        for i, (user_id, name) in enumerate(order)
    ]
    row.status = "active"
    row.rated = True  # both seats are accounts' (ratings.py: a rated game's conditions)
    row.created_at = row.updated_at = at
    first = game_definition(game).new_game(PLAYERS, row.seed, {}).to_move()
    assert row.clock is not None
    row.clock.pass_to(first, True, at)
    return row


def state_of(entry: Entry | None, at: datetime) -> dict[str, Any]:
    """What an account is told of its place in quick match (HTTP and the lobby)."""
    if entry is None:
        return {"state": "idle"}
    if entry.game_id is not None:
        match = {"id": entry.game_id, "link": f"/g/{entry.game_id}", "opponent": entry.opponent}
        return {"state": "matched", "game": entry.game, "match": match}
    waited = max(0.0, (at - entry.since).total_seconds())
    return {
        "state": "waiting",
        "game": entry.game,
        "rating": entry.shown,
        "skill": round(entry.rating),
        "since": entry.since.isoformat(),
        "waited": round(waited, 1),
        "window": window(waited),
        "rule": RULE,
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
        self.made = 0
        """Pairs this process made (for tests and health)."""
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

    async def join(self, user: User, game: str) -> dict[str, Any]:
        """Put `user` in the pool for `game` (again: nothing changes) and pass soon."""
        if game not in GAMES:
            raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
        await self.fairplay.check_aborts(user.id)  # a quick match is rated
        try:
            found = await self.rating(self.database, user.id, game, GROUP)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the rating could not be read: {e}") from None
        rating = START_RATING if found is None else float(found)
        try:
            await self.store.join(user.id, game, rating, now(), AGAIN)
        except Refusal:
            raise
        except Exception as e:
            raise Refusal("storage_unavailable", f"quick match could not be joined: {e}") from None
        self.wake()
        self.tell_soon()
        return await self.state(user)

    async def leave(self, user: User) -> dict[str, Any]:
        """Take `user` out of the pool; a pair already made stays (the game exists)."""
        try:
            await self.store.leave(user.id)
        except Exception as e:
            raise Refusal("storage_unavailable", f"quick match could not be left: {e}") from None
        self.tell_soon()
        return await self.state(user)

    # --- pairing ----------------------------------------------------------------------
    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="quickmatch")

    async def close(self) -> None:
        for task in (self._task, self._telling):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

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
                log.warning("quick match could not pair: %s", e)

    async def pass_once(self) -> list[Pass]:
        """Pass over every game's pool once: pair whoever fits, start their games here,
        and tell the lobbies."""
        done: list[Pass] = []
        async with self._passing:
            for game in GAMES:
                done.append(
                    await self.store.run(
                        game,
                        now(),
                        self.presence.in_lobby,
                        self.grace,
                        self.longest,
                        SHOWN,
                        match_row,
                        pairs,
                        self.fairplay.apart,
                    )
                )
            self.passes += 1
        self._busy = any(p.waiting for p in done)
        made = [m[0] for p in done for m in p.matches]
        self.made += len(made)
        for game_id in made:
            try:
                room = await self.rooms.room(game_id)  # its deadline is this server's
            except Refusal as r:
                log.warning("quick match game %s not opened: %s", game_id, r.message)
                continue
            self.rooms.clocks.watch(room)
        if any(p.matches or p.dropped for p in done):
            self.tell_soon()
        return done

    # --- telling the lobbies ----------------------------------------------------------
    def _watch(self, _game_id: str, kind: str, _room: object) -> None:
        """Another server's notification: someone joined, left or was paired."""
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
                try:
                    entries = await self.store.entries(ids)
                except Exception as e:
                    log.warning("quick match could not be read: %s", e)
                    return
                at = now()
                for w in watchers:
                    if w.user is not None:
                        send(w, state_of(entries.get(w.user.id), at))
        finally:
            self._telling = None

    async def _greet(self, w: Watcher) -> None:
        if w.user is not None:
            send(w, await self.state(w.user))


def send(w: Watcher, state: dict[str, Any]) -> None:
    """Tell one lobby its state unless it was last told the same (the time waited
    aside: it moves on by itself)."""
    same = json.dumps({k: v for k, v in state.items() if k not in ("waited", "window")})
    if w.sent.get("quickmatch") == same:
        return
    w.sent["quickmatch"] = same
    w.conn.push(json.dumps({"type": "quickmatch", "quickmatch": state}, separators=(",", ":")))
