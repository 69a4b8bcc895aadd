"""All games of one server process: creating them, loading them, seats, bots, and
hearing about what other server processes did.

Rooms are loaded on first use and kept while anyone watches or a bot has to move.
Bots move by themselves: after every version the hub looks at whose decision is
pending, and if it is a bot's it asks the bot pool (worker processes that see only
that seat's view, never a state or seed) and submits the answer like any client,
with the version it was asked at, so a move overtaken by an undo is simply refused.

With PostgreSQL several processes share the games: each `NOTIFY` from another process
makes this one read the new log entries of the rooms it holds and tell its clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

from euphrates.bots.levels import LEVELS
from euphrates.core.protocol import GameState
from euphrates.games import GAMES
from euphrates.server.common import tokens
from euphrates.server.common.clock import ClockSpec
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import clean_name
from euphrates.server.features.chat.chat import say
from euphrates.server.features.presence.presence import Presence
from euphrates.server.features.ratings.ratings import check_seats
from euphrates.server.features.tour.tour import TOUR_LEVEL, is_tour, line_of
from euphrates.server.game.newgame import new_game_row
from euphrates.server.game.room import Room
from euphrates.server.game.timekeeper import Timekeeper
from euphrates.server.game.workers import BotPool
from euphrates.server.store.accounts import Accounts, User
from euphrates.server.store.games import (
    ChatRow,
    Followup,
    GameRow,
    LogRow,
    SeatRow,
    Store,
    now,
)
from euphrates.server.store.notes import Note, writing

log = logging.getLogger("euphrates.server")

FollowupMaker = Callable[[Room, GameState[Any], str | None], tuple[Followup, ...]]

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
BOT_RETRY_DELAY = 1.0
SWEEP_EVERY = 15.0
IDLE_ROOM = 300.0
STALLED_BOT = 10.0
EXPIRED = "this game waited too long for its players and expired; create a new one"


class Created:
    """A new game's secrets, handed to its creator once (only hashes are stored)."""

    def __init__(self, row: GameRow, seat_tokens: dict[int, str], host_token: str) -> None:
        self.row = row
        self.seat_tokens = seat_tokens
        self.host_token = host_token


