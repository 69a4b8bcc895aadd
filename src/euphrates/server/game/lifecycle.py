"""A game's lifecycle: its statuses, and which change may happen in which of them —
written once, here.

    waiting ──every seat taken, started early──▶ active ──the engine's end──▶ over
       │  └──waited too long──▶ expired            │  └─a duel's player left──▶ over
       │                                           ├──left before it was played─▶ aborted
       └──────────abandoned (host, admin)──────────┴──▶ abandoned

Every change of a game is one of the `CHANGES` below, made by a method of its room
(room.py and the modules it is assembled from). The room checks the status it holds
(`check`), and the store checks the stored one under the game's row lock, since
another process may have changed it (`allowed` → store/games.py): a change refused by
either leaves everything as it was, with the refusal `refusal` gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from euphrates.server.common.refusals import Refusal


class Status(StrEnum):
    WAITING = "waiting"
    """Created; a person's seat is still free."""
    ACTIVE = "active"
    """Being played."""
    OVER = "over"
    """Played to the engine's end (B-31, C-17)."""
    ABANDONED = "abandoned"
    """Ended unfinished by its host or by the server's admin."""
    EXPIRED = "expired"
    """Waited too long for its players."""
    ABORTED = "aborted"
    """A rated game left before it was played (docs/fair-play.md): unrated for all."""


ENDED = frozenset({Status.OVER, Status.ABANDONED, Status.EXPIRED, Status.ABORTED})
OPEN = frozenset({Status.WAITING, Status.ACTIVE})


@dataclass(frozen=True)
class Change:
    """One kind of change: in which statuses it may happen, and the status it leads
    to (None: the status stays, unless the change starts or ends the game as said)."""

    name: str
    allowed: frozenset[Status]
    to: Status | None = None


MOVE = Change("move", frozenset({Status.ACTIVE}))
"""An action: the engine's end makes the game `over` in the same write."""
UNDO = Change("undo", frozenset({Status.ACTIVE}))
TAKE_SEAT = Change("take a seat", OPEN)
"""A seat taken by its link or account (the last one starts the game), renamed, or
claimed for an account."""
SIT = Change("sit down", frozenset({Status.WAITING}))
"""An open table's free seat taken from the lobby, or a seat its host invited the
account to by name (the last one starts the game)."""
LEAVE = Change("leave a seat", frozenset({Status.WAITING}))
START = Change("start early", frozenset({Status.WAITING}), Status.ACTIVE)
"""The host fills the free seats with bots (the game starts with the last)."""
SEAT_TO_BOT = Change("give a seat to a bot", OPEN)
"""The host gives a person's seat to a bot for the rest of the game."""
RESIGN = Change("resign", frozenset({Status.ACTIVE}))
LEFT = Change("leave for good", OPEN)
"""An account deleted: its seats are freed (waiting) or played by a bot (active)."""
DEADLINE = Change("run out of time", frozenset({Status.ACTIVE}))
STAND_IN = Change("let a bot stand in", frozenset({Status.ACTIVE}))
COME_BACK = Change("take the seat back", frozenset({Status.ACTIVE}))
START_CLOCK = Change("start the clock", frozenset({Status.ACTIVE}))
HINT = Change("take a hint", frozenset({Status.ACTIVE}))
FORFEIT = Change("forfeit", frozenset({Status.ACTIVE}))
"""A deserter's seat: a real-time seat out of time whose player is not back within its
grace, a turn-based seat that missed its deadlines in a row."""
VACATION = Change("pause for a vacation", frozenset({Status.ACTIVE}))
ABORT = Change("abort", OPEN, Status.ABORTED)
"""A rated game left (resigned, abandoned, forfeited, its account deleted) before each
person's seat made MIN_DECISIONS decisions of its own."""
END_BY_LEAVING = Change("end, its opponent gone", frozenset({Status.ACTIVE}), Status.OVER)
"""A duel one of whose players left for good: the other wins."""
ABANDON = Change("abandon", OPEN, Status.ABANDONED)
ADMIN_END = Change("end (admin)", OPEN, Status.ABANDONED)
EXPIRE = Change("expire", frozenset({Status.WAITING}), Status.EXPIRED)

CHANGES = (
    MOVE,
    UNDO,
    TAKE_SEAT,
    SIT,
    LEAVE,
    START,
    SEAT_TO_BOT,
    RESIGN,
    LEFT,
    DEADLINE,
    FORFEIT,
    VACATION,
    ABORT,
    END_BY_LEAVING,
    STAND_IN,
    COME_BACK,
    START_CLOCK,
    HINT,
    ABANDON,
    ADMIN_END,
    EXPIRE,
)

EXPIRED_TEXT = "this game waited too long for its players and expired; create a new one"
ABORTED_TEXT = "this rated game was aborted: a player left it before it was played"

MIN_DECISIONS = 4
"""A rated game is played — its result counts — once each person's seat has made this
many decisions of its own (docs/fair-play.md); a player leaving before aborts it."""


def refusal(change: Change, status: str, ruling: str | None = None) -> Refusal:
    """Why `change` may not happen to a game in `status` (`ruling`: the engine's rule
    that ended it, B-31 or C-17)."""
    if status == Status.WAITING:
        return Refusal("not_started", "the game starts when every human seat is taken")
    if status == Status.ACTIVE:
        return Refusal("already_started", f"the game has started: you cannot {change.name} now")
    if status == Status.ABANDONED:
        return Refusal("abandoned", "this game was abandoned")
    if status == Status.EXPIRED:
        return Refusal("expired", EXPIRED_TEXT)
    if status == Status.ABORTED:
        return Refusal("aborted", ABORTED_TEXT)
    what = "no action is legal" if change in (MOVE, UNDO) else f"you cannot {change.name} now"
    suffix = f" ({ruling})" if ruling else ""
    return Refusal("game_over", f"the game is over; {what}{suffix}", ruling)


def check(change: Change, status: str, ruling: str | None = None) -> None:
    """Refuse `change` unless `status` allows it."""
    if status not in change.allowed:
        raise refusal(change, status, ruling)
