"""One game being played: its state, its versions, undo and replays.

The room is the only place a game's state lives in a server process. Every change —
an action, an undo, a version another server appended — is recorded here as a step
(steps.py) and handed to the room's audience (audience.py) under the room's lock, so
that every client is told every version once and in order; the room itself knows no
client.

Versions are the server's: the engine counts applied actions, but an undo is a new
version too (the log only grows), so a client's stale action is refused even across
undos. Views sent to clients carry the server's version in `version`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from euphrates.core.errors import EuphratesError
from euphrates.core.protocol import Event, GameDefinition, GameState
from euphrates.games import game_definition
from euphrates.server.common.clock import Clock
from euphrates.server.common.refusals import Refusal, from_engine
from euphrates.server.features.tour.tour import check_move
from euphrates.server.game.audience import Audience
from euphrates.server.game.steps import Step, encode_events
from euphrates.server.store.games import Followup, GameRow, LogRow, StorageError, Store, Wake, now
from euphrates.server.store.notes import Note, load_notes

log = logging.getLogger("euphrates.server")

UNDO_DEPTH = 4
"""States kept for undo without a replay: the ones before the last actions of the seat
that moved last, as far back as undo can reach (G-3). Each kept state is some seventy
lists and tuples the garbage collector walks while they are young; an undo beyond them
replays the game from its start (a few milliseconds)."""
REPLAY_EVERY = 16  # a replay keeps the state every this many actions
MAX_ACTION_TEXT = 100


class Played(NamedTuple):
    """An action that still stands (not undone); plain values, as `Step`."""

    version: int
    seat: int | None
    text: str
    reveals: bool
    bot: str | None = None


@dataclass
class Room:
    row: GameRow
    definition: GameDefinition[Any]
    state: GameState[Any]
    store: Store
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
    """Whether a bot is thinking of a hint for this game (hints.py): one at a time."""
    driven: bool = False
    """Whether this server process acts on the game when a bot must move: it made the
    version that gave a bot the decision, or claimed the game from a server that
    stopped. Other processes holding the room only show it."""
    followups: Callable[[Room, GameState[Any], str | None], tuple[Followup, ...]] | None = None
    """Asked, for each action or undo this process is about to store, what else must be
    written in that version's transaction (the state after it, the game's new status or
    None):
    the hub fills it from the features that act when a version is made (store.py)."""
    on_change: Callable[[Room, bool], None] | None = None
    """Called after every new version (and seat change); `local` is True when this
    process made the change. The hub uses it to wake the bots."""
    audience: Audience = field(init=False)
    """Who watches the game: told every new version, under the lock."""

    def __post_init__(self) -> None:
        self.audience = Audience(self, self.replay_buffer)

    # --- building -------------------------------------------------------------------
    @classmethod
    async def load(cls, store: Store, row: GameRow, replay_buffer: int = 64) -> Room:
        definition = game_definition(row.game)
        state = definition.new_game(row.players, row.seed, row.options)
        room = cls(row, definition, state, store, replay_buffer)
        for entry in await store.load_log(row.id):
            room._replay_entry(entry)
        room.notes = await load_notes(store.engine, row.id)
        return room

    def _replay_entry(self, entry: LogRow) -> Step:
        if entry.version != self.version + 1:
            raise StorageError(
                f"game {self.row.id}: log jumps from version {self.version} to {entry.version}"
            )
        if entry.kind == "undo":
            step = self._undo_last(entry.seat)
        else:
            assert entry.text is not None
            before = self.state.copy()
            events = self.state.apply(entry.text)
            step = self._record_action(entry.seat, entry.text, events, before, entry.bot)
        return step

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

    def _rebuild_without_last(self) -> GameState[Any]:
        """The state an undo of the last standing action gives (not kept: replayed)."""
        state: GameState[Any] = self.definition.new_game(
            self.row.players, self.row.seed, self.row.options
        )
        for p in self.played[:-1]:
            state.apply(p.text)
        return state

    def _rebuild(self) -> GameState[Any]:
        """The state after the actions that still stand, replayed from the start."""
        state: GameState[Any] = self.definition.new_game(
            self.row.players, self.row.seed, self.row.options
        )
        for p in self.played:
            state.apply(p.text)
        return state

    # --- replays of ended games --------------------------------------------------------
    def replay_to(self, step: int) -> tuple[GameState[Any], list[Event]]:
        """The state after the first `step` standing actions and the events of the last
        one. States every REPLAY_EVERY actions are kept, so stepping through a long
        game costs a few actions a step, not a replay from the start."""
        actions = self.actions()
        base = (step - 1) // REPLAY_EVERY * REPLAY_EVERY if step > 0 else 0
        while base > 0 and base not in self.checkpoints:
            base -= REPLAY_EVERY
        if base == 0:
            state: GameState[Any] = self.definition.new_game(
                self.row.players, self.row.seed, self.row.options
            )
        else:
            state = self.checkpoints[base].copy()
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

    def actions(self) -> list[str]:
        """The action texts that stand: the game's record."""
        return [p.text for p in self.played]

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

    def undo_flags(self, seats: frozenset[int]) -> dict[str, bool]:
        """For each seat, whether it may take its last action back now."""
        playing = self.row.status == "active"
        return {str(s): playing and self.undo_refusal(s) is None for s in sorted(seats)}

    def is_bot(self, seat: int) -> bool:
        """A bot's seat, or a person's a bot plays for now (out of time)."""
        clock = self.row.clock
        return self.row.seats[seat].kind == "bot" or (
            clock is not None and clock.standin[seat] is not None
        )

    def bot_moves(self) -> dict[int, str]:
        """The standing actions a bot made for a person's seat: index → level."""
        return {i: p.bot for i, p in enumerate(self.played) if p.bot is not None}

    def clock_after(self, state: GameState[Any], status: str | None) -> tuple[Clock | None, Wake]:
        """The clock once `state` is the game's, and what to store in `wake_at`: now
        when a bot must move, else the deadline (None when the game has no clock)."""
        clock = self.row.clock
        if clock is None:
            return None, None
        clock = clock.copy()
        over = (status or self.row.status) != "active"
        seat = None if over else state.to_move()
        human = seat is not None and self.row.seats[seat].kind == "human"
        clock.pass_to(seat, human, now())
        if seat is not None and (not human or clock.standin[seat] is not None):
            return clock, True
        return clock, clock.deadline or False

    # --- acting -------------------------------------------------------------------
    def check_playing(self) -> None:
        if self.row.status == "waiting":
            raise Refusal("not_started", "the game starts when every human seat is taken")
        if self.row.status == "abandoned":
            raise Refusal("abandoned", "the host abandoned this game")
        if self.row.status == "over" or self.state.is_over():
            ruling = self.state.game_over_ruling  # each game its own: B-31, C-17
            raise Refusal("game_over", f"the game is over; no action is legal ({ruling})", ruling)

    def check_open(self) -> None:
        """Refuse changes to the seats of a game that has ended."""
        if self.row.status == "abandoned":
            raise Refusal("abandoned", "the host abandoned this game")
        if self.row.status == "over":
            raise Refusal("game_over", "the game is over", self.state.game_over_ruling)

    def check_version(self, version: object) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise Refusal("bad_request", "'version' must be the game version you saw")
        if version != self.version:
            raise Refusal(
                "stale_version",
                f"action was meant for version {version}, the game is at version {self.version}",
            )

    async def submit(
        self,
        holder: frozenset[int],
        seat: object,
        version: object,
        text: object,
        bot: str | None = None,
    ) -> Step:
        """Apply `text` for `seat` at `version` for a client holding `holder`; returns
        what happened (the new version's step). Every refusal leaves the game as it was."""
        seat = _seat_number(seat)
        if not isinstance(text, str) or not text.strip():
            raise Refusal("bad_request", "'action' must be an action in the game's notation")
        if len(text) > MAX_ACTION_TEXT:
            raise Refusal("invalid_action", f"an action is at most {MAX_ACTION_TEXT} characters")
        async with self.lock:
            await self._may_act(holder, seat, version)
            try:
                action = self.state.parse_action(text)
            except EuphratesError as e:
                raise from_engine(e) from None
            except Exception:  # the engine must refuse with its own errors; be safe anyway
                log.exception("action text %r could not be read in game %s", text, self.row.id)
                raise Refusal("invalid_action", "that is not an action of this game") from None
            # The action is applied to a copy, which becomes the state only once it is
            # stored: until then every reader sees the last stored version, consistent
            # with its number, and a failed write has nothing to roll back.
            check_move(self.row, self.version, str(action))
            before = self.state
            after = before.copy()
            try:
                events = after.apply(action, seat=seat)
            except EuphratesError as e:
                raise from_engine(e) from None
            except Exception:
                log.exception("the engine failed on %r in game %s", text, self.row.id)
                raise Refusal("server_error", "the server could not apply that action") from None
            canonical = str(action)
            status = "over" if after.is_over() else None
            due = self.bot_to_move(after, status)
            wake: Wake = due if due != self.bot_to_move() else None
            clock, timed = self.clock_after(after, status)
            if clock is not None:
                wake = timed
            entry = LogRow(self.version + 1, seat, "action", canonical, bot)
            after_hooks = self.followups(self, after, status) if self.followups else ()
            await self._append(entry, status, wake, clock, after_hooks)
            self.state = after
            if status is not None:
                self.row.status = status
            if clock is not None:
                self.row.clock = clock
            if wake is not None:
                self.driven = wake is not False
            step = self._record_action(seat, canonical, events, before, bot)
            self.audience.publish(step)
        self._changed(local=True)
        return step

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

    async def undo(self, holder: frozenset[int], seat: object, version: object) -> Step:
        """Take back the last action of `seat` for a client holding `holder`, at
        `version`; returns what happened (the undo's step)."""
        seat = _seat_number(seat)
        async with self.lock:
            await self._may_act(holder, seat, version)
            why = self.undo_refusal(seat)
            if why is not None:
                raise Refusal("undo_refused", why)
            # The decision goes back to the seat that took its action back: a person's.
            wake: Wake = False if self.bot_to_move() else None
            clock = None
            back = self.befores.get(self.played[-1].version)
            if back is None:
                back = self._rebuild_without_last()
            if self.row.clock is not None:
                clock, wake = self.clock_after(back, None)
            hooks = self.followups(self, back, None) if self.followups else ()
            entry = LogRow(self.version + 1, seat, "undo", None)
            await self._append(entry, wake=wake, clock=clock, after=hooks)
            step = self._undo_last(seat)
            if clock is not None:
                self.row.clock = clock
            if wake is not None:
                self.driven = wake is not False
            self.audience.publish(step)
        self._changed(local=True)
        return step

    async def _may_act(self, holder: frozenset[int], seat: int, version: object) -> None:
        """Under the lock: the game is being played, at the version the client saw,
        and the client holds the seat."""
        await self._refresh_if_behind(version)
        self.check_playing()
        self.check_version(version)
        if seat not in holder:
            raise Refusal("not_your_seat", f"you do not hold seat {seat}")

    async def _append(
        self,
        entry: LogRow,
        status: str | None = None,
        wake: Wake = None,
        clock: Clock | None = None,
        after: tuple[Followup, ...] = (),
    ) -> None:
        """Store the next version, or refuse: the database refused the write, or
        another server appended that version first (then this room catches up)."""
        try:
            stored = await self.store.append(self.row.id, entry, status, wake, clock, after)
        except StorageError as e:
            raise Refusal("storage_unavailable", f"the game could not be saved: {e}") from None
        if not stored:
            await self.catch_up_locked()
            raise Refusal("stale_version", "another move was made first; the game has moved on")

    async def _refresh_if_behind(self, version: object) -> None:
        """With several servers, a client may know more than this one: a version
        beyond ours, or a game another server has started. Read the database before
        refusing."""
        ahead = (
            isinstance(version, int) and not isinstance(version, bool) and version > self.version
        )
        if ahead:
            await self.catch_up_locked()
        if self.row.status == "waiting" and not self.store.sqlite:
            row = await self.store.load_game(self.row.id)
            if row is not None:
                self.row.seats, self.row.status = row.seats, row.status

    async def catch_up(self, entry: LogRow | None = None) -> None:
        """Apply what other servers appended (PostgreSQL), and tell local clients.
        `entry` is the one a notification carried: the next version is applied from it
        at once; anything else (a gap, a lost notification) is read from the log."""
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
        rows = await self.store.load_log(self.row.id, after=self.version)
        for entry in rows:
            self._apply_entry(entry)
        return bool(rows)

    def _apply_entry(self, entry: LogRow) -> None:
        """Apply a log entry another server appended, and tell local clients. The
        server that appended it acts on the game now, not this one."""
        self.driven = False
        step = self._replay_entry(entry)
        if self.state.is_over():
            self.row.status = "over"
        self.audience.publish(step)

    def _changed(self, local: bool) -> None:
        self.touch()
        if self.on_change is not None:
            self.on_change(self, local)

    def record_notes(self) -> list[dict[str, Any]]:
        """The notes as the record keeps them: each after the standing actions made by
        its version (the record has no undos)."""
        out = []
        for note in self.notes:
            after = sum(1 for p in self.played if p.version <= note.version)
            doc = {k: v for k, v in note.to_json().items() if k not in ("version", "at")}
            out.append({"after": after, **doc})
        return out

    def noted(self, note: Note) -> None:
        """A note was stored: keep it and tell every client."""
        self.notes.append(note)
        self.audience.noted(note)

    async def reload_notes(self) -> None:
        """Another server wrote notes: read them and tell local clients the new ones."""
        stored = await load_notes(self.store.engine, self.row.id)
        for note in stored[len(self.notes) :]:
            self.noted(note)

    def touch(self) -> None:
        self.last_active = time.monotonic()


def _seat_number(seat: object) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise Refusal("bad_request", "'seat' must be a seat number")
    return seat
