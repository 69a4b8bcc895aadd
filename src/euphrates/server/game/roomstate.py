"""What a room holds: a game's live state — its row (status, seats, clock), the engine's
state and versions, who drives its bots, the hint in progress — and the one method
that changes the row and those marks (`_take`), so that one writer owns them.

The room (room.py) is assembled from this and a module per kind of change: play.py
(moves and undos), seating.py (seats), timing.py (clocks and deadlines) and
endings.py (a game's end). Every change is one of the lifecycle's (lifecycle.py),
made under the room's lock, stored in one transaction with its signal, then taken
here and handed to the room's audience (audience.py), so that every client is told
every version once and in order; the room itself knows no client.

Versions are the server's: the engine counts applied actions, but an undo is a new
version too (the log only grows), so a client's stale action is refused even across
undos. Views sent to clients carry the server's version in `version`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, Self

from euphrates.core.protocol import Event, GameDefinition, GameState
from euphrates.games import game_definition
from euphrates.server.common.clock import Clock
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.game import lifecycle, standing
from euphrates.server.game.audience import Audience
from euphrates.server.game.drivers import Driver, Drivers
from euphrates.server.game.standing import Played
from euphrates.server.game.steps import Step, encode_events
from euphrates.server.store.accounts import User
from euphrates.server.store.database import Followup, StorageError
from euphrates.server.store.games import GameStore, StatusChanged
from euphrates.server.store.notes import Note, load_notes
from euphrates.server.store.rows import GameRow, LogRow, SeatRow, now

UNDO_DEPTH = 4
"""States kept for undo without a replay: the ones before the last actions of the seat
that moved last, as far back as undo can reach (G-3). Each kept state is some seventy
lists and tuples the garbage collector walks while they are young; an undo beyond them
replays the game from its start (a few milliseconds)."""
REPLAY_EVERY = 16  # a replay keeps the state every this many actions

_KEEP: Any = object()
"""`_take`'s "leave as it is"."""


class RoomHost(Protocol):
    """What a room needs of the process that holds it (game/rooms.py)."""

    settings: Settings
    store: GameStore
    drivers: Drivers

    def followups(
        self, room: RoomState, after: GameState[Any], status: str | None
    ) -> tuple[Followup, ...]:
        """What features write in the transaction of a version (a rating when the
        game ends, a turn message when a decision comes to a person)."""
        ...

    def changed(self, room: RoomState, local: bool) -> None:
        """After every new version (`local`: made here): wake its bots, watch its
        deadline."""
        ...

    def seats_changed(self, room: RoomState, local: bool) -> None:
        """After a change of seats or status: tell the table and the lobby."""
        ...

    async def check_seating(
        self, room: RoomState, seats: frozenset[int], user: User | None
    ) -> None:
        """Refuse `seats` about to be taken by `user` where a feature's rule says so
        (a rated game's: accounts only, one seat each)."""
        ...


