"""Quick match's rule for making tables (matching.py): the window widening with the
wait, the closest group first, the longest wait served first, never across kinds of
table, never two accounts kept apart at one table — for duels and for tables of three
and four, each checked against the rule as written on random pools."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import combinations

import pytest

from euphrates.server.features.quickmatch.matching import (
    ANY_AFTER,
    START_RATING,
    WINDOW_START,
    Group,
    fits,
    groups,
    window,
)
from euphrates.server.store.quickmatch import Waiting

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def w(
    user: int,
    rating: float,
    waited: float,
    at: datetime = T0,
    game: str = "board",
    players: int = 2,
    clock: str = "medium",
    options: str = "{}",
) -> Waiting:
    """A player who has waited `waited` seconds at `at`."""
    return Waiting(user, game, rating, at - timedelta(seconds=waited), players, clock, options)


def pairs(
    pool: list[Waiting], at: datetime = T0, apart: set[frozenset[int]] | None = None
) -> list[Group]:
    return groups(pool, at, apart or set())


@pytest.mark.parametrize(
    ("waited", "expected"),
    [
        (0, 100),
        (9.9, 100),
        (10, 150),
        (19.99, 150),
        (20, 200),
        (35, 250),
        (50, 350),
        (59.9, 350),
        (60, None),
        (3600, None),
        (-1, 100),  # a clock a little behind: the narrowest window
    ],
)
def test_the_window_widens_by_50_every_10_seconds_and_is_any_after_60(
    waited: float, expected: float | None
) -> None:
    assert window(waited) == expected


def test_the_start_rating_is_the_scale_start() -> None:
    assert START_RATING == 1000
    assert WINDOW_START == 100


def test_a_pair_needs_the_window_of_the_one_who_waited_less() -> None:
    old = w(1, 1500, 45)  # its own window is 250
    new = w(2, 1700, 0)  # its own is 100
    assert not fits([old, new], T0)
    assert not pairs([old, new])
    # Once the newcomer has waited 20 s (window 200), the 200 points fit.
    later = T0 + timedelta(seconds=20)
    assert fits([old, new], later)
    assert pairs([old, new], later) == [(old, new)]


def test_within_the_window_at_once_and_not_a_point_beyond() -> None:
    a, b, c = w(1, 1500, 0), w(2, 1600, 0), w(3, 1601, 0)
    assert fits([a, b], T0)
    assert not fits([a, c], T0)


def test_after_a_minute_any_rating_fits() -> None:
    a, b = w(1, 900, ANY_AFTER), w(2, 2400, ANY_AFTER)
    assert pairs([a, b]) == [(a, b)]
    assert not pairs([w(1, 900, ANY_AFTER), w(2, 2400, ANY_AFTER - 1)])


def test_the_closest_rating_is_chosen() -> None:
    a = w(1, 1500, 30)
    far, near, nearer = w(2, 1580, 20), w(3, 1440, 20), w(4, 1510, 20)
    assert pairs([far, a, near, nearer])[0] == (a, nearer)


def test_the_longest_wait_is_served_first() -> None:
    """Three players who all fit: the one who waited longest gets the closest, the
    third waits on."""
    first, second, third = w(1, 1500, 30), w(2, 1520, 20), w(3, 1505, 10)
    assert pairs([third, second, first]) == [(first, third)]


def test_equal_distances_go_to_whoever_waited_longer() -> None:
    a = w(1, 1500, 30)
    older, newer = w(2, 1550, 20), w(3, 1450, 5)
    assert pairs([newer, a, older]) == [(a, older)]
    # Equal waits: by account, so every server and every pass agree.
    x, y = w(7, 1500, 10), w(5, 1500, 10)
    assert pairs([x, y]) == [(y, x)]


def test_fifo_many_players_each_paired_once() -> None:
    players = [w(i, 1500 + (i % 7) * 10, 60 - i) for i in range(1, 22)]
    made = pairs(players)
    seen = [p.user_id for pair in made for p in pair]
    assert len(seen) == len(set(seen))
    assert len(made) == 10  # 21 players who all fit: one waits on
    left = {p.user_id for p in players} - set(seen)
    assert left == {21}, "the newest one waits, not an older one"


def test_never_across_kinds_or_with_oneself() -> None:
    """Only waits for exactly the same table meet: game, players, clock, options."""
    base = w(1, 1500, 30)
    for other in (
        w(2, 1500, 30, game="cards"),
        w(2, 1500, 30, players=3),
        w(2, 1500, 30, clock="fast"),
        w(2, 1500, 30, clock="turn:1"),
        w(2, 1500, 30, options='{"advanced":true}'),
    ):
        assert not pairs([base, other]), other
        assert not fits([base, other], T0)
    assert not fits([base, base], T0)
    assert pairs([base, w(2, 1500, 30)]) == [(base, w(2, 1500, 30))]


def test_a_table_of_three_waits_for_its_third_player() -> None:
    a, b = w(1, 1500, 5, players=3), w(2, 1510, 3, players=3)
    assert not groups([a, b], T0)
    c = w(3, 1490, 0, players=3)
    assert groups([a, b, c], T0) == [(a, b, c)]
    assert not fits([a, b], T0), "a table of three needs three"


def test_a_group_spans_no_more_than_the_newest_members_window() -> None:
    """The span (highest − lowest), not the distance to one member: 1450, 1500 and
    1550 are each within ±100 of 1500 but span 100 only after 10 s of everyone's."""
    low, mid, high = w(1, 1450, 30, players=3), w(2, 1500, 30, players=3), w(3, 1551, 0, players=3)
    assert not groups([low, mid, high], T0)
    assert groups([low, mid, high], T0 + timedelta(seconds=10)) == [(low, mid, high)]
    assert fits([low, mid, w(3, 1550, 0, players=3)], T0)


