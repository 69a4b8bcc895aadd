"""All games of one server process: creating them, loading them on first use, and
hearing what other processes did to them.

Rooms are loaded on first use and kept while anyone watches or a bot has to move.
After every version and every change of seats this process made or heard of, the
room's bots are woken (driving.py), its deadline watched (timekeeper.py) and the
features watching games told (`watchers`: the open tables, quick match). Other
processes' signals (store/listen.py) make the rooms held here read what changed.

Features hook in without the rooms knowing them: `followup_makers` write in a
version's transaction (a rating, a turn message, a review's job), `seat_rules` refuse
a seat (a rated game's), `drivers` play bot seats of their own levels (the tour).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any

from euphrates.core.protocol import GameState
from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle
from euphrates.server.game.drivers import Drivers
from euphrates.server.game.driving import BotDriving
from euphrates.server.game.newgame import new_game_row
from euphrates.server.game.room import Room
from euphrates.server.game.roomstate import RoomState
from euphrates.server.game.timekeeper import Timekeeper
from euphrates.server.game.workers import BotPool
from euphrates.server.store.accounts import User
from euphrates.server.store.chat import ChatStore
from euphrates.server.store.claims import ClaimStore
from euphrates.server.store.database import Followup
from euphrates.server.store.games import GameStore
from euphrates.server.store.rows import GameRow, SeatRow, now
from euphrates.server.store.signals import Signal, SignalKind

log = logging.getLogger("euphrates.server")

FollowupMaker = Callable[[Room, GameState[Any], str | None], tuple[Followup, ...]]
SeatRule = Callable[[Room, frozenset[int], User | None], Awaitable[None]]
Watcher = Callable[[str, str, Room | None], None]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
SWEEP_EVERY = 15.0
IDLE_ROOM = 300.0
STALLED_BOT = 10.0


class Created:
    """A new game's secrets, handed to its creator once (only hashes are stored)."""

    def __init__(self, row: GameRow, seat_tokens: dict[int, str], host_token: str) -> None:
        self.row = row
        self.seat_tokens = seat_tokens
        self.host_token = host_token