@dataclass(eq=False)
class RoomState:
    row: GameRow
    definition: GameDefinition[Any]
    state: GameState[Any]
    host: RoomHost
    replay_buffer: int = 64
    version: int = 0
    played: list[Played] = field(default_factory=list)
    befores: dict[int, GameState[Any]] = field(default_factory=dict)
    """The state before each of the last standing actions that undo may reach, by
    version."""
    history: list[Step] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    checkpoints: dict[int, GameState[Any]] = field(default_factory=dict)
    acted_at: dict[int | None, int] = field(default_factory=dict)
    """The version of each seat's latest action, standing or taken back: a seat that
    answered has decided, and the seat it answered has seen it, even after an undo."""
    notes: list[Note] = field(default_factory=list)
    """What happened between versions (notes.py), in order."""
    last_active: float = field(default_factory=time.monotonic)
    hinting: bool = False
    """Whether a bot is thinking of a hint for this game: one at a time (`hint_slot`)."""
    driven: bool = False
    """Whether this server process acts on the game when a bot must move or a deadline
    passes: it made the change that made the game due, or claimed it from a server
    that stopped. Other processes holding the room only show it."""
    audience: Audience = field(init=False)
    """Who watches the game: told every new version, under the lock."""

    def __post_init__(self) -> None:
        self.audience = Audience(self, self.replay_buffer)

    # --- building -------------------------------------------------------------------
    @classmethod
    async def load(cls, host: RoomHost, row: GameRow, replay_buffer: int = 64) -> Self:
        definition = game_definition(row.game)
        state = definition.new_game(row.players, row.seed, row.options)
        driven = row.wake and row.driver == host.store.origin  # this process made it due
        notes = await load_notes(host.store.database, row.id)
        room = cls(row, definition, state, host, replay_buffer, notes=notes, driven=driven)
        for entry in await host.store.load_log(row.id):
            room._replay_entry(entry)
        return room

    def _replay_entry(self, entry: LogRow) -> Step:
        if entry.version != self.version + 1:
            raise StorageError(
                f"game {self.row.id}: log jumps from version {self.version} to {entry.version}"
            )
        if entry.kind == "undo":
            return self._undo_last(entry.seat)
        assert entry.text is not None
        before = self.state.copy()
        events = self.state.apply(entry.text)
        return self._record_action(entry.seat, entry.text, events, before, entry.bot)

    def _record_action(
        self,
        seat: int | None,
        text: str,
        events: list[Event],
        before: GameState[Any],
        bot: str | None = None,
    ) -> Step:
        self.version += 1
        reveals = self.state.reveals_hidden(events)
        if reveals or (self.played and self.played[-1].seat != seat):
            # Undo stops at an action that revealed something (G-3) and, but for
            # a replay, at another seat's action.
            self.befores.clear()
        self.played.append(Played(self.version, seat, text, reveals, bot))
        self.acted_at[seat] = self.version
        if not reveals:
            self.befores[self.version] = before
            if len(self.befores) > UNDO_DEPTH:
                del self.befores[next(iter(self.befores))]
        step = Step(self.version, "action", seat, encode_events(events), bot)
        self.history.append(step)
        return step

    def _undo_last(self, seat: int | None) -> Step:
        undone = self.played.pop()
        before = self.befores.pop(undone.version, None)
        self.state = before if before is not None else self._rebuild()
        self.version += 1
        ev = Event("undo", {"seat": seat, "undone": undone.version})
        step = Step(self.version, "undo", seat, encode_events([ev]))
        self.history.append(step)
        return step

    def _rebuild(self, drop_last: bool = False) -> GameState[Any]:
        """The state after the actions that still stand (but the last, with
        `drop_last`), replayed from the start."""
        state = self.dealt()
        for p in self.played[:-1] if drop_last else self.played:
            state.apply(p.text)
        return state

    # --- the one writer of the row and the marks --------------------------------------
    def _take(
        self,
        *,
        status: str | None = None,
        seats: list[SeatRow] | None = None,
        clock: Clock | None = _KEEP,
        driven: bool | None = None,
        updated: datetime | None = None,
        verdict: str | None = _KEEP,
        paused: dict[int, datetime] | None = None,
        changes: dict[int, tuple[int, int]] | None = None,
    ) -> None:
        """Take what a stored change made true into the live state: its status, seats,
        clock, whether this process drives the game, when it changed. Everything that
        changes a game ends here, after the store said yes."""
        if status is not None:
            self.row.status = status
        if seats is not None:
            self.row.seats = seats
        if clock is not _KEEP:
            self.row.clock = clock
        if driven is not None:
            self.driven = driven
        if updated is not None:
            self.row.updated_at = updated
        if verdict is not _KEEP:
            self.row.verdict = verdict
        if paused is not None:
            self.row.paused = paused
        if changes is not None:
            self.row.changes = changes

    def _take_row(self, row: GameRow) -> None:
        """Another process changed the game: its row as stored now (a turn-based
        clock's vacations from the accounts, `paused`)."""
        if row.clock is not None and row.clock.spec.mode == "turn":
            row.clock.paused = [row.paused.get(s) for s in range(len(row.clock.remaining))]
        status = row.status
        if self.state.is_over() and status == lifecycle.Status.ACTIVE:
            status = lifecycle.Status.OVER
        self._take(
            status=status,
            seats=row.seats,
            clock=row.clock,
            updated=row.updated_at,
            driven=False if status != lifecycle.Status.ACTIVE else None,
            verdict=row.verdict,
            paused=row.paused,
            changes=row.changes,
        )

    async def _verdict_of(self, status: str | None) -> dict[str, Any]:
        """A rated game that this write ended: the verdict and rating changes the
        ratings' follow-up wrote in the same transaction (docs/fair-play.md), as `_take`
        takes them. Read before the room takes the write, so that no reader ever sees
        the game ended without them, or a state ahead of its version and record."""
        if not (self.row.rated and status == lifecycle.Status.OVER):
            return {}
        verdict, changes = await self.host.store.verdict(self.row.id)
        return {"verdict": verdict, "changes": changes}

    def result(self) -> dict[str, Any] | None:
        return standing.result(self.row, self.state, self.notes)

    def played_enough(self) -> bool:
        return standing.played_enough(self.row, self.played, self.notes)

    def record_notes(self) -> list[dict[str, Any]]:
        return standing.record_notes(self.notes, self.played)

    def _refused(self, change: lifecycle.Change, e: StatusChanged) -> Refusal:
        """The store found the game in a status that does not allow `change` (another
        process changed it): take the status, and the lifecycle's refusal."""
        self._take(status=e.status, driven=False if e.status != "active" else None)
        return lifecycle.refusal(change, e.status, self.state.game_over_ruling)

    # --- replays of ended games --------------------------------------------------------
    def replay_to(self, step: int) -> tuple[GameState[Any], list[Event]]:
        """The state after the first `step` standing actions and the events of the last
        one. States every REPLAY_EVERY actions are kept, so stepping through a long
        game costs a few actions a step, not a replay from the start."""
        actions = self.actions()
        base = (step - 1) // REPLAY_EVERY * REPLAY_EVERY if step > 0 else 0
        while base > 0 and base not in self.checkpoints:
            base -= REPLAY_EVERY
        state = self.dealt() if base == 0 else self.checkpoints[base].copy()
        events: list[Event] = []
        for i in range(base, step):
            events = state.apply(actions[i])
            if (i + 1) % REPLAY_EVERY == 0 and (i + 1) not in self.checkpoints:
                self.checkpoints[i + 1] = state.copy()
        return state, events

    # --- what the room says about itself --------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def scripts(self) -> list[Driver]:
        """The scripted drivers of its seats (drivers.py)."""
        return self.host.drivers.scripts(self.row)

    @property
    def scripted(self) -> bool:
        """A scripted game (the guided tour): no hints, no turn messages."""
        return bool(self.scripts)

    def actions(self) -> list[str]:
        """The action texts that stand: the game's record."""
        return [p.text for p in self.played]

    def dealt(self) -> GameState[Any]:
        """The game as dealt, before any action: a new state at each call."""
        state: GameState[Any] = self.definition.new_game(
            self.row.players, self.row.seed, self.row.options
        )
        return state

    def check(self, change: lifecycle.Change) -> None:
        """Refuse `change` unless the game's status allows it (lifecycle.py)."""
        status = self.row.status
        if status == lifecycle.Status.ACTIVE and self.state.is_over():
            status = lifecycle.Status.OVER
        lifecycle.check(change, status, self.state.game_over_ruling)

    def bot_to_move(self, state: GameState[Any] | None = None, status: str | None = None) -> bool:
        """Whether a bot seat's decision is pending in a game being played (in `state`
        with `status`, by default the room's own)."""
        state = self.state if state is None else state
        if (status or self.row.status) != "active":
            return False
        seat = state.to_move()
        return seat is not None and self.is_bot(seat)

    def view_for(self, audience: int | None) -> dict[str, Any]:
        """The engine's view, with the server's version in `version`."""
        view = self.state.view(audience)
        view["version"] = self.version
        return view

    def is_bot(self, seat: int, seats: list[SeatRow] | None = None) -> bool:
        """A bot's seat, or a person's a bot plays for now (out of time)."""
        clock = self.row.clock
        return (seats or self.row.seats)[seat].kind == "bot" or (
            clock is not None and clock.standin[seat] is not None
        )

    def bot_moves(self) -> dict[int, str]:
        """The standing actions a bot made for a person's seat: index → level."""
        return {i: p.bot for i, p in enumerate(self.played) if p.bot is not None}

    def clock_after(
        self,
        state: GameState[Any],
        status: str | None,
        seats: list[SeatRow] | None = None,
        clock: Clock | None = None,
        mover: int | None = None,
    ) -> tuple[Clock | None, bool | datetime]:
        """The clock once `state` is the game's with `status` and `seats` (a copy of
        `clock`, by default the room's), and the game's wake (Clock.hand_over: the one
        hand-over rule); `mover`: the seat whose player has just decided themselves.
        The seats on vacation (the row's `paused`) have no clock running. No clock:
        None, and no wake."""
        clock = clock or self.row.clock
        if clock is None:
            return None, False
        clock = clock.copy()
        if clock.spec.mode == "turn":
            clock.paused = [self.row.paused.get(s) for s in range(len(clock.remaining))]
        over = (status or self.row.status) != "active"
        seat = None if over else state.to_move()
        human = seat is not None and (seats or self.row.seats)[seat].kind == "human"
        return clock, clock.hand_over(seat, human, now(), mover)

    def undo_flags(self, seats: frozenset[int]) -> dict[str, bool]:
        """For each seat, whether it may take its last action back now."""
        playing = self.row.status == "active"
        return {str(s): playing and self.undo_refusal(s) is None for s in sorted(seats)}

    def undo_refusal(self, seat: int) -> str | None:
        """Why `seat` may not take its last action back now, or None if it may (G-3:
        nothing hidden may have been revealed since; no one else decided since)."""
        if self.row.rated:
            return "a rated game has no take-backs"
        if not self.played:
            return "there is nothing to take back"
        last = self.played[-1]
        if last.seat != seat:
            return "only the seat that made the last move can take it back"
        if self.is_bot(seat) or last.bot is not None:
            return "bots do not take moves back"
        if any(v > last.version for s, v in self.acted_at.items() if s != seat):
            return "another seat has decided since (even if it took that back)"
        if last.reveals:
            return "that move revealed hidden information (a draw or a turned bridge) (G-3)"
        if self.state.is_over():
            return "the game is over"
        return None

    # --- hearing what other processes stored ------------------------------------------------
    async def catch_up(self, entry: LogRow | None = None) -> None:
        """Apply what other servers appended (PostgreSQL), and tell local clients.
        `entry` is the one a signal carried: the next version is applied from it at
        once; anything else (a gap, a lost signal) is read from the log."""
        async with self.lock:
            if entry is not None and entry.version <= self.version:
                return
            if entry is not None and entry.version == self.version + 1:
                self._apply_entry(entry)
                changed = True
            else:
                changed = await self.catch_up_locked()
        if changed:
            self._changed(local=False)

    async def catch_up_locked(self) -> bool:
        rows = await self.host.store.load_log(self.row.id, after=self.version)
        for entry in rows:
            self._apply_entry(entry)
        return bool(rows)

    def _apply_entry(self, entry: LogRow) -> None:
        """Apply a log entry another server appended, and tell local clients. The
        server that appended it acts on the game now, not this one."""
        step = self._replay_entry(entry)
        self._take(driven=False, status="over" if self.state.is_over() else None)
        self.audience.publish(step)

    async def reload(self) -> bool:
        """Another process changed the game's row (seats, status, clock) or wrote a
        note: read them, take them, tell local clients. False when the game is gone
        or expired (the caller forgets the room)."""
        row = await self.host.store.load_game(self.row.id)
        if row is None or row.status == lifecycle.Status.EXPIRED:
            if row is not None:
                self._take(status=row.status, driven=False)
            return False
        async with self.lock:
            self._take_row(row)
        await self.reload_notes()
        return True

    async def reload_notes(self) -> None:
        """Another server wrote notes: read them and tell local clients the new ones."""
        stored = await load_notes(self.host.store.database, self.row.id)
        for note in stored[len(self.notes) :]:
            self.noted(note)

    async def note(self, note: Note) -> None:
        """Store a note on its own (a hint taken) and tell every client."""
        try:
            await self.host.store.add_note(self.id, note)
        except Exception as e:
            raise Refusal("storage_unavailable", f"the note could not be stored: {e}") from None
        self.noted(note)

    def noted(self, note: Note) -> None:
        """A note was stored: keep it and tell every client."""
        self.notes.append(note)
        self.audience.noted(note)

    async def take_over(self) -> bool:
        """This process claimed the game from one that stopped (it caught up first):
        whether it drives it now — a bot is to move, or a deadline is to be watched."""
        clock = self.row.clock
        due = self.bot_to_move() or (
            clock is not None
            and clock.next_due() is not None
            and self.row.status == lifecycle.Status.ACTIVE
        )
        self._take(driven=due)
        return due

    def claimed_elsewhere(self) -> None:
        """Another server claimed the game: it drives it now."""
        self._take(driven=False)

    def _changed(self, local: bool) -> None:
        self.touch()
        self.host.changed(self, local)

    def touch(self) -> None:
        self.last_active = time.monotonic()

    @contextlib.contextmanager
    def hint_slot(self) -> Iterator[None]:
        """A bot thinks of a hint for this game: one at a time (`hint_busy`)."""
        self.check(lifecycle.HINT)
        if self.hinting:
            raise Refusal("hint_busy", "a hint for this game is being worked out; ask again then")
        self.hinting = True
        try:
            yield
        finally:
            self.hinting = False


def seat_number(seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise Refusal("bad_request", "'seat' must be a seat number")
    return seat
