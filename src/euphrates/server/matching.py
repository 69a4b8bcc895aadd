"""Quick match's pairing rule, as plain arithmetic over the players waiting.

Two players of the same game are paired when their ratings differ by no more than a
window that widens with waiting time: ±100 at once, 50 more every 10 seconds, any
rating after 60 seconds. A pair needs the window of *both* players, that is of the one
who waited less: nobody is handed a lopsided game before they have waited for it,
and a newcomer never jumps a long wait of their own.

Fairness: the player who has waited longest is served first (first come, first
served; equal waits by account), and gets the closest rating that fits (equal
distances: whoever waited longer).

An unrated player counts as `START_RATING`, the rating scale's starting display
value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

START_RATING = 1500.0
"""The rating an unrated player is matched at: the scale's starting display value."""
WINDOW_START = 100.0
"""The largest rating difference accepted at once."""
WINDOW_STEP = 50.0
"""How much the window widens every `STEP_EVERY` seconds of waiting."""
STEP_EVERY = 10.0
ANY_AFTER = 60.0
"""Seconds of waiting after which any rating is accepted."""
RULE = {"start": WINDOW_START, "step": WINDOW_STEP, "every": STEP_EVERY, "any_after": ANY_AFTER}
"""The rule as the lobby is told it (it shows the window widening as the wait goes on)."""


@dataclass(frozen=True)
class Waiting:
    """A player in the pool: their account, the game, the rating they are matched at
    and since when they wait."""

    user_id: int
    game: str
    rating: float
    since: datetime


def window(waited: float) -> float | None:
    """The largest rating difference accepted after `waited` seconds; None: any."""
    if waited >= ANY_AFTER:
        return None
    steps = int(max(waited, 0.0) // STEP_EVERY)
    return WINDOW_START + WINDOW_STEP * steps


def fits(a: Waiting, b: Waiting, at: datetime) -> bool:
    """Whether `a` and `b` may be paired at `at`: the same game, and their ratings
    within the window of the one who waited less."""
    if a.game != b.game or a.user_id == b.user_id:
        return False
    waited = (at - max(a.since, b.since)).total_seconds()
    wide = window(waited)
    return wide is None or abs(a.rating - b.rating) <= wide


def pairs(waiting: Sequence[Waiting], at: datetime) -> list[tuple[Waiting, Waiting]]:
    """The pairs to make now, each (the one who waited longer, their opponent): the
    longest-waiting player first, to the closest rating that fits."""
    order = sorted(waiting, key=lambda w: (w.since, w.user_id))
    taken: set[int] = set()
    out: list[tuple[Waiting, Waiting]] = []
    for i, a in enumerate(order):
        if a.user_id in taken:
            continue
        best: Waiting | None = None
        for b in order[i + 1 :]:
            if b.user_id in taken or not fits(a, b, at):
                continue
            if best is None or abs(a.rating - b.rating) < abs(a.rating - best.rating):
                best = b  # `order` is by waiting: an equal distance keeps the earlier
        if best is not None:
            taken |= {a.user_id, best.user_id}
            out.append((a, best))
    return out
