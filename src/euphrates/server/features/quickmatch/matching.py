"""Quick match's rule for making tables, as plain arithmetic over the players waiting.

Players wait for a kind of table: a game, a number of players, a clock and the game's
options (`Waiting.kind`). A table of that kind is made from as many players waiting
for exactly that kind when their ratings are close enough: the group's ratings span no
more than the window of the member who waited least. The window widens with waiting
time: ±100 at once, 50 more every 10 seconds, any rating after 60 seconds. Taking the
narrowest window of the group means nobody is handed a lopsided game before they have
waited for it, and a newcomer never jumps a long wait of their own. For a duel the span
is the two players' difference, as it always was.

Two accounts that share a device or an address, or one of which blocked the other,
never sit at one table (`apart`; docs/fair-play.md): a person's second account is no
opponent, and two of them cannot fill a table of three between them.

Fairness: the player who has waited longest is served first (first come, first
served; equal waits by account), and gets the closest group that fits: the smallest
span of ratings, then the members who waited longest.

Ratings are compared as skill estimates, not as the shown (conservative) ratings:
1000 + 40 × (μ − 25) (store/ratings.py, `match_rating`), on the shown rating's scale, so
a newcomer (μ 25) counts as `START_RATING` whatever their σ, and two players of equal
estimated skill are close however many games each has played. Each is read in the
table's player-count group (match/ratings.py, `group_of`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence
from datetime import datetime

from euphrates.server.store.quickmatch import Kind, Waiting

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

Group = tuple[Waiting, ...]
"""A table's players: the one served first, then the others in the order they came."""


