"""Quick match's pairing rule, as plain arithmetic over the players waiting.

Two players of the same game are paired when their ratings differ by no more than a
window that widens with waiting time: ±100 at once, 50 more every 10 seconds, any
rating after 60 seconds. A pair needs the window of *both* players, that is of the one
who waited less: nobody is handed a lopsided game before they have waited for it,
and a newcomer never jumps a long wait of their own.

Two accounts that share a device or an address, or one of which blocked the other,
are never paired (`apart`; docs/fair-play.md): a person's second account is no
opponent.

Fairness: the player who has waited longest is served first (first come, first
served; equal waits by account), and gets the closest rating that fits (equal
distances: whoever waited longer).

Ratings are compared as skill estimates, not as the shown (conservative) ratings:
1000 + 40 × (μ − 25) (store/ratings.py, `match_rating`), on the shown rating's scale, so a
newcomer (μ 25) counts as `START_RATING` whatever their σ, and two players of equal
estimated skill are close however many games each has played.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence
from datetime import datetime

from euphrates.server.store.quickmatch import Waiting

START_RATING = 1000.0
"""The rating an unrated player is matched at: a newcomer's skill estimate on the shown
ratings' scale (match/ratings.py: DISPLAY_BASE)."""
WINDOW_START = 100.0
"""The largest rating difference accepted at once."""
WINDOW_STEP = 50.0
"""How much the window widens every `STEP_EVERY` seconds of waiting."""
STEP_EVERY = 10.0
ANY_AFTER = 60.0
"""Seconds of waiting after which any rating is accepted."""
RULE = {"start": WINDOW_START, "step": WINDOW_STEP, "every": STEP_EVERY, "any_after": ANY_AFTER}
"""The rule as the lobby is told it (it shows the window widening as the wait goes on)."""


def window(waited: float) -> float | None:
    """The largest rating difference accepted after `waited` seconds; None: any."""
    if waited >= ANY_AFTER:
        return None
    steps = int(max(waited, 0.0) // STEP_EVERY)
    return WINDOW_START + WINDOW_STEP * steps


def fits(a: Waiting, b: Waiting, at: datetime, apart: Collection[frozenset[int]] = ()) -> bool:
    """Whether `a` and `b` may be paired at `at`: the same game, not kept `apart`, and
    their ratings within the window of the one who waited less."""
    if a.game != b.game or a.user_id == b.user_id:
        return False
    if frozenset((a.user_id, b.user_id)) in apart:
        return False
    waited = (at - max(a.since, b.since)).total_seconds()
    wide = window(waited)
    return wide is None or abs(a.rating - b.rating) <= wide


def pairs(
    waiting: Sequence[Waiting], at: datetime, apart: Collection[frozenset[int]] = ()
) -> list[tuple[Waiting, Waiting]]:
    """The pairs to make now, each (the one who waited longer, their opponent): the
    longest-waiting player first, to the closest rating that fits.

    The players not yet served are kept in rating order, and each one served looks
    outwards from its own rating, no further than its own window (the pair's window is
    never wider: everyone after it waited less) nor than the closest fit found, so a
    pass over thousands of players costs milliseconds, not a comparison per pair."""
    order = sorted(waiting, key=_queue)
    pool = sorted(order, key=_by_rating)
    keys = [_by_rating(w) for w in pool]
    out: list[tuple[Waiting, Waiting]] = []
    paired: set[int] = set()
    for a in order:
        if a.user_id in paired:
            continue
        i = bisect_left(keys, _by_rating(a))
        del pool[i], keys[i]  # served now, paired or not: nobody later may take it
        limit = window((at - a.since).total_seconds())
        best: Waiting | None = None
        lo, hi = i - 1, i
        while lo >= 0 or hi < len(pool):
            down = a.rating - pool[lo].rating if lo >= 0 else None
            up = pool[hi].rating - a.rating if hi < len(pool) else None
            if up is None or (down is not None and down <= up):
                b, distance = pool[lo], down
                lo -= 1
            else:
                b, distance = pool[hi], up
                hi += 1
            assert distance is not None
            if limit is not None and distance > limit:
                break
            if best is not None and distance > abs(a.rating - best.rating):
                break
            if fits(a, b, at, apart) and (
                best is None
                or distance < abs(a.rating - best.rating)
                or _queue(b) < _queue(best)  # as close: whoever waited longer
            ):
                best = b
        if best is not None:
            j = bisect_left(keys, _by_rating(best))
            del pool[j], keys[j]
            paired.add(best.user_id)
            out.append((a, best))
    return out


def _queue(w: Waiting) -> tuple[datetime, int]:
    """Who is served first: the longest wait, then the account (every server agrees)."""
    return (w.since, w.user_id)


def _by_rating(w: Waiting) -> tuple[float, datetime, int]:
    return (w.rating, w.since, w.user_id)