class Rooms:
    def __init__(self, store: GameStore, settings: Settings, pool: BotPool | None) -> None:
        self.store = store
        self.settings = settings
        self.pool = pool
        self.claims = ClaimStore(store.database)
        self.chat = ChatStore(store.database)
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.drivers = Drivers()
        self.bots = BotDriving(self, pool)
        self.clocks = Timekeeper(self)
        self.watchers: list[Watcher] = []
        """Told (game id, kind, its room if held) of every change of a game's seats or
        status, here or elsewhere, and of other processes' signals (the open tables,
        quick match)."""
        self.account_watchers: list[Callable[[int], None]] = []
        """Told of an account disabled, muted or deleted, here or elsewhere: its
        connections close (they reconnect as what they may be now)."""
        self.followup_makers: list[FollowupMaker] = []
        """What features write in the transaction of an action's version (a rating
        when a game ends, a notification when a decision comes to a person): each is
        asked, for every action and undo this process stores, what to write; and when
        a seat taken starts the game, with the unchanged state and the status
        "active"."""
        self.seat_rules: list[SeatRule] = []
        """Features' refusals of seats about to be taken (a rated game's: accounts only,
        one seat each)."""
        self.presence_of: Callable[[GameRow], list[str | None]] | None = None
        """Each seat's presence across servers, for the rooms' meta (features/presence)."""

    # --- creating and finding games ----------------------------------------------------
    async def create(
        self,
        game: str,
        players: int,
        seats: Sequence[dict[str, Any]],
        options: dict[str, Any],
        *,
        seed: int | None = None,
        clock: ClockSpec | None = None,
        rated: bool = False,
        levels: frozenset[str] = frozenset(),
        opener: User | None = None,
    ) -> Created:
        """A new game stored; `levels`: bot levels of registered drivers it may seat
        besides the workers' (the tour's); `opener`: an open table's creator, seated at
        its first person's seat and its host (the others sit from the lobby)."""
        row, seat_tokens, host_token = new_game_row(
            game, players, seats, options, seed, clock, rated, levels
        )
        if opener is not None:
            first = next(s for s in row.seats if s.kind == "human")
            row.seats[first.seat] = SeatRow(
                first.seat, "human", None, opener.name, first.token_hash, True, opener.id
            )
            row.open, row.creator = True, opener.id
        try:
            await self.store.create_game(row)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the game could not be saved: {e}") from None
        if row.wake:  # this server drives the bots; other games load when first used
            room = await self.room(row.id)
            self.bots.wake(room)
        if opener is not None:
            self._tell(row.id, "seats", self.rooms.get(row.id))
        return Created(row, seat_tokens, host_token)

    async def room(self, game_id: object) -> Room:
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise Refusal("unknown_game", "no such game")
        room = self.rooms.get(game_id)
        if room is not None:
            await self._check_expiry(room)
            return room
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(game_id)
            if room is not None:
                return room
            try:
                row = await self.store.load_game(game_id)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the game could not be read: {e}") from None
            if row is None or row.status == lifecycle.Status.EXPIRED:
                self._loading.pop(game_id, None)
                if row is None:
                    raise Refusal("unknown_game", "no such game")
                raise Refusal("expired", lifecycle.EXPIRED_TEXT)
            room = await Room.load(self, row, self.settings.replay_buffer)
            room.audience.presence = self.presence_of
            self.rooms[game_id] = room
        self._loading.pop(game_id, None)
        await self._check_expiry(room)
        return room

    async def _check_expiry(self, room: Room) -> None:
        """Refuse a game that waited too long for its players (and mark it so)."""
        cutoff = now() - timedelta(seconds=self.settings.waiting_expiry)
        try:
            expired = await room.expire_if_waited(cutoff)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the game could not be read: {e}") from None
        if expired:
            self.forget_expired(room.id)
            raise Refusal("expired", lifecycle.EXPIRED_TEXT)

    def forget_expired(self, game_id: str) -> None:
        """A game expired: its clients are told and it leaves memory."""
        room = self.rooms.pop(game_id, None)
        if room is not None and room.status != lifecycle.Status.EXPIRED:
            room.expired()
        self._tell(game_id, "seats", None)

    # --- what the rooms ask of their host (roomstate.RoomHost) -------------------------
    def followups(
        self, room: RoomState, after: GameState[Any], status: str | None
    ) -> tuple[Followup, ...]:
        assert isinstance(room, Room)
        return tuple(f for make in self.followup_makers for f in make(room, after, status))

    async def check_seating(
        self, room: RoomState, seats: frozenset[int], user: User | None
    ) -> None:
        assert isinstance(room, Room)
        for rule in self.seat_rules:
            await rule(room, seats, user)

    def changed(self, room: RoomState, local: bool) -> None:
        """A new version (here or elsewhere), or a clock changed here."""
        assert isinstance(room, Room)
        if local:
            self.bots.wake(room)
        self.clocks.watch(room)
        if not local and room.row.clock is not None:
            # Another server moved: its clock figures are in the database.
            self.spawn(self.reload(room), f"clock-{room.id}")

    def seats_changed(self, room: RoomState, local: bool) -> None:
        """Seats or status changed (here or elsewhere): the table, the lobby and the
        bots are told, the deadline watched."""
        assert isinstance(room, Room)
        room.audience.recheck(lambda client: _held(room, client))
        room.audience.game_changed()
        self._tell(room.id, "seats", room)
        self.clocks.watch(room)
        if local:
            self.bots.wake(room)

    def woken(self, room: Room) -> None:
        """A deadline acted on here (timekeeper.py): a bot's move due now, at once."""
        self.bots.wake(room, pace=False)

    def _tell(self, game_id: str, kind: str, room: Room | None) -> None:
        for watch in self.watchers:
            watch(game_id, kind, room)

    # --- other processes ---------------------------------------------------------------
    def heard(self, signal: Signal) -> None:
        """Another process's signal (store/listen.py)."""
        if signal.kind is SignalKind.ACCOUNT:
            if signal.account is not None:
                self.account_changed(signal.account)
            return
        room = self.rooms.get(signal.game) if signal.game else None
        self._tell(signal.game, signal.kind.value, room)
        if room is None:
            return
        if signal.kind is SignalKind.LOG:
            self.spawn(room.catch_up(signal.entry), f"catch-up-{room.id}")
        elif signal.kind is SignalKind.SEATS:
            self.spawn(self.reload(room), f"seats-{room.id}")
        elif signal.kind is SignalKind.CHAT:
            self.spawn(self._relay_chat(room), f"chat-{room.id}")
        elif signal.kind is SignalKind.CLAIM:  # another server drives it now
            room.claimed_elsewhere()

    def account_changed(self, user_id: int) -> None:
        """An account was disabled, muted or deleted: its connections close, here and
        in every lobby, and connect again as what they may be now."""
        for room in list(self.rooms.values()):
            room.audience.evict_account(user_id)
        for watch in self.account_watchers:
            watch(user_id)

    async def missed(self) -> None:
        """After a lost connection to the other processes: catch up every room held."""
        for room in list(self.rooms.values()):
            await room.catch_up()
            await self.reload(room)

    async def reload(self, room: Room) -> None:
        """Read what another process changed of a game's row, and tell its table."""
        if not await room.reload():
            if room.status == lifecycle.Status.EXPIRED:
                self.forget_expired(room.id)
            return
        self.seats_changed(room, local=False)

    async def _relay_chat(self, room: Room) -> None:
        for row in await self.chat.load_chat(room.id, after=room.audience.chat_seen):
            room.audience.said(row)

    async def take_over(self, game_id: str) -> None:
        """Drive a game this server claimed from one that stopped: catch up with what
        that one stored, and move its bot at once (or watch its deadline)."""
        try:
            room = await self.room(game_id)
            await room.catch_up()
        except Refusal:
            await self.claims.release(game_id)
            return
        if room.row.clock is not None:
            await room.reload()
        if await room.take_over():
            self.clocks.watch(room)
            self.bots.wake(room, pace=False)
        else:
            await self.claims.release(game_id)

    # --- housekeeping ----------------------------------------------------------------
    def start(self) -> None:
        self.spawn(self._sweep_loop(), "sweeper")

    async def _sweep_loop(self) -> None:
        while not self.closing:
            await asyncio.sleep(SWEEP_EVERY)
            self.sweep()

    def sweep(self, at: float | None = None) -> None:
        """Forget rooms nobody has used for a while (they reload from the database on
        demand), and wake bots that should be moving but are not — a server that
        drove them may have stopped (several servers on PostgreSQL)."""
        at = time.monotonic() if at is None else at
        for room in list(self.rooms.values()):
            busy = self.bots.busy(room.id)
            idle = at - room.last_active
            room.audience.forget_views()
            due = room.driven and room.bot_to_move()
            if (
                not (room.audience.count or busy or due)
                and idle > IDLE_ROOM
                and not room.lock.locked()
            ):
                del self.rooms[room.id]
                self.bots.forget(room.id)
            elif due and not busy and idle > STALLED_BOT:
                self.bots.wake(room)  # its bot gave up after failures: try again

    def spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        self.closing = True
        self.clocks.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def stats(self) -> dict[str, Any]:
        return {
            "rooms": len(self.rooms),
            "clients": sum(r.audience.count for r in self.rooms.values()),
            "bots_thinking": self.bots.thinking(),
            "driving": sum(1 for r in self.rooms.values() if r.driven),
            "deadlines": len(self.clocks.timers),
            "deadlines_acted": self.clocks.acted,
            "deadline_ms": round(self.clocks.sweep_seconds * 1000, 1),
            "time": time.time(),
        }


def _held(room: Room, client: object) -> frozenset[int] | None:
    """What a connected client holds now, by the tokens it presented and its account
    (None: nothing at all, its tokens open nothing now)."""
    presented = getattr(client, "tokens", None)
    if presented is None:
        seats: frozenset[int] | None = getattr(client, "seats", None)
        return seats
    try:
        return room.holder(presented, getattr(client, "user", None))[0]
    except Refusal:
        return None


def seat_label(seat: SeatRow) -> str:
    """How a record names a seat: the player's name, `bot:LEVEL` for a bot (as the
    terminal's records do), or the seat's number."""
    if seat.kind == "bot":
        return f"bot:{seat.level}"
    return seat.name or f"Player {seat.seat + 1}"