def window(waited: float) -> float | None:
    """The largest rating difference accepted after `waited` seconds; None: any."""
    if waited >= ANY_AFTER:
        return None
    steps = int(max(waited, 0.0) // STEP_EVERY)
    return WINDOW_START + WINDOW_STEP * steps


def fits(group: Sequence[Waiting], at: datetime, apart: Collection[frozenset[int]] = ()) -> bool:
    """Whether `group` may sit at one table at `at`: as many accounts as the kind's
    players, each waiting for that kind, none kept `apart` from another, and their
    ratings spanning no more than the window of the one who waited least."""
    if not group or len({w.user_id for w in group}) != len(group):
        return False
    kind = group[0].kind
    if len(group) != group[0].players or any(w.kind != kind for w in group):
        return False
    if any(frozenset((a.user_id, b.user_id)) in apart for a in group for b in group):
        return False
    wide = window((at - max(w.since for w in group)).total_seconds())
    ratings = [w.rating for w in group]
    return wide is None or max(ratings) - min(ratings) <= wide


def groups(
    waiting: Sequence[Waiting], at: datetime, apart: Collection[frozenset[int]] = ()
) -> list[Group]:
    """The tables to make now, each (the one served, the others by their wait): kind by
    kind, the longest-waiting player first, with the closest group that fits."""
    kinds: dict[Kind, list[Waiting]] = {}
    for w in waiting:
        kinds.setdefault(w.kind, []).append(w)
    out: list[Group] = []
    for pool in kinds.values():
        if len(pool) >= pool[0].players:
            out += _tables(pool, pool[0].players, at, apart)
    out.sort(key=lambda g: _queue(g[0]))
    return out


def _tables(
    pool: Sequence[Waiting], players: int, at: datetime, apart: Collection[frozenset[int]]
) -> list[Group]:
    """One kind's tables. The players not yet served are kept in rating order, and each
    one served looks outwards from its own rating, no further than its own window (the
    group's is never wider: everyone after it waited less) nor than the closest group
    found, so a pass over thousands of players costs milliseconds."""
    order = sorted(pool, key=_queue)
    ranked = sorted(pool, key=_by_rating)
    keys = [_by_rating(w) for w in ranked]
    out: list[Group] = []
    seated: set[int] = set()
    for a in order:
        if a.user_id in seated:
            continue
        i = bisect_left(keys, _by_rating(a))
        del ranked[i], keys[i]  # served now, seated or not: nobody later may take it
        if players == 2:
            one = _opponent(a, ranked, i, at, apart)
            others = None if one is None else [one]
        else:
            others = _closest(a, Nearest(a, ranked, i, at, apart), players - 1, apart)
        if others is None:
            continue
        for b in others:
            j = bisect_left(keys, _by_rating(b))
            del ranked[j], keys[j]
            seated.add(b.user_id)
        out.append((a, *sorted(others, key=_queue)))
    return out


def _opponent(
    a: Waiting, ranked: list[Waiting], i: int, at: datetime, apart: Collection[frozenset[int]]
) -> Waiting | None:
    """A duel's `_closest`, the search with one member to choose written out: the
    nearest rating within both windows (equal distances: the longer wait). Duels are
    most of what is asked for, and this walk does without the general search's
    bookkeeping (its lists, its recursion)."""
    limit = window((at - a.since).total_seconds())
    best: Waiting | None = None
    best_distance = 0.0
    lo, hi = i - 1, i
    while lo >= 0 or hi < len(ranked):
        down = a.rating - ranked[lo].rating if lo >= 0 else None
        up = ranked[hi].rating - a.rating if hi < len(ranked) else None
        if up is None or (down is not None and down <= up):
            assert down is not None
            b, distance = ranked[lo], down
            lo -= 1
        else:
            b, distance = ranked[hi], up
            hi += 1
        if (limit is not None and distance > limit) or (
            best is not None and distance > best_distance
        ):
            break
        if frozenset((a.user_id, b.user_id)) in apart:
            continue
        own = window((at - b.since).total_seconds())
        if own is not None and distance > own:
            continue
        if best is None or distance < best_distance or _queue(b) < _queue(best):
            best, best_distance = b, distance
    return best


class Nearest:
    """The players `a` may sit with in the order a table is chosen from them: nearest
    rating first, equal distances by the longest wait. Read from the ranked pool only
    as far as a search asks; never `a` itself nor an account kept apart from it, never
    beyond `a`'s own window."""

    def __init__(
        self,
        a: Waiting,
        ranked: list[Waiting],
        at_rank: int,
        at: datetime,
        apart: Collection[frozenset[int]],
    ) -> None:
        """`at_rank`: where `a`'s rating falls among `ranked` (it is not there itself)."""
        self.a, self.ranked, self.at, self.apart = a, ranked, at, apart
        self.limit = window((at - a.since).total_seconds())
        self.hi = at_rank
        self.lo = at_rank - 1
        self.found: list[tuple[Waiting, float, float | None]] = []
        """(player, distance from a, the player's own window) in the order walked."""

    def get(self, n: int) -> tuple[Waiting, float, float | None] | None:
        """The `n`th in order, or None when there is no further one within reach."""
        while len(self.found) <= n:
            if not self._step():
                return None
        return self.found[n]

    def _step(self) -> bool:
        """Read the players at the next distance (both sides), in queue order."""
        a, ranked = self.a, self.ranked
        while self.lo >= 0 or self.hi < len(ranked):
            down = a.rating - ranked[self.lo].rating if self.lo >= 0 else None
            up = ranked[self.hi].rating - a.rating if self.hi < len(ranked) else None
            distance = min(d for d in (down, up) if d is not None)
            if self.limit is not None and distance > self.limit:
                self.lo, self.hi = -1, len(ranked)  # everyone further is out of reach
                return False
            batch: list[Waiting] = []
            while self.lo >= 0 and a.rating - ranked[self.lo].rating == distance:
                batch.append(ranked[self.lo])
                self.lo -= 1
            while self.hi < len(ranked) and ranked[self.hi].rating - a.rating == distance:
                batch.append(ranked[self.hi])
                self.hi += 1
            batch = [b for b in batch if frozenset((a.user_id, b.user_id)) not in self.apart]
            if not batch:
                continue
            batch.sort(key=_queue)
            self.found += [
                (b, distance, window((self.at - b.since).total_seconds())) for b in batch
            ]
            return True
        return False


def _closest(
    a: Waiting, near: Nearest, need: int, apart: Collection[frozenset[int]]
) -> list[Waiting] | None:
    """The `need` others that make the closest table with `a`: the smallest span of
    ratings within the narrowest window of the group; of equal spans, the first in
    `Nearest`'s order (its nearest member as near as can be, then the next…).

    Groups are tried in that order, so a search stops at the first player further
    from `a` than the narrowest window chosen so far, or as far as the span of the best
    group found: every group with that player spans at least that distance."""
    best: float | None = None
    chosen_best: list[Waiting] | None = None

    def search(start: int, chosen: list[Waiting], lo: float, hi: float, wide: float | None) -> None:
        nonlocal best, chosen_best
        n = start
        while (found := near.get(n)) is not None:
            b, distance, own = found
            n += 1
            if (wide is not None and distance > wide) or (best is not None and distance >= best):
                return
            if any(frozenset((b.user_id, c.user_id)) in apart for c in chosen):
                continue
            low, high = min(lo, b.rating), max(hi, b.rating)
            narrow = _narrower(wide, own)
            span = high - low
            if (narrow is not None and span > narrow) or (best is not None and span >= best):
                continue
            if len(chosen) + 1 < need:
                search(n, [*chosen, b], low, high, narrow)
            else:
                best, chosen_best = span, [*chosen, b]

    search(0, [], a.rating, a.rating, near.limit)
    return chosen_best


def _narrower(x: float | None, y: float | None) -> float | None:
    """The narrower of two windows (None: any)."""
    if x is None:
        return y
    if y is None:
        return x
    return min(x, y)


def _queue(w: Waiting) -> tuple[datetime, int]:
    """Who is served first: the longest wait, then the account (every server agrees)."""
    return (w.since, w.user_id)


def _by_rating(w: Waiting) -> tuple[float, datetime, int]:
    return (w.rating, w.since, w.user_id)
