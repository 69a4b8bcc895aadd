"""Clocks: how much time each seat has left and when the pending decision is due.

Pure arithmetic over plain values; the room applies it to every new version and the
store keeps its figures (games.clock_seat / clock_since / deadline, seats.remaining_ms
and seats.standin), so the server alone decides when time runs out and a restarted
server carries on from what it stored.

A clock runs for the seat whose decision is pending (`to_move()`), so a decision asked
of a player who is not active — a defence in a conflict, a treasure to take — runs on
that player's own clock. No clock runs for a bot's seat, for a seat a bot stands in for,
or once the game is over.

Real-time (Board Game Arena's "time + extra time"): each seat starts with a bank and
gets `increment` seconds back each time the decision leaves it. Presets are BGA's fast,
medium and slow turns (30, 40 and 50 s) with a starting bank of ten such turns (5:00,
6:40, 8:20). A seat whose bank runs dry is out of time: it may still move (and gets the
increment back when it does), and any other seated player may let a bot stand in for it
until the player takes the seat back. If its player neither moves nor takes the seat
back within `grace` seconds (60), the seat is forfeited (docs/fair-play.md): the room
hands it to a bot for good.

Turn-based: each time the decision comes to a seat it gets `per_move` seconds (1, 2, 3
or 5 days); when they pass, a bot of the game's level plays for that seat until the
decision leaves it (the rest of its turn), and the player's clock starts afresh the
next time. `misses` deadlines missed in a row (2) forfeit the seat. A seat whose
account is on vacation (`paused`) has no clock running until the vacation ends; then
its turn starts afresh.

A game is due — some server must act on it — at its `next_due()`: the running seat's
deadline, a forfeit, or the end of a vacation, whichever comes first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

Mode = Literal["realtime", "turn"]

PRESETS: dict[str, int] = {"fast": 30, "medium": 40, "slow": 50}
"""Seconds added per turn, by preset (BGA's T&E)."""
BANK_TURNS = 10
"""A preset's starting bank, in turns of its increment."""
DAYS = (1, 2, 3, 5)
DAY = 86400.0
DEFAULT_LEVEL = "intermediate"
"""The bot that plays a turn-based seat's turn once its deadline passed."""
GRACE = 60.0
"""Real-time: seconds after running out of time before a seat is forfeited."""
MISSES = 2
"""Turn-based: deadlines missed in a row that forfeit a seat."""


@dataclass(frozen=True)
class ClockSpec:
    """A game's clock as chosen when it was created (stored as JSON in games.clock)."""

    mode: Mode
    bank: float = 0.0
    """Real-time: seconds each seat starts with."""
    increment: float = 0.0
    """Real-time: seconds added when the decision leaves a seat."""
    per_move: float = 0.0
    """Turn-based: seconds a seat has for each decision that comes to it."""
    level: str = DEFAULT_LEVEL
    preset: str | None = None
    days: int | None = None
    grace: float = GRACE
    """Real-time: seconds an out-of-time seat's player has to move or take the seat
    back before it is forfeited."""
    misses: int = MISSES
    """Turn-based: deadlines missed in a row that forfeit a seat."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": self.mode, "level": self.level}
        if self.mode == "realtime":
            out.update(
                bank=self.bank, increment=self.increment, preset=self.preset, grace=self.grace
            )
        else:
            out.update(per_move=self.per_move, days=self.days, misses=self.misses)
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> ClockSpec:
        mode: Mode = "turn" if doc.get("mode") == "turn" else "realtime"
        return cls(
            mode=mode,
            bank=float(doc.get("bank", 0.0)),
            increment=float(doc.get("increment", 0.0)),
            per_move=float(doc.get("per_move", 0.0)),
            level=str(doc.get("level", DEFAULT_LEVEL)),
            preset=doc.get("preset"),
            days=doc.get("days"),
            grace=float(doc.get("grace", GRACE)),
            misses=int(doc.get("misses", MISSES)),
        )

    def start(self) -> float:
        """The seconds a seat has when the game starts."""
        return self.bank if self.mode == "realtime" else self.per_move


def realtime(
    preset: str | None = None,
    bank: float | None = None,
    increment: float | None = None,
    level: str = DEFAULT_LEVEL,
    grace: float = GRACE,
) -> ClockSpec:
    """A real-time clock from a preset, or from a bank and an increment (either may
    override the preset's)."""
    step = float(PRESETS[preset]) if preset is not None else 30.0
    return ClockSpec(
        "realtime",
        bank=float(bank) if bank is not None else step * BANK_TURNS,
        increment=float(increment) if increment is not None else step,
        level=level,
        preset=preset,
        grace=grace,
    )


def turn_based(days: int, day: float = DAY, level: str = DEFAULT_LEVEL) -> ClockSpec:
    """Days per move; `day` is a day's length in seconds (shorter only in tests and
    load tests)."""
    if days not in DAYS:
        raise ValueError(f"days per move is one of {', '.join(map(str, DAYS))}")
    return ClockSpec("turn", per_move=days * day, level=level, days=days)


@dataclass
class Clock:
    """A game's clock now: what the store keeps of it."""

    spec: ClockSpec
    remaining: list[float]
    """Seconds each seat had when its clock last stopped (or started, for the
    running one)."""
    standin: list[str | None]
    """Per seat, the level of a bot playing its turns, or None."""
    seat: int | None = None
    """Whose clock runs."""
    since: datetime | None = None
    """When that clock started."""
    deadline: datetime | None = None
    """When the running seat runs out of time; None while no clock runs or once the
    running seat is out of time (real-time)."""
    forfeit: list[datetime | None] = field(default_factory=list)
    """Per seat (real-time), when it is forfeited unless its player is back."""
    missed: list[int] = field(default_factory=list)
    """Per seat (turn-based), deadlines missed in a row."""
    paused: list[datetime | None] = field(default_factory=list)
    """Per seat (turn-based), until when its account's vacation stops its clock (set
    by the room from the accounts, not stored here)."""
    dirty: set[int] = field(default_factory=set)
    """Seats whose stored figures changed (written with the next version)."""

    def __post_init__(self) -> None:
        n = len(self.remaining)
        self.forfeit = self.forfeit or [None] * n
        self.missed = self.missed or [0] * n
        self.paused = self.paused or [None] * n

    @classmethod
    def new(cls, spec: ClockSpec, players: int) -> Clock:
        return cls(spec, [spec.start()] * players, [None] * players)

    def copy(self) -> Clock:
        """A copy that still knows which seats' figures are unwritten: a change made on
        one copy (a seat out of time, its forfeit's time) and handed over on another
        must reach the database, or a server that reads the clock back (PostgreSQL,
        several servers) finds no forfeit due and the deserter's table waits for ever."""
        return replace(
            self,
            remaining=list(self.remaining),
            standin=list(self.standin),
            forfeit=list(self.forfeit),
            missed=list(self.missed),
            paused=list(self.paused),
            dirty=set(self.dirty),
        )

    def next_due(self) -> datetime | None:
        """When some server must act on the game: the running seat's deadline, a
        forfeit, or the end of the vacation of the seat whose turn waits for it."""
        times = [t for t in (self.deadline, *self.forfeit) if t is not None]
        times += [t for t in self.paused if t is not None]
        return min(times) if times else None

    def left(self, seat: int, at: datetime) -> float:
        """Seconds `seat` has at `at` (its clock running or not)."""
        if seat == self.seat and self.since is not None:
            return max(0.0, self.remaining[seat] - (at - self.since).total_seconds())
        return self.remaining[seat]

    def out_of_time(self, seat: int) -> bool:
        """A real-time seat whose bank ran dry while it was to decide."""
        return (
            self.spec.mode == "realtime"
            and seat == self.seat
            and self.deadline is None
            and self.remaining[seat] <= 0
        )

    def _forfeit_at(self, seat: int, at: datetime | None) -> None:
        if self.forfeit[seat] != at:
            self.forfeit[seat] = at
            self.dirty.add(seat)

    def _missed(self, seat: int, count: int) -> None:
        if self.missed[seat] != count:
            self.missed[seat] = count
            self.dirty.add(seat)

    def _set(self, seat: int, seconds: float) -> None:
        if self.remaining[seat] != seconds:
            self.remaining[seat] = seconds
            self.dirty.add(seat)

    def _stand(self, seat: int, level: str | None) -> None:
        if self.standin[seat] != level:
            self.standin[seat] = level
            self.dirty.add(seat)

    def pass_to(
        self, to_move: int | None, human: bool, at: datetime, mover: int | None = None
    ) -> None:
        """The decision is `to_move`'s now (None: the game ended); `human` says its
        seat is a person's. The seat whose clock ran is charged for the time it took
        and, real-time, gets its increment back; turn-based, a bot that stood in for
        the rest of a turn stops once the decision leaves that seat, and a seat the
        decision comes to gets a fresh `per_move`. No clock runs while a bot decides.
        `mover`: the seat whose player has just decided themselves, who is therefore
        no deserter: its forfeit and missed deadlines are forgotten."""
        if mover is not None:
            self._forfeit_at(mover, None)
            self._missed(mover, 0)
        if self.spec.mode == "turn":
            for s, level in enumerate(self.standin):
                if level is not None and s != to_move:
                    self._stand(s, None)
        runs = to_move is not None and human and self.standin[to_move] is None
        until = self.paused[to_move] if to_move is not None else None
        if runs and until is not None:
            runs = until <= at  # on vacation: no clock until it ends
        to = to_move if runs else None
        prev = self.seat
        if to == prev:
            return
        if prev is not None:
            left = self.left(prev, at)
            if self.spec.mode == "realtime":
                left += self.spec.increment
            self._set(prev, left)
        if self.spec.mode == "turn" and to is not None:
            self._set(to, self.spec.per_move)
        self._run(to, at)

    def _run(self, to: int | None, at: datetime) -> None:
        self.seat = to
        self.since = at if to is not None else None
        if to is None:
            self.deadline = None
        elif self.remaining[to] <= 0 and self.spec.mode == "realtime":
            self.deadline = None  # out of time already: it may still move
        else:
            self.deadline = at + timedelta(seconds=self.remaining[to])

    def time_out(self, at: datetime) -> tuple[str, int] | None:
        """What is due at `at`, done, and the seat it concerns: `forfeit` (a real-time
        seat's grace passed, or a turn-based seat missed `misses` deadlines in a row:
        the room hands it to a bot for good), `out` (a real-time seat ran out of time:
        its grace starts), `late` (a turn-based deadline passed: a bot plays the rest
        of that turn), or `resume` (a vacation ended: the room hands the decision over
        again). None when nothing is due."""
        for gone, when in enumerate(self.forfeit):
            if when is not None and when <= at:
                self._forfeit_at(gone, None)
                if self.seat == gone:
                    self._run(None, at)
                return "forfeit", gone
        for back, until in enumerate(self.paused):
            if until is not None and until <= at:
                self.paused[back] = None
                return "resume", back
        seat = self.seat
        if seat is None or self.deadline is None or self.deadline > at:
            return None
        self._set(seat, 0.0)
        if self.spec.mode == "turn":
            self._missed(seat, self.missed[seat] + 1)
            if self.missed[seat] >= self.spec.misses:
                self._missed(seat, 0)
                self._run(None, at)
                return "forfeit", seat
            self._stand(seat, self.spec.level)
            self._run(None, at)
            return "late", seat
        self.since = at
        self.deadline = None
        self._forfeit_at(seat, at + timedelta(seconds=self.spec.grace))
        return "out", seat

    def stand_in(self, seat: int, level: str, at: datetime) -> None:
        """A bot plays `seat`'s turns from now on (real-time, out of time)."""
        self._stand(seat, level)
        if self.seat == seat:
            self._run(None, at)

    def come_back(self, seat: int, to_move: int | None, at: datetime) -> None:
        """The player takes the seat back from its bot; a bank that ran dry gets one
        increment, so the player is not out of time again at once. The player is back:
        the seat is no longer to be forfeited."""
        self._stand(seat, None)
        self._forfeit_at(seat, None)
        if self.spec.mode == "realtime" and self.remaining[seat] <= 0:
            self._set(seat, self.spec.increment)
        if to_move == seat and self.seat is None:
            self._run(seat, at)

    def hand_over(
        self, to_move: int | None, human: bool, at: datetime, mover: int | None = None
    ) -> bool | datetime:
        """The one hand-over rule: the decision is `to_move`'s now (None: the game
        ended; `human`: a person's seat), the clocks follow (`pass_to`), and the
        game's wake is returned — True when a bot decides now (a bot's seat, or a bot
        standing in), else the running clock's deadline, or False when none runs."""
        self.pass_to(to_move, human, at, mover)
        if to_move is not None and (not human or self.standin[to_move] is not None):
            return True
        return self.next_due() or False

    def forfeited(self, seat: int) -> None:
        """The seat is a bot's for good: nothing of it is due any more."""
        self._forfeit_at(seat, None)
        self._missed(seat, 0)
        self.paused[seat] = None
        if self.seat == seat:
            self.seat, self.since, self.deadline = None, None, None

    def to_json(self, at: datetime) -> dict[str, Any]:
        """What every client is shown: each seat's time left now, whose clock runs and
        its deadline, and the server's time so a client can tick on from them."""
        return {
            **self.spec.to_json(),
            "seat": self.seat,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "remaining_ms": [round(self.left(s, at) * 1000) for s in range(len(self.remaining))],
            "standin": list(self.standin),
            "out_of_time": [self.out_of_time(s) for s in range(len(self.remaining))],
            "forfeit": [f.isoformat() if f else None for f in self.forfeit],
            "missed": list(self.missed),
            "paused": [p.isoformat() if p else None for p in self.paused],
            "now": at.isoformat(),
        }