class Hub:
    def __init__(self, store: Store, settings: Settings, pool: BotPool | None) -> None:
        self.store = store
        self.settings = settings
        self.pool = pool
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.connections: dict[str, int] = {}
        """WebSocket connections held per client address."""
        self.closing = False
        self.accounts = Accounts(store.engine)
        self.clocks = Timekeeper(store, self.room, self.wake_bots, self._spawn)
        self.presence = Presence(store, settings.presence_grace)
        self.watchers: list[Callable[[str, str, Room | None], None]] = []
        """Told (game id, kind, its room if held) of every change of a game's seats or
        status, here or elsewhere, and of other servers' notifications (tables.py)."""
        self.followup_makers: list[FollowupMaker] = []
        """What features write in the transaction of an action's version (a rating
        when a game ends, a notification when a decision comes to a person): each is
        asked, for every action and undo this process stores, what to write
        (store.py); and when a seat taken starts the game, with the unchanged state
        and the status "active"."""

    # --- creating and finding games ----------------------------------------------------
    async def create_tour(self, game: str) -> Created:
        """The guided first game of `game`: its line's deal, the learner at seat 0, the
        scripted opponent at seat 1 (server/tour.py)."""
        if game not in GAMES:
            raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
        line = line_of(game)
        seats = [{"kind": "human"}, {"kind": "bot", "level": TOUR_LEVEL}]
        return await self.create(game, line.players, seats, line.options, tour_seed=line.seed)

    async def create(
        self,
        game: str,
        players: int,
        seats: Sequence[dict[str, Any]],
        options: dict[str, Any],
        tour_seed: int | None = None,
        clock: ClockSpec | None = None,
        rated: bool = False,
    ) -> Created:
        row, seat_tokens, host_token = new_game_row(
            game, players, seats, options, tour_seed, clock, rated
        )
        try:
            await self.store.create_game(row)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the game could not be saved: {e}") from None
        if row.wake:  # this server drives the bots; other games load when first used
            room = await self.room(row.id)
            room.driven = True
            self.wake_bots(room)
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
            if row is None or row.status == "expired":
                self._loading.pop(game_id, None)
                if row is None:
                    raise Refusal("unknown_game", "no such game")
                raise Refusal("expired", EXPIRED)
            room = await Room.load(self.store, row, self.settings.replay_buffer)
            room.on_change = self._on_change
            room.followups = self._followups
            room.audience.presence = self.presence.of_seats
            self.rooms[game_id] = room
        self._loading.pop(game_id, None)
        await self._check_expiry(room)
        return room

    async def _check_expiry(self, room: Room) -> None:
        """Refuse a game that waited too long for its players (and mark it so)."""
        if room.row.status == "waiting":
            cutoff = now() - timedelta(seconds=self.settings.waiting_expiry)
            if room.row.updated_at >= cutoff:
                return
            try:
                await self.store.expire(cutoff, room.id)
            except Exception as e:
                raise Refusal("storage_unavailable", f"the game could not be read: {e}") from None
            self.expired(room.id)
        if room.row.status == "expired":
            self.rooms.pop(room.id, None)
            raise Refusal("expired", EXPIRED)

    def expired(self, game_id: str) -> None:
        """A game expired: its clients are told and it leaves memory."""
        room = self.rooms.pop(game_id, None)
        self._tell(game_id, "seats", None)
        if room is None:
            return
        room.row.status = "expired"
        room.audience.game_changed()
        room.audience.evict("expired", EXPIRED)

    # --- who holds what -------------------------------------------------------------
    def seats_of(
        self, room: Room, presented: Sequence[object], user: User | None = None
    ) -> tuple[frozenset[int], bool]:
        """The seats the presented tokens open, and whether one is the host's, with
        the seats of the signed-in `user`'s account. A token that opens nothing is
        refused: a mistyped link must not look like a spectator. A token of a seat that
        belongs to an account opens it only for that account (a stolen link of a
        claimed seat is not enough)."""
        held = {
            s.seat
            for s in room.row.seats
            if user is not None and s.kind == "human" and s.user_id == user.id
        }
        host = user is not None and user.id == room.row.creator  # an open table's
        stored = [(s.seat, s.token_hash) for s in room.row.seats if s.kind == "human"]
        for token in presented:
            if not tokens.well_formed(token):
                raise Refusal("bad_token", "that link is not valid for this game")
            assert isinstance(token, str)
            seat = tokens.find(token, stored)
            if seat is not None:
                owner = room.row.seats[seat].user_id
                if owner is not None and (user is None or user.id != owner):
                    raise Refusal(
                        "account_required", "this seat belongs to an account: sign in to play it"
                    )
                held.add(seat)
            elif tokens.matches(token, room.row.host_hash):
                host = True
            else:
                raise Refusal("bad_token", "that link is not valid for this game")
        return frozenset(held), host

    async def take_seats(
        self,
        room: Room,
        seats: frozenset[int],
        name: object,
        names: object = None,
        user: User | None = None,
    ) -> None:
        """Mark seats taken (the first time their link is used) and start the game
        once every human seat is taken. `names` may name each seat apart (several
        players at one screen); `name` names the rest. A seat without a name is shown
        by its number (clients word that in their language). A seat first taken by a
        signed-in `user` belongs to that account, named by it unless named here."""
        room.check_open()
        check_seats(room, frozenset(s for s in seats if not room.row.seats[s].taken), user)
        if names is not None and not isinstance(names, dict):
            raise Refusal("bad_request", "'names' must map seat numbers to names")
        per_seat: dict[int, str] = {}
        for key, value in (names or {}).items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) == 1):
                raise Refusal("bad_request", "'names' must map seat numbers to names")
            if int(key) in seats and value is not None:
                per_seat[int(key)] = clean_name(value, self.settings.name_max)
        common = clean_name(name, self.settings.name_max) if name is not None else None
        changed = False
        for seat in sorted(seats):
            entry = room.row.seats[seat]
            owner = entry.user_id
            if not entry.taken and user is not None:
                owner = user.id
            fallback = user.name if user is not None and owner == user.id else None
            wanted_name = per_seat.get(seat) or common or entry.name or fallback
            if entry.taken and entry.name == wanted_name:
                continue
            wanted = SeatRow(
                seat, entry.kind, entry.level, wanted_name, entry.token_hash, True, owner
            )
            stored = await self._write_seat(room, wanted, only_if_human=True)
            if stored is None:
                raise Refusal("bad_token", "that link is not valid for this game")
            changed = True
        if changed:
            self.seats_changed(room, local=True)

    async def claim(self, room: Room, seats: frozenset[int], user: User) -> list[int]:
        """Tie the seats the caller's links open to `user`'s account: from now on the
        links alone no longer act for them. Returns the seats the account holds."""
        for seat in sorted(seats):
            entry = room.row.seats[seat]
            if entry.user_id == user.id:
                continue
            name = entry.name or user.name
            wanted = SeatRow(seat, entry.kind, entry.level, name, entry.token_hash, True, user.id)
            if await self._write_seat(room, wanted, only_if_human=True) is None:
                raise Refusal("seat_not_human", f"seat {seat} is played by a bot")
        self.seats_changed(room, local=True)
        return sorted(s.seat for s in room.row.seats if s.user_id == user.id)

    async def _write_seat(
        self,
        room: Room,
        seat: SeatRow,
        only_if_human: bool = False,
        vacant: bool = False,
        note: Note | None = None,
    ) -> list[SeatRow] | None:
        """Store a seat (and the `note` of it); if that starts the game, or seats a bot,
        with a bot's decision pending, this server drives the game. Under the room's
        lock: a bot's move stored meanwhile would judge from the seats before this one
        that no bot is to move next, and nobody would drive the game."""
        async with room.lock:
            to_move = room.state.to_move()
            kinds = [seat.kind if s.seat == seat.seat else s.kind for s in room.row.seats]
            bot = to_move is not None and kinds[to_move] == "bot"
            waiting = room.row.status == "waiting"
            starts = self._followups(room, room.state, "active") if waiting else ()
            try:
                after = () if note is None else (writing(room.id, note),)
                stored = await self.store.update_seat(
                    room.id, seat, only_if_human, bot, vacant, after, on_start=starts
                )
            except Refusal:
                raise
            except Exception as e:
                raise Refusal("storage_unavailable", f"the seat could not be saved: {e}") from None
            if stored is None:
                return None
            room.row.seats, status, drive = stored
            room.row.updated_at = now()
            if note is not None:
                room.noted(note)
            started = room.row.status == "waiting" and status == "active"
            if room.row.status in ("waiting", "active"):
                room.row.status = status
            if drive:
                room.driven = True
            playing = room.row.status == "active"
        if room.row.clock is not None and playing and (started or seat.kind == "bot"):
            await self.clocks.start(room)  # the first clock runs, or a bot's seat has none
        return room.row.seats

    async def replace_with_bot(self, room: Room, seat: object, level: object) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < room.row.players:
            raise Refusal("bad_request", "'seat' must be a seat number of this game")
        if level not in LEVELS:
            raise Refusal("bad_request", f"'level' must be one of {', '.join(LEVELS)}")
        assert isinstance(level, str)
        if room.status in ("over", "abandoned"):
            raise Refusal("game_over", "the game has ended")
        entry = room.row.seats[seat]
        if entry.kind != "human":
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        bot = SeatRow(seat, "bot", level, None, None, True, entry.user_id)
        note = Note(room.version, "replaced", seat, level)
        if await self._write_seat(room, bot, only_if_human=True, note=note) is None:
            raise Refusal("seat_not_human", f"seat {seat} is already a bot")
        room.audience.evict("seat_replaced", f"seat {seat} is now played by a bot", seat)
        self.seats_changed(room, local=True)

    async def abandon(self, room: Room) -> None:
        if room.status in ("over", "abandoned"):
            raise Refusal("game_over", "the game has already ended")
        room.row.status = "abandoned"
        room.driven = False
        self.clocks.cancel(room.id)
        await self.store.set_status(room.id, "abandoned")
        self.seats_changed(room, local=True)

    def seats_changed(self, room: Room, local: bool) -> None:
        room.audience.game_changed()
        self._tell(room.id, "seats", room)
        if local:
            self.wake_bots(room)

    async def chat(
        self, room: Room, seats: frozenset[int], text: object, user: User | None = None
    ) -> ChatRow:
        return await say((self.settings, self.accounts, self.store), room, seats, text, user)

    def _tell(self, game_id: str, kind: str, room: Room | None) -> None:
        for watch in self.watchers:
            watch(game_id, kind, room)

    def _followups(
        self, room: Room, after: GameState[Any], status: str | None
    ) -> tuple[Followup, ...]:
        return tuple(f for make in self.followup_makers for f in make(room, after, status))

    # --- bots -------------------------------------------------------------------------
    def _on_change(self, room: Room, local: bool) -> None:
        if local:
            self.wake_bots(room)
        self.clocks.watch(room)
        if not local and room.row.clock is not None:
            # Another server moved: its clock figures are in the database.
            self._spawn(self.reload_seats(room), f"clock-{room.id}")

    def wake_bots(self, room: Room, pace: bool = True) -> None:
        """Start the room's bot if this server drives the game, a bot's decision is
        pending and none is thinking. `pace`: wait the bot pace before the first move
        (not when the move was already due on a server that stopped)."""
        if self.pool is None and not is_tour(room.row):
            return
        if self.closing or not room.driven or not room.bot_to_move():
            return
        task = self._bot_tasks.get(room.id)
        if task is not None and not task.done():
            return
        self._bot_tasks[room.id] = self._spawn(self._bot_turns(room, pace), f"bots-{room.id}")

    async def _bot_turns(self, room: Room, pace: bool = True) -> None:
        """Let bots move until a human decides, the game ends, or another server
        drives it."""
        failures = 0
        while not self.closing and room.driven and room.bot_to_move():
            seat = room.state.to_move()
            assert seat is not None
            if not pace:
                pace = True
            elif self.settings.bot_pace > 0:
                # the tour's scripted moves need no thought, only time to be seen
                tour = room.row.seats[seat].level == TOUR_LEVEL
                await asyncio.sleep(
                    min(self.settings.bot_pace, 0.25) if tour else self.settings.bot_pace
                )
                if room.state.to_move() != seat or not room.bot_to_move():
                    continue
            version = room.version
            level = room.row.seats[seat].level
            standin = None
            if room.row.seats[seat].kind == "human":  # a bot plays for a person's seat
                standin = room.row.clock.standin[seat] if room.row.clock else None
                level = standin
            level = level or "beginner"
            view = room.state.view(seat)  # the seat's view only, as in tournaments
            try:
                if level == TOUR_LEVEL:
                    text = line_of(room.row.game).expected(version) or "pass"
                else:
                    assert self.pool is not None
                    text = await self.pool.choose(room.row.game, LEVELS[level], view)
            except Exception as e:
                failures += 1
                log.warning("bot for game %s seat %d failed: %s", room.id, seat, e)
                if failures >= 3:
                    text = self._fallback(view)
                else:
                    await asyncio.sleep(BOT_RETRY_DELAY)
                    continue
            try:
                await room.submit(frozenset({seat}), seat, version, text, standin)
                failures = 0
            except Refusal as r:
                if r.code != "stale_version":
                    log.warning("bot move %r refused in game %s: %s", text, room.id, r.message)
                    failures += 1
                    if failures >= 3:
                        return

    @staticmethod
    def _fallback(view: dict[str, Any]) -> str:
        """A uniformly random legal action, when the bot's process keeps failing."""
        legal = view.get("legal") or []
        return str(legal[secrets.randbelow(len(legal))]) if legal else "pass"

    # --- housekeeping ----------------------------------------------------------------
    def start(self) -> None:
        self._spawn(self._sweep_loop(), "sweeper")

    async def _sweep_loop(self) -> None:
        while not self.closing:
            await asyncio.sleep(SWEEP_EVERY)
            self.sweep()

    def sweep(self, now: float | None = None) -> None:
        """Forget rooms nobody has used for a while (they reload from the database on
        demand), and wake bots that should be moving but are not — a server that
        drove them may have stopped (several servers on PostgreSQL)."""
        now = time.monotonic() if now is None else now
        for room in list(self.rooms.values()):
            task = self._bot_tasks.get(room.id)
            busy = task is not None and not task.done()
            idle = now - room.last_active
            room.audience.forget_views()
            due = room.driven and room.bot_to_move()
            if (
                not (room.audience.count or busy or due)
                and idle > IDLE_ROOM
                and not room.lock.locked()
            ):
                del self.rooms[room.id]
                self._bot_tasks.pop(room.id, None)
            elif due and not busy and idle > STALLED_BOT:
                self.wake_bots(room)  # its bot gave up after failures: try again

    # --- start, stop, other servers ---------------------------------------------------------
    async def take_over(self, game_id: str) -> None:
        """Drive a game this server claimed from one that stopped: catch up with what
        that one stored, and move its bot at once."""
        try:
            room = await self.room(game_id)
            await room.catch_up()
        except Refusal:
            await self.store.release(game_id)
            return
        if room.row.clock is not None:
            await self.reload_seats(room)
        if not room.bot_to_move():
            clock = room.row.clock
            if clock is not None and clock.deadline is not None and room.status == "active":
                room.driven = True  # a deadline: act on it once it passed (at once if so)
                self.clocks.watch(room)
                return
            room.driven = False  # its mark was out of date
            await self.store.release(game_id)
            return
        room.driven = True
        self.wake_bots(room, pace=False)

    def on_notify(self, game_id: str, kind: str, entry: LogRow | None) -> None:
        """Another server's notification (PostgreSQL), read by `listen.heard`."""
        room = self.rooms.get(game_id)
        self._tell(game_id, kind, room)
        if room is None:
            return
        if kind == "log":
            self._spawn(room.catch_up(entry), f"catch-up-{room.id}")
        elif kind == "seats":
            self._spawn(self.reload_seats(room), f"seats-{room.id}")
        elif kind == "chat":
            self._spawn(self._relay_chat(room), f"chat-{room.id}")
        elif kind == "claim":  # another server drives it now
            room.driven = False

    async def refresh_all(self) -> None:
        """After a lost connection to the notifier: catch up every room held."""
        for room in list(self.rooms.values()):
            await room.catch_up()
            await self.reload_seats(room)

    async def reload_seats(self, room: Room) -> None:
        row = await self.store.load_game(room.id)
        if row is None:
            return
        if row.status == "expired":
            self.expired(room.id)
            return
        room.row.seats = row.seats
        room.row.status = row.status
        room.row.updated_at = row.updated_at
        room.row.clock = row.clock
        if room.state.is_over() and row.status == "active":
            room.row.status = "over"
        await room.reload_notes()  # another server's note comes with its seats' change
        self.seats_changed(room, local=False)

    async def _relay_chat(self, room: Room) -> None:
        for row in await self.store.load_chat(room.id, after=room.audience.chat_seen):
            room.audience.said(row)

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[Any]:
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
            "bots_thinking": sum(1 for t in self._bot_tasks.values() if not t.done()),
            "driving": sum(1 for r in self.rooms.values() if r.driven),
            "deadlines": len(self.clocks.timers),
            "deadlines_acted": self.clocks.acted,
            "deadline_ms": round(self.clocks.sweep_seconds * 1000, 1),
            "time": time.time(),
        }


def seat_label(seat: SeatRow) -> str:
    """How a record names a seat: the player's name, `bot:LEVEL` for a bot (as the
    terminal's records do), or the seat's number."""
    if seat.kind == "bot":
        return f"bot:{seat.level}"
    return seat.name or f"Player {seat.seat + 1}"