def test_the_closest_group_is_chosen_for_the_longest_waiter() -> None:
    a = w(1, 1500, 40, players=3)
    near = [w(2, 1520, 30, players=3), w(3, 1490, 20, players=3)]  # span 30
    far = [w(4, 1600, 35, players=3), w(5, 1420, 35, players=3)]
    made = groups([*far, a, *near], T0)
    assert made == [(a, near[0], near[1])], made
    # The two far ones alone cannot fill a table: they wait.
    assert {p.user_id for g in made for p in g} == {1, 2, 3}


def test_equal_spans_go_to_the_nearer_then_the_longer_waits() -> None:
    a = w(1, 1500, 50, players=3)
    older = w(2, 1510, 40, players=3)
    newer = w(3, 1510, 10, players=3)
    third = w(4, 1505, 5, players=3)
    assert groups([a, newer, older, third], T0) == [(a, older, third)]


def test_two_accounts_of_one_person_never_fill_a_table_of_three() -> None:
    """Ann's two accounts (one device) with Bob: no table; a fourth player makes it
    Bob, one of Ann's and the fourth — never both of hers."""
    ann, ann2, bob = w(1, 1500, 30, players=3), w(2, 1500, 30, players=3), w(3, 1500, 30, players=3)
    apart = {frozenset((1, 2))}
    assert not groups([ann, ann2, bob], T0, apart)
    cara = w(4, 1500, 0, players=3)
    made = groups([ann, ann2, bob, cara], T0, apart)
    assert made == [(ann, bob, cara)]
    assert not fits([ann, ann2, bob], T0, apart)


def test_a_blocked_pair_never_sits_at_one_table_of_four() -> None:
    pool = [w(i, 1500, 40 - i, players=4) for i in range(1, 6)]
    apart = {frozenset((1, 2))}
    made = groups(pool, T0, apart)
    assert len(made) == 1
    seated = {p.user_id for p in made[0]}
    assert len(seated) == 4 and not {1, 2} <= seated
    assert seated == {1, 3, 4, 5}, "the longest waiter is served, without the one it blocked"


def by_rule(pool: list[Waiting], at: datetime, apart: set[frozenset[int]]) -> list[Group]:
    """The rule as written, by brute force: kind by kind, each in turn (longest wait
    first) takes, of every group of the players not yet served that fits with it, the
    one of the smallest span; of equal spans, the first in the order nearest rating,
    then longest wait."""
    order = sorted(pool, key=lambda x: (x.since, x.user_id))
    served: set[int] = set()
    out: list[Group] = []
    for a in order:
        if a.user_id in served:
            continue
        served.add(a.user_id)
        rest = [
            b
            for b in order
            if b.user_id not in served
            and b.kind == a.kind
            and frozenset((a.user_id, b.user_id)) not in apart
        ]
        rest.sort(key=lambda b: (abs(b.rating - a.rating), b.since, b.user_id))
        best: tuple[float, tuple[int, ...]] | None = None
        chosen: tuple[Waiting, ...] = ()
        for idx in combinations(range(len(rest)), a.players - 1):
            members = [a, *(rest[i] for i in idx)]
            if not fits(members, at, apart):
                continue
            ratings = [m.rating for m in members]
            key = (max(ratings) - min(ratings), idx)
            if best is None or key < best:
                best, chosen = key, tuple(rest[i] for i in idx)
        if best is not None:
            served |= {b.user_id for b in chosen}
            out.append((a, *sorted(chosen, key=lambda x: (x.since, x.user_id))))
    return out


@pytest.mark.parametrize("seed", range(60))
def test_the_fast_pass_makes_the_tables_the_rule_says(seed: int) -> None:
    """Random pools — ratings on a coarse grid so that equal spans happen, waits across
    every window, several kinds, some accounts kept apart — make exactly the tables of
    the rule as written."""
    rng = random.Random(seed)
    n = rng.randint(0, 40)
    pool = [
        w(
            i,
            1500 + 25 * rng.randint(-12, 12),
            rng.choice([0, 3, 9.5, 10, 25, 40, 59, 61, 200]) + rng.random() * (seed % 3),
            game=rng.choice(["board", "board", "cards"]),
            players=rng.choice([2, 3, 3, 4]),
            clock=rng.choice(["medium", "medium", "turn:2"]),
        )
        for i in range(n)
    ]
    apart = (
        {frozenset(rng.sample(range(n), 2)) for _ in range(rng.randint(0, n // 3))}
        if n >= 2
        else set()
    )
    made = groups(pool, T0, apart)
    assert made == by_rule(pool, T0, apart)
    seated = [p.user_id for g in made for p in g]
    assert len(seated) == len(set(seated)), "nobody twice"
    assert all(fits(g, T0, apart) for g in made)


def test_a_big_mixed_pool_is_grouped_in_milliseconds() -> None:
    """The pass over a club's busy evening stays cheap: 3,000 waits of every kind."""
    import time

    rng = random.Random(5)
    pool = [
        w(
            i,
            round(rng.gauss(1500, 300)),
            rng.uniform(0, 70),
            players=rng.choice([2, 3, 4]),
            clock=rng.choice(["fast", "medium", "turn:1"]),
        )
        for i in range(3000)
    ]
    started = time.perf_counter()
    made = groups(pool, T0)
    took = time.perf_counter() - started
    assert len(made) > 500
    assert took < 2.0, f"{took:.2f} s"
